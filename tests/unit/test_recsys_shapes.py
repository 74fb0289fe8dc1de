"""Recommender and RAG input shapes (issue 15): implicit-feedback frames, a ``rating``
column, Microsoft Recommenders' column names, aligned id lists."""

from __future__ import annotations

import warnings

import pytest

import ranklens


def test_an_interactions_frame_without_relevance_means_every_pair_is_relevant() -> None:
    pd = pytest.importorskip("pandas")
    interactions = pd.DataFrame({"user_id": [1, 1, 2], "item_id": [10, 11, 12]})
    recs = pd.DataFrame({"user_id": [1, 1, 2, 2], "item_id": [10, 13, 14, 12],
                         "prediction": [0.9, 0.8, 0.5, 0.3]})
    res = ranklens.evaluate(interactions, recs, ["P@2", "R@2", "RR"])
    assert res.per_query("P@2") == {"1": 0.5, "2": 0.5}
    assert res.per_query("R@2") == {"1": 0.5, "2": 1.0}
    assert res.per_query("RR") == {"1": 1.0, "2": 0.5}
    qrels = ranklens.load_qrels(interactions)
    assert qrels.frame["relevance"].to_list() == [1.0, 1.0, 1.0]


def test_microsoft_recommenders_columns_and_a_rating_column() -> None:
    pd = pytest.importorskip("pandas")
    # Microsoft Recommenders' rating_true / rating_pred frames: userID, itemID, rating,
    # prediction
    rating_true = pd.DataFrame({"userID": [1, 1, 2], "itemID": [1, 2, 3],
                                "rating": [5.0, 3.0, 4.0]})
    rating_pred = pd.DataFrame({"userID": [1, 1, 2], "itemID": [2, 1, 3],
                                "prediction": [0.9, 0.2, 0.7]})
    qrels = ranklens.load_qrels(rating_true)
    assert qrels.frame["relevance"].to_list() == [5.0, 3.0, 4.0]
    res = ranklens.evaluate(rating_true, rating_pred, ["nDCG@2", "P@1"])
    assert res.per_query("P@1") == {"1": 1.0, "2": 1.0}
    # user 1: ideal order 5, 3; ranked 3 then 5
    assert res.per_query("nDCG@2")["1"] == pytest.approx(
        (3 + 5 / 1.584962500721156) / (5 + 3 / 1.584962500721156))


def test_from_pairs_with_aligned_lists() -> None:
    # LlamaIndex's RetrieverEvaluator and ragas hold expected and retrieved ids per query
    expected = [["c2"], ["c5", "c9"], []]
    retrieved = [["c7", "c2", "c9"], ["c5"], ["c1"]]
    qrels, run = ranklens.from_pairs(expected, retrieved)
    res = ranklens.evaluate(qrels, run, ["RR", "Success@1", "R@3"])
    assert res.per_query("RR") == {"0": 0.5, "1": 1.0, "2": 0.0}
    assert res.per_query("hit@1") == {"0": 0.0, "1": 1.0, "2": 0.0}
    assert res.per_query("R@3") == {"0": 1.0, "1": 0.5, "2": 0.0}


def test_aligned_lists_must_have_one_entry_per_query() -> None:
    with pytest.raises(ranklens.InputError, match="one entry per query each; got 2 and 1"):
        ranklens.from_pairs([["a"], ["b"]], [["a"]])


def test_an_unrecognised_column_is_not_read_as_implicit_feedback() -> None:
    pd = pytest.importorskip("pandas")
    with pytest.raises(ranklens.InputError, match="expected a 'relevance' column"):
        ranklens.load_qrels(pd.DataFrame({"user": [1], "item": [2], "stars": [3]}))
    timed = pd.DataFrame({"user": [1], "item": [2], "timestamp": [1700000000]})
    assert ranklens.load_qrels(timed).frame["relevance"].to_list() == [1.0]


def test_a_rating_column_warns_only_while_rel_stays_one() -> None:
    pd = pytest.importorskip("pandas")
    ratings = pd.DataFrame({"user_id": [1, 1, 2], "item_id": [10, 11, 10],
                            "rating": [5, 3, 4]})
    recs = pd.DataFrame({"user_id": [1, 1, 2], "item_id": [10, 11, 12],
                         "score": [0.9, 0.5, 0.3]})
    with pytest.warns(ranklens.RanklensWarning, match=r"'rating' .* pass rel=4 \(--rel 4\)"):
        ranklens.evaluate(ratings, recs, ["P@2"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # rel given: the ratings of 4 and 5 are the relevant ones, and nothing is said
        assert ranklens.evaluate(ratings, recs, ["P@2"], rel=4)["P@2"] == 0.25
        judged = ranklens.Judgments(ratings, ["P@2"], rel=4)
        assert judged.evaluate(recs)["P@2"] == 0.25
