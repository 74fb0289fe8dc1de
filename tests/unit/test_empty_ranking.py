"""A query given with an explicitly empty ranking is a ranking: scored, not "absent".

ranx scores such a query 0 (issue 15); trec_eval cannot write one in a run file, so only
the in-memory forms (a ``{query: {}}`` run, an empty retrieved list) can say it.
"""

from __future__ import annotations

import warnings

import pytest

import ranklens

QRELS = {"a": {"d1": 1}, "b": {"d2": 1}}
RUN = {"a": {"d1": 1.0}, "b": {}}


def test_the_issue_example_under_the_ranx_convention() -> None:
    res = ranklens.evaluate(QRELS, RUN, ["P@1"], convention="ranx")
    assert res.per_query("P@1") == {"a": 1.0, "b": 0.0}
    assert res["P@1"] == 0.5


@pytest.mark.parametrize("missing", ["zero", "skip", "error"])
def test_an_empty_ranking_is_not_missing_under_any_policy(missing: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "absent from the run" warning either
        res = ranklens.evaluate(QRELS, RUN, ["P@1", "AP", "nDCG", "RR"], missing=missing)
    assert res.per_query("AP") == {"a": 1.0, "b": 0.0}
    assert res["nDCG"] == 0.5
    assert res.diagnostics["missing_queries"] == []


def test_an_empty_ranking_differs_from_an_absent_query() -> None:
    qrels = {**QRELS, "c": {"d3": 1}}
    res = ranklens.evaluate(qrels, RUN, ["P@1"], missing="skip")
    assert res.per_query("P@1") == {"a": 1.0, "b": 0.0}  # c left out, b kept
    assert res.diagnostics["missing_queries"] == ["c"]
    with pytest.raises(ranklens.InputError, match=r"1 judged queries are absent.*'c'"):
        ranklens.evaluate(qrels, RUN, ["P@1"], missing="error")


def test_only_empty_rankings_is_not_a_run_sharing_no_query() -> None:
    res = ranklens.evaluate(QRELS, {"a": {}, "b": {}}, ["P@1", "NumRet"], missing="error")
    assert res.per_query("P@1") == {"a": 0.0, "b": 0.0}
    assert res.per_query("NumRet") == {"a": 0.0, "b": 0.0}


def test_from_pairs_with_an_empty_retrieved_list() -> None:
    qrels, run = ranklens.from_pairs({"a": ["d1"], "b": ["d2"]}, {"a": ["d1"], "b": []})
    res = ranklens.evaluate(qrels, run, ["P@1"], missing="error")
    assert res.per_query("P@1") == {"a": 1.0, "b": 0.0}
    assert run.empty_queries == ("b",)


def test_load_pairs_records_with_an_empty_retrieved_list() -> None:
    qrels, run = ranklens.load_pairs([
        {"query_id": "a", "retrieved": ["d1", "x"], "relevant": ["d1"]},
        {"query_id": "b", "retrieved": [], "relevant": ["d2"]},
    ])
    res = ranklens.evaluate(qrels, run, ["R@2"], missing="error")
    assert res.per_query("R@2") == {"a": 1.0, "b": 0.0}


def test_the_loaded_run_says_which_queries_are_empty() -> None:
    run = ranklens.load_run({"a": {"d1": 1.0}, "b": {}, "c": {}})
    assert run.empty_queries == ("b", "c")
    assert repr(run) == "Run('<run dict>', 3 queries, 1 rows)"


def test_unjudged_empty_rankings_are_ignored_like_other_unjudged_queries() -> None:
    res = ranklens.evaluate(QRELS, {**RUN, "z": {}}, ["P@1"])
    assert res.per_query("P@1") == {"a": 1.0, "b": 0.0}


def test_several_runs_one_with_an_empty_ranking() -> None:
    res = ranklens.evaluate(QRELS, {"x": RUN, "y": {"a": {"d1": 1.0}, "b": {"d2": 1.0}}},
                            ["P@1"], missing="error")
    assert res.values("P@1").tolist() == [[1.0, 1.0], [0.0, 1.0]]


# -- a run sharing no query with the judgments (issue 15) ---------------------------------


def test_explicit_missing_zero_scores_every_judged_query_when_none_is_in_the_run() -> None:
    qrels = {"q": {"d": 1}, "r": {"e": 2}}
    with pytest.warns(ranklens.RanklensWarning, match="no judgments and were ignored"):
        res = ranklens.evaluate(qrels, {"a": {"d": 1.0}}, ["AP", "nDCG@10"], missing="zero")
    assert res.per_query("AP") == {"q": 0.0, "r": 0.0}
    assert res.diagnostics["missing_queries"] == ["q", "r"]
    empty = ranklens.evaluate(qrels, {}, ["P@5"], missing="zero")
    assert empty.per_query("P@5") == {"q": 0.0, "r": 0.0}


def test_left_unset_no_shared_query_is_still_an_error() -> None:
    with pytest.raises(ranklens.InputError, match="share no query"):
        ranklens.evaluate({"q": {"d": 1}}, {"a": {"d": 1.0}}, ["AP"])


def test_no_judgments_at_all_is_a_clear_error() -> None:
    with pytest.raises(ranklens.InputError, match="the qrels hold no judgments"):
        ranklens.evaluate({}, {"a": {"d": 1.0}}, ["AP"], missing="zero")
