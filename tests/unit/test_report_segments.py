"""Issue 42: the report's segments: the facets' means and intervals are group_means', the
box plots' values are each group's per-query values (computed here from the groups)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import ranklens
from ranklens._base.errors import ParameterError
from ranklens._surfaces.report.build import _evaluated
from ranklens._surfaces.report.segments import segments_section

QRELS = {f"q{i}": {f"d{j}": (i * j + j) % 3 for j in range(5)} for i in range(12)}
RUNS = {name: {q: {f"d{j}": float((j * k + i) % 7) for j in range(5)}
               for i, q in enumerate(QRELS)} for name, k in (("a", 2), ("b", 3))}
GROUPS = {q: ["low" if i < 6 else "high", *(["all"] if i % 4 == 0 else [])]
          for i, q in enumerate(QRELS)}
MEASURES = ["nDCG@5", "AP"]


def _section() -> tuple[str, dict, ranklens.Results]:
    results, data = _evaluated(QRELS, RUNS, MEASURES, baseline=None, max_k=5, top_k=5)
    html, specs = segments_section(results, data, GROUPS, resamples=199)
    return html, specs, results


def test_the_facets_draw_group_means_and_their_intervals() -> None:
    _, specs, results = _section()
    frame = ranklens.group_means(results, GROUPS, measures=MEASURES, resamples=199)
    rows = specs["segments-means"]["data"]["values"]
    assert [(r["group"], MEASURES[r["m"]], r["run"], r["n"]) for r in rows] == \
        frame.select("group", "measure", "run", "n").rows()
    for row, want in zip(rows, frame.iter_rows(named=True), strict=True):
        assert (row["mean"], row["low"], row["high"]) == pytest.approx(
            (want["mean"], want["ci_low"], want["ci_high"]), abs=5e-5)  # 4 decimals
    facet = specs["segments-means"]["facet"]["column"]
    assert facet["sort"] == ["low", "all", "high"]  # groups in first-seen order


def test_the_box_plots_hold_each_groups_per_query_values() -> None:
    _, specs, results = _section()
    rows = specs["segments-box"]["data"]["values"]
    assert specs["segments-box"]["spec"]["layer"][0]["mark"]["type"] == "boxplot"
    for m, measure in enumerate(MEASURES):
        for run in ("a", "b"):
            for group in ("low", "high", "all"):
                queries = [q for q, g in GROUPS.items() if group in g]
                want = sorted(round(results[run].per_query(measure)[q], 4) for q in queries)
                got = sorted(r["v"] for r in rows
                             if (r["m"], r["run"], r["group"]) == (m, run, group))
                assert got == want, (measure, run, group)


def test_the_report_has_the_sections_only_with_segments(tmp_path: Path) -> None:
    groups = tmp_path / "groups.txt"
    groups.write_text("".join(f"{q} {g}\n" for q, gs in GROUPS.items() for g in gs), "utf-8")
    html = ranklens.report(QRELS, RUNS, MEASURES, max_k=5, segments=str(groups))
    specs = json.loads(re.search(r'id="ranklens-specs">(.*?)</script>', html, re.S).group(1))
    assert {"segments-means", "segments-box"} <= set(specs)
    assert 'id="chart-segments-means"' in html and "Distributions per group of" in html
    plain = ranklens.report(QRELS, RUNS, MEASURES, max_k=5)
    assert "segments-means" not in plain
    with pytest.raises(ParameterError, match="the 'output' option"):
        ranklens.report(QRELS, RUNS, MEASURES, max_k=5, segments=str(groups), output=groups)
    with pytest.raises(ParameterError, match="'groups' argument must map query ids"):
        ranklens.report(QRELS, RUNS, MEASURES, max_k=5, segments=42)
