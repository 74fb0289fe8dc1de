"""Fall-out@k: torchmetrics' RetrievalFallOut, and hand-computed toy cases."""

from __future__ import annotations

import random

import pytest

import ranklens


def _fallout(qrels: object, run: object, name: str, **options: object) -> dict[str, float]:
    return ranklens.evaluate(qrels, run, [name], missing="zero", **options).per_query(name)


def test_hand_computed_values() -> None:
    qrels = {"q": {"a": 1, "b": 0, "z": 0}}
    run = {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}}
    # non-relevant ranked: b, c (unjudged), d; z is not ranked
    assert _fallout(qrels, run, "FallOut@1") == {"q": 0.0}
    assert _fallout(qrels, run, "FallOut@2") == {"q": pytest.approx(1 / 3)}
    assert _fallout(qrels, run, "FallOut@10") == {"q": 1.0}
    assert _fallout({"q": {"a": 1}}, {"q": {"a": 1.0}}, "FallOut@1") == {"q": 0.0}
    assert _fallout(qrels, run, "FallOut@2", ties="average") == {"q": pytest.approx(1 / 3)}


def test_smaller_is_better_and_a_cutoff_is_required() -> None:
    assert ranklens.parse_measure("fallout@5").definition.lower_is_better
    with pytest.raises(ranklens.MeasureError, match="needs a cutoff"):
        ranklens.parse_measure("FallOut")


def test_averaged_ties_by_hand() -> None:
    qrels = {"q": {"a": 1}}
    run = {"q": {"a": 1.0, "b": 1.0, "c": 1.0}}
    # the top 1 is b or c (non-relevant) with chance 2/3: 2/3 of one of two
    assert _fallout(qrels, run, "FallOut@1", ties="average")["q"] == pytest.approx(1 / 3)


@pytest.mark.parametrize("k", [1, 3, 10])
def test_matches_torchmetrics_retrieval_fall_out(k: int) -> None:
    torch = pytest.importorskip("torch")
    functional = pytest.importorskip("torchmetrics.functional.retrieval")
    rng = random.Random(k)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(40):
        docs = [f"d{i}" for i in range(rng.randint(2, 20))]
        run[f"q{q}"] = {d: rng.random() for d in docs}
        qrels[f"q{q}"] = {d: rng.choice([0, 1]) for d in rng.sample(docs, len(docs) // 2 + 1)}
    got = _fallout(qrels, run, f"FallOut@{k}")
    checked = 0
    for q, docs in run.items():
        target = torch.tensor([qrels[q].get(d, 0) for d in docs])
        if target.all():
            continue  # no negative: torchmetrics' empty_target_action decides
        preds = torch.tensor(list(docs.values()), dtype=torch.float64)
        want = float(functional.retrieval_fall_out(preds, target, top_k=k))
        assert got[q] == pytest.approx(want, rel=1e-6), q
        checked += 1
    assert checked > 30
