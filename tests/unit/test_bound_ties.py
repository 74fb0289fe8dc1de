"""ties="worst" / "best": each tied group ordered by grade, worst or best first.

(These were "pessimistic" / "optimistic" before those names took scikit-learn's meaning:
tests/peers/test_sklearn_ties.py.) scikit-learn's ``average_precision_score`` and
``label_ranking_average_precision_score`` rank a tied relevant item after everything it
ties with; they agree with the worst order wherever a tied group holds at most one relevant
item (with several, scikit-learn gives each of them the precision at the group's end, which
no single order does).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import ranklens

QRELS = {"q": {"a": 1, "c": 1}}
RUN = {"q": {"a": 1.0, "b": 1.0, "c": 0.5, "d": 1.0}}


def _ap(ties: str, qrels: dict = QRELS, run: dict = RUN) -> float:
    return ranklens.evaluate(qrels, run, ["AP"], ties=ties).per_query("AP")["q"]


def test_by_hand() -> None:
    # worst: b, d, a, c -> (1/3 + 2/4) / 2; best: a, b, d, c -> (1 + 2/4) / 2
    assert _ap("worst") == pytest.approx((1 / 3 + 1 / 2) / 2)
    assert _ap("best") == pytest.approx((1 + 1 / 2) / 2)
    assert _ap("worst") <= _ap("average") <= _ap("best")
    res = ranklens.evaluate(QRELS, RUN, ["RR(ties=best)", "RR(ties=worst)", "RR"])
    assert [res["RR(ties=best)"], res["RR(ties=worst)"], res["RR"]] == [1.0, 1 / 3,
                                                                                   1 / 3]


def test_graded_groups_go_by_grade_and_unjudged_count_as_zero() -> None:
    qrels = {"q": {"a": 1, "b": 3, "c": 0}}
    run = {"q": {"a": 1.0, "b": 1.0, "c": 1.0, "x": 1.0}}
    # worst: x (unjudged), c (0), a (1), b (3); best: b, a, then c and x
    worst = ranklens.evaluate(qrels, run, ["RR", "P@2", "nDCG@3"], ties="worst")
    assert worst.per_query("RR") == {"q": 1 / 3}
    assert worst.per_query("P@2") == {"q": 0.0}
    best = ranklens.evaluate(qrels, run, ["nDCG", "P@2"], ties="best")
    assert best.per_query("nDCG") == {"q": 1.0}
    assert best.per_query("P@2") == {"q": 1.0}


def test_matches_sklearn_where_each_tied_group_holds_one_relevant_item() -> None:
    metrics = pytest.importorskip("sklearn.metrics")
    rng = random.Random(5)
    checked = 0
    for _ in range(60):
        n = rng.randint(2, 12)
        scores = [float(rng.randint(0, 4)) for _ in range(n)]
        labels = [rng.choice([0, 1]) for _ in range(n)]
        per_score: dict[float, int] = {}
        for s, y in zip(scores, labels, strict=True):
            per_score[s] = per_score.get(s, 0) + y
        if max(per_score.values()) > 1 or not any(labels):
            continue
        qrels = {"q": {f"d{i}": y for i, y in enumerate(labels)}}
        run = {"q": {f"d{i}": s for i, s in enumerate(scores)}}
        got = _ap("worst", qrels, run)
        assert got == pytest.approx(metrics.average_precision_score(labels, scores), rel=1e-12)
        assert got == pytest.approx(metrics.label_ranking_average_precision_score(
            np.array([labels]), np.array([scores])), rel=1e-12)
        checked += 1
    assert checked > 10


def test_a_bound_is_an_option_value_and_a_parameter_value() -> None:
    res = ranklens.evaluate(QRELS, RUN, ["AP"], ties="best")
    assert res.conventions["ties"] == "best"
    with pytest.raises(ranklens.ParameterError, match="'ties' option must be one of"):
        ranklens.evaluate(QRELS, RUN, ["AP"], ties="bogus")  # type: ignore[arg-type]
