"""Issue 42: risk-sensitive measures (URisk, TRisk, ZRisk, GeoRisk) and power / test-set
size, against analysis.md Part 2's golden values, scipy and statsmodels."""

from __future__ import annotations

import math

import numpy as np
import pytest

import ranklens
from ranklens._base.errors import ParameterError
from ranklens._surfaces.power import detectable_difference, queries_needed, t_power
from ranklens._surfaces.risk import georisk, trisk, urisk, zrisk

# analysis.md 2.2: rows = topics, columns = systems 0, 1, 2
X = np.array([[.50, .40, .30], [.20, .35, .10], [.80, .60, .70], [.10, .05, .30],
              [.40, .45, .40], [.30, .10, .20]])


def test_urisk_and_trisk_equal_the_golden_values_and_scipy() -> None:
    from scipy.stats import ttest_1samp

    d = X[:, 0] - X[:, 1]
    assert urisk(d, 1.0) == pytest.approx(0.025, abs=1e-6)
    assert trisk(d, 1.0) == pytest.approx(0.315179, abs=1e-6)
    assert trisk(d, 1.0, ddof=0) == pytest.approx(0.345261, abs=1e-6)
    weighted = np.where(d < 0, 2 * d, d)
    assert trisk(d, 1.0) == pytest.approx(ttest_1samp(weighted, 0).statistic, rel=1e-12)
    assert urisk(d, 0.0) == pytest.approx(float(np.mean(d)))
    assert math.isnan(trisk(np.array([0.1, 0.1, 0.1])))  # no spread: undefined, not inf


def _direct_zrisk(x: np.ndarray, alpha: float) -> list[float]:
    """The SIGIR 2016 formula, term by term."""
    n = x.sum()
    out = []
    for i in range(x.shape[1]):
        total = 0.0
        for j in range(x.shape[0]):
            e = x[j].sum() * x[:, i].sum() / n
            z = (x[j, i] - e) / math.sqrt(e) if e > 0 else 0.0
            total += z if z >= 0 else (1 + alpha) * z
        out.append(total)
    return out


def test_zrisk_and_georisk_equal_the_paper_formula_and_golden_values() -> None:
    from scipy.stats import norm

    direct = _direct_zrisk(X, 1.0)
    assert zrisk(X, 1.0) == pytest.approx(direct, rel=1e-12)
    assert zrisk(X, 1.0) == pytest.approx([-0.372266, -0.557207, -0.281210], abs=1e-6)
    geo = [math.sqrt(X[:, i].mean() * norm.cdf(direct[i] / X.shape[0])) for i in range(3)]
    assert georisk(X, 1.0) == pytest.approx(geo, rel=1e-12)
    assert georisk(X, 1.0) == pytest.approx([0.426831, 0.387913, 0.400545], abs=1e-6)
    with pytest.raises(ParameterError, match=">= 0"):
        zrisk(-X)


def _runs(nq: int = 30) -> tuple[dict, dict]:
    rng = np.random.default_rng(3)
    qrels = {f"q{i}": {f"d{j}": int(j < 3) for j in range(8)} for i in range(nq)}
    runs = {name: {q: {f"d{j}": float(s) for j, s in enumerate(rng.random(8))} for q in qrels}
            for name in ("base", "a", "b")}
    return qrels, runs


def test_risk_of_a_comparison_reads_its_per_query_values() -> None:
    qrels, runs = _runs()
    cmp = ranklens.compare(qrels, runs, ["AP", "P@3"], baseline="base")
    frame = ranklens.risk(cmp, alpha=2.0, ddof=0)
    assert frame.columns == ["measure", "system", "baseline", "n", "urisk", "trisk", "zrisk",
                             "georisk"]
    assert frame.height == 4
    for row in frame.iter_rows(named=True):
        x = cmp.results.values(row["measure"])
        at = list(cmp.run_names).index(row["system"])
        d = x[:, at] - x[:, 0]
        assert row["urisk"] == pytest.approx(urisk(d, 2.0), abs=1e-12)
        assert row["trisk"] == pytest.approx(trisk(d, 2.0, ddof=0), abs=1e-9)
        assert row["zrisk"] == pytest.approx(_direct_zrisk(x, 2.0)[at], rel=1e-9)
        assert row["georisk"] == pytest.approx(georisk(x, 2.0)[at], rel=1e-12)
    with pytest.raises(ParameterError, match="'alpha' option of risk"):
        ranklens.risk(cmp, alpha=-1)
    with pytest.raises(ParameterError, match="'ddof'"):
        ranklens.risk(cmp, ddof=2)


@pytest.mark.parametrize(("effect", "n"), [(0.1, 787), (0.2, 199), (0.3, 90), (0.5, 34),
                                           (0.8, 15), (1.0, 10)])
def test_queries_needed_is_sakais_and_statsmodels(effect: float, n: int) -> None:
    from statsmodels.stats.power import TTestPower

    assert queries_needed(effect, 0.05, 0.8) == n
    solved = TTestPower().solve_power(effect_size=effect, alpha=0.05, power=0.8)
    assert n == math.ceil(solved)


@pytest.mark.parametrize(("n", "golden"), [(25, 0.5840), (50, 0.4042), (100, 0.2829)])
def test_detectable_difference_is_statsmodels(n: int, golden: float) -> None:
    from statsmodels.stats.power import TTestPower

    found = detectable_difference(n, 0.05, 0.8)
    assert found == pytest.approx(golden, abs=1e-4)
    # statsmodels' root finder stops at about 1e-6 relative; ours at 1e-12 absolute
    assert found == pytest.approx(TTestPower().solve_power(nobs=n, alpha=0.05, power=0.8),
                                  rel=1e-5)
    assert t_power(n, found, 0.05) == pytest.approx(0.8, abs=1e-9)


def test_power_reads_the_pilot_sd_as_sakais_design() -> None:
    rng = np.random.default_rng(1)
    pilot = rng.normal(0.4, 0.2, size=(60, 3))
    one = ranklens.power(pilot[:, 0], min_diff=0.05)
    assert one.sd_source == "within-system, variance doubled"
    assert one.sd == pytest.approx(math.sqrt(2) * np.std(pilot[:, 0], ddof=1), rel=1e-12)
    two = ranklens.power(pilot[:, :2], min_diff=0.05, queries=200)
    assert two.sd == pytest.approx(np.std(pilot[:, 1] - pilot[:, 0], ddof=1), rel=1e-12)
    assert two.queries_needed == queries_needed(0.05 / two.sd)
    assert two.detectable == pytest.approx(detectable_difference(200) * two.sd)
    pooled = ranklens.power(pilot, min_diff=0.05)
    variances = [np.var(pilot[:, k] - pilot[:, 0], ddof=1) for k in (1, 2)]
    assert pooled.sd == pytest.approx(math.sqrt(np.mean(variances)), rel=1e-12)
    assert math.isnan(pooled.simulated)


def test_simulated_power_converges_to_the_analytic_one_on_normal_data() -> None:
    pilot = np.random.default_rng(7).normal(0.0, 1.0, size=(4000, 2))
    sims = 2000
    p = ranklens.power(pilot, min_diff=0.5 * math.sqrt(2), queries=30, simulations=sims,
                       permutations=199, seed=11)
    analytic = t_power(30, 0.5 * math.sqrt(2) / p.sd, 0.05)
    binomial = math.sqrt(analytic * (1 - analytic) / sims)
    assert abs(p.simulated - analytic) < 4 * binomial + 0.01
    again = ranklens.power(pilot, min_diff=0.5 * math.sqrt(2), queries=30, simulations=sims,
                           permutations=199, seed=11)
    assert again.simulated == p.simulated  # seeded


def test_power_names_its_bounds() -> None:
    pilot = np.zeros((10, 2))
    with pytest.raises(ParameterError, match="MAX_SIMULATED"):
        ranklens.power(pilot, min_diff=0.1, simulations=1_000_000, permutations=1001)
    assert ranklens.power(pilot, min_diff=0.1).queries_needed == 2  # no spread
    with pytest.raises(ParameterError, match="'simulations' option"):
        ranklens.power(pilot, simulations=-1)
    with pytest.raises(ParameterError, match="at least 2 queries"):
        ranklens.power([0.5])
    with pytest.raises(ParameterError, match="at least 2 queries"):
        ranklens.power(0.5)


def test_the_gate_reads_lower_is_better_measures_the_other_way() -> None:
    import dataclasses

    from ranklens._surfaces.gate import FAIL, PASS, gate

    qrels = {f"q{i}": {"r": 1} for i in range(40)}
    main = {q: {"x": 2.0, "r": 1.0} for q in qrels}
    new = {q: {"r": 2.0, "x": 1.0} for q in qrels}  # P@1 rises from 0 to 1 on every query
    cmp = ranklens.compare(qrels, {"main": main, "new": new}, ["P@1"], baseline="main")
    assert gate(cmp, "main", 0.01) == (PASS, [])
    status, lines = gate(dataclasses.replace(cmp, lower_is_better=("P@1",)), "main", 0.01)
    assert status == FAIL
    assert lines == ["FAIL P@1: new is 1.0000 worse than main (margin 0.01, adjusted p 0, "
                     "40 queries)"]


@pytest.mark.parametrize("module", ["risk", "power", "segments", "seeds", "derived_groups"])
def test_the_modules_examples_run(module: str) -> None:
    import doctest
    import importlib

    failed, tried = doctest.testmod(importlib.import_module(f"ranklens._surfaces.{module}"))
    assert tried and not failed
