"""The judges' report (:class:`JudgesReport`), written as aligned text or JSON Lines.

Each section is a list of records (one dict per row); text shows each as a table under a
title, JSON Lines writes each record with its ``section``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from ..._base.validate import Choice, check
from ..compare.render import _p as p_text
from ..render.formats import write
from ..render.jsonl import _json
from ..render.model import Cell, Column, Row, Table, label
from .labels import GroupAgreement, PairAgreement, Statistic
from .leaderboard import Leaderboard

__all__ = ["JUDGES_FORMATS", "JudgesReport", "render_judges"]

JUDGES_FORMATS = ("table", "jsonl", "html")
SIGNS = ("+", "0", "-")
#: pairs one judge lacks shown in the text (JSON Lines lists them all)
SHOWN_ALONE = 5


@dataclass(frozen=True)
class JudgesReport:
    """What :func:`judges` found.

    Attributes
    ----------
    judges : the judges' names, the reference first.
    grades : the common grade scale.
    pairs : each other judge against the reference (:class:`PairAgreement`).
    group : three judges or more together (Fleiss' kappa, alpha), else None.
    leaderboards : with runs, each other judge's orderings and decisions against the
        reference's (:class:`Leaderboard`).
    settings : resamples, seed and confidence of the bootstrap intervals.
    """

    judges: tuple[str, ...]
    grades: tuple[int, ...]
    pairs: tuple[PairAgreement, ...]
    group: GroupAgreement | None
    leaderboards: tuple[Leaderboard, ...]
    settings: dict[str, Any]

    def __repr__(self) -> str:
        pairs = "; ".join(f"{p.judge} against {p.reference}: {p.pairs} pairs, "
                          f"{', '.join(f'{s.name}={s.value:.4f}' for s in p.statistics[:3])}"
                          for p in self.pairs[:SHOWN_ALONE])
        extra = len(self.pairs) - SHOWN_ALONE
        more = f"; ... {extra} more" if extra > 0 else ""
        return f"<JudgesReport of {len(self.judges)} judges: {pairs}{more}>"

    def _repr_html_(self) -> str:
        from ..render.notebook import html_table

        def shown(s: Statistic) -> str:
            return (f"{s.value:.4f}" if math.isnan(s.low)
                    else f"{s.value:.4f} [{s.low:.4f}, {s.high:.4f}]")

        sides = [(f"{p.judge} against {p.reference}", p.statistics) for p in self.pairs]
        if self.group is not None:
            sides.append((f"all {len(self.judges)} judges", self.group.statistics))
        names = list(dict.fromkeys(s.name for _, stats in sides for s in stats))
        rows = tuple(Row((label(n), *(Cell(next((shown(s) for s in stats if s.name == n), ""),
                                           None) for _, stats in sides))) for n in names)
        notes = (f"grades {', '.join(map(str, self.grades))}; pairs both judged only",
                 _intervals_note(self.settings),
                 *(f"{b.measure} under {b.reference} and {b.judge}: kendall "
                   f"{b.correlations[0].value:.4f}, decisions agree on {b.agreement:.4f}"
                   for b in self.leaderboards))
        table = Table((Column("statistic", "left"), *(Column(t) for t, _ in sides)), rows,
                      notes=notes)
        return html_table(f"Judges: {', '.join(self.judges)}", table)

    def render(self, fmt: str = "table", *, per_query: bool = False) -> str:
        """The report as aligned text (``"table"``), JSON Lines (``"jsonl"``) or one HTML
        page (``"html"``: the confusion heatmap, grade bars, the scatter of system means
        and the decision table)."""
        return render_judges(self, fmt, per_query=per_query)


def _records(report: JudgesReport, per_query: bool) -> list[tuple[str, str, list[dict]]]:
    """(section, title, records) in the order the text shows them."""
    out: list[tuple[str, str, list[dict]]] = []
    for p in report.pairs:
        who = {"reference": p.reference, "judge": p.judge}
        out.append(("pairs", f"{p.judge} against {p.reference}", [{
            **who, "pairs": p.pairs, "queries": p.queries,
            "only_reference": len(p.only_reference), "only_judge": len(p.only_judge),
            "up": p.up, "down": p.down, "sign_p": p.sign_p, "wilcoxon_p": p.wilcoxon_p}]))
        out.append(("statistic", "", _stats("statistic", p.statistics, who)))
        out.append(("test", "", [{**who, "test": name, **t._asdict()} for name, t in (
            ("stuart_maxwell", p.stuart_maxwell), ("bowker", p.bowker))]))
        out.append(("confusion", f"rows {p.reference}, columns {p.judge}; mean: the judge's "
                    "mean grade on the row", [
            {**who, "grade": g, **{str(h): int(c) for h, c in zip(report.grades, row,
                                                                    strict=True)},
             "mean": sum(h * c for h, c in zip(report.grades, row, strict=True)) / sum(row)
             if sum(row) else math.nan}
            for g, row in zip(report.grades, p.confusion.tolist(), strict=True)]))
        for has, lacks, frame in ((p.reference, p.judge, p.only_reference),
                                  (p.judge, p.reference, p.only_judge)):
            out.append(("alone", f"judged by {has} only ({len(frame)})",
                        [{"judge": has, "lacks": lacks, **r} for r in frame.to_dicts()]))
        if per_query:
            out.append(("per_query", "per query", [{**who, **r}
                                                   for r in p.per_query.to_dicts()]))
    if report.group is not None:
        g = report.group
        out.append(("group", f"all {len(g.judges)} judges over {g.pairs} pairs in "
                    f"{g.queries} queries", _stats("statistic", g.statistics, {})))
        if per_query:
            out.append(("group_per_query", "all judges, per query", g.per_query.to_dicts()))
    for b in report.leaderboards:
        who = {"reference": b.reference, "judge": b.judge, "measure": b.measure}
        ranks = {s: i for i, s in enumerate(sorted(b.systems, key=lambda s: -b.means_judge[
            b.systems.index(s)]), 1)}
        out.append(("system", f"{b.measure} under {b.reference} and {b.judge} over "
                    f"{b.queries} queries", [
            {**who, "system": s, "mean_reference": m, "rank_reference": i,
             "mean_judge": mj, "rank_judge": ranks[s]}
            for i, (s, m, mj) in enumerate(zip(b.systems, b.means_reference, b.means_judge,
                                               strict=True), 1)]))
        out.append(("correlation", "", _stats("correlation", b.correlations, who)))
        out.append(("decisions", f"significance decisions: rows {b.reference}, columns "
                    f"{b.judge}", [{**who, "decision_reference": SIGNS[i],
                                    **dict(zip(SIGNS, map(int, row), strict=True))}
                                   for i, row in enumerate(b.decisions.tolist())]))
        system, r_ref, r_judge = b.largest_change
        out.append(("leaderboard", "", [{
            **who, "agreement": b.agreement, "power_reference": b.power_reference,
            "power_judge": b.power_judge, "largest_change": system,
            "rank_reference": r_ref, "rank_judge": r_judge,
            "reversals": list(b.reversals)}]))
    return out


def _stats(key: str, statistics: tuple[Statistic, ...], who: dict[str, Any]) -> list[dict]:
    """One record per statistic with its interval, after ``who`` compared."""
    return [{**who, key: s.name, "value": s.value, "low": s.low, "high": s.high}
            for s in statistics]


def _intervals_note(s: dict[str, Any]) -> str:
    return (f"intervals: {s['confidence']:.0%} percentile bootstrap over queries, "
            f"{s['resamples']} resamples, seed {s['seed']}")


def _cell(value: Any, key: str = "") -> Cell:
    if isinstance(value, float) and key.split("_")[-1] == "p":  # a tiny p as compare shows it
        return Cell(p_text(value, 4), value)
    if isinstance(value, float):
        return Cell("nan" if math.isnan(value) else f"{value:.4f}", value)
    if isinstance(value, list):
        return Cell("; ".join(value) or "none", None)
    return Cell(str(value), value)


def _table(records: list[dict], hide: set[str]) -> str:
    keys = [k for k in records[0] if k not in hide]
    columns = tuple(Column(k, "right" if isinstance(records[0][k], (int, float))
                           else "left") for k in keys)
    return write(Table(columns, tuple(Row(tuple(_cell(r[k], k) for k in keys))
                                      for r in records)), "table")


def render_judges(report: JudgesReport, fmt: str = "table", *, per_query: bool = False) -> str:
    """``report`` in one of :data:`JUDGES_FORMATS`."""
    check("format", fmt, Choice(JUDGES_FORMATS))
    if fmt == "html":
        from .page import judges_page

        return judges_page(report.judges, report.grades, report.pairs, report.leaderboards)
    sections = _records(report, per_query)
    if fmt == "jsonl":
        return "".join(json.dumps({"section": name, **{k: _json(v) for k, v in r.items()}},
                                  ensure_ascii=False) + "\n"
                       for name, _, records in sections for r in records)
    s = report.settings
    lines = [f"judges: {', '.join(report.judges)} (reference: {report.judges[0]}); grades "
             f"{', '.join(map(str, report.grades))}",
             _intervals_note(s)]
    hide = {"reference", "judge", "measure", "lacks"}
    for name, title, records in sections:
        if not records:
            continue
        shown = records[:SHOWN_ALONE] if name == "alone" else records
        lines += ["", *([title] if title else []), _table(shown, hide).rstrip("\n")]
    return "\n".join(lines) + "\n"
