"""Compat (Clarke et al. 2021) as ir_measures' compat provider computes it.

ir_measures' own test (its data in ../shared/peer_data, values from a run of Clarke's
Compatibility code), hand-computed toy cases, and the provider itself on random rankings.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from conftest import conformance_root

import ranklens
from ranklens import Measure


def _compat(qrels: object, run: object, name: str = "Compat") -> dict[str, float]:
    return ranklens.evaluate(qrels, run, [name], missing="zero").per_query(name)


def _rbo(ranking: list[str], ideal: list[str], p: float, depth: int = 0) -> float:
    """RBO written out: the overlap of the two prefixes at each depth, to the longer list
    (or ``depth``)."""
    depth = depth or max(len(ranking), len(ideal))
    score = norm = 0.0
    for i in range(1, depth + 1):
        score += p ** (i - 1) * len(set(ranking[:i]) & set(ideal[:i])) / i
        norm += p ** (i - 1)
    return score / norm


@pytest.fixture(scope="module")
def compat_data() -> tuple[Path, Path]:
    root = conformance_root().parent / "peer_data"
    qrels, run = root / "ir_measures_compat.qrels", root / "ir_measures_compat.run"
    if not qrels.is_file():
        if os.environ.get("CI"):
            pytest.fail(f"peer data not found at {root}")
        pytest.skip(f"peer data not found at {root}")
    return qrels, run


@pytest.mark.parametrize(("p", "expected"), [
    (0.95, (0.51779512165509, 0.018400100569017922)),
    (0.9, (0.3761334522946854, 0.004344079941789211)),
    (0.8, (0.16723008845234535, 0.00022806427320561776)),
])
def test_ir_measures_documented_values(compat_data: tuple[Path, Path], p: float,
                                       expected: tuple[float, float]) -> None:
    got = _compat(str(compat_data[0]), str(compat_data[1]), f"Compat(p={p})")
    assert (got["31_1"], got["31_2"]) == pytest.approx(expected, abs=1e-9)


def test_ir_measures_documented_mean(compat_data: tuple[Path, Path]) -> None:
    res = ranklens.evaluate(str(compat_data[0]), str(compat_data[1]), ["Compat"])
    assert res["Compat"] == pytest.approx(0.268097611, abs=1e-9)


def test_an_ideal_ranking_scores_one_and_rbo_by_hand() -> None:
    qrels = {"q": {"a": 2, "b": 1, "c": 0}}
    assert _compat(qrels, {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}) == {"q": pytest.approx(1.0)}
    run = {"q": {"x": 3.0, "b": 2.0, "a": 1.0}}
    ideal = ["a", "b"]
    raw = _rbo(["x", "b", "a"], ideal, 0.9)
    assert _compat(qrels, run, "Compat(p=0.9,normalize=false)")["q"] == pytest.approx(
        raw, rel=1e-13)
    # the ideal ranking's own RBO is taken to the same depth (3, the ranking's length)
    assert _compat(qrels, run, "Compat(p=0.9)")["q"] == pytest.approx(
        raw / _rbo(ideal, ideal, 0.9, depth=3), rel=1e-13)


def test_the_ideal_ranking_puts_unretrieved_documents_after_retrieved_ones_of_a_grade() -> None:
    qrels = {"q": {"a": 1, "b": 1, "z": 1}}
    run = {"q": {"n": 2.0, "b": 1.0}}
    assert _compat(qrels, run, "Compat(normalize=false)")["q"] == pytest.approx(
        _rbo(["n", "b"], ["b", "a", "z"], 0.95), rel=1e-13)
    # nothing relevant retrieved, nothing relevant judged
    assert _compat(qrels, {"q": {"n": 1.0}})["q"] == 0.0
    assert _compat({"q": {"a": 0}}, {"q": {"a": 1.0}})["q"] == 0.0


def test_names() -> None:
    assert ranklens.parse_measure("compat(p=0.8)") == Measure("Compat")(p=0.8)
    assert str(Measure("Compat")(normalize=False)) == "Compat(normalize=false)"


def test_matches_ir_measures_compat_provider_on_random_rankings() -> None:
    ir_measures = pytest.importorskip("ir_measures")
    rng = random.Random(7)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(40):
        docs = [f"d{i}" for i in range(rng.randint(1, 40))]
        run[f"q{q}"] = {d: rng.random() + 0.01 for d in docs}  # distinct, positive scores
        judged = rng.sample(docs, k=len(docs) // 2) + [f"u{i}" for i in range(rng.randint(0, 5))]
        qrels[f"q{q}"] = {d: rng.choice([0, 1, 1, 2, 3]) for d in judged} or {"u": 0}
    for name in ("Compat", "Compat(p=0.8)", "Compat(p=0.5,normalize=false)"):
        measure = ir_measures.parse_measure(name.replace("false", "False"))
        want = {m.query_id: m.value for m in ir_measures.compat.iter_calc([measure], qrels, run)}
        got = _compat(qrels, run, name)
        for qid, value in want.items():
            assert got[qid] == pytest.approx(value, rel=1e-9, abs=1e-12), (name, qid)
