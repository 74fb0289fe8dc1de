"""Propensity-scored measures (PSP, PSnDCG, PSR): analysis.md 3.2's golden values, a direct
implementation of the paper's and pyxclib's formulas, and the propensity model's presets."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ranklens
from ranklens._base.errors import MeasureError
from ranklens._measures.rec_propensity import PRESETS, inverse_propensity

# analysis.md 3.2: 8 training instances, label counts N_l, three test instances
COUNTS = [7, 4, 2, 1, 1, 1]
Y = [[1, 0, 1, 0, 0, 0], [0, 1, 0, 0, 1, 0], [1, 0, 0, 1, 0, 1]]
S = [[.9, .8, .1, .3, .2, 0], [.2, .7, .6, .1, .5, 0], [.1, .2, .3, .9, .4, .8]]


def _train(counts: list[int], n: int) -> pl.DataFrame:
    """``n`` users, each with item Z; label lab held by ``counts[lab]`` of them."""
    rows = [(f"t{u}", f"L{lab}") for lab, c in enumerate(counts) for u in range(c)]
    rows += [(f"t{u}", "Z") for u in range(n)]
    return pl.DataFrame({"user_id": [r[0] for r in rows], "item_id": [r[1] for r in rows]})


def _tables(y: list[list[int]], s: list[list[float]]) -> tuple[dict, dict]:
    qrels = {f"i{i}": {f"L{lab}": 1 for lab, v in enumerate(row) if v} for i, row in enumerate(y)}
    run = {f"i{i}": {f"L{lab}": v for lab, v in enumerate(row)} for i, row in enumerate(s)}
    return qrels, run


def test_golden_inverse_propensities() -> None:
    got = inverse_propensity(np.array(COUNTS, dtype=float), 8, 0.55, 1.5)
    assert got.round(6).tolist() == [1.550663, 1.699627, 1.897075, 2.079442, 2.079442,
                                     2.079442]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_presets_equal_the_formula(preset: str) -> None:
    a, b = PRESETS[preset]
    n, counts = 1000, np.array([0.0, 1.0, 5.0, 999.0])
    c = (math.log(n) - 1) * (b + 1) ** a
    expect = [1 / (1 / (1 + c * math.exp(-a * math.log(x + b)))) for x in counts]
    assert inverse_propensity(counts, n, a, b) == pytest.approx(expect, rel=1e-12)
    assert inverse_propensity(np.array([1.0]), n, a, b)[0] == pytest.approx(math.log(n))


def _pyxclib(r: ranklens.Result, name: str, k: int) -> float:
    """pyxclib's normalisation: the mean value over the mean ideal value."""
    return r[f"{name}@{k}"] / r[f"{name}(normalize=ideal)@{k}"]


def test_golden_values() -> None:
    qrels, run = _tables(Y, S)
    names = [f"{m}{p}@{k}" for m in ("PSP", "PSnDCG") for p in ("", "(normalize=ideal)",
                                                               "(normalize=instance)")
             for k in (1, 2, 3)]
    r = ranklens.evaluate(qrels, run, names, train=_train(COUNTS, 8))
    assert [round(r[f"PSP@{k}"], 6) for k in (1, 2, 3)] == [1.776577, 1.234862, 1.054291]
    assert [round(r[f"PSP(normalize=instance)@{k}"], 6) for k in (1, 2, 3)] == [
        0.878248, 0.633170, 0.726057]
    assert [round(_pyxclib(r, "PSP", k), 6) for k in (1, 2, 3)] == [
        0.880081, 0.650744, 0.733485]
    assert [round(_pyxclib(r, "PSnDCG", k), 6) for k in (1, 2, 3)] == [
        0.880081, 0.705167, 0.747120]


def _direct(y: np.ndarray, s: np.ndarray, inv: np.ndarray, k: int) -> dict[str, np.ndarray]:
    """The paper's and pyxclib's formulas, one instance at a time."""
    out: dict[str, list[float]] = {}
    for yi, si in zip(y, s, strict=True):
        top = sorted(range(len(si)), key=lambda j: (-si[j], -j))[:k]  # ties: id descending
        best = sorted(inv[yi > 0], reverse=True)[:k]
        n_rel = int(yi.sum())
        binary = sum(1 / math.log2(j + 2) for j in range(min(k, n_rel)))
        got = {"PSP": sum(yi[lab] * inv[lab] for lab in top) / k,
               "PSnDCG": sum(yi[lab] * inv[lab] / math.log2(r + 2) for r, lab in enumerate(top))
               / binary if binary else 0.0,
               "PSR": sum(yi[lab] * inv[lab] for lab in top) / max(n_rel, 1)}
        ideal = {"PSP": sum(best) / k,
                 "PSnDCG": sum(g / math.log2(r + 2) for r, g in enumerate(best)) / binary
                 if binary else 0.0,
                 "PSR": sum(best) / max(n_rel, 1)}
        for name in got:
            out.setdefault(name, []).append(got[name])
            out.setdefault(name + " ideal", []).append(ideal[name])
            out.setdefault(name + " instance", []).append(
                got[name] / ideal[name] if ideal[name] else 0.0)
    return {key: np.array(v) for key, v in out.items()}


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 6), st.integers(1, 5), st.integers(1, 4), st.randoms(use_true_random=False),
       st.sampled_from(sorted(PRESETS)))
def test_equals_a_direct_implementation(labels: int, users: int, k: int, rnd, preset) -> None:
    counts = [rnd.randint(0, 5) for _ in range(labels)]
    y = np.array([[rnd.random() < .5 for _ in range(labels)] for _ in range(users)], dtype=int)
    s = np.array([[rnd.randint(0, 3) / 3 for _ in range(labels)] for _ in range(users)])
    inv = inverse_propensity(np.array(counts, dtype=float), 6, *PRESETS[preset])
    want = _direct(y, s, inv, k)
    qrels, run = _tables(y.tolist(), s.tolist())
    qrels = {q: d or {"L0": 0} for q, d in qrels.items()}  # every user judged
    names = {f"{name}(preset={preset},normalize={norm})@{k}": name + suffix
             for name in ("PSP", "PSnDCG", "PSR")
             for norm, suffix in (("none", ""), ("ideal", " ideal"), ("instance", " instance"))}
    r = ranklens.evaluate(qrels, run, list(names), train=_train(counts, 6))
    for m, key in names.items():
        got = [r.per_query(m)[f"i{i}"] for i in range(users)]
        assert got == pytest.approx(want[key], abs=1e-12), m


def test_a_and_b_override_the_preset() -> None:
    qrels, run = _tables(Y, S)
    r = ranklens.evaluate(qrels, run, ["PSP(preset=amazon)@1", "PSP(A=0.6,B=2.6)@1",
                                       "PSP(preset=amazon,A=0.55,B=1.5)@1", "PSP@1"],
                          train=_train(COUNTS, 8))
    assert r["PSP(preset=amazon)@1"] == r["PSP(A=0.6,B=2.6)@1"] != r["PSP@1"]
    assert r["PSP(preset=amazon,A=0.55,B=1.5)@1"] == r["PSP@1"]


def test_errors_name_the_input() -> None:
    qrels, run = _tables(Y, S)
    with pytest.raises(MeasureError, match=r"PSP@1 needs the training interactions"):
        ranklens.evaluate(qrels, run, ["PSP@1"])
    with pytest.raises(MeasureError, match=r"at least 2 users .*; got 1"):
        ranklens.evaluate(qrels, run, ["PSP@1"], train=_train([1], 1))
    with pytest.raises(MeasureError, match=r"preset"):
        ranklens.evaluate(qrels, run, ["PSP(preset=imdb)@1"], train=_train(COUNTS, 8))


def _given(p: np.ndarray, labels: int) -> pl.DataFrame:
    return pl.DataFrame({"item_id": [f"L{lab}" for lab in range(labels)], "propensity": p})


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 6), st.integers(1, 5), st.integers(1, 4), st.randoms(use_true_random=False))
def test_given_propensities_equal_a_direct_implementation(labels: int, users: int, k: int,
                                                          rnd) -> None:
    p = np.array([rnd.choice([0.05, 0.3, 0.5, 1.0]) for _ in range(labels)])
    y = np.array([[rnd.random() < .5 for _ in range(labels)] for _ in range(users)], dtype=int)
    s = np.array([[rnd.randint(0, 3) / 3 for _ in range(labels)] for _ in range(users)])
    want = _direct(y, s, 1 / p, k)
    qrels, run = _tables(y.tolist(), s.tolist())
    qrels = {q: d or {"L0": 0} for q, d in qrels.items()}
    names = {f"{name}(propensity=given,normalize={norm})@{k}": name + suffix
             for name in ("PSP", "PSnDCG", "PSR")
             for norm, suffix in (("none", ""), ("ideal", " ideal"), ("instance", " instance"))}
    r = ranklens.evaluate(qrels, run, list(names), items=_given(p, labels))
    for m, key in names.items():
        got = [r.per_query(m)[f"i{i}"] for i in range(users)]
        assert got == pytest.approx(want[key], abs=1e-12), m


def test_the_models_propensities_given_equal_the_computed_ones() -> None:
    qrels, run = _tables(Y, S)
    p = 1 / inverse_propensity(np.array(COUNTS, dtype=float), 8, *PRESETS["default"])
    names = [f"{m}(normalize={n})@{k}" for m in ("PSP", "PSnDCG", "PSR")
             for n in ("none", "instance") for k in (1, 3)]
    model = ranklens.evaluate(qrels, run, names, train=_train(COUNTS, 8))
    given_ = ranklens.evaluate(qrels, run, [n.replace("(", "(propensity=given,") for n in names],
                               items=_given(p, len(COUNTS)))
    assert [round(model[n], 6) for n in names] == [
        round(given_[n.replace("(", "(propensity=given,")], 6) for n in names]
    assert round(given_["PSP(propensity=given)@1"], 6) == 1.776577  # analysis.md 3.2


def test_given_propensity_errors() -> None:
    qrels, run = _tables(Y, S)
    p = np.full(len(COUNTS), 0.5)
    with pytest.raises(MeasureError, match=r"relevant item 'L5' has no propensity"):
        ranklens.evaluate(qrels, run, ["PSP(propensity=given)@3"], items=_given(p[:5], 5))
    with pytest.raises(MeasureError, match=r"needs item propensities \(items=\.\.\. with a "):
        ranklens.evaluate(qrels, run, ["PSP(propensity=given)@1"], train=_train(COUNTS, 8))
    with pytest.raises(MeasureError, match=r"preset, A set the propensity model"):
        ranklens.evaluate(qrels, run, ["PSP(propensity=given,preset=amazon,A=1)@1"],
                          items=_given(p, len(COUNTS)))
    for bad in (0.0, 1.5, float("nan")):
        with pytest.raises(ranklens.InputError, match=rf"row 2: item 'L2' has propensity {bad}"):
            ranklens.evaluate(qrels, run, ["PSP(propensity=given)@1"],
                              items=_given(np.array([.5, .5, bad, .5, .5, .5]), 6))
