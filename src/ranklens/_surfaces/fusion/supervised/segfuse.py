r"""SegFuse: each run's list cut into segments that double in size; a segment's training
precision times the document's normalised score plus one.

Shokouhi, "Segmentation of search engine results for effective data-fusion", ECIR 2007,
LNCS 4425, pp. 185-197, doi:10.1007/978-3-540-71496-5_19.

Segments (ranx's rule, which ranklens follows). The paper gives the size of the k-th
segment as :math:`10 \cdot 2^{k-1} - 5` (5, 15, 35, ...); ranx uses that expression as the
segment's *end* instead, so its segments are the 0-based positions
``[0, 5), [5, 15), [15, 35), [35, 75), ..., [2555, 5115)`` (sizes 5, 10, 20, 40, ...,
2560): ten segments, and no segment past position 5115.

Training (an unjudged document counts as not relevant). With :math:`R_{k,q}` the relevant
documents in segment ``k`` of run ``m``'s list for training query ``q`` and :math:`|k|` the
segment's nominal size (even where the list ends inside it or before it),

.. math:: P_{m,k} = \frac{1}{Q_m} \sum_q \frac{|R_{k,q}|}{|k|}

over the :math:`Q_m` training queries ``m`` has a list for.

Fusion: a document in segment ``k`` of run ``m`` with normalised score :math:`s'_{d,m}` (the
``score`` given, after whatever normalisation the caller applied; the paper and ranx's
default use min-max) scores

.. math:: S_d = \sum_m P_{m,k} \, (s'_{d,m} + 1)

over the runs that retrieved ``d``; a run without it adds 0, and so does a document past
position 5115. Equal sums are equal scores: ties are left to the caller.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._common import REL, Model, Training, band, band_counts, learner, padded, read_only, run_sum

__all__ = ["BOUNDS", "PARAMS", "SegFuseModel", "fuse", "learn"]

PARAMS = (REL,)

#: Segment k holds the 0-based positions BOUNDS[k] <= p < BOUNDS[k + 1].
BOUNDS = np.array([0] + [10 * 2 ** (k - 1) - 5 for k in range(1, 11)], dtype=np.int64)
_SIZES = np.diff(BOUNDS).astype(np.float64)


@dataclass(frozen=True, eq=False, repr=False)
class SegFuseModel(Model):
    """``probs[r, k]``: run r's mean precision in segment k (of :data:`BOUNDS`)."""

    probs: np.ndarray


def _fit(t: Training) -> SegFuseModel:
    """Segment probabilities of each run (see the module's formula)."""
    probs = np.zeros((t.n_runs, len(_SIZES)))
    for r in range(t.n_runs):
        ratio = band_counts(t, r, BOUNDS) / _SIZES
        n = int(t.has[:, r].sum())
        if n:
            probs[r] = ratio[t.has[:, r]].sum(axis=0) / n  # ranx's order of rounding
    return SegFuseModel(read_only(probs))


learn = learner("segfuse", PARAMS, _fit)


def fuse(model: SegFuseModel, query: np.ndarray, doc: np.ndarray, rank: np.ndarray,
         length: np.ndarray, score: np.ndarray) -> np.ndarray:
    """SegFuse scores of the rows: higher is better, a run without the doc adds 0.

    Examples
    --------
    >>> m = learn(np.array([0, 0]), np.array([0, 1]), np.array([[1], [6]]),
    ...           np.array([[6], [6]]), np.array([[2.0], [1.0]]), np.array([1.0, 1.0]))
    >>> m.probs[0, :3].tolist()
    [0.2, 0.1, 0.0]
    >>> m = SegFuseModel(probs=np.array([[0.2, 0.1] + [0.0] * 8]))
    >>> fuse(m, np.zeros(2), np.arange(2), np.array([[1], [6]]), np.array([[6], [6]]),
    ...      np.array([[1.0], [0.0]])).tolist()
    [0.4, 0.1]
    """
    table, rank = padded(model.probs, 0.0), np.asarray(rank)
    score = np.asarray(score, dtype=np.float64)
    return run_sum("segfuse", len(table), rank, 0.0, lambda r, rows: (
        table[r, band(BOUNDS, rank[rows, r] - 1)] * (score[rows, r] + 1)))
