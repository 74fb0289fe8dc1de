r"""PosFuse: the training probability of relevance at the document's exact position, summed.

Lillis, Zhang, Toolan, Collier, Leonard & Dunnion, "Estimating probabilities for effective
data fusion", SIGIR 2010, pp. 347-354, doi:10.1145/1835449.1835508.

Training (an unjudged document counts as not relevant): :math:`P_m(p)` is the share of run
``m``'s training lists at least ``p + 1`` long whose document at 0-based position ``p`` is
relevant (:mod:`._positions`).

Fusion:

.. math:: S_d = \sum_m P_m(p_{d,m})

over the runs that retrieved ``d``. A run without it adds 0, and so does a position deeper
than every training list of that run (ranx: its table ends there). Equal sums are equal
scores: ties are left to the caller. This is ranx's ``posfuse``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._common import REL, Model, Training, learner, padded, read_only, run_sum
from ._positions import position_probs

__all__ = ["PARAMS", "PosFuseModel", "fuse", "learn"]

PARAMS = (REL,)


@dataclass(frozen=True, eq=False, repr=False)
class PosFuseModel(Model):
    """``probs[r, p]``: run r's probability of relevance at 0-based position p."""

    probs: np.ndarray


def _fit(t: Training) -> PosFuseModel:
    """Per-position probabilities of each run."""
    return PosFuseModel(probs=read_only(position_probs(t)))


learn = learner("posfuse", PARAMS, _fit)


def fuse(model: PosFuseModel, query: np.ndarray, doc: np.ndarray, rank: np.ndarray,
         length: np.ndarray, score: np.ndarray) -> np.ndarray:
    """PosFuse scores of the rows: higher is better, a run without the doc adds 0.

    Examples
    --------
    >>> learn(np.array([0, 0]), np.array([0, 1]), np.array([[1], [2]]), np.array([[2], [2]]),
    ...       np.full((2, 1), np.nan), np.array([np.nan, 2.0])).probs.tolist()
    [[0.0, 1.0]]
    >>> m = PosFuseModel(probs=np.array([[0.0, 1.0], [0.5, 0.0]]))
    >>> fuse(m, np.zeros(3), np.arange(3), np.array([[1, 0], [2, 1], [3, 2]]),
    ...      np.array([[3, 2], [3, 2], [3, 2]]), np.full((3, 2), np.nan)).tolist()
    [0.0, 1.5, 0.0]
    """
    table, rank, depth = padded(model.probs, 0.0), np.asarray(rank), model.probs.shape[1]
    return run_sum("posfuse", len(table), rank, 0.0,
                   lambda r, rows: table[r, np.minimum(rank[rows, r] - 1, depth)])
