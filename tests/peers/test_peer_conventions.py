"""Conventions of the recommender peers, under ranklens names (issue 15): P@k divided by
min(k, list length), DCG with another log base, hit_rate@k / hit@k for Success@k."""

from __future__ import annotations

import random

import numpy as np
import pytest

import ranklens
from ranklens import Measure


def _values(qrels: object, run: object, name: str) -> dict[str, float]:
    return ranklens.evaluate(qrels, run, [name], missing="zero").per_query(name)


def test_adaptive_precision_divides_by_the_list_length_when_shorter_than_k() -> None:
    qrels = {"q": {"a": 1, "b": 1}}
    run = {"q": {"a": 2.0, "x": 1.0}}
    assert _values(qrels, run, "P@10") == {"q": 0.1}
    assert _values(qrels, run, "P(adaptive=true)@10") == {"q": 0.5}
    assert _values(qrels, run, "P(adaptive=true)@1") == {"q": 1.0}
    assert _values(qrels, run, "P(adaptive=true)@2") == _values(qrels, run, "P@2")


def test_adaptive_precision_matches_torchmetrics_adaptive_k() -> None:
    torch = pytest.importorskip("torch")
    functional = pytest.importorskip("torchmetrics.functional.retrieval")
    rng = random.Random(2)
    for _ in range(30):
        n = rng.randint(1, 12)
        scores = [rng.random() for _ in range(n)]
        labels = [rng.choice([0, 1]) for _ in range(n)]
        k = rng.randint(1, 15)
        docs = {f"d{i}": s for i, s in enumerate(scores)}
        qrels = {"q": {f"d{i}": g for i, g in enumerate(labels)}}
        want = float(functional.retrieval_precision(
            torch.tensor(scores), torch.tensor(labels), top_k=k, adaptive_k=True))
        got = _values(qrels, {"q": docs}, f"P(adaptive=true)@{k}")["q"]
        assert got == pytest.approx(want, rel=1e-6)


def test_dcg_log_base_matches_sklearn_dcg_score() -> None:
    metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(4)
    for base in (2.0, np.e, 10.0, 1.5):
        grades = rng.integers(0, 4, size=8)
        scores = rng.random(8)
        qrels = {"q": {f"d{i}": int(g) for i, g in enumerate(grades)}}
        run = {"q": {f"d{i}": float(s) for i, s in enumerate(scores)}}
        for k in (None, 3):
            name = f"DCG(log_base={base!r})" + ("" if k is None else f"@{k}")
            want = metrics.dcg_score([grades], [scores], k=k, log_base=base)
            assert _values(qrels, run, name)["q"] == pytest.approx(want, rel=1e-13), name


def test_log_base_leaves_ndcg_unchanged_and_must_be_at_least_one() -> None:
    qrels = {"q": {"a": 2, "b": 1}}
    run = {"q": {"b": 2.0, "a": 1.0}}
    assert _values(qrels, run, "nDCG(log_base=10)")["q"] == pytest.approx(
        _values(qrels, run, "nDCG")["q"], rel=1e-14)
    assert _values(qrels, run, "DCG(log_base=1)") == {"q": 0.0}
    with pytest.raises(ranklens.MeasureError, match=r"log_base.*>= 1"):
        Measure("DCG")(log_base=0.5)


@pytest.mark.parametrize("name", ["hit@5", "hit_rate@5", "HitRate@5", "success@5"])
def test_hit_names_mean_success(name: str) -> None:
    assert ranklens.parse_measure(name) == Measure("Success", cutoff=5)
