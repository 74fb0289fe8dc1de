"""Issue 39: the report's conventions say the relevance level each measure used, and its
curves are drawn at each measure's own level (one set per level when they differ)."""

from __future__ import annotations

import re

import numpy as np

import ranklens
from ranklens._surfaces.report.build import report_data
from ranklens._surfaces.report.specs import chart_specs

QRELS = {"q1": {"a": 2, "b": 1}, "q2": {"c": 1, "d": 2}}
RUNS = {"x": {"q1": {"a": 1.0, "b": 0.5}, "q2": {"c": 1.0}},
        "y": {"q1": {"b": 1.0}, "q2": {"d": 1.0, "c": 0.5}}}


def _rel_chip(html: str) -> str:
    found = re.findall(r"<li>rel: ([^<]*)</li>", html)
    assert len(found) == 1, found
    return found[0]


def test_rel_of_each_measure_is_shown() -> None:
    html = ranklens.report(QRELS, RUNS, ["AP(rel=2)", "nDCG@10"], max_k=5)
    chip = _rel_chip(html)
    assert "AP(rel=2) 2" in chip and "curves drawn at rel 2" in chip


def test_curves_are_drawn_at_the_measures_own_rel() -> None:
    # only grade 2 counts: x ranks a (q1) and nothing of grade 2 on q2; y ranks d first
    data = report_data(QRELS, RUNS, ["AP(rel=2)", "nDCG@10"], max_k=2)
    at_two = ranklens.evaluate(QRELS, RUNS, ["P(rel=2)@1", "IPrec(rel=2)@0.5"])
    np.testing.assert_allclose(data.at_k["P@k"][0], at_two.values("P(rel=2)@1").mean(axis=0))
    np.testing.assert_allclose(data.pr[50], at_two.values("IPrec(rel=2)@0.5").mean(axis=0))
    assert data.rels == (2,) and not data.more_pr


def test_one_set_of_curves_per_rel_when_measures_disagree() -> None:
    data = report_data(QRELS, RUNS, ["AP", "P(rel=2)@5"], max_k=2)
    assert data.rels == (1, 2) and set(data.more_pr) == {2}
    assert "curves drawn at rel 1 and 2" in data.conventions["rel"]
    specs = chart_specs(data)
    assert specs["at-k"]["facet"]["column"]["sort"] == [
        "P@k", "R@k", "nDCG@k", "P@k (rel 2)", "R@k (rel 2)"]
    assert {row["rel"] for row in specs["pr"]["data"]["values"]} == {1, 2}
    at_one = ranklens.evaluate(QRELS, RUNS, ["P@1"])
    np.testing.assert_allclose(data.at_k["P@k"][0], at_one.values("P@1").mean(axis=0))


def test_rel_chip_unchanged_without_own_rel() -> None:
    assert _rel_chip(ranklens.report(QRELS, RUNS, ["AP", "nDCG@10"], max_k=5)) == "1"
