"""The comparison as text: a table of means with significance marks, or one row per pair.

``table``, ``markdown`` and ``latex`` show one row per run and one column per measure, the
mean, and a mark on each significant difference. Against a baseline: ``▲`` / ``▼`` after a
run significantly above / below it. All pairs: each run has a letter, and a run's cell
lists the letters of the runs it is significantly above (so the direction is where the
letter stands). Below the table: the test, correction, alpha, n, permutations and seed.
``csv``, ``tsv`` and ``jsonl`` have one row per comparison with every field (intervals,
effect size, wins/ties/losses, p and adjusted p) and the settings.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Sequence
from typing import Any, Protocol

from .._errors import ParameterError
from .._latex import escape as latex_escape
from .pair import PairComparison

__all__ = ["COMPARE_FORMATS", "render_comparison"]


class Comparison(Protocol):
    """What rendering reads of a :class:`ranklens.Comparison` (which imports this module)."""

    @property
    def pairs(self) -> Sequence[PairComparison]: ...
    @property
    def run_names(self) -> tuple[str, ...]: ...
    @property
    def measures(self) -> tuple[str, ...]: ...
    @property
    def means(self) -> dict[str, dict[str, float]]: ...
    @property
    def baseline(self) -> str | None: ...
    @property
    def test(self) -> str: ...
    @property
    def correction(self) -> str: ...
    @property
    def correction_scope(self) -> str: ...
    @property
    def alpha(self) -> float: ...
    @property
    def ci(self) -> str: ...
    @property
    def permutations(self) -> int | None: ...
    @property
    def resamples(self) -> int | None: ...
    @property
    def seed(self) -> int: ...
    @property
    def lower_is_better(self) -> tuple[str, ...]: ...
    def direction(self, measure: str, system: str, baseline: str) -> int: ...
    def to_dicts(self) -> list[dict[str, Any]]: ...

COMPARE_FORMATS = ("table", "markdown", "latex", "csv", "tsv", "jsonl")

_TEST_NAMES = {
    "t": "paired t-test",
    "randomization": "paired randomization test",
    "wilcoxon": "Wilcoxon signed-rank test",
    "sign": "sign test",
    "bootstrap": "paired bootstrap test",
    "tukey": "topic-blocked Tukey HSD",
    "randomized-tukey": "randomised Tukey HSD",
}
_CORRECTION_NAMES = {"holm": "Holm", "bonferroni": "Bonferroni", "fdr_bh": "Benjamini-Hochberg",
                     "none": "no correction"}
_UP, _DOWN = "▲", "▼"
#: Above this many queries almost any difference is significant (Ihemelandu and Ekstrand).
LARGE_N = 1000


def letters(count: int) -> list[str]:
    """Run labels a, b, ..., z, aa, ab, ... (plain ASCII: no missing superscript glyph)."""
    out = []
    for i in range(count):
        label = ""
        i += 1
        while i:
            i, r = divmod(i - 1, 26)
            label = chr(ord("a") + r) + label
        out.append(label)
    return out


def _marks(cmp: Comparison, measure: str, run: str, labels: dict[str, str]) -> tuple[str, str]:
    """(up marks, down marks) of one cell: symbols against a baseline, letters otherwise."""
    if cmp.baseline is not None:
        if run == cmp.baseline:
            return "", ""
        direction = cmp.direction(measure, run, cmp.baseline)
        return (_UP if direction > 0 else ""), (_DOWN if direction < 0 else "")
    beaten = [labels[other] for other in cmp.run_names
              if other != run and cmp.direction(measure, run, other) > 0]
    return "".join(beaten), ""


def _best(cmp: Comparison, measure: str, digits: int) -> set[str]:
    shown = {run: round(v, digits) for run, v in cmp.means[measure].items() if not math.isnan(v)}
    if not shown:
        return set()
    best = (min if measure in cmp.lower_is_better else max)(shown.values())
    return {run for run, v in shown.items() if v == best}


def _number(value: float, digits: int) -> str:
    return "NaN" if math.isnan(value) else f"{value:.{digits}f}"


def _footer(cmp: Comparison) -> list[str]:
    """The settings under a table, one sentence per line."""
    k = len(cmp.run_names)
    per = len(cmp.pairs) // max(1, len(cmp.measures)) if cmp.correction_scope == "measure" \
        else len(cmp.pairs)
    test = _TEST_NAMES[cmp.test]
    if cmp.correction in _CORRECTION_NAMES:
        scope = "of each measure" if cmp.correction_scope == "measure" else "of all measures"
        family = f"{per} comparison{'s' if per != 1 else ''} {scope}"
        corr = (f"{_CORRECTION_NAMES[cmp.correction]} correction over {family}"
                if cmp.correction != "none" else "no multiple-testing correction")
    else:
        corr = f"family-wise over the {k * (k - 1) // 2} pairs of runs"
    if cmp.baseline is not None:
        marks = f"{_UP} / {_DOWN}: significantly above / below the baseline {cmp.baseline}"
    else:
        marks = "letters: the runs this run is significantly above"
    level = "p" if cmp.correction == "none" else "adjusted p"
    lines = [f"{marks} ({test}, two-sided; {corr}; {level} < {cmp.alpha:g})."]
    ns = sorted({p.n for p in cmp.pairs})
    n_text = f"{ns[0]}" if len(ns) == 1 else f"{ns[0]}-{ns[-1]}"
    detail = [f"n = {n_text} queries"]
    if cmp.permutations is not None:
        sampled = [p for p in cmp.pairs if not p.exact]
        detail.append(f"{cmp.permutations} permutations" + ("" if sampled else
                                                             " (all exact)"))
    if cmp.resamples is not None:
        what = f"{cmp.ci} bootstrap intervals" if cmp.ci != "t" else "bootstrap"
        detail.append(f"{what}, {cmp.resamples} resamples")
    detail.append(f"seed {cmp.seed}")
    lines.append("; ".join(detail) + ".")
    if ns and ns[-1] >= LARGE_N:
        lines.append(f"With {ns[-1]} queries small differences are significant: read the "
                     "differences, intervals and effect sizes, not only the marks.")
    return lines


def _grid(cmp: Comparison, digits: int) -> tuple[list[str], list[list[tuple[str, str, str,
                                                                              bool]]]]:
    """Row labels and, per run and measure: (value, up marks, down marks, best)."""
    labels = dict(zip(cmp.run_names, letters(len(cmp.run_names)), strict=True))
    best = {m: _best(cmp, m, digits) for m in cmp.measures}
    heads = [run if cmp.baseline is not None else f"({labels[run]}) {run}"
             for run in cmp.run_names]
    body = []
    for run in cmp.run_names:
        row = []
        for m in cmp.measures:
            up, down = _marks(cmp, m, run, labels)
            row.append((_number(cmp.means[m][run], digits), up, down, run in best[m]))
        body.append(row)
    return heads, body


def _plain(cmp: Comparison, markdown: bool) -> str:
    heads, body = _grid(cmp, 4)
    header = ["run", *cmp.measures]
    rows = [[h, *(f"{v} {up}{down}".rstrip() for v, up, down, _ in cells)]
            for h, cells in zip(heads, body, strict=True)]
    if markdown:
        def esc(text: str) -> str:
            return text.replace("|", "\\|")

        lines = ["| " + " | ".join(esc(c) for c in header) + " |",
                 "| :--- | " + " | ".join("---:" for _ in cmp.measures) + " |"]
        lines += ["| " + " | ".join(esc(c) for c in row) + " |" for row in rows]
        return "\n".join([*lines, "", *(esc(line) for line in _footer(cmp))]) + "\n"
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        # numbers line up on the decimal point; marks hang to the right
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()

    out = [line(header), "  ".join("-" * w for w in widths), *(line(r) for r in rows), ""]
    return "\n".join(out + _footer(cmp)) + "\n"


def _latex(cmp: Comparison) -> str:
    heads, body = _grid(cmp, 3)
    lines = [
        f"% ranklens compare: {_TEST_NAMES[cmp.test]}, correction {cmp.correction}, "
        f"alpha {cmp.alpha:g}, seed {cmp.seed}; needs \\usepackage{{booktabs}}",
        f"\\begin{{tabular}}{{l{'r' * len(cmp.measures)}}}",
        "\\toprule",
        " & ".join(["Run", *(latex_escape(m) for m in cmp.measures)]) + r" \\",
        "\\midrule",
    ]
    for head, cells in zip(heads, body, strict=True):
        shown = []
        for value, up, down, best in cells:
            text = f"\\textbf{{{value}}}" if best else value
            mark = ("\\uparrow" if up == _UP else up) if cmp.baseline is not None else up
            if down:
                mark += "\\downarrow"
            shown.append(text + (f"$^{{{mark}}}$" if mark else ""))
        lines.append(" & ".join([latex_escape(head), *shown]) + r" \\")
    lines += ["\\bottomrule", "\\end{tabular}"]
    foot = _footer(cmp)
    foot[0] = foot[0].replace(f"{_UP} / {_DOWN}", "$\\uparrow$ / $\\downarrow$")
    lines.append("\\par\\smallskip{\\footnotesize " + " ".join(
        _tex_sentence(line) for line in foot) + "}")
    return "\n".join(lines) + "\n"


def _tex_sentence(text: str) -> str:
    """Escape a footer sentence, keeping its $...$ math."""
    parts = text.split("$")
    return "$".join(part if i % 2 else latex_escape(part).replace("<", "$<$")
                    for i, part in enumerate(parts))


def _value(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def _records(cmp: Comparison) -> list[dict[str, Any]]:
    return [{k: _value(v) for k, v in row.items()} for row in cmp.to_dicts()]


def _delimited(cmp: Comparison, sep: str) -> str:
    rows = cmp.to_dicts()
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=sep, lineterminator="\n")
    if rows:
        writer.writerow(list(rows[0]))
    for row in rows:
        writer.writerow(["" if v is None else repr(v) if isinstance(v, float) else v
                         for v in row.values()])
    return buf.getvalue()


def render_comparison(cmp: Comparison, fmt: str = "table") -> str:
    """Render a :class:`Comparison` in one of :data:`COMPARE_FORMATS`.

    Examples
    --------
    >>> import ranklens
    >>> qrels = {f"q{i}": {"a": 1} for i in range(6)}
    >>> runs = {"base": {f"q{i}": {"x": 1.0} for i in range(6)},
    ...         "new": {f"q{i}": {"a": 1.0} for i in range(6)}}
    >>> cmp = ranklens.compare(qrels, runs, ["P@1"], baseline="base", test="randomization")
    >>> for line in render_comparison(cmp, "table").splitlines()[:4]:
    ...     print(line)
    run   P@1
    ----  --------
    base  0.0000
    new   1.0000 ▲
    """
    if fmt in ("table", "markdown"):
        return _plain(cmp, markdown=fmt == "markdown")
    if fmt == "latex":
        return _latex(cmp)
    if fmt in ("csv", "tsv"):
        return _delimited(cmp, "," if fmt == "csv" else "\t")
    if fmt == "jsonl":
        return "".join(json.dumps(r, ensure_ascii=False, allow_nan=False) + "\n"
                       for r in _records(cmp))
    raise ParameterError(f"the 'format' option must be one of {', '.join(COMPARE_FORMATS)}; "
                         f"got {fmt!r}")
