"""Result.aggregate: weighted means (scikit-learn's sample_weight) and medians (RePlay)."""

from __future__ import annotations

import numpy as np
import pytest

import ranklens
from ranklens import ParameterError

QRELS = {"a": {"d": 1}, "b": {"d": 1}, "c": {"d": 1}, "e": {"x": 0}}
RUN = {"a": {"d": 1.0}, "b": {"x": 1.0, "d": 0.5}, "c": {"d": 1.0}, "e": {"x": 1.0}}


def test_median_and_weighted_mean_by_hand() -> None:
    r = ranklens.evaluate(QRELS, RUN, ["RR"])
    assert r.per_query("RR") == {"a": 1.0, "b": 0.5, "c": 1.0, "e": 0.0}
    assert r.aggregate("RR") == r["RR"] == 2.5 / 4
    assert r.aggregate("RR", "median") == 0.75
    assert r.aggregate("recip_rank", weights={"a": 1, "b": 2}) == pytest.approx(2 / 3)
    assert r.aggregate("RR", weights=np.array([0.0, 1.0, 0.0, 1.0])) == 0.25


def test_queries_left_out_by_the_empty_policy_do_not_count() -> None:
    r = ranklens.evaluate(QRELS, RUN, ["RR"], empty="skip")
    assert r.aggregate("RR") == r["RR"] == 2.5 / 3
    assert r.aggregate("RR", "median") == 1.0


def test_matches_sklearn_ndcg_score_sample_weight() -> None:
    metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(8)
    truth = rng.integers(0, 3, size=(12, 6))
    truth[:, 0] = 1  # every query has a relevant item
    scores = rng.random((12, 6))
    weights = rng.random(12)
    r = ranklens.evaluate_arrays(truth, ["nDCG(ideal=run)@4"], scores=scores, ties="average")
    want = metrics.ndcg_score(truth, scores, k=4, sample_weight=weights)
    assert r.aggregate("nDCG(ideal=run)@4", weights=weights) == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"how": "max"}, "'how' argument must be one of mean, median; got 'max'"),
    ({"weights": {"zz": 1.0}}, r"weights name queries that were not evaluated: \['zz'\]"),
    ({"weights": [1.0, 2.0]}, r"one value per query \(4\), got shape \(2,\)"),
    ({"weights": {"a": -1.0}}, "finite numbers >= 0, not all 0"),
    ({"weights": {"a": 0.0}}, "finite numbers >= 0, not all 0"),
    ({"how": "median", "weights": {"a": 1.0}}, "weights apply to the mean only"),
])
def test_bad_arguments(kwargs: dict, message: str) -> None:
    r = ranklens.evaluate(QRELS, RUN, ["RR"])
    with pytest.raises(ParameterError, match=message):
        r.aggregate("RR", **kwargs)
