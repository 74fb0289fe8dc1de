"""The report as one self-contained HTML page: tables, chart specs, data and the vendored JS.

Text from the inputs (query ids, run names, measure names) reaches the page three ways, each
escaped for where it lands: HTML text through :func:`.escape.html_text`, JSON in ``<script
type="application/json">`` blocks through :func:`.escape.script_json`, and table cells the
page's script fills with ``textContent`` (never ``innerHTML``). The page makes no network
request: the JS bundles are inlined, the data is inline in each spec.
"""

from __future__ import annotations

import dataclasses
import json
from importlib import resources
from string import Template
from typing import Any

import numpy as np

from ..render.best import best_key, tie_key
from ..render.html import html_text, script_json, vendored_js
from .collect import CI_LEVEL, ReportData
from .marks import Marks
from .specs import MANY_RUNS, chart_specs, picks_runs, shown_runs

__all__ = ["page"]


def _asset(name: str) -> str:
    """The text of one of the page's own files: its style sheet, and its script (which
    renders the charts, then fills the per-query table with ``textContent`` only, so an id
    such as ``<img src=x onerror=...>`` stays text)."""
    return (resources.files("ranklens._surfaces.report") / name).read_text(encoding="utf-8")


def _fmt(value: float) -> str:
    return "\u2013" if np.isnan(value) else f"{value:.4f}"


def _summary(data: ReportData, marks: Marks,
             lower_is_better: dict[str, bool]) -> str:
    """The runs x measures table of aggregates, the best of each column in bold."""
    rows = []
    for j, run in enumerate(data.run_names):
        cells = []
        for m in data.measures:
            values = data.aggregates[m]
            value = float(values[j])
            best = best_key(values.tolist(), bool(lower_is_better.get(m)))
            cls = (" class=\"best\"" if len(data.run_names) > 1 and best is not None
                   and tie_key(value) == best else "")
            mark = marks.get((run, m))
            shown = (f"<span class=\"mark {mark[2]}\" title=\"{html_text(mark[1])}\">"
                     f"{mark[0]}</span>") if mark else ""
            cells.append(f"<td{cls}>{_fmt(value)}{_plus_minus(value, data, m, j)}{shown}</td>")
        tag = " class=\"baseline\"" if run == data.baseline and len(data.run_names) > 1 else ""
        label = html_text(run) + (" (baseline)" if tag else "")
        rows.append(f"<tr{tag}><td>{label}</td>{''.join(cells)}</tr>")
    return _table("summary-table", data.measures, "".join(rows))


def _table(ident: str, measures: tuple[str, ...], rows: str) -> str:
    """A table of runs (``rows``, HTML) by ``measures``, headed "run" and each measure."""
    head = "".join(f"<th scope=\"col\">{html_text(m)}</th>" for m in ["run", *measures])
    return f"<table id=\"{ident}\"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def _plus_minus(value: float, data: ReportData, measure: str, run: int) -> str:
    """``± h`` after a mean: the half-width of its t interval, the interval on hover."""
    half = float(data.half_widths[measure][run])
    if np.isnan(half) or np.isnan(value):
        return ""
    title = (f"{CI_LEVEL * 100:g}% t interval of the mean over queries: "
             f"[{value - half:.4f}, {value + half:.4f}]")
    return f"<span class=\"ci\" title=\"{title}\">\u00b1{half:.4f}</span>"


def _chip_value(key: str, value: Any) -> str | None:
    """A convention's value as a reader would say it (None: a chip saying nothing, left
    out): ``depth: all`` rather than ``depth=None``, no chip for no per-measure ties."""
    if value is None:
        return "all" if key == "depth" else "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items()) or None
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value) or None
    return str(value)


def _conventions(conventions: dict[str, Any]) -> str:
    chips = [(key.replace("_", " "), _chip_value(key, value))
             for key, value in conventions.items()]
    items = "".join(f"<li>{html_text(k)}: {html_text(v)}</li>" for k, v in chips
                    if v is not None)
    return f"<ul class=\"conventions\">{items}</ul>"


def _queries(data: ReportData, limit: int) -> dict[str, Any]:
    """The per-query table's data: columns of values per measure and run (null: absent)."""
    values = [[[None if np.isnan(v) else round(float(v), 6) for v in data.per_query[m][:, j]]
               for j in range(len(data.run_names))] for m in data.measures]
    return {"queries": list(data.query_ids), "query": data.vocabulary.query,
            "plural": data.vocabulary.queries, "runs": list(data.run_names),
            "measures": list(data.measures), "baseline": data.run_names.index(data.baseline),
            "values": values, "limit": limit}


def _picker(data: ReportData) -> str:
    """The menu of the runs the charts show, with more runs than they draw at once."""
    if not picks_runs(data):
        return ""
    shown = set(shown_runs(data))
    options = "".join(
        f"<option value=\"{j}\"{' selected' if run in shown else ''}>{html_text(run)}"
        f"{' (baseline)' if run == data.baseline else ''}</option>"
        for j, run in enumerate(data.run_names))
    return ("<div class=\"run-picker\"><label for=\"run-select\">Runs in the charts: "
            f"pick up to {MANY_RUNS} (Ctrl- or Shift-click for several).</label>"
            f"<select id=\"run-select\" multiple size=\"10\" data-most=\"{MANY_RUNS}\">"
            f"{options}</select><span id=\"run-status\" class=\"note\"></span></div>\n")


def _beyond_table(data: ReportData) -> str:
    """The panel's measures per run, then the catalogue's own popularity and tail share."""
    b = data.beyond
    if b is None:
        return ""
    rows = "".join(
        f"<tr><td>{html_text(run)}</td>"
        + "".join(f"<td>{_fmt(float(b.aggregates[m][j]))}</td>" for m in b.measures)
        + "</tr>" for j, run in enumerate(data.run_names))
    note = (f"The catalogue: {b.catalogue_size} items, {_fmt(b.catalogue_popularity)} "
            f"training users per item on average (ARP's scale), {_fmt(b.catalogue_tail)} of "
            "them in the long tail (APLT's scale).")
    return _table("beyond-table", b.measures, rows) + f"<p class=\"note\">{note}</p>"


def page(data: ReportData, *, title: str, marks: Marks,
         marks_note: str, lower_is_better: dict[str, bool], version: str,
         table_limit: int = 500, extra: tuple[str, dict[str, Any]] = ("", {})) -> str:
    """The whole HTML document (``extra``: more sections' HTML and chart specs, the judges')."""
    specs = chart_specs(data)
    # each section's heading and lead, in the inputs' words (users and items for a recommender)
    words = dataclasses.asdict(data.vocabulary)
    titles = {key: [text.format(**words) for text in texts]
              for key, texts in json.loads(_asset("sections.json")).items()}
    sections = "".join(
        f"<section id=\"{key}\"><h2>{titles[key][0]}</h2>"
        f"<p class=\"lead\">{titles[key][1]}</p>"
        f"{_beyond_table(data) if key == 'beyond' else ''}"
        f"<div class=\"chart\" id=\"chart-{key}\"></div></section>"
        for key in specs) + extra[0]
    n_runs = len(data.run_names)
    # with many runs their names are in the summary and the menu, not a paragraph of them
    runs_text = "" if picks_runs(data) else \
        " (" + ", ".join(html_text(r) for r in data.run_names) + ")"
    lead = (f"{len(data.query_ids)} {data.vocabulary.queries}, "
            f"{n_runs} run{'s' if n_runs > 1 else ''}{runs_text}"
            + (f"; baseline {html_text(data.baseline)}" if n_runs > 1 else "") + ".")
    summary = _summary(data, marks, lower_is_better)
    if picks_runs(data):  # a row per run: a box of its own height, not the page's
        summary = f"<div class=\"scroll runs\">{summary}</div>"
    scripts = "".join(f"<script>{text}</script>\n" for text in vendored_js())
    return Template(_asset("page.html")).substitute(
        title=html_text(title), css=_asset("page.css"), lead=lead, summary=summary,
        query=data.vocabulary.query,
        marks_note=html_text(marks_note), ci=f"{CI_LEVEL * 100:g}",
        conventions=_conventions(data.conventions), picker=_picker(data), sections=sections,
        version=html_text(version), specs=script_json({**specs, **extra[1]}),
        queries=script_json(_queries(data, table_limit)), scripts=scripts,
        app=_asset("page.js"))
