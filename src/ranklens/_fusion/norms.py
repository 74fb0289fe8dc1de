"""Score normalisations, applied to each run's list for each query before fusing.

Every normalisation maps run ``r``'s scores for one query; a document the run does not
retrieve stays absent (NaN), except under ``borda``, which scores every candidate of the
query. Denominators are floored at ``1e-9`` (as ranx floors them), which states the rules
for degenerate lists:

``min-max``
    ``(s - min) / max(max - min, 1e-9)``: a single document, or all scores equal, give 0.
``min-max-inverted``
    ``(max - s) / max(max - min, 1e-9)``: the lowest score becomes 1 (for distances); a
    single document or equal scores give 0. The run is re-ranked by the new scores.
``max``
    ``s / max(max, 1e-9)``: a single positive document gives 1. When the best score is 0 or
    negative the denominator is ``1e-9``, which multiplies the scores by ``1e9`` (ranx's
    rule, kept: use min-max for negative scores).
``sum``
    ``(s - min) / max(sum(s) - n * min, 1e-9)``: the shifted scores sum to 1; a single
    document or equal scores give 0.
``zmuv``
    ``(s - mean) / max(std, 1e-9)`` with the population standard deviation: a single
    document or equal scores give 0.
``rank``
    ``1 - (rank - 1) / n`` for a list of ``n`` documents: the top document gets 1, a single
    document 1; tied scores take the ranks of the convention's order.
``borda``
    ``1 - (rank - 1) / c`` for a document the run ranks, with ``c`` the query's candidates
    (documents any run retrieves); ``0.5 - (n - 1) / (2 c)`` for a candidate it does not
    rank, so every run then scores every candidate (CombMNZ then counts every run).
``none``
    the scores as given.

A query a run has no list for gets nothing from that run under every normalisation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .candidates import Candidates

__all__ = ["NORMS", "Normalised", "normalise"]

FLOOR = 1e-9


@dataclass(frozen=True)
class Normalised:
    """Scores after a normalisation, shape (U, R), NaN where absent, and whether the
    normalisation re-ranks the runs (``rerank``: min-max-inverted and borda)."""

    score: np.ndarray
    rerank: bool = False


def _per_query(c: Candidates, values: np.ndarray, ufunc: np.ufunc) -> np.ndarray:
    """``ufunc`` reduced over each query's rows, column by column, spread back to rows."""
    if values.shape[0] == 0:
        return values.copy()
    starts = c.starts[:-1]
    sizes = np.diff(c.starts)
    return np.repeat(ufunc.reduceat(values, starts, axis=0), sizes, axis=0)


def _stats(c: Candidates) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    present = c.rank > 0
    s0 = np.where(present, c.score, 0.0)
    low = _per_query(c, np.where(present, c.score, np.inf), np.minimum)
    high = _per_query(c, np.where(present, c.score, -np.inf), np.maximum)
    total = _per_query(c, s0, np.add)
    return present, low, high, total


def min_max(c: Candidates) -> Normalised:
    present, low, high, _ = _stats(c)
    with np.errstate(invalid="ignore"):
        out = (c.score - low) / np.maximum(high - low, FLOOR)
    return Normalised(np.where(present, out, np.nan))


def min_max_inverted(c: Candidates) -> Normalised:
    present, low, high, _ = _stats(c)
    with np.errstate(invalid="ignore"):
        out = (high - c.score) / np.maximum(high - low, FLOOR)
    return Normalised(np.where(present, out, np.nan), rerank=True)


def max_norm(c: Candidates) -> Normalised:
    present, _, high, _ = _stats(c)
    with np.errstate(invalid="ignore"):
        out = c.score / np.maximum(high, FLOOR)
    return Normalised(np.where(present, out, np.nan))


def sum_norm(c: Candidates) -> Normalised:
    present, low, _, total = _stats(c)
    with np.errstate(invalid="ignore"):
        out = (c.score - low) / np.maximum(total - low * c.length, FLOOR)
    return Normalised(np.where(present, out, np.nan))


def zmuv(c: Candidates) -> Normalised:
    present, _, _, total = _stats(c)
    n = np.maximum(c.length, 1)
    with np.errstate(invalid="ignore"):
        mean = total / n
        dev = np.where(present, (c.score - mean) ** 2, 0.0)
        std = np.sqrt(_per_query(c, dev, np.add) / n)
        out = (c.score - mean) / np.maximum(std, FLOOR)
    return Normalised(np.where(present, out, np.nan))


def rank_norm(c: Candidates) -> Normalised:
    present = c.rank > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        out = 1 - (c.rank - 1) / c.length
    return Normalised(np.where(present, out, np.nan))


def borda(c: Candidates) -> Normalised:
    present = c.rank > 0
    size = c.size[:, None].astype(np.float64)
    ranked_ = 1 - (c.rank - 1) / size
    unranked = 0.5 - (c.length - 1) / (2 * size)
    return Normalised(np.where(present, ranked_, unranked), rerank=True)


def none(c: Candidates) -> Normalised:
    return Normalised(c.score)


#: Normalisation name (ranx's spelling) -> function.
NORMS: dict[str, Callable[[Candidates], Normalised]] = {
    "min-max": min_max,
    "min-max-inverted": min_max_inverted,
    "max": max_norm,
    "sum": sum_norm,
    "zmuv": zmuv,
    "rank": rank_norm,
    "borda": borda,
    "none": none,
}

#: Other spellings of the normalisations' names.
NORM_ALIASES = {"min_max": "min-max", "minmax": "min-max",
                "min_max_inverted": "min-max-inverted", "z": "zmuv", "z-score": "zmuv",
                "zscore": "zmuv"}


def normalise(c: Candidates, name: str) -> Normalised:
    """``c``'s scores under the normalisation ``name`` (a key of :data:`NORMS`)."""
    return NORMS[name](c)
