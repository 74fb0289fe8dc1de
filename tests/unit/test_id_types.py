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


def test_integer_indexes_of_evaluate_arrays_come_back_as_integers() -> None:
    # torchmetrics' flat form: indexes are the users' ids
    res = ranklens.evaluate_arrays([0, 1, 1, 0, 1], ["RR"], scores=[0.2, 0.8, 0.5, 0.9, 0.1],
                                   indexes=[10, 10, 2, 2, 7])
    frame = res.to_polars()
    assert frame["query_id"].to_list() == [2, 7, 10]
    assert frame["RR"].to_list() == [0.5, 1.0, 1.0]
    assert res.per_query("RR") == {"02": 0.5, "07": 1.0, "10": 1.0}  # zero-padded text
    negative = ranklens.evaluate_arrays([1, 0, 1], ["RR"], scores=[0.2, 0.8, 0.5],
                                        indexes=[-3, -3, 4])
    assert negative.to_polars()["query_id"].to_list() == [-3, 4]
    text = ranklens.evaluate_arrays([1, 0, 1], ["RR"], scores=[0.2, 0.8, 0.5],
                                    indexes=["u10", "u10", "u2"])
    assert text.to_polars()["query_id"].to_list() == ["u10", "u2"]


def test_rows_of_a_label_matrix_are_integers_in_row_order() -> None:
    hits = [[1, 0]] * 11 + [[0, 1]]
    frame = ranklens.evaluate_arrays(hits, ["RR", "R@2"], n_relevant=[1] * 11 + [3]).to_polars()
    assert frame["query_id"].dtype.is_integer()
    assert frame["query_id"].to_list() == list(range(12))
    assert frame["RR"].to_list() == [1.0] * 11 + [0.5]
    assert frame["R@2"].to_list()[-1] == 1 / 3  # the counted items keep the integer ids


def test_integer_question_ids_of_pairs_come_back_as_integers() -> None:
    qrels, run = ranklens.from_pairs({10: ["a"], 2: ["b"]}, {10: ["a"], 2: ["c", "b"]})
    frame = ranklens.evaluate(qrels, run, ["RR"]).to_polars()
    assert frame["query_id"].to_list() == [2, 10]
    assert frame["RR"].to_list() == [0.5, 1.0]
    # aligned lists: the questions are numbered 0, 1, ... (integers)
    qrels, run = ranklens.from_pairs([["b"]] * 11, [["a", "b"]] * 10 + [["b"]])
    frame = ranklens.evaluate(qrels, run, ["RR"]).to_polars()
    assert frame["query_id"].to_list() == list(range(11))
    assert frame["RR"].to_list() == [0.5] * 10 + [1.0]
    records = [{"id": 10, "retrieved": ["a"], "relevant": ["a"]},
               {"id": 2, "retrieved": ["b", "a"], "relevant": ["a"]}]
    qrels, run = ranklens.load_pairs(records)
    res = ranklens.evaluate(qrels, run, ["RR"])
    assert res.to_polars()["query_id"].to_list() == [2, 10]
    pytest.importorskip("pandas")
    assert res.to_pandas()["query_id"].tolist() == [2, 10]


def test_mixed_or_text_question_ids_stay_strings(tmp_path: object) -> None:
    from pathlib import Path
    qrels, run = ranklens.load_pairs([{"id": 10, "retrieved": ["a"], "relevant": ["a"]},
                                      {"id": "x", "retrieved": ["b"], "relevant": ["a"]}])
    assert ranklens.evaluate(qrels, run, ["RR"]).to_polars()["query_id"].to_list() == ["10",
                                                                                        "x"]
    path = Path(str(tmp_path)) / "pairs.jsonl"
    path.write_text('{"id": 10, "retrieved": ["a"], "relevant": ["a"]}\n'
                    '{"id": 9, "retrieved": ["b"], "relevant": ["a"]}\n')
    qrels, run = ranklens.load_pairs(path)  # JSON integers are integers
    assert ranklens.evaluate(qrels, run, ["RR"]).to_polars()["query_id"].to_list() == [9, 10]
    path.write_text('{"id": "10", "retrieved": ["a"], "relevant": ["a"]}\n')
    qrels, run = ranklens.load_pairs(path)  # JSON strings stay strings
    assert ranklens.evaluate(qrels, run, ["RR"]).to_polars()["query_id"].to_list() == ["10"]
