"""Count measures: trec_eval sums them over queries; ranx's hits averages the same count."""

from __future__ import annotations

import ranklens

QRELS = {"q1": {"a": 1, "b": 1, "c": 0}, "q2": {"d": 2}}
RUN = {"q1": {"a": 3.0, "c": 2.0, "b": 1.0}, "q2": {"e": 1.0, "d": 0.5}}


def test_num_rel_ret_is_summed_and_hits_is_averaged() -> None:
    r = ranklens.evaluate(QRELS, RUN, ["NumRelRet@2", "hits@2", "num_rel_ret", "NumRel"])
    assert r.per_query("hits@2") == {"q1": 1.0, "q2": 1.0}
    assert r["NumRelRet@2"] == 2.0
    assert r["hits@2"] == 1.0
    assert r["num_rel_ret"] == 3.0
    assert r["NumRel"] == 3.0


def test_hits_parses_to_its_own_measure() -> None:
    assert str(ranklens.parse_measure("hits@10")) == "Hits@10"
    assert ranklens.parse_measure("hits@10") != ranklens.parse_measure("NumRelRet@10")
