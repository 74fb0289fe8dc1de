"""The report as one self-contained HTML page: tables, chart specs, data and the vendored JS.

Text from the inputs (query ids, run names, measure names) reaches the page three ways, each
escaped for where it lands: HTML text through :func:`.escape.html_text`, JSON in ``<script
type="application/json">`` blocks through :func:`.escape.script_json`, and table cells the
page's script fills with ``textContent`` (never ``innerHTML``). The page makes no network
request: the JS bundles are inlined, the data is inline in each spec.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

import numpy as np

from ..render.best import best_key, tie_key
from .collect import CI_LEVEL, ReportData
from .escape import html_text, script_json
from .marks import Marks
from .specs import MANY_RUNS, chart_specs, picks_runs, shown_runs

__all__ = ["VENDORED", "page", "vendored_js"]

#: The bundles, in load order (vega-lite needs vega, vega-embed needs both).
VENDORED = ("vega.min.js", "vega-lite.min.js", "vega-embed.min.js")

_SECTIONS = {
    "pr": ("Precision and recall",
           "Interpolated precision at each recall level, averaged over queries: the line "
           "every 0.01, the dots at trec_eval's 11 levels (0, 0.1, ..., 1)."),
    "at-k": ("Measures at each cutoff",
             "How each measure grows (or falls) with the depth k of the ranking read."),
    "differences": ("Per-query differences",
                    "Which queries each run wins or loses against the baseline, and by how "
                    "much. Hover a bar for its query."),
    "distributions": ("Per-query distributions",
                      "A mean hides whether a run is good everywhere or great on a few "
                      "queries: the spread of the per-query values."),
    "judged": ("Judged documents",
               "How far the numbers can be trusted: unjudged documents count as "
               "non-relevant, so where few of the top k are judged, every measure is a "
               "lower bound."),
    "grades": ("Grades in the top k",
               "What each run puts at the top: documents per query by judged grade, "
               "judged negative, absent from the qrels, and ranks left empty."),
    "beyond": ("Beyond accuracy",
               "What the runs recommend against what the catalogue holds: the share of each "
               "run's top k in each popularity band of the catalogue (its items sorted by "
               "training users, in bands of equal size), how much of the catalogue is "
               "recommended at all (Coverage), how unequally (Gini), how popular the items "
               "are (ARP: mean training users), the long-tail share (APLT) and novelty "
               "(mean self-information). docs/beyond-accuracy.md defines them."),
}

_CSS = """
:root { color-scheme: light; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de;
  --win: #4c78a8; --loss: #e45756; --bg-alt: #f6f8fa; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--fg); margin: 0 auto; max-width: 1000px; padding: 24px 20px 60px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 36px 0 4px; border-bottom: 1px solid var(--line);
  padding-bottom: 4px; }
p.lead, p.note { color: var(--muted); margin: 4px 0 12px; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: 4px 10px; border-bottom: 1px solid var(--line); text-align: right;
  white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
th { background: var(--bg-alt); font-weight: 600; }
tr.baseline td { font-style: italic; }
.mark { font-size: 12px; padding-left: 2px; }
.ci { font-size: 12px; color: var(--muted); padding-left: 4px; }
.mark.up { color: var(--win); } .mark.down { color: var(--loss); }
.best { font-weight: 700; }
ul.conventions { display: flex; flex-wrap: wrap; gap: 4px 8px; list-style: none;
  padding: 0; margin: 4px 0; font: 13px ui-monospace, monospace; color: var(--muted); }
ul.conventions li { background: var(--bg-alt); border: 1px solid var(--line);
  border-radius: 4px; padding: 1px 6px; }
.chart { margin: 8px 0; overflow-x: auto; }
.vega-bindings { margin: 6px 0; font-size: 14px; }
.table-tools { display: flex; gap: 14px; align-items: center; margin: 8px 0; }
.table-tools input { font: inherit; padding: 4px 8px; width: 260px; }
.scroll { max-height: 560px; overflow: auto; border: 1px solid var(--line); }
#query-table th { position: sticky; top: 0; cursor: pointer; user-select: none; }
#query-table th[aria-sort=ascending]::after { content: " \\25B2"; font-size: 10px; }
#query-table th[aria-sort=descending]::after { content: " \\25BC"; font-size: 10px; }
#query-table td.pos { color: var(--win); } #query-table td.neg { color: var(--loss); }
.scroll.runs { max-height: 400px; }
.run-picker { display: flex; gap: 14px; align-items: flex-start; margin: 24px 0 0; }
.run-picker select { font: inherit; min-width: 280px; }
footer { margin-top: 40px; color: var(--muted); font-size: 13px; }
"""

# Renders the charts, then fills the per-query table from its JSON block. Cells are set with
# textContent only, so an id such as <img src=x onerror=...> stays text.
_APP_JS = """
(function () {
  "use strict";
  function data(id) { return JSON.parse(document.getElementById(id).textContent); }
  var specs = data("ranklens-specs");
  var t = data("ranklens-queries");
  var embeds = Object.keys(specs).map(function (id) {
    return vegaEmbed("#chart-" + id, specs[id], {renderer: "svg", actions: false});
  });
  // with many runs, a menu picks the runs the charts show (their parameter "shown")
  var picker = document.getElementById("run-select");
  function pick(results) {
    var most = Number(picker.getAttribute("data-most"));
    var note = document.getElementById("run-status");
    function update() {
      var chosen = Array.prototype.filter.call(picker.options, function (o) {
        return o.selected;
      });
      chosen.slice(most).forEach(function (o) { o.selected = false; });
      chosen = chosen.slice(0, most);
      var names = chosen.map(function (o) { return t.runs[Number(o.value)]; });
      note.textContent = "showing " + names.length + " of " + t.runs.length + " runs" +
        (chosen.length >= most ? " (at most " + most + " at once)" : "");
      return Promise.all(results.map(function (r, k) {
        var params = specs[Object.keys(specs)[k]].params || [];
        var picked = params.some(function (p) { return p.name === "shown"; });
        return picked ? r.view.signal("shown", names).runAsync() : null;
      }));
    }
    picker.addEventListener("change", update);
    return update();
  }
  Promise.all(embeds).then(function (results) {
    return picker ? pick(results) : null;
  }).then(function () { window.__rendered = true; }, function (err) {
    window.__renderError = String(err);
    throw err;
  });

  var columns = [{label: "query", get: function (i) { return t.queries[i]; }, text: true}];
  t.measures.forEach(function (m, a) {
    t.runs.forEach(function (r, b) {
      columns.push({label: m + " " + r, get: function (i) { return t.values[a][b][i]; }});
    });
    t.runs.forEach(function (r, b) {
      if (b === t.baseline) { return; }
      columns.push({label: m + " \\u0394 " + r, delta: true, get: function (i) {
        var v = t.values[a][b][i], w = t.values[a][t.baseline][i];
        return v === null || w === null ? null : v - w;
      }});
    });
  });
  var table = document.getElementById("query-table");
  var filter = document.getElementById("query-filter");
  var status = document.getElementById("query-status");
  var order = t.queries.map(function (_, i) { return i; });
  var sortCol = 0, sortDir = 1;
  var head = document.createElement("tr");
  columns.forEach(function (c, k) {
    var th = document.createElement("th");
    th.textContent = c.label;
    th.scope = "col";
    th.addEventListener("click", function () {
      sortDir = sortCol === k ? -sortDir : (c.text ? 1 : -1);
      sortCol = k;
      draw();
    });
    head.appendChild(th);
  });
  table.createTHead().appendChild(head);
  var body = table.createTBody();
  function compare(i, j) {
    var c = columns[sortCol], a = c.get(i), b = c.get(j);
    if (a === b) { return i - j; }
    if (a === null) { return 1; }
    if (b === null) { return -1; }
    return (a < b ? -1 : 1) * sortDir;
  }
  function draw() {
    var needle = filter.value.trim().toLowerCase();
    var rows = order.filter(function (i) {
      return !needle || t.queries[i].toLowerCase().indexOf(needle) >= 0;
    });
    rows.sort(compare);
    head.childNodes.forEach(function (th, k) {
      if (k === sortCol) { th.setAttribute("aria-sort", sortDir > 0 ? "ascending" : "descending"); }
      else { th.removeAttribute("aria-sort"); }
    });
    var shown = rows.slice(0, t.limit);
    var fresh = document.createElement("tbody");
    shown.forEach(function (i) {
      var tr = document.createElement("tr");
      columns.forEach(function (c) {
        var td = document.createElement("td"), v = c.get(i);
        if (c.text) { td.textContent = v; }
        else if (v === null) { td.textContent = "\\u2013"; }
        else {
          td.textContent = (c.delta && v > 0 ? "+" : "") + v.toFixed(4);
          if (c.delta && v !== 0) { td.className = v > 0 ? "pos" : "neg"; }
        }
        tr.appendChild(td);
      });
      fresh.appendChild(tr);
    });
    table.replaceChild(fresh, body);
    body = fresh;
    status.textContent = "showing " + shown.length + " of " + rows.length + " queries" +
      (rows.length < t.queries.length ? " (" + t.queries.length + " in all)" : "") +
      (shown.length < rows.length ? "; filter or sort to see the others" : "");
  }
  filter.addEventListener("input", draw);
  draw();
})();
"""


def vendored_js() -> list[str]:
    """The text of the three bundles, in load order."""
    base = resources.files("ranklens._surfaces.report") / "vendor"
    texts = [(base / name).read_text(encoding="utf-8") for name in VENDORED]
    for name, text in zip(VENDORED, texts, strict=True):
        # inlined in <script>: a closing tag inside would end the element early
        if "</script" in text.lower():
            raise RuntimeError(f"the vendored {name} contains '</script' and cannot be inlined")
    return texts


def _fmt(value: float) -> str:
    return "\u2013" if np.isnan(value) else f"{value:.4f}"


def _summary(data: ReportData, marks: Marks,
             lower_is_better: dict[str, bool]) -> str:
    """The runs x measures table of aggregates, the best of each column in bold."""
    head = "".join(f"<th scope=\"col\">{html_text(m)}</th>" for m in data.measures)
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
    return (f"<table id=\"summary-table\"><thead><tr><th scope=\"col\">run</th>{head}</tr>"
            f"</thead><tbody>{''.join(rows)}</tbody></table>")


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
    return {"queries": list(data.query_ids), "runs": list(data.run_names),
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
    head = "".join(f"<th scope=\"col\">{html_text(m)}</th>" for m in b.measures)
    rows = "".join(
        f"<tr><td>{html_text(run)}</td>"
        + "".join(f"<td>{_fmt(float(b.aggregates[m][j]))}</td>" for m in b.measures)
        + "</tr>" for j, run in enumerate(data.run_names))
    note = (f"The catalogue: {b.catalogue_size} items, {_fmt(b.catalogue_popularity)} "
            f"training users per item on average (ARP's scale), {_fmt(b.catalogue_tail)} of "
            "them in the long tail (APLT's scale).")
    return (f"<table id=\"beyond-table\"><thead><tr><th scope=\"col\">run</th>{head}</tr>"
            f"</thead><tbody>{rows}</tbody></table><p class=\"note\">{note}</p>")


def page(data: ReportData, *, title: str, marks: Marks,
         marks_note: str, lower_is_better: dict[str, bool], version: str,
         table_limit: int = 500) -> str:
    """The whole HTML document."""
    specs = chart_specs(data)
    sections = "".join(
        f"<section id=\"{key}\"><h2>{_SECTIONS[key][0]}</h2>"
        f"<p class=\"lead\">{_SECTIONS[key][1]}</p>"
        f"{_beyond_table(data) if key == 'beyond' else ''}"
        f"<div class=\"chart\" id=\"chart-{key}\"></div></section>"
        for key in specs)
    n_runs = len(data.run_names)
    # with many runs their names are in the summary and the menu, not a paragraph of them
    runs_text = "" if picks_runs(data) else \
        " (" + ", ".join(html_text(r) for r in data.run_names) + ")"
    lead = (f"{len(data.query_ids)} queries, {n_runs} run{'s' if n_runs > 1 else ''}"
            f"{runs_text}"
            + (f"; baseline {html_text(data.baseline)}" if n_runs > 1 else "") + ".")
    summary = _summary(data, marks, lower_is_better)
    if picks_runs(data):  # a row per run: a box of its own height, not the page's
        summary = f"<div class=\"scroll runs\">{summary}</div>"
    scripts = "".join(f"<script>{text}</script>\n" for text in vendored_js())
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>{html_text(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        f"<header><h1>{html_text(title)}</h1><p class=\"lead\">{lead}</p></header>\n"
        "<section id=\"summary\"><h2>Summary</h2>"
        f"{summary}"
        f"<p class=\"note\">{html_text(marks_note)} \u00b1: half-width of the "
        f"{CI_LEVEL * 100:g}% t interval of each mean over the queries the run was "
        "evaluated on (Result.interval; the interval on hover).</p>"
        "<p class=\"note\">Conventions in force:</p>"
        f"{_conventions(data.conventions)}</section>\n"
        f"{_picker(data)}{sections}\n"
        "<section id=\"per-query\"><h2>Per query</h2>"
        "<p class=\"lead\">Click a column to sort; type to filter by query id.</p>"
        "<div class=\"table-tools\"><input type=\"search\" id=\"query-filter\" "
        "placeholder=\"filter query ids\" aria-label=\"filter query ids\">"
        "<span id=\"query-status\" class=\"note\"></span></div>"
        "<div class=\"scroll\"><table id=\"query-table\"></table></div></section>\n"
        f"<footer>Made by ranklens {html_text(version)}. Charts: Vega-Lite (BSD-3-Clause), "
        "rendered offline.</footer>\n"
        "<script type=\"application/json\" id=\"ranklens-specs\">"
        f"{script_json(specs)}</script>\n"
        "<script type=\"application/json\" id=\"ranklens-queries\">"
        f"{script_json(_queries(data, table_limit))}</script>\n"
        f"{scripts}<script>{_APP_JS}</script>\n</body>\n</html>\n"
    )
