"""Issue 39: the report's conventions say the relevance level each measure used, and which
one its curves and panels count from."""

from __future__ import annotations

import re

import ranklens

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
    assert "AP(rel=2) 2" in chip and "curves and panels" in chip


def test_rel_chip_unchanged_without_own_rel() -> None:
    assert _rel_chip(ranklens.report(QRELS, RUNS, ["AP", "nDCG@10"], max_k=5)) == "1"
