"""Sampled evaluation: analysis.md 3.1's golden vectors, a brute-force posterior mean, the
bias-variance normal equations, simulations with known true ranks, and the errors."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from scipy.stats import ttest_rel

import ranklens
from ranklens._base.errors import InputError, ParameterError
from ranklens._measures._one_item import MEASURES, metric
from ranklens._surfaces.sampled.estimators import correction, rescaled


def test_golden_vectors() -> None:
    assert correction("Recall@10", 9, 100).round(4).tolist() == [
        0.6533, 0.2477, 0.0633, 0.0110, 0.0013, 0.0001, 0, 0, 0, 0]
    assert correction("Recall@10", 9, 100, gamma=0.1).round(4).tolist() == [
        1.1036, 0.1125, -0.2394, -0.0916, 0.0308, 0.0399, 0.0090, -0.0083, -0.0043, 0.0013]
    ranks = 1 / rescaled("AP", np.arange(1, 11), np.full(10, 9), np.full(10, 100))
    assert ranks.round(9).tolist() == [1 + 11 * i for i in range(10)]


def _pmf(r: int, big_r: int, m: int, n: int, sampling: str) -> float:
    """P(sampled rank r | true rank R), from the counts of the draws."""
    j, p = r - 1, (big_r - 1) / (n - 1)
    if sampling == "binomial":
        return math.comb(m, j) * p ** j * (1 - p) ** (m - j)
    return math.comb(big_r - 1, j) * math.comb(n - big_r, m - j) / math.comb(n - 1, m)


@pytest.mark.parametrize("sampling", ["binomial", "hypergeometric"])
@pytest.mark.parametrize("name", ["Recall@3", "nDCG@5", "AP", "AUC"])
def test_posterior_mean_equals_brute_force(name: str, sampling: str) -> None:
    m, n = 4, 12
    prior = np.arange(1.0, n + 1)[::-1]
    kind, k = metric(name)
    for weights in (None, prior):
        w = np.ones(n) if weights is None else weights
        want = []
        for r in range(1, m + 2):
            post = [w[big - 1] * _pmf(r, big, m, n, sampling) for big in range(1, n + 1)]
            value = [float(MEASURES[kind](np.array([big]), n, k)[0]) for big in range(1, n + 1)]
            want.append(sum(p * v for p, v in zip(post, value, strict=True)) / sum(post))
        got = correction(name, m, n, sampling, 1.0, weights)
        assert got == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("gamma", [0.0, 0.1, 0.5])
def test_normal_equations_hold(gamma: float) -> None:
    m, n = 5, 30
    a = np.array([[_pmf(r, big, m, n, "binomial") for r in range(1, m + 2)]
                  for big in range(1, n + 1)])
    b = MEASURES["nDCG"](np.arange(1.0, n + 1), n, 10)
    x = correction("nDCG@10", m, n, gamma=gamma)
    lhs = (1 - gamma) * a.T @ a + gamma * np.diag(a.sum(axis=0))
    assert np.abs(lhs @ x - a.T @ b).max() < 1e-9


def _simulate(users: int, m: int, n: int, seed: int, replace: bool) -> pl.DataFrame:
    """Users whose held-out item has a uniform true rank; the negatives drawn from the n - 1
    other items (numbered by rank: those below R - 1 are scored above it)."""
    rng = np.random.default_rng(seed)
    true = rng.integers(1, n + 1, users)
    if replace:
        drawn = rng.integers(0, n - 1, (users, m))
    else:
        drawn = rng.random((users, n - 1)).argsort(axis=1)[:, :m]
    above = (drawn < (true - 1)[:, None]).sum(axis=1)
    return pl.DataFrame({"user_id": [f"u{i}" for i in range(users)], "sampled_rank": above + 1,
                         "negatives": m, "catalogue": n, "full_rank": true})


@pytest.mark.parametrize("sampling", ["binomial", "hypergeometric"])
def test_corrected_mean_finds_the_full_mean(sampling: str) -> None:
    cases = _simulate(3000, 20, 200, 7, sampling == "binomial")
    s = ranklens.sampled(cases, ["Recall@10", "nDCG@10", "AP"], sampling=sampling,
                         estimators=["naive", "corrected"])
    for row in s.summary.iter_rows(named=True):
        off = abs(row["difference"]) / row["difference_se"]
        if row["estimator"] == "corrected":
            assert off < 4, row
        else:
            assert off > 10, row


def test_sampled_auc_is_unbiased() -> None:
    m, n = 10, 50
    for big in (1, 7, 25, 50):  # exactly: E[(m + 1 - r) / m | R] = (n - R) / (n - 1)
        mean = sum(_pmf(r, big, m, n, "binomial") * (m + 1 - r) / m for r in range(1, m + 2))
        assert mean == pytest.approx((n - big) / (n - 1), abs=1e-12)
    s = ranklens.sampled(_simulate(4000, m, n, 3, True), "AUC", estimators=["naive"])
    row = s.summary.row(0, named=True)
    assert abs(row["difference"]) < 4 * row["difference_se"]


def test_paired_comparison_is_the_t_test() -> None:
    a, b = _simulate(50, 9, 100, 1, True), _simulate(50, 9, 100, 2, True)
    s = ranklens.sampled({"a": a, "b": b}, "nDCG@10", estimators=["corrected"])
    row = s.paired.filter(pl.col("estimator") == "corrected").row(0, named=True)
    va, vb = (s.values.filter((pl.col("system") == x) & (pl.col("estimator") == "corrected"))
              ["value"].to_numpy() for x in ("a", "b"))
    assert row["cases"] == 50 and row["difference"] == pytest.approx(float((va - vb).mean()))
    assert row["p"] == pytest.approx(ttest_rel(va, vb).pvalue, rel=1e-9)


def test_text_file_and_frame_agree(tmp_path) -> None:
    cases = _simulate(20, 9, 100, 4, True)
    columns = {c: cases[c] for c in cases.columns}  # a dict of columns is one system
    assert ranklens.sampled(columns, "AP").summary.equals(ranklens.sampled(cases, "AP").summary)
    path = tmp_path / "ranks.txt"
    path.write_text("".join(" ".join(map(str, r)) + "\n" for r in cases.rows()))
    from_file = ranklens.sampled(str(path), "nDCG@10").summary
    assert from_file.equals(ranklens.sampled(cases, "nDCG@10").summary)


def test_errors_name_the_value() -> None:
    good = {"user_id": ["u"], "sampled_rank": [1], "negatives": [9], "catalogue": [100]}
    with pytest.raises(InputError, match=r"need a 'catalogue' column; found columns"):
        ranklens.sampled({k: v for k, v in good.items() if k != "catalogue"})
    with pytest.raises(InputError, match=r"row 0: sampled_rank must be a whole number in "
                                         r"1..negatives \+ 1; got 11 \(user 'u'\)"):
        ranklens.sampled({**good, "sampled_rank": [11]})
    with pytest.raises(InputError, match=r"negatives must be .* in 1..catalogue - 1; got 100"):
        ranklens.sampled({**good, "negatives": [100]})
    with pytest.raises(ParameterError, match=r"'MRR@5' is not one ranklens corrects"):
        ranklens.sampled(good, "MRR@5")
    with pytest.raises(ParameterError, match=r"'sampling' option must be one of"):
        ranklens.sampled(good, sampling="poisson")
    with pytest.raises(ParameterError, match=r"'gamma' option must be a number in \[0, 1\]"):
        ranklens.sampled(good, gamma=2.0)
    with pytest.raises(ParameterError, match=r"'estimators' option must name one or more"):
        ranklens.sampled(good, estimators=[])
    with pytest.raises(ParameterError, match=r"gives 3 weights and the catalogue holds 100"):
        ranklens.sampled(good, prior=[1, 2, 3])


@pytest.mark.parametrize("module", ["_surfaces.sampled.api", "_surfaces.sampled.estimators",
                                    "_measures.rec_propensity", "_measures._one_item"])
def test_the_modules_examples_run(module: str) -> None:
    import doctest
    import importlib

    failed, tried = doctest.testmod(importlib.import_module(f"ranklens.{module}"))
    assert tried and not failed


def test_the_corrections_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    import ranklens._surfaces.sampled.api as api

    monkeypatch.setattr(api, "MAX_CELLS", 999)
    good = {"user_id": ["u"], "sampled_rank": [1], "negatives": [9], "catalogue": [100]}
    with pytest.raises(ParameterError, match=r"need 1000 rank probabilities, over MAX_CELLS"):
        ranklens.sampled(good)
    assert ranklens.sampled(good, estimators=["naive"]).summary["mean"].to_list() == [1.0, 1.0]


def test_a_file_error_names_its_line(tmp_path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("u1 1 9 100\nu2 x 9 100\n")
    with pytest.raises(InputError, match=r"bad\.txt:2: sampled_rank must be a whole number "
                                         r"in 1\.\.negatives \+ 1; got 'x' \(user 'u2'\)"):
        ranklens.sampled(str(path))
