"""The judges' report as one self-contained HTML page: the report's Vega-Lite bundles, its
style sheet and escaping, with the confusion heatmap, per-grade bars, the scatter of
system means under both judges with the identity line, and the decision table.

Text from the inputs reaches the page escaped (:func:`html_text`, :func:`script_json`); the
page makes no network request.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from typing import Any

from ..render.html import SCHEMA, html_text, script_json, vendored_js
from .labels import PairAgreement
from .leaderboard import Leaderboard

__all__ = ["judges_page", "judges_sections"]

SCRIPT = """(function () {
  var specs = JSON.parse(document.getElementById("judges-specs").textContent);
  Promise.all(Object.keys(specs).map(function (id) {
    return vegaEmbed("#chart-" + id, specs[id], {renderer: "svg", actions: false});
  })).then(function () { window.__rendered = true; },
           function (err) { window.__renderError = String(err); });
})();"""


def _table(head: list[str], rows: list[list[Any]], ident: str) -> str:
    cells = "".join("<tr>" + "".join(f"<td>{html_text(_shown(v))}</td>" for v in row)
                    + "</tr>" for row in rows)
    titles = "".join(f"<th scope=\"col\">{html_text(h)}</th>" for h in head)
    return f"<table id=\"{ident}\"><thead><tr>{titles}</tr></thead><tbody>{cells}</tbody></table>"


def _intervals(what: str, rows: Sequence[Any], ident: str) -> str:
    return _table([what, "value", "low", "high"],
                  [[s.name, s.value, s.low, s.high] for s in rows], ident)


def _shown(value: Any) -> str:
    return f"{value:.4f}" if isinstance(value, float) else str(value)


def _specs(grades: tuple[int, ...], pairs: Sequence[PairAgreement],
           boards: Sequence[Leaderboard], prefix: str) -> dict[str, Any]:
    specs: dict[str, Any] = {}
    for k, p in enumerate(pairs):
        cells = [{"reference": h, "judge": j, "pairs": int(p.confusion[a, b])}
                 for a, h in enumerate(grades) for b, j in enumerate(grades)]
        axis = {"type": "ordinal", "sort": list(grades)}
        specs[f"{prefix}confusion-{k}"] = {"$schema": SCHEMA, "data": {"values": cells},
                                   "width": 240, "height": 240, "layer": [
            {"mark": "rect", "encoding": {
                "x": {"field": "judge", **axis, "title": f"{p.judge} grade"},
                "y": {"field": "reference", **axis, "title": f"{p.reference} grade"},
                "color": {"field": "pairs", "type": "quantitative"}}},
            {"mark": "text", "encoding": {"x": {"field": "judge", **axis},
                                          "y": {"field": "reference", **axis},
                                          "text": {"field": "pairs"}}}]}
        bars = [{"judge": name, "grade": g, "pairs": int(n)}
                for name, totals in ((p.reference, p.confusion.sum(axis=1)),
                                     (p.judge, p.confusion.sum(axis=0)))
                for g, n in zip(grades, totals, strict=True)]
        specs[f"{prefix}grades-{k}"] = {"$schema": SCHEMA, "data": {"values": bars}, "mark": "bar",
                                "width": 240, "height": 200, "encoding": {
            "x": {"field": "grade", **axis}, "xOffset": {"field": "judge"},
            "y": {"field": "pairs", "type": "quantitative"},
            "color": {"field": "judge", "type": "nominal"}}}
    for k, b in enumerate(boards):
        points = [{"system": s, "x": x, "y": y} for s, x, y in
                  zip(b.systems, b.means_reference, b.means_judge, strict=True)]
        top = max(1.0, *b.means_reference, *b.means_judge)
        specs[f"{prefix}scatter-{k}"] = {"$schema": SCHEMA, "width": 260, "height": 260, "layer": [
            {"data": {"values": [{"x": 0, "y": 0}, {"x": top, "y": top}]}, "mark": {
                "type": "line", "strokeDash": [4, 4], "color": "gray"},
             "encoding": {"x": {"field": "x", "type": "quantitative"},
                          "y": {"field": "y", "type": "quantitative"}}},
            {"data": {"values": points}, "mark": {"type": "point", "filled": True},
             "encoding": {
                "x": {"field": "x", "type": "quantitative",
                      "title": f"{b.measure} under {b.reference}"},
                "y": {"field": "y", "type": "quantitative",
                      "title": f"{b.measure} under {b.judge}"},
                "tooltip": [{"field": "system"}, {"field": "x"}, {"field": "y"}]}}]}
    return specs


def judges_sections(grades: tuple[int, ...], pairs: Sequence[PairAgreement],
                    boards: Sequence[Leaderboard], prefix: str = "") -> tuple[str, dict[str, Any]]:
    """The sections' HTML and their chart specs (keys ``prefix`` + ``confusion-0``, ...: the
    element ids are ``chart-`` + key, the tables' ``prefix`` + ``decisions-0``, ...)."""
    specs = _specs(grades, pairs, boards, prefix)
    body = []
    for k, p in enumerate(pairs):
        body.append(f"<section><h2>{html_text(p.judge)} against {html_text(p.reference)}</h2>"
                    f"<p class=\"lead\">{p.pairs} pairs both judged in {p.queries} queries; "
                    f"{len(p.only_reference)} judged by {html_text(p.reference)} only, "
                    f"{len(p.only_judge)} by {html_text(p.judge)} only.</p>"
                    + _intervals("statistic", p.statistics, f"{prefix}statistics-{k}")
                    + _table(["test", "statistic", "df", "p"],
                             [["Stuart-Maxwell", *p.stuart_maxwell], ["Bowker", *p.bowker]],
                             f"{prefix}tests-{k}")
                    + f"<div class=\"chart\" id=\"chart-{prefix}confusion-{k}\"></div>"
                    f"<div class=\"chart\" id=\"chart-{prefix}grades-{k}\"></div></section>")
    for k, b in enumerate(boards):
        signs = ("+", "0", "-")
        body.append(f"<section><h2>{html_text(b.measure)} under {html_text(b.reference)} and "
                    f"{html_text(b.judge)}</h2><div class=\"chart\" "
                    f"id=\"chart-{prefix}scatter-{k}\"></div>"
                    + _intervals("correlation", b.correlations, f"{prefix}correlations-{k}")
                    + f"<p class=\"lead\">Significance decisions: rows {html_text(b.reference)}"
                    f", columns {html_text(b.judge)}; agreement {b.agreement:.4f}; reversals: "
                    f"{html_text('; '.join(b.reversals) or 'none')}.</p>"
                    + _table(["", *signs], [[s, *map(int, row)] for s, row in
                                            zip(signs, b.decisions.tolist(), strict=True)],
                             f"{prefix}decisions-{k}") + "</section>")
    return "".join(body), specs


def judges_page(judges: tuple[str, ...], grades: tuple[int, ...],
                pairs: Sequence[PairAgreement], boards: Sequence[Leaderboard]) -> str:
    """The whole HTML document."""
    body, specs = judges_sections(grades, pairs, boards)
    css = (resources.files("ranklens._surfaces.report") / "page.css").read_text("utf-8")
    scripts = "".join(f"<script>{text}</script>\n" for text in vendored_js())
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>Judges</title><style>{css}</style></head><body><header><h1>Judges: "
            f"{html_text(', '.join(judges))}</h1></header>{body}"
            f"<script type=\"application/json\" id=\"judges-specs\">{script_json(specs)}"
            f"</script>\n{scripts}<script>{SCRIPT}</script></body></html>\n")
