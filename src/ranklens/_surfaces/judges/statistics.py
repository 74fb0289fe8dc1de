"""Agreement statistics of judgment matrices, batched over leading axes.

Every two-judge statistic is a function of the confusion matrix ``O`` (rows: the reference's
grade, columns: the other judge's), and every several-judge one of the coincidence matrix
(Krippendorff's ``o``). Both are sums over units, so one query's matrix, the whole set's and
a bootstrap resample's (a weighted sum of query matrices) go through the same functions.

- Cohen's kappa: ``1 - sum(W * O) / sum(W * E)``, ``E`` from the margins; ``W`` over grade
  positions (``1[i != j]``, ``|i - j|``, ``(i - j)^2``): scikit-learn's
  ``cohen_kappa_score(labels=grades, weights=...)``. NaN where ``sum(W * E) = 0``.
- Krippendorff's alpha: ``1 - (n - 1) sum(o * d) / sum(n_c n_k d)``, ``d`` nominal, ordinal
  (over grade positions, from the margins) or interval (grade values): the
  ``krippendorff`` package's ``alpha(level_of_measurement=...)``.
- Fleiss' kappa: ``(P - Pe) / (1 - Pe)`` with ``P = trace(o) / n`` and ``Pe = sum(p_c^2)``,
  ``p_c = n_c / n``: statsmodels' ``fleiss_kappa`` when every unit has the same judges;
  Randolph's free-marginal kappa takes ``Pe = 1 / k`` (``fleiss_kappa(method="randolph")``).
- Stuart-Maxwell (marginal homogeneity) and Bowker (symmetry): chi-square tests of one
  confusion matrix, statsmodels' ``SquareTable(O, shift_zeros=False).homogeneity()`` and
  ``.symmetry()`` (Bowker's df is ``k(k - 1) / 2`` whatever cells are empty, as there;
  Stuart-Maxwell's is the rank of its covariance, ``k - 1`` when that is invertible).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["ALPHA_LEVELS", "KAPPA_WEIGHTS", "ChiSquare", "alpha", "bowker", "confusion",
           "cut_kappa", "fleiss", "kappa", "shift", "stuart_maxwell"]

KAPPA_WEIGHTS = ("unweighted", "linear", "quadratic")
ALPHA_LEVELS = ("nominal", "ordinal", "interval")


def confusion(groups: np.ndarray, a: np.ndarray, b: np.ndarray, n_groups: int,
              k: int) -> np.ndarray:
    """``(n_groups, k, k)`` counts of units with grade position ``a`` and ``b`` per group."""
    flat = np.bincount((groups * k + a) * k + b, minlength=n_groups * k * k)
    return flat.reshape(n_groups, k, k).astype(np.float64)


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den != 0, 1 - num / np.where(den != 0, den, 1), np.nan)


def kappa(o: np.ndarray, weights: str = "unweighted") -> np.ndarray:
    """Cohen's kappa of confusion matrices ``(..., k, k)``."""
    i, j = np.indices(o.shape[-2:])
    w = {"unweighted": (i != j) * 1.0, "linear": np.abs(i - j) * 1.0,
         "quadratic": (i - j) ** 2.0}[weights]
    n = o.sum(axis=(-2, -1))[..., None, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        e = o.sum(axis=-1)[..., :, None] * o.sum(axis=-2)[..., None, :] / n
    return _ratio((w * o).sum(axis=(-2, -1)), np.nan_to_num((w * e).sum(axis=(-2, -1))))


def cut_kappa(o: np.ndarray, cut: int) -> np.ndarray:
    """Unweighted kappa after binarising both judges at grade position ``cut`` (>= relevant)."""
    low, high = slice(None, cut), slice(cut, None)
    two = np.stack([np.stack([o[..., r, :][..., c].sum(axis=(-2, -1)) for c in (low, high)],
                             axis=-1) for r in (low, high)], axis=-2)
    return kappa(two)


def alpha(o: np.ndarray, level: str, values: np.ndarray) -> np.ndarray:
    """Krippendorff's alpha of coincidence matrices ``(..., k, k)`` over grades ``values``."""
    nc = o.sum(axis=-1)
    i, j = np.indices(o.shape[-2:])
    if level == "nominal":
        d = np.broadcast_to((i != j) * 1.0, o.shape)
    elif level == "interval":
        d = np.broadcast_to((values[i] - values[j]) ** 2.0, o.shape)
    else:  # ordinal: the grades between two, counted from the margins
        cum = np.cumsum(nc, axis=-1)
        lo, hi = np.minimum(i, j), np.maximum(i, j)
        between = cum[..., hi] - cum[..., lo] + nc[..., lo]
        d = (between - (nc[..., i] + nc[..., j]) / 2) ** 2
    n = nc.sum(axis=-1)
    expected = (nc[..., :, None] * nc[..., None, :] * d).sum(axis=(-2, -1))
    return _ratio((n - 1) * (o * d).sum(axis=(-2, -1)), expected)


def fleiss(o: np.ndarray, method: str = "fleiss") -> np.ndarray:
    """Fleiss' kappa of coincidence matrices ``(..., k, k)`` (every unit equally judged);
    ``method="randolph"``: chance is ``1 / k`` (free-marginal kappa)."""
    n = o.sum(axis=(-2, -1))
    with np.errstate(divide="ignore", invalid="ignore"):
        observed = np.trace(o, axis1=-2, axis2=-1) / n
        chance = (((o.sum(axis=-1) / n[..., None]) ** 2).sum(axis=-1) if method == "fleiss"
                  else 1 / o.shape[-1])
        return (observed - chance) / (1 - chance)


def shift(o: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Mean grade of the other judge minus the reference's (positive: more lenient)."""
    diff = values[None, :] - values[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        return (o * diff).sum(axis=(-2, -1)) / o.sum(axis=(-2, -1))


class ChiSquare(NamedTuple):
    """A chi-square test: its statistic, degrees of freedom and p-value."""

    statistic: float
    df: int
    p: float


def _chi2(statistic: float, df: int) -> ChiSquare:
    from scipy.special import chdtrc

    return ChiSquare(statistic, df, float(chdtrc(df, statistic)))


def stuart_maxwell(o: np.ndarray) -> ChiSquare:
    """Stuart-Maxwell test that the judges' grade distributions (the margins of the
    confusion matrix ``o``) are the same. Its covariance is singular when the disagreements
    split the grades into groups (a grade nobody uses, or never confused): the statistic
    then takes its pseudo-inverse and df its rank (no disagreement at all: 0, df 0, p 1)."""
    v = -(o + o.T)
    np.fill_diagonal(v, o.sum(axis=0) + o.sum(axis=1) - 2 * np.diag(o))
    d, df = o.sum(axis=0) - o.sum(axis=1), int(np.linalg.matrix_rank(v))
    if not df:
        return ChiSquare(0.0, 0, 1.0)
    return _chi2(float(d @ np.linalg.pinv(v, hermitian=True) @ d), df)


def bowker(o: np.ndarray) -> ChiSquare:
    """Bowker's test that the confusion matrix ``o`` is symmetric (disagreements go either
    way alike); pairs of cells both empty add nothing."""
    upper, lower = o[np.triu_indices_from(o, 1)], o.T[np.triu_indices_from(o, 1)]
    both = upper + lower
    terms = np.divide((upper - lower) ** 2, both, out=np.zeros_like(both), where=both > 0)
    return _chi2(float(terms.sum()), upper.size)
