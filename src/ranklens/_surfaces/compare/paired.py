"""Paired tests on snapped differences: Student's t, Wilcoxon signed-rank and the sign test.

Each takes the snapped differences ``d`` (:func:`.differences.snap`) and returns a two-sided
p-value; each equals scipy's function on exactly tied data (``ttest_rel``, ``wilcoxon`` with
its ``method="auto"`` switch, ``binomtest``). If every difference is 0 the systems are
identical and p is 1 (scipy's ``ttest_rel`` gives NaN there). scipy is imported here, so
only when a comparison runs.
"""

from __future__ import annotations

import math

import numpy as np

from .differences import degenerate

__all__ = ["effect_size", "sign_test", "t_interval", "t_test", "wilcoxon_test"]


def _mean_se(d: np.ndarray) -> tuple[float, float]:
    """mean(d) and its standard error, sqrt(var(d, ddof=1) / n)."""
    return float(np.mean(d)), math.sqrt(float(np.var(d, ddof=1)) / d.size)


@degenerate(identical=1.0, too_few=math.nan)
def t_test(d: np.ndarray) -> float:
    """Two-sided paired t-test p: t = mean(d) / sqrt(var(d, ddof=1) / n), n - 1 df.

    NaN with fewer than two differences; 1 when every difference is 0.

    Examples
    --------
    >>> import numpy as np
    >>> round(t_test(np.array([0.1, 0.2, 0.0, 0.3])), 4)
    0.1027
    """
    from scipy.special import stdtr

    mean, se = _mean_se(d)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.divide(mean, se)
    return float(2.0 * stdtr(d.size - 1, -abs(t)))


@degenerate(identical=(0.0, 0.0), too_few=(math.nan, math.nan))
def t_interval(d: np.ndarray, confidence: float = 0.95) -> tuple[float, float]:
    """Confidence interval of mean(d): mean ± stdtrit(n - 1, (1 + c) / 2) · se.

    Examples
    --------
    >>> import numpy as np
    >>> [round(v, 4) for v in t_interval(np.array([0.1, 0.2, 0.0, 0.3]))]
    [-0.0554, 0.3554]
    """
    from scipy.special import stdtrit

    mean, se = _mean_se(d)
    half = float(stdtrit(d.size - 1, 0.5 + confidence / 2)) * se
    return mean - half, mean + half


@degenerate(identical=0.0, too_few=math.nan)
def effect_size(d: np.ndarray) -> float:
    """The paired effect size d_z = mean(d) / sd(d) (sd with n - 1); 0 when all d are 0.

    Examples
    --------
    >>> import numpy as np
    >>> round(effect_size(np.array([0.1, 0.2, 0.0, 0.3])), 4)
    1.1619
    """
    sd = math.sqrt(float(np.var(d, ddof=1)))
    mean = float(np.mean(d))
    return math.copysign(math.inf, mean) if sd == 0.0 else mean / sd


def sign_test(d: np.ndarray) -> float:
    """Two-sided sign test: k = #(d > 0) of the n non-zero d against Binomial(n, 1/2).

    Examples
    --------
    >>> import numpy as np
    >>> round(sign_test(np.array([0.1] * 9 + [-0.1])), 6)
    0.021484
    """
    from scipy.special import bdtr, bdtrc

    k = int(np.count_nonzero(d > 0))
    n = k + int(np.count_nonzero(d < 0))
    if n == 0 or 2 * k == n:
        return 1.0
    m = min(k, n - k)
    return float(min(1.0, bdtr(m, n, 0.5) + bdtrc(n - m - 1, n, 0.5)))


def _signed_ranks(d: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Average ranks of |d| over the non-zero d, their signs, and the tie-group sizes."""
    nonzero = d[d != 0]
    magnitude = np.abs(nonzero)
    order = np.argsort(magnitude, kind="mergesort")
    ordered = magnitude[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    sizes = np.diff(np.r_[starts, ordered.size])
    average = starts + (sizes + 1) / 2.0  # 1-based average rank of each tie group
    ranks = np.empty(ordered.size)
    ranks[order] = np.repeat(average, sizes)
    return ranks, nonzero > 0, sizes


def _wilcoxon_counts(n: int) -> np.ndarray:
    """Number of subsets of {1..n} with each rank sum 0..n(n+1)/2 (exact in float64)."""
    counts = np.zeros(n * (n + 1) // 2 + 1)
    counts[0] = 1.0
    for k in range(1, n + 1):
        counts[k:] = counts[k:] + counts[:-k].copy()
    return counts


def wilcoxon_test(d: np.ndarray) -> float:
    """Two-sided Wilcoxon signed-rank p (zeros dropped), scipy's ``method="auto"`` choice.

    More than 50 differences (zeros counted): the normal approximation with the tie
    correction and no continuity correction. Otherwise, no ties and no zeros: the exact
    null distribution of T+; with ties or zeros and at most 13 differences: every sign
    pattern enumerated; else the normal approximation.

    Examples
    --------
    >>> import numpy as np
    >>> round(wilcoxon_test(np.array([0.5, 0.2, -0.1, 0.4, 0.3, 0.7])), 6)
    0.0625
    """
    from scipy.special import ndtr

    total = d.size
    ranks, positive, sizes = _signed_ranks(d)
    n = ranks.size
    if n == 0:
        return 1.0
    r_plus = float(np.sum(ranks[positive]))
    ties = bool(np.any(sizes > 1)) or n < total
    if total <= 50 and not ties:
        counts = _wilcoxon_counts(n)
        whole = 2.0 ** n
        # scipy rounds a non-integral T+ outward; without ties it is integral already
        low = float(np.sum(counts[: math.ceil(r_plus) + 1])) / whole
        high = float(np.sum(counts[math.floor(r_plus):])) / whole
        return float(min(1.0, 2.0 * min(low, high)))
    if total <= 13:
        patterns = _all_signs(n)  # (2^n, n) of 0/1: which differences are positive
        stats = patterns @ ranks
        low = np.count_nonzero(stats <= r_plus + 1e-9) / patterns.shape[0]
        high = np.count_nonzero(stats >= r_plus - 1e-9) / patterns.shape[0]
        return float(min(1.0, 2.0 * min(low, high)))
    mean = n * (n + 1) / 4.0
    var = (n * (n + 1) * (2 * n + 1) - float(np.sum(sizes.astype(float) ** 3 - sizes)) / 2) / 24
    z = (r_plus - mean) / math.sqrt(var)
    return float(min(1.0, 2.0 * ndtr(-abs(z))))


def _all_signs(n: int) -> np.ndarray:
    """Every 0/1 pattern of length n as rows of a float matrix (bit j of the row index)."""
    rows = np.arange(2 ** n, dtype=np.int64)
    return ((rows[:, None] >> np.arange(n)) & 1).astype(np.float64)
