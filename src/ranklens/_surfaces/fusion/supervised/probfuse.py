r"""ProbFuse: each run's list cut into ``x`` segments; a segment's score is its training
precision over its segment number.

Lillis, Toolan, Collier & Dunnion, "ProbFuse: a probabilistic approach to data fusion",
SIGIR 2006, pp. 139-146, doi:10.1145/1148170.1148197.

Training (ProbFuse\ :sub:`All`: an unjudged document counts as not relevant). Run ``m``'s list
of length :math:`L_q` for training query ``q`` is cut into ``x`` segments of
:math:`s_q = \lceil L_q / x \rceil` positions each (the last ones shorter or empty). With
:math:`R_{k,q}` the relevant documents in segment ``k`` and :math:`|k_q|` its length,

.. math:: P(d_k \mid m) = \frac{1}{Q_m} \sum_{q,\ |k_q| > 0} \frac{|R_{k,q}|}{|k_q|}

over the :math:`Q_m` training queries ``m`` has a list for (an empty segment adds 0).

Fusion: a document at 0-based position ``p`` of run ``m``'s list of length ``L`` lies in
segment :math:`k = \lfloor p / \lceil L/x \rceil \rfloor` (1-based :math:`k + 1`), and

.. math:: S_d = \sum_m \frac{P(d_k \mid m)}{k + 1}

over the runs that retrieved ``d`` (CombSUM: a run without it adds 0). Equal sums are equal
scores: ties are left to the caller. This is ranx's ``probfuse``, the per-query segment size
:math:`\lceil L/x \rceil` included.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...._base.validate import Integer
from ._common import REL, REQUIRED, Model, Param, Training, learner, read_only, run_sum

__all__ = ["PARAMS", "ProbFuseModel", "fuse", "learn"]

PARAMS = (
    Param("n_segments", Integer(1), REQUIRED,
          "Number of segments x each run's list is cut into (ranx tunes it over 1..100)."),
    REL,
)


@dataclass(frozen=True, eq=False, repr=False)
class ProbFuseModel(Model):
    """``probs[r, k]``: run r's mean precision in segment k (0-based) over its training queries."""

    n_segments: int
    probs: np.ndarray


def _segment_size(length: np.ndarray, x: int) -> np.ndarray:
    return -(-length // x)  # ceil(L / x) in integers


def _fit(t: Training) -> ProbFuseModel:
    """Segment probabilities of each run (see the module's formula)."""
    x: int = t.params["n_segments"]
    length, starts, group = t.length, t.starts, t.group
    probs = np.zeros((t.n_runs, x))
    k = np.arange(x)
    for r in range(t.n_runs):
        size = _segment_size(length[starts, r], x)                     # (Q,)
        rows = np.flatnonzero(t.hit[:, r])
        seg = (t.rank[rows, r] - 1) // size[group[rows]]
        found = np.bincount(group[rows] * x + seg, minlength=t.n_queries * x)
        found = found.reshape(t.n_queries, x).astype(np.float64)
        # the segment's own length: s, except the last non-empty one, then 0
        seg_len = np.clip(length[starts, r][:, None] - k * size[:, None], 0, size[:, None])
        ratio = np.divide(found, seg_len, out=np.zeros_like(found), where=seg_len > 0)
        n = int(t.has[:, r].sum())
        if n:
            # summed query by query, then divided, as ranx does (the same rounding)
            probs[r] = ratio[t.has[:, r]].sum(axis=0) / n
    return ProbFuseModel(n_segments=x, probs=read_only(probs))


learn = learner("probfuse", PARAMS, _fit)


def fuse(model: ProbFuseModel, query: np.ndarray, doc: np.ndarray, rank: np.ndarray,
         length: np.ndarray, score: np.ndarray) -> np.ndarray:
    """ProbFuse scores of the rows: higher is better, a run without the doc adds 0.

    Examples
    --------
    >>> m = learn(np.array([0, 0, 0]), np.array([0, 1, 2]), np.array([[1], [2], [3]]),
    ...           np.array([[3], [3], [3]]), np.full((3, 1), np.nan),
    ...           np.array([1.0, 0.0, 1.0]), n_segments=2)
    >>> m.probs.tolist()
    [[0.5, 1.0]]
    >>> m = ProbFuseModel(n_segments=2, probs=np.array([[0.5, 1.0]]))
    >>> fuse(m, np.zeros(3), np.arange(3), np.array([[1], [2], [3]]),
    ...      np.array([[3], [3], [3]]), np.full((3, 1), np.nan)).tolist()
    [0.5, 0.5, 0.5]
    """
    rank, length = np.asarray(rank), np.asarray(length)

    def part(r: int, rows: np.ndarray) -> np.ndarray:
        k = (rank[rows, r] - 1) // _segment_size(length[rows, r], model.n_segments)
        out: np.ndarray = model.probs[r, k] / (k + 1)
        return out
    return run_sum("probfuse", model.probs.shape[0], rank, 0.0, part)
