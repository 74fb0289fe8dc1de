"""``ranklens.pool`` and ``ranklens.merge_judgments`` on small cases worked by hand."""

from __future__ import annotations

import pytest

import ranklens

A = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 2.0, "d4": 1.0}, "q2": {"e1": 1.0}}
B = {"q1": {"d5": 3.0, "d1": 2.0}, "q3": {"f1": 1.0}}


def test_pool_is_the_union_of_the_top_k_in_trec_eval_order() -> None:
    # A's top 2 of q1: d1, then d3 (d2 and d3 tie; trec_eval's order: doc id descending)
    got = ranklens.pool({"a": A, "b": B}, depth=2)
    assert got.frame.rows() == [
        ("q1", "d1", 2, 1), ("q1", "d5", 1, 1), ("q1", "d3", 1, 2),
        ("q2", "e1", 1, 1), ("q3", "f1", 1, 1)]
    assert ranklens.pool([A, B], depth=2, ties="input").pairs() >= {("q1", "d2")}


def test_judged_pairs_are_left_out_at_any_grade() -> None:
    got = ranklens.pool([A, B], depth=1, qrels={"q1": {"d1": 0}, "q2": {"e1": 2}})
    assert got.pairs() == {("q1", "d5"), ("q3", "f1")} and got.judged == 2
    assert got.render("csv").splitlines() == ["query_id,doc_id,relevance", "q1,d5,",
                                              "q3,f1,"]


def test_an_unjudged_pool_file_is_not_read_as_judgments(tmp_path) -> None:
    path = tmp_path / "pool.txt"
    path.write_text(ranklens.pool([A], depth=1).render())
    with pytest.raises(ranklens.InputError):
        ranklens.load_qrels(str(path))


def test_merge_is_idempotent_and_conflicts_need_a_policy() -> None:
    old = {"q1": {"d1": 1, "d2": 0}}
    new = {"q1": {"d2": 0, "d3": 2}, "q2": {"x": 1}}
    merged = ranklens.merge_judgments(old, new)
    assert merged.frame.rows() == [("q1", "d1", 1.0), ("q1", "d2", 0.0), ("q1", "d3", 2.0),
                                   ("q2", "x", 1.0)]
    assert ranklens.merge_judgments(merged, new).frame.rows() == merged.frame.rows()
    assert ranklens.merge_judgments(merged, old).frame.rows() == merged.frame.rows()
    clash = {"q1": {"d1": 2, "d2": 1}}
    with pytest.raises(ranklens.InputError, match=r"2 pairs are judged with different grades "
                                                  r"in the two judgments, e.g. query 'q1' doc "
                                                  r"'d1': 1 before, 2 in the new ones"):
        ranklens.merge_judgments(merged, clash)
    kept = ranklens.merge_judgments(merged, clash, conflicts="keep")
    assert kept.frame.rows() == merged.frame.rows()
    replaced = ranklens.merge_judgments(merged, clash, conflicts="replace")
    assert replaced.frame.rows()[:2] == [("q1", "d1", 2.0), ("q1", "d2", 1.0)]
    with pytest.raises(ranklens.ParameterError, match="'conflicts' option must be one of"):
        ranklens.merge_judgments(old, new, conflicts="max")  # type: ignore[arg-type]


def test_pool_refuses_a_bad_depth() -> None:
    with pytest.raises(ranklens.ParameterError, match="'depth' option must be a positive integer; "
                                                      "got 0"):
        ranklens.pool([A], depth=0)
