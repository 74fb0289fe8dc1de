"""Tie policies: docid (trec_eval), input, and average (expected value over tied orders).

The oracle for ``ties="average"`` is brute force: every order of every tied group is
written out as its own query, evaluated with ``ties="input"``, and averaged.
"""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

import ranklens
from ranklens import MeasureError, ParameterError

MEASURES = [
    "P@3", "P", "R@2", "R@4", "F@3", "F(beta2=4)@2", "Rprec", "RelP@3", "Success@1",
    "Success@3", "NumRelRet@2", "RR", "RR@2", "RR(rel=2)", "CG@3", "DCG@4", "nDCG", "nDCG@3",
    "nDCG(gain=exp2,discount=jk)@3", "nDCG(ideal=run)@2", "AP", "AP@3", "AP(denom=min)@2",
    "AP(rel=2)", "GMAP", "AR@3", "AP(judged_only=true)@4",
    # no closed form: exact enumeration
    "AP(denom=hits)@3", "Bpref", "InfAP", "RBP(p=0.5)@4", "Judged@2", "Unj@3", "nDCGRel",
    "RnDCG", "G", "BinG", "IPrec@0.5", "IPrecAvg", "RprecMult@0.6", "yaAP",
]


def _random_case(rng: random.Random, nq: int = 4) -> tuple[dict, dict]:
    qrels: dict = {}
    run: dict = {}
    for qi in range(nq):
        q = f"q{qi}"
        docs = [f"d{j}" for j in range(rng.randint(1, 6))]
        run[q] = {d: float(rng.choice([1, 2, 2, 3])) for d in docs}
        pool = [*docs, "x1", "x2"]
        qrels[q] = {d: rng.choice([0, 0, 1, 2])
                    for d in rng.sample(pool, rng.randint(1, len(pool)))}
    return qrels, run


def _brute_force(qrels: dict, run: dict, measure: str) -> dict[str, float]:
    """Mean of the measure over every order of every tied group, per query."""
    virtual_qrels: dict = {}
    virtual_run: dict = {}
    owner: dict[str, str] = {}
    for q, docs in run.items():
        groups: dict[float, list[str]] = {}
        for d, s in docs.items():
            groups.setdefault(s, []).append(d)
        ordered = [groups[s] for s in sorted(groups, reverse=True)]
        for n, combo in enumerate(itertools.product(*(itertools.permutations(g)
                                                      for g in ordered))):
            v = f"{q}#{n:05d}"
            owner[v] = q
            virtual_qrels[v] = qrels[q]
            virtual_run[v] = {d: docs[d] for g in combo for d in g}
    r = ranklens.evaluate(virtual_qrels, virtual_run, [measure], ties="input")
    sums: dict[str, list[float]] = {}
    for v, value in r.per_query(measure).items():
        sums.setdefault(owner[v], []).append(value)
    return {q: math.fsum(vs) / len(vs) for q, vs in sums.items()}


@pytest.mark.parametrize("seed", range(12))
def test_average_equals_mean_over_all_tied_orders(seed: int) -> None:
    rng = random.Random(seed)
    qrels, run = _random_case(rng)
    result = ranklens.evaluate(qrels, run, MEASURES, ties="average")
    for measure in MEASURES:
        expected = _brute_force(qrels, run, measure)
        got = result.per_query(measure)
        for q in expected:
            if measure == "GMAP":
                continue  # per query GMAP is AP; the aggregate differs
            assert got[q] == pytest.approx(expected[q], rel=1e-12, abs=1e-15), (measure, q)


def test_per_measure_ties_parameter_matches_the_option() -> None:
    qrels, run = _random_case(random.Random(99), nq=6)
    names = ["nDCG(ties=average)@3", "RR(ties=input)", "AP(ties=docid)", "P(ties=average)@2"]
    r = ranklens.evaluate(qrels, run, names)
    assert r["nDCG(ties=average)@3"] == ranklens.evaluate(qrels, run, ["nDCG@3"],
                                                          ties="average")["nDCG@3"]
    assert r["RR(ties=input)"] == ranklens.evaluate(qrels, run, ["RR"], ties="input")["RR"]
    assert r["AP(ties=docid)"] == ranklens.evaluate(qrels, run, ["AP"])["AP"]
    assert r["P(ties=average)@2"] == ranklens.evaluate(qrels, run, ["P@2"],
                                                       ties="average")["P@2"]
    # and the other way round: a docid measure inside an input-order evaluation
    r2 = ranklens.evaluate(qrels, run, ["RR(ties=docid)"], ties="input")
    assert r2["RR(ties=docid)"] == ranklens.evaluate(qrels, run, ["RR"])["RR"]


def test_tie_policies_on_a_toy_case() -> None:
    qrels = {"q": {"dA": 1}}
    run = {"q": {"dA": 1.0, "dB": 1.0}}  # dA given first, dB > dA byte-wise
    assert ranklens.evaluate(qrels, run, ["RR"])["RR"] == 0.5
    assert ranklens.evaluate(qrels, run, ["RR"], ties="input")["RR"] == 1.0
    assert ranklens.evaluate(qrels, run, ["RR"], ties="average")["RR"] == 0.75
    assert ranklens.evaluate(qrels, run, ["P@1"], ties="average")["P@1"] == 0.5
    assert ranklens.evaluate(qrels, run, ["Success@1"], ties="average")["Success@1"] == 0.5
    assert ranklens.evaluate(qrels, run, ["AP"], ties="average")["AP"] == 0.75
    # nDCG: (1 + 1/log2(3)) / 2, as sklearn's ndcg_score
    expected = (1 + 1 / math.log2(3)) / 2
    assert ranklens.evaluate(qrels, run, ["nDCG"], ties="average")["nDCG"] == pytest.approx(
        expected, abs=1e-15)


def test_average_is_bit_identical_to_docid_without_ties() -> None:
    rng = np.random.default_rng(3)
    qrels = {f"q{i}": {f"d{j}": int(rng.integers(0, 3)) for j in range(8)} for i in range(20)}
    run = {q: {f"d{j}": float(s) for j, s in enumerate(rng.permutation(10))} for q in qrels}
    names = ["AP", "nDCG@5", "RR", "P@3", "Bpref", "AP(denom=hits)@4", "Success@2"]
    plain = ranklens.evaluate(qrels, run, names)
    averaged = ranklens.evaluate(qrels, run, names, ties="average")
    for name in names:
        assert averaged.per_query(name) == plain.per_query(name)


def test_average_recorded_in_conventions() -> None:
    r = ranklens.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, ["RR"], ties="average")
    assert r.conventions["ties"] == "average"


def test_bad_tie_values() -> None:
    with pytest.raises(ParameterError, match="ties"):
        ranklens.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, ["RR"], ties="random")
    with pytest.raises(MeasureError, match="ties"):
        ranklens.parse_measure("nDCG(ties=random)")


def test_enumeration_refuses_huge_tied_groups() -> None:
    # 40 tied documents, 20 relevant: C(40, 20) arrangements and no closed form for bpref
    qrels = {"q": {f"d{i:02d}": i % 2 for i in range(40)}}
    run = {"q": {f"d{i:02d}": 1.0 for i in range(40)}}
    with pytest.raises(ParameterError, match="closed form"):
        ranklens.evaluate(qrels, run, ["Bpref"], ties="average")
    # closed forms do not care about the group size
    r = ranklens.evaluate(qrels, run, ["P@10", "RR", "AP"], ties="average")
    assert r["P@10"] == pytest.approx(0.5, abs=1e-15)
    # AP of a random order of 20 relevant among 40: E = (1/R) sum_p (r/n)(1 + (p-1)(r-1)/(n-1))/p
    n, rel = 40, 20
    expected = sum((rel / n) * (1 + (p - 1) * (rel - 1) / (n - 1)) / p
                   for p in range(1, n + 1)) / rel
    assert r["AP"] == pytest.approx(expected, rel=1e-12)


def test_text_measures_show_the_docid_order() -> None:
    qrels = {"q": {"dA": 1}}
    run = {"q": {"dA": 1.0, "dB": 1.0}}
    averaged = ranklens.evaluate(qrels, run, ["RelString@2", "RR"], ties="average")
    plain = ranklens.evaluate(qrels, run, ["RelString@2"])
    assert averaged.text_values == plain.text_values
    assert averaged["RR"] == 0.75
