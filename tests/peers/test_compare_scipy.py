"""compare's tests equal scipy and statsmodels (spec: ../shared/research/statistics.md, 4.6).

Tie-free random data of every size that switches an algorithm (Wilcoxon's exact / permutation /
asymptotic branches at 13/14 and 50/51), P@10-like tied data where scipy itself goes wrong on
raw float differences (compared with exactly tied differences and with a rational oracle), and
the random streams: Monte Carlo p within sampling error of scipy's, bootstrap intervals from
the very resamples scipy draws.
"""

from __future__ import annotations

import itertools
import math
import os
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from ranklens._surfaces.compare.bootstrap import bootstrap_interval
from ranklens._surfaces.compare.corrections import adjust
from ranklens._surfaces.compare.differences import snap
from ranklens._surfaces.compare.paired import sign_test, t_interval, t_test, wilcoxon_test
from ranklens._surfaces.compare.randomization import exact_p, monte_carlo_p, randomization_p
from ranklens._surfaces.compare.tukey import randomized_tukey

SIZES = [2, 3, 5, 8, 10, 12, 13, 14, 20, 30, 50, 51, 80, 200, 1000]


def _multipletests():  # type: ignore[no-untyped-def]
    """statsmodels' multipletests: a test-only peer, required in CI like the others."""
    if os.environ.get("RANKLENS_REQUIRE_PEERS"):
        from statsmodels.stats.multitest import multipletests
    else:
        multipletests = pytest.importorskip("statsmodels.stats.multitest").multipletests
    return multipletests


def _tie_free(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return rng.random(n), rng.random(n)


def _hits(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """P@10-like tied values: hits / 10, the second system a little better on average."""
    rng = np.random.default_rng(seed)
    hx = rng.integers(0, 11, n)
    hy = np.clip(hx + rng.integers(-2, 3, n), 0, 10)
    return hx, hy


# -- paired t, sign, Wilcoxon: closed forms ----------------------------------------------------


@pytest.mark.parametrize("n", SIZES)
def test_t_equals_ttest_rel(n: int) -> None:
    x, y = _tie_free(n, n)
    d = snap(x, y)
    assert d.tobytes() == (x - y).tobytes()
    ref = stats.ttest_rel(x, y)
    assert t_test(d) == pytest.approx(ref.pvalue, rel=1e-12)
    low, high = t_interval(d, 0.95)
    ci = ref.confidence_interval(0.95)
    assert (low, high) == pytest.approx((ci.low, ci.high), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("n", SIZES)
def test_sign_equals_binomtest(n: int) -> None:
    x, y = _tie_free(n, 100 + n)
    d = snap(x, y)
    k = int(np.count_nonzero(d > 0))
    assert sign_test(d) == pytest.approx(stats.binomtest(k, n).pvalue, rel=1e-12, abs=1e-300)


@pytest.mark.parametrize("n", SIZES)
def test_wilcoxon_equals_scipy_on_tie_free_data(n: int) -> None:
    x, y = _tie_free(n, 200 + n)
    assert wilcoxon_test(snap(x, y)) == pytest.approx(stats.wilcoxon(x, y).pvalue, rel=1e-12)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("seed", range(3))
def test_wilcoxon_on_tied_data_equals_scipy_on_exact_ties(n: int, seed: int) -> None:
    hx, hy = _hits(n, 300 + 7 * n + seed)
    if not (hx - hy).any():
        hy[0] = (hx[0] + 1) % 11
    ours = wilcoxon_test(snap(hx / 10, hy / 10))
    assert ours == pytest.approx(stats.wilcoxon((hx - hy) / 10).pvalue, rel=1e-12)


def test_wilcoxon_on_reciprocal_ranks() -> None:
    rng = np.random.default_rng(9)
    for n in (12, 40, 300):
        rx, ry = rng.integers(1, 6, n), rng.integers(1, 6, n)
        exact = np.array([float(Fraction(1, int(a)) - Fraction(1, int(b)))
                          for a, b in zip(rx, ry, strict=True)])
        assert wilcoxon_test(snap(1 / rx, 1 / ry)) == pytest.approx(
            stats.wilcoxon(exact).pvalue, rel=1e-12)


# -- randomization ------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 5, 8, 10, 12, 13])
def test_exact_randomization_equals_permutation_test(n: int) -> None:
    x, y = _tie_free(n, 400 + n)
    d = snap(x, y)
    ref = stats.permutation_test((d,), np.mean, permutation_type="samples",
                                 n_resamples=np.inf, vectorized=True)
    assert exact_p(d) == ref.pvalue


def _oracle(h: np.ndarray) -> float:
    """Exact p of the sign-flip test on integer differences, in rational arithmetic."""
    nonzero = [int(v) for v in h if v]
    observed = abs(sum(nonzero))
    hits = sum(abs(sum(s * v for s, v in zip(signs, nonzero, strict=True))) >= observed
               for signs in itertools.product((1, -1), repeat=len(nonzero)))
    return float(Fraction(hits, 2 ** len(nonzero)))


@pytest.mark.parametrize("seed", range(40))
def test_exact_randomization_equals_rational_oracle_on_tied_data(seed: int) -> None:
    rng = np.random.default_rng(500 + seed)
    n = int(rng.integers(4, 14))
    hx, hy = _hits(n, 600 + seed)
    assert exact_p(snap(hx / 10, hy / 10)) == _oracle(hx - hy)


def test_golden_p_at_10_case() -> None:
    """Exact p = 1: the two sums of signed differences are equal in exact arithmetic."""
    hx = np.array([1, 2, 7, 7, 9, 5, 4, 3, 4, 7, 5, 3, 2])
    hy = np.array([2, 1, 6, 6, 10, 5, 4, 1, 3, 8, 6, 3, 4])
    x, y = hx / 10, hy / 10
    d = snap(x, y)
    assert _oracle(hx - hy) == 1.0
    assert exact_p(d) == 1.0
    assert wilcoxon_test(d) == 1.0
    # scipy on the raw float values is fooled by the noise (the reason for snapping)
    raw = stats.permutation_test((x - y,), np.mean, permutation_type="samples",
                                 n_resamples=np.inf, vectorized=True).pvalue
    assert raw == pytest.approx(0.9004, abs=5e-5)
    assert stats.wilcoxon(x, y).pvalue == pytest.approx(0.9453, abs=5e-5)


@pytest.mark.parametrize("n", [20, 50, 200])
def test_monte_carlo_within_sampling_error_of_scipy(n: int) -> None:
    m = 9999
    x, y = _tie_free(n, 700 + n)
    y = y + 0.03  # a p far from both 0 and 1
    d = snap(x, y)
    ours = float(monte_carlo_p(d[:, None], m, seed=3)[0])
    ref = stats.permutation_test((d,), np.mean, permutation_type="samples", n_resamples=m,
                                 vectorized=True, rng=np.random.default_rng(3)).pvalue
    assert ours >= 1 / (m + 1)
    assert abs(ours - ref) <= 4 * math.sqrt(2 * ref * (1 - ref) / m)


def test_monte_carlo_p_is_never_zero() -> None:
    d = np.full(100, 0.5) + np.linspace(0, 0.01, 100)
    p = monte_carlo_p(d[:, None], 999, seed=0)
    assert p.tolist() == [1 / 1000]


def test_block_size_and_pairs_do_not_change_p() -> None:
    rng = np.random.default_rng(11)
    diffs = np.column_stack([snap(rng.random(150), rng.random(150)) for _ in range(4)])
    base = monte_carlo_p(diffs, 2000, seed=7, block_size=512)
    for block in (1, 7, 2000):
        assert monte_carlo_p(diffs, 2000, seed=7, block_size=block).tobytes() == base.tobytes()
    alone = [monte_carlo_p(diffs[:, [j]], 2000, seed=7)[0] for j in range(4)]
    assert alone == base.tolist()  # one shared sign matrix, each pair as if alone
    p, exact = randomization_p(diffs, 2000, seed=7)
    assert p.tolist() == base.tolist() and not exact.any()


def test_randomized_tukey_for_two_systems_is_the_randomization_test() -> None:
    for seed in range(10):
        hx, hy = _hits(12, 800 + seed)
        scores = np.column_stack([hx / 10, hy / 10])
        p, exact = randomized_tukey(scores, 9999, seed=0)
        assert exact
        assert p[0, 1] == exact_p(snap(hx / 10, hy / 10))


def test_randomized_tukey_block_invariant() -> None:
    rng = np.random.default_rng(12)
    scores = rng.random((60, 4))
    base, _ = randomized_tukey(scores, 1500, seed=2, block_size=512)
    for block in (1, 7):
        assert randomized_tukey(scores, 1500, seed=2, block_size=block)[0].tobytes() == \
            base.tobytes()


# -- bootstrap ---------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["percentile", "basic", "bca"])
@pytest.mark.parametrize("n", [5, 14, 51, 200])
def test_bootstrap_equals_scipy(method: str, n: int) -> None:
    x, y = _tie_free(n, 900 + n)
    d = snap(x, y)
    ours = bootstrap_interval(d, method=method, resamples=999, seed=4,  # type: ignore[arg-type]
                              block_size=100)
    ref = stats.bootstrap((d,), np.mean, n_resamples=999, method=method,
                          rng=np.random.default_rng(4)).confidence_interval
    assert ours == pytest.approx((ref.low, ref.high), rel=0, abs=1e-14)


# -- corrections -------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["holm", "bonferroni", "fdr_bh"])
def test_corrections_equal_statsmodels(method: str) -> None:
    multipletests = _multipletests()
    rng = np.random.default_rng(13)
    for size in (1, 2, 5, 30):
        p = rng.random(size) ** 3
        p[: size // 3] = p[0]  # ties in the family
        ref = multipletests(p, alpha=0.05, method=method)[1]
        assert adjust(p, method).tolist() == pytest.approx(ref.tolist(), rel=0, abs=1e-15)
    p = np.array([0.01, np.nan, 0.04, 0.002])
    ref = multipletests(p[~np.isnan(p)], method=method)[1]
    got = adjust(p, method)
    assert math.isnan(got[1]) and got[[0, 2, 3]].tolist() == pytest.approx(ref.tolist())


def test_exact_randomization_beyond_sixteen_differences() -> None:
    """2^19 patterns (the enumeration is chunked) against the rational oracle."""
    hx, hy = _hits(19, 1000)
    hy[hx == hy] = (hx[hx == hy] + 3) % 11  # every difference non-zero
    assert np.count_nonzero(hx - hy) == 19
    p, exact = randomization_p(snap(hx / 10, hy / 10)[:, None], 2 ** 19, seed=0)
    assert exact.tolist() == [True]
    assert p[0] == _oracle(hx - hy)


# -- the bootstrap test ------------------------------------------------------------------------


@pytest.mark.parametrize("n", [5, 30, 200])
def test_bootstrap_test_counts_the_documented_resamples(n: int) -> None:
    """p = (#{|mean(d0[idx])| >= |mean(d)|} + 1) / (B + 1), idx = default_rng(seed).integers
    (0, n, (B, n)): the resamples scipy's bootstrap draws."""
    from ranklens._surfaces.compare.bootstrap import bootstrap_test

    x, y = _tie_free(n, 1100 + n)
    d = snap(x, y + 0.05)
    idx = np.random.default_rng(6).integers(0, n, (999, n))
    means = (d - d.mean())[idx].mean(axis=1)
    want = (np.count_nonzero(np.abs(means) >= abs(d.mean()) - 1e-12) + 1) / 1000
    for block in (1, 64, 999):
        assert bootstrap_test(d, 999, seed=6, block_size=block) == want
    assert bootstrap_test(np.zeros(n), 999, seed=6) == 1.0
    t = stats.ttest_rel(x, y + 0.05).pvalue
    if n == 200:  # large n: the bootstrap and t agree (Smucker et al. 2007)
        assert abs(want - t) < 0.05
