"""The report's segments: each run's mean per group of queries with its bootstrap interval
(a facet per group), and each group's per-query values as box plots."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._results.results import Results
from ..render.html import html_text
from ..segments import _members, group_means
from .collect import CI_LEVEL, ReportData
from .specs import _WIDTH, Spec, _base, _num, _picked, _run_colour, _tips

__all__ = ["segments_section"]


def _faceted(data: ReportData, rows: list[dict[str, Any]], groups: list[str],
             description: str, layer: list[Spec]) -> Spec:
    """One column per group, a menu picking the measure (rows carry its index ``m``)."""
    run = {"field": "run", "type": "nominal", "sort": list(data.run_names), "axis": None}
    return _picked(data, {
        **_base("Segments", description), "data": {"values": rows},
        "params": [{"name": "measure", "value": 0,
                    "bind": {"input": "select", "options": list(range(len(data.measures))),
                             "labels": list(data.measures), "name": "measure "}}],
        "transform": [{"filter": "datum.m === measure"}],
        "facet": {"column": {"field": "group", "type": "nominal", "sort": groups,
                             "title": None}},
        "spec": {"width": max(60, _WIDTH // max(len(groups), 1)), "height": 220,
                 "encoding": {"x": run, "color": _run_colour(data)}, "layer": layer}})


def segments_section(results: Results, data: ReportData, groups: Any, *,
                     resamples: int = 9999, seed: int = 0) -> tuple[str, dict[str, Spec]]:
    """The section's HTML and its two specs (``segments-means``, ``segments-box``):
    :func:`~ranklens.group_means` of ``groups`` (as :func:`~ranklens.segments` takes them)
    drawn as points with interval bars, and the groups' per-query values as box plots."""
    means = group_means(results, groups, measures=data.measures, confidence=CI_LEVEL,
                        resamples=resamples, seed=seed)
    index = {m: i for i, m in enumerate(data.measures)}
    rows = [{"group": r["group"], "m": index[r["measure"]], "run": r["run"], "n": r["n"],
             "mean": _num(r["mean"]), "low": _num(r["ci_low"]), "high": _num(r["ci_high"])}
            for r in means.iter_rows(named=True)]
    members = _members(groups, results.query_ids)
    values = [{"group": g, "m": i, "run": run, "v": _num(v)}
              for g, at in members.items() for i, m in enumerate(data.measures)
              for j, run in enumerate(data.run_names)
              for v in np.asarray(results.values(m))[at, j] if not np.isnan(v)]
    y = {"type": "quantitative", "title": "value"}
    specs = {
        "segments-means": _faceted(data, rows, list(members), "each run's mean per group "
                                   "with its bootstrap interval", [
            {"mark": "rule", "encoding": {"y": {"field": "low", **y}, "y2": {"field": "high"}}},
            {"mark": {"type": "point", "filled": True, "size": 60}, "encoding": {
                "y": {"field": "mean", **y},
                "tooltip": _tips("group", "run", "n", ("mean", ".4f"), ("low", ".4f"),
                                 ("high", ".4f"))}}]),
        "segments-box": _faceted(data, values, list(members), "each group's per-query "
                                 "values as box plots", [
            {"mark": {"type": "boxplot", "extent": "min-max"},
             "encoding": {"y": {"field": "v", **y}}}])}
    q = data.vocabulary.queries
    level = f"{CI_LEVEL * 100:g}%"
    leads = {"segments-means": (f"Means per group of {q}",
                                f"Each run's mean on each group's {q} alone, with its {level} "
                                "BCa bootstrap interval (ranklens.group_means)."),
             "segments-box": (f"Distributions per group of {q}",
                              f"Each run's per-{data.vocabulary.query} values in each group: "
                              "the box spans the quartiles, the whiskers the lowest and highest.")}
    html = "".join(f"<section id=\"{key}\"><h2>{html_text(title)}</h2><p class=\"lead\">"
                   f"{html_text(lead)}</p><div class=\"chart\" id=\"chart-{key}\"></div>"
                   "</section>" for key, (title, lead) in leads.items())
    return html, specs
