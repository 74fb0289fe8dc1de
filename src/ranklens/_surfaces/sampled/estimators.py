"""Sampled-metric estimators (Krichene and Rendle, KDD 2020): a held-out item's rank among
m sampled negatives, and what it says about the metric of its rank among all n items.

For a true rank R in 1..n, the sampled rank r is 1 + the sampled negatives above it:
``r - 1 ~ Binomial(m, (R - 1) / (n - 1))`` when the negatives are drawn with replacement
(``binomial``), ``Hypergeometric(n - 1, R - 1, m)`` without (``hypergeometric``). With
``A[R, r] = P(r | R)``, prior weights ``w`` and ``b = M(R)``, the corrected metric is the
lookup vector ``x`` minimising ``sum_R w_R ((E[x(r) | R] - M(R))^2 + gamma Var[x(r) | R])``:
``x = ((1 - gamma) A'WA + gamma diag(A'W1))^-1 A'Wb``. ``gamma = 1`` is the posterior mean
``E[M(R) | r]``; ``gamma = 0`` the least-squares minimal-bias correction.
"""

from __future__ import annotations

import numpy as np

from ..._measures._one_item import MEASURES, metric

__all__ = ["SAMPLINGS", "correction", "naive", "rescaled"]

#: how the negatives are drawn: with replacement, or without
SAMPLINGS = ("binomial", "hypergeometric")
#: true ranks whose sampled-rank probabilities are held at once, times m + 1
_CELLS = 1 << 20


def naive(name: str, sampled: np.ndarray, m: np.ndarray) -> np.ndarray:
    """The metric of the sampled rank, as if the catalogue were the m + 1 items ranked."""
    kind, k = metric(name)
    return MEASURES[kind](sampled.astype(np.float64), m + 1.0, k)


def rescaled(name: str, sampled: np.ndarray, m: np.ndarray, n: np.ndarray) -> np.ndarray:
    """The metric of ``1 + (r - 1)(n - 1) / m``, the binomial's unbiased estimate of R
    (ranklens's; biased for a metric not linear in R)."""
    kind, k = metric(name)
    return MEASURES[kind](1.0 + (sampled - 1.0) * (n - 1.0) / m, n.astype(np.float64), k)


def _probabilities(ranks: np.ndarray, m: int, n: int, sampling: str) -> np.ndarray:
    """``P(r | R)`` for each true rank (rows) and sampled rank 1..m + 1 (columns)."""
    from scipy.stats import binom, hypergeom

    above = np.arange(m + 1)[None, :]
    if sampling == "binomial":
        return binom.pmf(above, m, ((ranks - 1.0) / (n - 1.0))[:, None])
    return hypergeom.pmf(above, n - 1, (ranks - 1)[:, None], m)


def correction(name: str, m: int, n: int, sampling: str = "binomial", gamma: float = 1.0,
               prior: np.ndarray | None = None) -> np.ndarray:
    """The corrected metric of each sampled rank 1..m + 1 (the module docstring's ``x``);
    ``prior``: weights of the true ranks 1..n (None: uniform).

    Examples
    --------
    >>> correction("Recall@10", 9, 100).round(4)[:3]
    array([0.6533, 0.2477, 0.0633])
    """
    kind, k = metric(name)
    gram, mass, target = np.zeros((m + 1, m + 1)), np.zeros(m + 1), np.zeros(m + 1)
    step = max(1, _CELLS // (m + 1))
    for start in range(1, n + 1, step):
        ranks = np.arange(start, min(start + step, n + 1), dtype=np.float64)
        a = _probabilities(ranks, m, n, sampling)
        w = np.ones(ranks.size) if prior is None else prior[start - 1:start - 1 + ranks.size]
        wa = a * w[:, None]
        if gamma != 1.0:  # the posterior mean needs no Gram matrix
            gram += a.T @ wa
        mass += wa.sum(axis=0)
        target += wa.T @ MEASURES[kind](ranks, float(n), k)
    if gamma == 1.0:  # the posterior mean: no system to solve
        out = np.zeros(m + 1)
        np.divide(target, mass, out=out, where=mass > 0)
        return out
    solved = np.linalg.lstsq((1.0 - gamma) * gram + gamma * np.diag(mass), target, rcond=None)
    return solved[0]
