"""Recall at a fixed precision: torchmetrics' RetrievalRecallAtFixedPrecision on one query,
and hand-computed toy cases."""

from __future__ import annotations

import random

import pytest

import ranklens


def _rap(qrels: object, run: object, name: str) -> dict[str, float]:
    return ranklens.evaluate(qrels, run, [name], missing="zero").per_query(name)


QRELS = {"q": {"a": 1, "b": 1, "c": 1}}
RUN = {"q": {"a": 5.0, "x": 4.0, "b": 3.0, "y": 2.0, "z": 1.0}}


def test_hand_computed_values() -> None:
    # P@k = 1, 1/2, 2/3, 1/2, 2/5 and R@k = 1/3, 1/3, 2/3, 2/3, 2/3 (c is not retrieved)
    assert _rap(QRELS, RUN, "RecallAtPrecision(min_precision=0.6)") == {"q": 2 / 3}
    assert _rap(QRELS, RUN, "RecallAtPrecision(min_precision=0.7)") == {"q": 1 / 3}
    assert _rap(QRELS, RUN, "RecallAtPrecision(min_precision=0.6)@2") == {"q": 1 / 3}
    assert _rap(QRELS, RUN, "RecallAtPrecision(min_precision=1.5)") == {"q": 0.0}
    assert _rap(QRELS, RUN, "RecallAtPrecision(min_precision=0)@4") == _rap(QRELS, RUN, "R@4")
    assert _rap(QRELS, RUN, "RecallAtPrecision") == {"q": 2 / 3}  # min_precision 0.5


@pytest.mark.parametrize("min_precision", [0.0, 0.25, 0.5, 0.8])
def test_matches_torchmetrics_on_one_query(min_precision: float) -> None:
    torch = pytest.importorskip("torch")
    retrieval = pytest.importorskip("torchmetrics.retrieval")
    rng = random.Random(int(min_precision * 100))
    for _ in range(25):
        n = rng.randint(2, 15)
        labels = [rng.choice([0, 0, 1]) for _ in range(n)]
        labels[rng.randrange(n)] = 1  # torchmetrics needs a positive
        scores = [rng.random() for _ in range(n)]
        max_k = rng.randint(1, n)
        metric = retrieval.RetrievalRecallAtFixedPrecision(min_precision=min_precision,
                                                           max_k=max_k)
        want, _ = metric(torch.tensor(scores), torch.tensor(labels),
                         indexes=torch.zeros(n, dtype=torch.long))
        qrels = {"q": {f"d{i}": g for i, g in enumerate(labels)}}
        run = {"q": {f"d{i}": s for i, s in enumerate(scores)}}
        got = _rap(qrels, run, f"RecallAtPrecision(min_precision={min_precision})@{max_k}")
        assert got["q"] == pytest.approx(float(want), rel=1e-6)
