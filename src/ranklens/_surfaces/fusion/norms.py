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

__all__ = ["DEFAULT_NORM", "NORMS", "Normalised", "normalise"]

FLOOR = 1e-9
#: The normalisation used when ``norm`` is not given: min-max, as ranx does.
DEFAULT_NORM = "min-max"


@dataclass(frozen=True)
class Normalised:
    """Scores after a normalisation, shape (U, R), NaN where absent, and whether the
    normalisation re-ranks the runs (``rerank``: min-max-inverted and borda)."""

    score: np.ndarray
    rerank: bool = False


def _reduce(c: Candidates, values: np.ndarray, ufunc: np.ufunc) -> np.ndarray:
    """``ufunc`` reduced over each query's rows of one column, one value per query."""
    return ufunc.reduceat(values, c.starts[:-1]) if values.size else values[:0]


def _spread(c: Candidates, per_query: np.ndarray) -> np.ndarray:
    """One value per query, repeated over the query's rows."""
    return np.repeat(per_query, np.diff(c.starts))


def _columns(c: Candidates, formula: Callable[..., np.ndarray], *,
             need_sum: bool = False, rerank: bool = False) -> Normalised:
    """Each run's column normalised by ``formula(s, low, high, total, n)`` (per-query
    statistics spread over the rows), column by column so that the temporaries are one
    column long; absent documents stay NaN."""
    out = np.full(c.score.shape, np.nan)
    for r in range(c.runs):
        present = c.rank[:, r] > 0
        s = c.score[:, r]
        low = _spread(c, _reduce(c, np.where(present, s, np.inf), np.minimum))
        high = _spread(c, _reduce(c, np.where(present, s, -np.inf), np.maximum))
        total = _spread(c, _reduce(c, np.where(present, s, 0.0), np.add)) if need_sum \
            else None
        with np.errstate(invalid="ignore", divide="ignore"):
            value = formula(s, low, high, total, c.length[:, r])
        out[:, r] = np.where(present, value, np.nan)
    return Normalised(out, rerank=rerank)


def zmuv(c: Candidates) -> Normalised:
    out = np.full(c.score.shape, np.nan)
    for r in range(c.runs):
        present = c.rank[:, r] > 0
        s = c.score[:, r]
        n = np.maximum(c.length[:, r], 1)
        with np.errstate(invalid="ignore"):
            mean = _spread(c, _reduce(c, np.where(present, s, 0.0), np.add)) / n
            dev = np.where(present, (s - mean) ** 2, 0.0)
            std = np.sqrt(_spread(c, _reduce(c, dev, np.add)) / n)
            out[:, r] = np.where(present, (s - mean) / np.maximum(std, FLOOR), np.nan)
    return Normalised(out)


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


#: Normalisation name (ranx's spelling) -> function.
NORMS: dict[str, Callable[[Candidates], Normalised]] = {
    "min-max": lambda c: _columns(
        c, lambda s, low, high, total, n: (s - low) / np.maximum(high - low, FLOOR)),
    "min-max-inverted": lambda c: _columns(
        c, lambda s, low, high, total, n: (high - s) / np.maximum(high - low, FLOOR),
        rerank=True),
    "max": lambda c: _columns(c, lambda s, low, high, total, n: s / np.maximum(high, FLOOR)),
    "sum": lambda c: _columns(
        c, lambda s, low, high, total, n: (s - low) / np.maximum(total - low * n, FLOOR),
        need_sum=True),
    "zmuv": zmuv,
    "rank": rank_norm,
    "borda": borda,
    "none": lambda c: Normalised(c.score),
}

#: Other spellings of the normalisations' names.
NORM_ALIASES = {"min_max": "min-max", "minmax": "min-max",
                "min_max_inverted": "min-max-inverted", "z": "zmuv", "z-score": "zmuv",
                "zscore": "zmuv"}


def normalise(c: Candidates, name: str) -> Normalised:
    """``c``'s scores under the normalisation ``name`` (a key of :data:`NORMS`)."""
    return NORMS[name](c)
