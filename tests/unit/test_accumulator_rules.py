"""Issue 39 for the accumulator: which queries count, and bad requests refused clearly.

The accumulator, ``evaluate_arrays`` and ``evaluate`` share one rule: a judged query with no
relevant label scores 0 and counts (``empty="zero"``), and ``empty="skip"`` leaves it out.
Arrays label every candidate, so a user without test items is judged; judgments that list
only test items never name that user. ``empty="skip"`` gives ``evaluate``'s means.
"""

from __future__ import annotations

import warnings

import numpy as np
import polars as pl
import pytest

import ranklens
from ranklens import InputError, MeasureError, ParameterError

MEASURES = ["nDCG@10", "AP", "RR"]


def _data() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    scores = rng.random((40, 12))
    labels = (rng.random((40, 12)) < 0.08).astype(float)
    labels[:3] = 0  # users without test items, whatever the seed
    users = np.array([f"u{k:03d}" for k in range(40)])
    return scores, labels, users


def test_the_accumulator_gives_evaluates_means_under_empty_skip() -> None:
    scores, labels, users = _data()
    empty = int((labels.sum(axis=1) == 0).sum())
    n_c = scores.shape[1]
    items = np.tile(np.arange(n_c), len(users)).astype(str)
    run = pl.DataFrame({"user_id": np.repeat(users, n_c), "item_id": items,
                        "score": scores.ravel()})
    test_items = pl.DataFrame({"user_id": np.repeat(users, n_c), "item_id": items,
                               "rating": labels.ravel()}).filter(pl.col("rating") > 0)
    arrays = ranklens.Accumulator(MEASURES, empty="skip")
    arrays.update(scores, labels, indexes=users)
    tables = ranklens.Accumulator(MEASURES, empty="skip")
    tables.update(run, test_items)
    counted = ranklens.Accumulator(MEASURES)
    counted.update(scores, labels, indexes=users)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tables name the users without test items
        offline = ranklens.evaluate(test_items, run, MEASURES)
        results = [arrays.compute(), tables.compute(),
                   ranklens.evaluate_arrays(labels, MEASURES, scores=scores, empty="skip")]
    for result in results:
        assert {m: result[m] for m in MEASURES} == {m: offline[m] for m in MEASURES}
    # the default counts them as 0, and the result says how many there are
    zero = counted.compute()
    assert zero.diagnostics["empty_queries"] == dict.fromkeys(MEASURES, empty)
    assert zero["AP"] == pytest.approx(offline["AP"] * (len(users) - empty) / len(users))


def test_measures_must_be_given() -> None:
    with pytest.raises(ParameterError, match="'measures' argument must be a measure name"):
        ranklens.Accumulator(None)  # type: ignore[arg-type]


def test_every_label_ignored_says_so() -> None:
    acc = ranklens.Accumulator("nDCG@2", ignore_index=-100)
    acc.update([[0.1, 0.2]], [[-100, -100]])
    with pytest.raises(InputError, match=r"every label given to update\(\) equals "
                                         r"ignore_index \(-100\)"):
        acc.compute()


@pytest.mark.parametrize("measure", ["Coverage@2", "Novelty@5"])
def test_measures_needing_item_tables_are_refused_when_built(measure: str) -> None:
    with pytest.raises(MeasureError, match="the accumulator does not take"):
        ranklens.Accumulator(["nDCG@10", measure])


def _recommender_tables() -> tuple[pl.DataFrame, pl.DataFrame]:
    run = pl.DataFrame({"user_id": [1, 1, 2, 2, 3], "item_id": [10, 11, 10, 12, 11],
                        "score": [0.9, 0.5, 0.8, 0.1, 0.7]})
    test_items = pl.DataFrame({"user_id": [1, 2], "item_id": [10, 12], "rating": [1, 1]})
    return run, test_items


def test_users_without_test_items_are_a_count_not_a_warning() -> None:
    # normal in recommendation: counted in the diagnostics, not warned of on every call
    run, test_items = _recommender_tables()
    acc = ranklens.Accumulator("nDCG@2")
    acc.update(run, test_items)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        offline = ranklens.evaluate(test_items, run, "nDCG@2")
        online = acc.compute()
    assert online["nDCG@2"] == offline["nDCG@2"]
    assert offline.diagnostics["ignored_queries"] == ["3"]
    assert offline.diagnostics["users_without_test_items"] == 1
    assert online.diagnostics["users_without_test_items"] == 1


def test_query_tables_keep_the_words_of_queries() -> None:
    run, test_items = _recommender_tables()
    names = {"user_id": "query_id", "item_id": "doc_id"}
    with pytest.warns(ranklens.RanklensWarning, match="1 queries of the run .* have no "
                                                      "judgments and were ignored"):
        result = ranklens.evaluate(test_items.rename(names), run.rename(names), "nDCG@2")
    assert "users_without_test_items" not in result.diagnostics
