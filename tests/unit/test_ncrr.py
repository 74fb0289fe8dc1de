"""NCRR@k as Cornac computes it (a transcription of its definition; Cornac is not a test
dependency: it builds C++ extensions), with hand-computed toy cases."""

from __future__ import annotations

import itertools
import random

import pytest

import ranklens


def _ncrr(qrels: object, run: object, name: str, **options: object) -> dict[str, float]:
    return ranklens.evaluate(qrels, run, [name], missing="zero", **options).per_query(name)


def _cornac(relevant: set[str], ranking: list[str], k: int | None) -> float:
    """Cornac's NCRR.compute: CRR of the top k over the CRR of min(|relevant|, len(top k))
    relevant items ranked first; 0 without a hit."""
    top = ranking[:k] if k else ranking
    crr = sum(1.0 / (i + 1) for i, d in enumerate(top) if d in relevant)
    if crr == 0:
        return 0.0
    return crr / sum(1.0 / i for i in range(1, min(len(relevant), len(top)) + 1))


def test_hand_computed_values() -> None:
    qrels = {"q": {"a": 1, "c": 1, "z": 1}}
    run = {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}}
    # CRR = 1 + 1/3; ideal: three relevant, four ranked: 1 + 1/2 + 1/3
    assert _ncrr(qrels, run, "NCRR") == {"q": pytest.approx((1 + 1 / 3) / (1 + 1 / 2 + 1 / 3))}
    # top 2 holds a only; ideal of two: 1 + 1/2
    assert _ncrr(qrels, run, "NCRR@2") == {"q": pytest.approx(1 / 1.5)}
    # a two-document ranking is compared with an ideal of two, as Cornac truncates
    short = {"q": {"b": 2.0, "a": 1.0}}
    assert _ncrr(qrels, short, "NCRR@10") == {"q": pytest.approx(0.5 / 1.5)}
    assert _ncrr({"q": {"x": 1}}, run, "NCRR@3") == {"q": 0.0}


def test_averaged_ties_by_hand() -> None:
    qrels = {"q": {"a": 1}}
    run = {"q": {"a": 1.0, "b": 1.0, "c": 1.0}}
    # a at rank 1, 2 or 3 with equal chance; ideal 1
    assert _ncrr(qrels, run, "NCRR", ties="average")["q"] == pytest.approx((1 + 1 / 2 + 1 / 3) / 3)
    orders = list(itertools.permutations("abc"))
    expected = sum(_cornac({"a"}, list(o), 2) for o in orders) / len(orders)
    assert _ncrr(qrels, run, "NCRR@2", ties="average")["q"] == pytest.approx(expected)


@pytest.mark.parametrize("k", [None, 1, 3, 10])
def test_matches_a_transcription_of_cornac(k: int | None) -> None:
    rng = random.Random(11)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(50):
        docs = [f"d{i}" for i in range(rng.randint(1, 25))]
        run[f"q{q}"] = {d: rng.random() for d in docs}
        qrels[f"q{q}"] = {d: rng.choice([0, 1]) for d in rng.sample(docs, len(docs) // 2)}
        qrels[f"q{q}"][f"u{q}"] = rng.choice([0, 1])  # maybe a relevant unretrieved item
    name = "NCRR" if k is None else f"NCRR@{k}"
    got = _ncrr(qrels, run, name)
    for q, docs in run.items():
        ranking = sorted(docs, key=docs.__getitem__, reverse=True)
        relevant = {d for d, g in qrels[q].items() if g >= 1}
        assert got[q] == pytest.approx(_cornac(relevant, ranking, k), rel=1e-13), q
