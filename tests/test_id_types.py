"""Query ids given as integers (recommender user ids) stay integers, in numeric order, in
to_polars / to_pandas (issue 15)."""

from __future__ import annotations

import pytest

import ranklens

QRELS = {2: {"a": 1}, 10: {"b": 1}, 1: {"a": 1}}
RUN = {2: {"a": 1.0}, 10: {"x": 1.0}, 1: {"b": 1.0, "a": 0.5}}


def test_integer_ids_of_a_mapping_come_back_as_integers_in_numeric_order() -> None:
    res = ranklens.evaluate(QRELS, RUN, ["RR"])
    frame = res.to_polars()
    assert frame["query_id"].to_list() == [1, 2, 10]
    assert frame["RR"].to_list() == [0.5, 1.0, 0.0]
    assert list(res.query_ids) == ["1", "10", "2"]  # trec_eval order, as strings
    pytest.importorskip("pandas")
    assert res.to_pandas()["query_id"].tolist() == [1, 2, 10]


def test_integer_ids_of_a_frame_and_several_runs() -> None:
    pd = pytest.importorskip("pandas")
    truth = pd.DataFrame({"user_id": [10, 2], "item_id": [5, 6]})
    recs = pd.DataFrame({"user_id": [10, 2], "item_id": [5, 7], "score": [1.0, 1.0]})
    res = ranklens.evaluate(truth, {"a": recs, "b": recs}, ["P@1"])
    frame = res.to_polars()
    assert frame["query_id"].to_list() == [2, 10, 2, 10]
    assert frame["run"].to_list() == ["a", "a", "b", "b"]


def test_string_ids_stay_strings() -> None:
    res = ranklens.evaluate({"2": {"a": 1}, "10": {"a": 1}}, {"2": {"a": 1.0}}, ["RR"],
                            missing="zero")
    assert res.to_polars()["query_id"].to_list() == ["10", "2"]
