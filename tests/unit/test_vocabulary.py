"""Issue 39: a recommender's frames (user and item columns) get users and items in every
message, warning and rendered table; IR inputs keep IR words."""

from __future__ import annotations

import pandas as pd
import pytest

import ranklens
from ranklens import InputError, RanklensWarning
from ranklens._base.errors import DuplicateError

TEST_ITEMS = pd.DataFrame({"user_id": [1, 2, 4], "item_id": [10, 12, 13]})
RECS = pd.DataFrame({"user_id": [1, 1, 2, 2, 3], "item_id": [10, 11, 10, 12, 11],
                     "score": [0.9, 0.5, 0.8, 0.1, 0.7]})
OTHER = RECS.assign(score=[0.5, 0.9, 0.1, 0.8, 0.7])


def test_per_query_table_says_user() -> None:
    with pytest.warns(RanklensWarning):
        result = ranklens.evaluate(TEST_ITEMS, RECS, ["P@1"])
    for fmt in ("table", "markdown"):
        header = ranklens.render(result, fmt, per_query=True).splitlines()[0]
        assert "user" in header and "query" not in header
    assert repr(result).endswith("over 3 users; convention=trec, ties=docid>")
    # machine formats keep their field names whatever the inputs
    assert ranklens.render(result, "csv").startswith("run,query,P@1")


def test_ir_inputs_keep_ir_words() -> None:
    qrels = TEST_ITEMS.rename(columns={"user_id": "query_id", "item_id": "doc_id"})
    run = RECS.rename(columns={"user_id": "query_id", "item_id": "doc_id"})
    with pytest.warns(RanklensWarning, match="judged queries are absent from the run"):
        result = ranklens.evaluate(qrels, run, ["P@1"])
    assert "query" in ranklens.render(result, per_query=True).splitlines()[0]


def test_missing_users_are_warned_of_in_users_words() -> None:
    with pytest.warns(RanklensWarning, match=r"^1 users with test items are absent from the "
                      r"recommendations \(<run frame>\) and were scored 0"):
        ranklens.evaluate(TEST_ITEMS, RECS, ["P@1"])
    with pytest.raises(InputError, match="1 users with test items are absent from the "
                       "recommendations"):
        ranklens.evaluate(TEST_ITEMS, RECS, ["P@1"], missing="error")


def test_errors_say_users_and_items() -> None:
    twice = pd.DataFrame({"user_id": [1, 1], "item_id": [10, 10], "score": [0.9, 0.5]})
    with pytest.raises(DuplicateError, match=r"item '10' appears more than once for user '1' "
                       r"in the recommendations \(1 duplicated \(user, item\) pair\)"):
        ranklens.evaluate(TEST_ITEMS, twice, ["P@1"])
    stranger = pd.DataFrame({"user_id": [7], "item_id": [10], "score": [0.9]})
    with pytest.raises(InputError, match=r"the recommendations \(<run frame>\) and the test "
                       r"items \(<qrels frame>\) share no user"):
        ranklens.evaluate(TEST_ITEMS, stranger, ["P@1"])
    with pytest.raises(InputError, match="3 users have no relevant judgment"):
        ranklens.evaluate(TEST_ITEMS, RECS, ["P@1"], rel=2, empty="error", missing="zero")


def test_compare_says_users() -> None:
    with pytest.warns(RanklensWarning):
        cmp = ranklens.compare(TEST_ITEMS, {"a": RECS, "b": OTHER}, ["P@1"])
    assert "n = 3 users; seed 0." in cmp.render()


def test_report_says_users() -> None:
    with pytest.warns(RanklensWarning):
        html = ranklens.report(TEST_ITEMS, {"a": RECS, "b": OTHER}, ["P@1"], max_k=2)
    assert "<h2>Per user</h2>" in html and "filter by user id" in html
    assert '<p class="lead">3 users, 2 runs (a, b)' in html
    assert '"query":"user"' in html.replace(" ", "")


def test_grade_warning_says_test_items() -> None:
    with pytest.warns(RanklensWarning, match=r"^no test item reaches rel >= 2 \(grades go up "
                      r"to 1\) in the test items \(<qrels frame>\): nothing is relevant to "
                      r"P@1 on any user$"):
        ranklens.evaluate(TEST_ITEMS, RECS, ["P@1"], rel=2, missing="skip")


def test_the_accumulators_grade_warning_says_test_items() -> None:
    acc = ranklens.Accumulator(["P@1"], rel=2)
    acc.update(RECS, TEST_ITEMS.assign(rating=1))
    with pytest.warns(RanklensWarning, match=r"no test item reaches rel >= 2 \(grades go up to "
                                             r"1\) in the test items"):
        acc.compute()
