"""The report's charts as Vega-Lite specs: plain dicts built from a :class:`ReportData`.

Every spec carries its data inline (never a URL: the report opens offline), rounds values
to 4 decimals (the size of the file, and nothing a reader could see) and colours runs by
one shared scale, so a run has the same colour in every chart. Specs are JSON-ready: no
NaN (None instead), no numpy scalars; the golden tests compare them as JSON.

Run names longer than :data:`LABEL_CHARS` characters are cut in the middle in legends, axes
and headers (``dl19.SPLADE…EMBLE_DISTIL``: the start and the end of a name are what tell runs
apart) and shown whole in tooltips and menus (:func:`cut_label`, :func:`run_labels`).

Beyond :data:`MANY_RUNS` runs, the charts drawing one mark per run show only the runs a menu
of the page picks (at most :data:`MANY_RUNS` at once; the baseline and the first others at
first): a spec parameter ``shown`` lists them, a filter keeps their rows, and the colour
scale's domain is the runs shown, so legends never list 50 entries (Vega stops a legend
with a warning), colours do not repeat and the per-run histograms do not make the page
grow with every run. Up to :data:`MANY_RUNS` runs the specs are as they always were.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..render.html import SCHEMA, finite
from .collect import PR_LEVELS, ReportData

__all__ = ["LABEL_CHARS", "MANY_RUNS", "SCHEMA", "chart_specs", "cut_label", "run_labels",
           "shown_runs"]

#: Bins of the per-query histograms.
BINS = 20
_WIDTH = 640
_HEIGHT = 280
_WIN, _LOSS = "#4c78a8", "#e45756"
# Grades from the highest (darkest) down; then judged < 0, not in the qrels, nothing retrieved
_GRADE_COLOURS = ("#08306b", "#08519c", "#2171b5", "#4292c6", "#6baed6", "#9ecae1",
                  "#c6dbef", "#deebf7", "#eef5fb", "#f7fbff")
_OTHER_COLOURS = {"judged < 0": "#b07aa1", "not in qrels": "#f58518",
                  "nothing retrieved": "#e0e0e0"}

Spec = dict[str, Any]

#: Most runs the charts draw at once; with more, a menu picks which (:func:`shown_runs`).
MANY_RUNS = 10
#: Ten distinct colours for the (at most MANY_RUNS) runs shown.
_MANY_SCHEME = "tableau10"

#: Longest run name shown whole in a legend, an axis or a header.
LABEL_CHARS = 24
#: Pixel width a legend or axis label may take before Vega cuts its end (its default, 160
#: or 180, would cut a name of LABEL_CHARS wide letters).
_LABEL_PIXELS = 400


def cut_label(name: str, limit: int = LABEL_CHARS) -> str:
    """``name``, or when longer than ``limit`` its start and end around an ellipsis
    (``limit`` characters in all)."""
    if len(name) <= limit:
        return name
    head = (limit - 1) // 2
    return name[:head] + "…" + name[len(name) - (limit - 1 - head):]


def run_labels(names: Sequence[str]) -> dict[str, str]:
    """Each run's chart label: :func:`cut_label`, longer where two cut names would read
    alike, whole where nothing shorter tells them apart."""
    labels = {}
    for name in names:
        limit = LABEL_CHARS
        while limit < len(name):
            label = cut_label(name, limit)
            if all(cut_label(other, limit) != label for other in names if other != name):
                break
            limit += 2
        labels[name] = cut_label(name, limit)
    return labels


def _label_expr(names: Sequence[str]) -> str:
    """A Vega expression turning a run name (``datum.label``) into its chart label.
    ``datum.label`` stays in parentheses: a facet header's expression gets it replaced by
    Vega-Lite with an unparenthesized conditional, whose ``? :`` would swallow ours."""
    expr = "(datum.label)"
    for name, label in reversed(list(run_labels(names).items())):
        if label != name:
            expr = (f"(datum.label) === {json.dumps(name, ensure_ascii=False)} ? "
                    f"{json.dumps(label, ensure_ascii=False)} : {expr}")
    return expr


def _run_labels(data: ReportData) -> dict[str, Any]:
    """The label properties of a legend, axis or header naming runs."""
    expr = _label_expr(data.run_names)
    return {"labelLimit": _LABEL_PIXELS, **({"labelExpr": expr} if expr != "(datum.label)" else {})}


def _num(value: float) -> float | None:
    """A JSON number rounded to 4 decimals (None for NaN)."""
    out = finite(float(value))
    return None if out is None else round(out, 4)


def picks_runs(data: ReportData) -> bool:
    """Whether the report has too many runs to draw them all (a menu picks them)."""
    return len(data.run_names) > MANY_RUNS


def shown_runs(data: ReportData) -> list[str]:
    """The runs the charts show when the page opens: all, or beyond :data:`MANY_RUNS` the
    baseline and the first others, in run order."""
    if not picks_runs(data):
        return list(data.run_names)
    others = [r for r in data.run_names if r != data.baseline][:MANY_RUNS - 1]
    return [r for r in data.run_names if r == data.baseline or r in others]


def _picked(data: ReportData, spec: Spec) -> Spec:
    """``spec`` drawing only the runs of the page's menu (the parameter ``shown``) when
    there are too many to draw them all; as it is otherwise."""
    if not picks_runs(data):
        return spec
    shown = {"name": "shown", "value": shown_runs(data)}
    keep = {"filter": "indexof(shown, datum.run) >= 0"}
    return {**spec, "params": [*spec.get("params", []), shown],
            "transform": [keep, *spec.get("transform", [])]}


def _run_colour(data: ReportData, **extra: Any) -> dict[str, Any]:
    # with a menu, the domain is the runs shown (in run order): ten colours for ten runs
    scale = ({"sort": list(data.run_names), "scale": {"scheme": _MANY_SCHEME}}
             if picks_runs(data) else {"scale": {"domain": list(data.run_names)}})
    return {"field": "run", "type": "nominal", "title": "run", **scale,
            "legend": _run_labels(data), **extra}


def _quantity(field: str, **extra: Any) -> dict[str, Any]:
    """A quantitative encoding of ``field``."""
    return {"field": field, "type": "quantitative", **extra}


def _tips(*fields: str | tuple[str, str]) -> list[dict[str, str]]:
    """A tooltip's fields: a name, or ``(name, format)``."""
    return [{"field": f} if isinstance(f, str) else {"field": f[0], "format": f[1]}
            for f in fields]


def _base(title: str, description: str) -> Spec:
    # the page's section heading names the chart; the title is for the spec's reader only
    return {"$schema": SCHEMA, "description": f"{title}: {description}"}


def pr_curve(data: ReportData) -> Spec:
    """Interpolated precision at recall 0, 0.01, ..., 1 (line) and the 11 points (dots);
    one dash pattern per relevance level when the curves are drawn at several."""
    levels = {data.rels[0]: data.pr, **data.more_pr}
    rows = [{"run": run, "recall": level, "precision": _num(pr[i, j]),
             "eleven": i % 10 == 0, **({"rel": rel} if data.more_pr else {})}
            for rel, pr in levels.items()
            for j, run in enumerate(data.run_names) for i, level in enumerate(PR_LEVELS)]
    tips = _tips("run", *(["rel"] if data.more_pr else []), "recall", ("precision", ".4f"))
    enc = {"x": {"field": "recall", "type": "quantitative", "scale": {"domain": [0, 1]},
                 "axis": {"tickCount": 10, "format": ".1f"}},
           "y": _quantity("precision", scale={"domain": [0, 1]}, title="interpolated precision"),
           "color": _run_colour(data), "tooltip": tips}
    line = {**enc, **({"strokeDash": {"field": "rel", "type": "ordinal", "title": "rel"}}
                      if data.more_pr else {})}
    return {**_base("Interpolated precision-recall curve",
                    "mean interpolated precision at each recall level (line: every 0.01; "
                    "dots: the 11 standard levels)"),
            "width": _WIDTH, "height": _HEIGHT, "data": {"values": rows},
            "layer": [{"mark": {"type": "line", "interpolate": "step-after"}, "encoding": line},
                      {"transform": [{"filter": "datum.eleven"}],
                       "mark": {"type": "point", "filled": True, "size": 40},
                       "encoding": enc}]}


def at_k(data: ReportData) -> Spec:
    """P@k, R@k and nDCG@k for k = 1..max_k, one panel each."""
    curves = [label for label in data.at_k if label != "Judged@k"]
    rows = [{"curve": label, "run": run, "k": k, "value": _num(data.at_k[label][i, j])}
            for label in curves for j, run in enumerate(data.run_names)
            for i, k in enumerate(data.ks)]
    return {**_base("Measures at each cutoff k", "mean P@k, R@k and nDCG@k for k = 1.."
                    f"{max(data.ks)}"),
            "data": {"values": rows},
            "facet": {"column": {"field": "curve", "type": "nominal", "sort": curves,
                                 "title": None}},
            "spec": {"width": 260, "height": 220, "mark": {"type": "line"},
                     "encoding": {"x": _quantity("k", scale={"domain": [1, max(data.ks)]}),
                                  "y": _quantity("value", title=None),
                                  "color": _run_colour(data),
                                  "tooltip": _tips("run", "curve", "k", ("value", ".4f"))}},
            "resolve": {"scale": {"y": "independent"}}}


def judged(data: ReportData) -> Spec:
    """Judged@k: the share of the top k that has a judgment, k = 1..max_k."""
    rows = [{"run": run, "k": k, "judged": _num(data.at_k["Judged@k"][i, j])}
            for j, run in enumerate(data.run_names) for i, k in enumerate(data.ks)]
    return {**_base("Judged@k", "share of the top k documents that have a judgment (mean "
                    "over queries); where it drops, unjudged documents count as non-relevant "
                    "and the measures are lower bounds"),
            "width": _WIDTH, "height": 220, "data": {"values": rows},
            "mark": {"type": "line", "point": False},
            "encoding": {"x": _quantity("k", scale={"domain": [1, max(data.ks)]}),
                         "y": _quantity("judged", scale={"domain": [0, 1]},
                                        title="judged share of top k"),
                         "color": _run_colour(data),
                         "tooltip": _tips("run", "k", ("judged", ".4f"))}}


def grades(data: ReportData) -> Spec:
    """Mean documents per query in the top k by grade, unjudged and empty ranks: stacked."""
    labels = list(data.grades)
    graded = [label for label in labels if label.startswith("grade ")]
    colours = [*_GRADE_COLOURS[:len(graded)], *(_OTHER_COLOURS[lab] for lab in labels
                                                 if lab not in graded)]
    rows = [{"run": run, "category": label, "order": c, "docs": _num(data.grades[label][j])}
            for j, run in enumerate(data.run_names) for c, label in enumerate(labels)]
    return {**_base(f"What fills the top {data.top_k}",
                    f"mean documents per query in the top {data.top_k}, by judged grade, "
                    "then judged negative, absent from the qrels, and ranks left empty"),
            "width": _WIDTH, "data": {"values": rows},
            "mark": {"type": "bar"},
            "encoding": {"y": {"field": "run", "type": "nominal",
                               "sort": list(data.run_names), "axis": _run_labels(data)},
                         "x": _quantity("docs", stack="zero", scale={"domain": [0, data.top_k]},
                                        title=f"documents in the top {data.top_k}"),
                         "color": {"field": "category", "type": "nominal",
                                   "scale": {"domain": labels, "range": colours},
                                   "title": None},
                         "order": {"field": "order", "type": "quantitative"},
                         "tooltip": _tips("run", "category", ("docs", ".2f"))}}


def distributions(data: ReportData) -> Spec:
    """Histogram of each measure's per-query values, one row per run; a menu picks the
    measure."""
    rows: list[dict[str, Any]] = []
    for m in data.measures:
        values = data.per_query[m]
        seen = values[~np.isnan(values)]
        lo = float(min(seen.min(), 0.0)) if seen.size else 0.0
        hi = float(seen.max()) if seen.size else 1.0
        hi = max(hi, 1.0) if hi <= 1.0 and lo >= 0.0 else hi
        if hi <= lo:
            hi = lo + 1.0
        edges = np.linspace(lo, hi, BINS + 1)
        for j, run in enumerate(data.run_names):
            counts, _ = np.histogram(values[:, j][~np.isnan(values[:, j])], bins=edges)
            rows += [{"measure": m, "run": run, "lo": _num(edges[b]), "hi": _num(edges[b + 1]),
                      "queries": int(counts[b])} for b in range(BINS)]
    return {**_base("Per-query distributions", "number of queries in each range of values "
                    "of the chosen measure, one row per run"),
            "data": {"values": rows},
            "params": [{"name": "measure", "value": data.measures[0],
                        "bind": {"input": "select", "options": list(data.measures),
                                 "name": "measure "}}],
            "transform": [{"filter": "datum.measure === measure"}],
            # up to MANY_RUNS rows of the runs picked: lower rows keep the chart's height
            "width": _WIDTH, "height": 50 if picks_runs(data) else 110,
            "mark": {"type": "bar", "binSpacing": 1},
            "encoding": {"row": {"field": "run", "type": "nominal",
                                 "sort": list(data.run_names), "title": None,
                                 "header": _run_labels(data)},
                         # prebinned: a bar spans lo..hi and rises from 0
                         "x": _quantity("lo", bin="binned", title="value", axis={"tickCount": 10}),
                         "x2": {"field": "hi"},
                         "y": {"field": "queries", "type": "quantitative"},
                         "color": _run_colour(data, legend=None),
                         "tooltip": [{"field": "run"}, {"field": "lo", "title": "from"},
                                     {"field": "hi", "title": "to"}, {"field": "queries"}]}}


def differences(data: ReportData) -> Spec | None:
    """Per-query difference with the baseline, sorted, one bar per query (id on hover); a
    menu picks the measure and the run. None with a single run."""
    others = [r for r in data.run_names if r != data.baseline]
    if not others:
        return None
    b = data.run_names.index(data.baseline)
    rows: list[dict[str, Any]] = []
    # the measure and the run as numbers (the menus label them): a name repeated on each of
    # 7,000 rows per measure and run would be most of the file
    for mi, m in enumerate(data.measures):
        values = data.per_query[m]
        for ri, run in enumerate(others):
            j = data.run_names.index(run)
            diff = values[:, j] - values[:, b]
            keep = np.flatnonzero(~np.isnan(diff))
            # largest gain first; equal differences by query id, so the order is stable
            order = keep[np.lexsort((np.arange(len(keep)), -diff[keep]))]
            rows += [{"q": data.query_ids[q], "m": mi, "r": ri, "d": _num(diff[q]),
                      "v": _num(values[q, j]), "b": _num(values[q, b]), "i": i}
                     for i, q in enumerate(order.tolist())]
    return {**_base(f"Per-query differences against {data.baseline}",
                    "run minus baseline on each query, sorted from the largest gain to the "
                    "largest loss; hover a bar for the query id"),
            "data": {"values": rows},
            "params": [{"name": "measure", "value": 0,
                        "bind": {"input": "select", "options": list(range(len(data.measures))),
                                 "labels": list(data.measures), "name": "measure "}},
                       {"name": "run", "value": 0,
                        "bind": {"input": "select", "options": list(range(len(others))),
                                 "labels": others, "name": "run "}}],
            "transform": [{"filter": "datum.m === measure && datum.r === run"},
                          {"calculate": "datum.i + 1", "as": "i2"}],
            "width": _WIDTH, "height": _HEIGHT,
            "mark": {"type": "bar"},
            "encoding": {"x": {"field": "i", "type": "quantitative", "bin": "binned",
                               "axis": None, "title": "queries, sorted by difference"},
                         "x2": {"field": "i2"},
                         "y": {"field": "d", "type": "quantitative",
                               "title": f"run - {run_labels(data.run_names)[data.baseline]}"},
                         "color": {"condition": {"test": "datum.d > 0", "value": _WIN},
                                   "value": _LOSS},
                         "tooltip": [{"field": "q", "title": "query"},
                                     {"field": "d", "title": "difference", "format": "+.4f"},
                                     {"field": "v", "title": "run value", "format": ".4f"},
                                     {"field": "b", "title": data.baseline, "format": ".4f"}]}}


def beyond(data: ReportData) -> Spec | None:
    """Each run's share of top-k recommendations in each popularity band of the catalogue
    (bars), against the catalogue's own share of items (ticks). None without the panel."""
    if data.beyond is None:
        return None
    b = data.beyond
    rows = [{"band": band, "order": i, "run": run, "share": _num(b.shares[i, j])}
            for j, run in enumerate(data.run_names) for i, band in enumerate(b.bands)]
    catalogue = [{"band": band, "order": i, "share": _num(b.catalogue_shares[i])}
                 for i, band in enumerate(b.bands)]
    x = {"field": "band", "type": "nominal", "sort": list(b.bands),
         "title": "catalogue items by popularity in the training interactions, in bands of "
                  "equal size", "axis": {"labelAngle": 0, "labelLimit": 120}}
    y = {"field": "share", "type": "quantitative", "title": f"share of the top {b.k}"}
    picked = _picked(data, {})  # with many runs, the menu's parameter and its filter
    bars: Spec = {"data": {"values": rows}, "mark": {"type": "bar"},
                  "encoding": {"x": x, "y": y, "xOffset": {"field": "run",
                                                            "sort": list(data.run_names)},
                               "color": _run_colour(data),
                               "tooltip": _tips("run", "band", ("share", ".1%"))},
                  **({"transform": picked["transform"]} if picked else {})}
    ticks: Spec = {"data": {"values": catalogue},
                   "mark": {"type": "tick", "color": "#1b1f24", "thickness": 2},
                   "encoding": {"x": x, "y": y,
                                "tooltip": [{"field": "band"},
                                            {"field": "share", "format": ".1%",
                                             "title": "share of the catalogue"}]}}
    return {**_base("Popularity of the recommended items",
                    f"share of each run's top {b.k} recommendations in each popularity band "
                    "of the catalogue (bars) against the band's share of the catalogue "
                    "(black ticks)"),
            **({"params": picked["params"]} if picked else {}),
            "width": _WIDTH, "height": _HEIGHT, "layer": [bars, ticks]}


def chart_specs(data: ReportData) -> dict[str, Spec]:
    """Every chart of the report, by the id of its place in the page, in page order."""
    # differences shows one run at a time already (its menu), beyond filters its bars only
    specs = {"pr": _picked(data, pr_curve(data)), "at-k": _picked(data, at_k(data)),
             "differences": differences(data), "distributions": _picked(data, distributions(data)),
             "judged": _picked(data, judged(data)), "grades": _picked(data, grades(data)),
             "beyond": beyond(data)}
    return {key: spec for key, spec in specs.items() if spec is not None}
