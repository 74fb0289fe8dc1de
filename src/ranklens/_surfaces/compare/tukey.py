"""Tests of k >= 3 systems on the same topics: topic-blocked and randomised Tukey HSD.

Both control the family-wise error over every pair of systems, so their p-values need no
further correction.

- Topic-blocked Tukey HSD (Sakai 2018, ch. 5): two-way ANOVA without replication gives the
  residual variance ``V_E = SS_E / ((k - 1)(n - 1))``; ``q_ij = |m_i - m_j| / sqrt(V_E / n)``
  and ``p = studentized_range.sf(q, k, (k - 1)(n - 1))``. Effect size
  ``ES_E = (m_i - m_j) / sqrt(V_E)``.
- Randomised Tukey HSD (Carterette 2012; Sakai 2018): each iteration permutes every topic's
  row of system scores; ``p_ij = (#{max - min of the permuted means >= |m_i - m_j| - tau}
  + 1) / (B + 1)``, or every combination of row permutations counted when
  ``(k!) ** n <= B``. Random stream: ``rng = default_rng(seed)``; each iteration is
  ``rng.permuted(X, axis=-1)`` of the topics x systems matrix X, iterations in order (a
  block of iterations is one ``permuted`` call on a stack of X, which shuffles the same
  slices in the same order, so the result does not depend on the block size).
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from .randomization import TOLERANCE

__all__ = ["blocked_tukey", "randomized_tukey", "residual_variance"]


def residual_variance(scores: np.ndarray) -> float:
    """V_E of the two-way ANOVA without replication of ``scores`` (topics x systems).

    Examples
    --------
    >>> import numpy as np
    >>> round(residual_variance(np.array([[1.0, 2.0], [2.0, 2.0], [3.0, 5.0]])), 4)
    0.5
    """
    n, k = scores.shape
    residual = (scores - scores.mean(axis=1, keepdims=True) - scores.mean(axis=0)
                + scores.mean())
    return float(np.sum(residual ** 2)) / ((k - 1) * (n - 1))


def blocked_tukey(scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """p-values and ES_E of every pair (k x k matrices) by the topic-blocked Tukey HSD.

    ``es[i, j] = (m_i - m_j) / sqrt(V_E)``. The diagonal is p = 1, ES_E = 0.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[0.7, 0.5, 0.0], [0.3, 0.1, 0.0], [0.2, 0.0, 0.2], [0.6, 0.2, 0.1]])
    >>> p, es = blocked_tukey(x)
    >>> p.shape, bool(np.allclose(p, p.T))
    ((3, 3), True)
    """
    from scipy.stats import studentized_range

    n, k = scores.shape
    means = scores.mean(axis=0)
    diff = means[:, None] - means[None, :]
    v_e = residual_variance(scores)
    if v_e == 0.0:
        # no residual variation: equal means are identical systems, others differ surely
        p = np.where(np.abs(diff) <= TOLERANCE * np.abs(scores).mean(), 1.0, 0.0)
        es = np.where(p == 1.0, 0.0, np.sign(diff) * math.inf)
        return p, es
    q = np.abs(diff) / math.sqrt(v_e / n)
    p = np.asarray(studentized_range.sf(q, k, (k - 1) * (n - 1)), dtype=np.float64)
    np.fill_diagonal(p, 1.0)
    return np.minimum(p, 1.0), diff / math.sqrt(v_e)


def _pair_tolerance(scores: np.ndarray) -> np.ndarray:
    """tau_ij = 1e-9 * mean |x_i - x_j| (the randomization test's tolerance, per pair)."""
    return TOLERANCE * np.abs(scores[:, :, None] - scores[:, None, :]).mean(axis=0)


def randomized_tukey(scores: np.ndarray, iterations: int, seed: int,
                     block_size: int = 512) -> tuple[np.ndarray, bool]:
    """p-values of every pair (k x k) by the randomised Tukey HSD, and whether exact.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[0.7, 0.5, 0.0], [0.3, 0.1, 0.0], [0.2, 0.0, 0.2], [0.6, 0.2, 0.1]])
    >>> p, exact = randomized_tukey(x, 9999, seed=0)
    >>> exact, bool(np.all(p > 0))
    (True, True)
    """
    n, k = scores.shape
    means = scores.mean(axis=0)
    threshold = np.abs(means[:, None] - means[None, :]) - _pair_tolerance(scores)
    exact = n * math.log(math.factorial(k)) <= math.log(iterations)
    if exact:
        ranges = _exact_ranges(scores)
        counts = np.count_nonzero(ranges[:, None, None] >= threshold[None], axis=0)
        p = counts / ranges.size
    else:
        rng = np.random.default_rng(seed)
        counts = np.zeros((k, k), dtype=np.int64)
        done = 0
        while done < iterations:
            rows = min(block_size, iterations - done)
            # one call per block shuffles the slices in C order: the iterations in sequence
            permuted = rng.permuted(np.broadcast_to(scores, (rows, n, k)), axis=-1)
            col = permuted.mean(axis=1)
            ranges = col.max(axis=1) - col.min(axis=1)
            counts += np.count_nonzero(ranges[:, None, None] >= threshold[None], axis=0)
            done += rows
        p = (counts + 1) / (iterations + 1)
    p = np.asarray(p, dtype=np.float64)
    np.fill_diagonal(p, 1.0)
    return p, exact


def _exact_ranges(scores: np.ndarray) -> np.ndarray:
    """max - min of the column means under every combination of row permutations."""
    n, k = scores.shape
    perms = np.array(list(itertools.permutations(range(k))))
    combos = np.array(list(itertools.product(range(len(perms)), repeat=n)))  # (k!^n, n)
    order = perms[combos]  # (k!^n, n, k)
    permuted = np.take_along_axis(np.broadcast_to(scores, order.shape), order, -1)
    col = permuted.mean(axis=1)
    return col.max(axis=1) - col.min(axis=1)
