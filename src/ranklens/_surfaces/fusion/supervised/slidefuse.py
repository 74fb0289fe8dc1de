r"""SlideFuse: the training probability of relevance averaged over a window of positions
around the document's, summed over runs.

Lillis, Toolan, Collier & Dunnion, "Extending probabilistic data fusion using sliding
windows", ECIR 2008, LNCS 4956, pp. 358-369, doi:10.1007/978-3-540-78646-7_33.

Training (an unjudged document counts as not relevant): :math:`P_m(p)` is the share of run
``m``'s training lists at least ``p + 1`` long whose document at 0-based position ``p`` is
relevant (:mod:`._positions`); 0 past the run's longest training list.

Fusion: for a document at 0-based position ``p`` of run ``m``'s list of ``N`` documents, the
window is :math:`a = \max(p - w, 0)`, :math:`b = \min(p + w, N - 1)` and

.. math:: S_d = \sum_m \frac{1}{b - a + 1} \sum_{i=a}^{b} P_m(i)

over the runs that retrieved ``d``; a run without it adds 0. The window is clipped to the
list being fused (not to the training lists): positions past the longest training list
count as probability 0 in the mean, as in ranx (its slice of the table is shorter, its
divisor is not). Equal sums are equal scores: ties are left to the caller. This is ranx's
``slidefuse``.

Window sums are differences of prefix sums kept in double-double precision, so each mean is
correct to a few units in the last place however deep the table (a plain float64 prefix sum
would lose digits on long tables).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...._base.validate import Integer
from ._common import REL, REQUIRED, Model, Param, Training, learner, read_only, run_sum
from ._positions import position_probs

__all__ = ["PARAMS", "SlideFuseModel", "fuse", "learn"]


@dataclass(frozen=True, eq=False, repr=False)
class SlideFuseModel(Model):
    """``probs[r, p]``: run r's probability of relevance at 0-based position p; ``w``."""

    w: int
    probs: np.ndarray


PARAMS = (
    Param("w", Integer(0), REQUIRED,
          "Half-width of the window: w positions either side (ranx tunes it over 1..100)."),
    REL,
)


def _fit(t: Training) -> SlideFuseModel:
    """Per-position probabilities of each run and the window ``w``."""
    return SlideFuseModel(w=t.params["w"], probs=read_only(position_probs(t)))


learn = learner("slidefuse", PARAMS, _fit)


def _prefix_sums(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``hi + lo`` = the sum of ``values[:i]`` to double-double precision (Knuth's TwoSum).

    One pass over a run's table (its positions, not the rows), so a loop is cheap.
    """
    hi = np.zeros(len(values) + 1)
    lo = np.zeros(len(values) + 1)
    s = c = 0.0
    for i, v in enumerate(values.tolist(), start=1):
        t = s + v
        back = t - s
        c += (s - (t - back)) + (v - back)
        s = t
        hi[i], lo[i] = s, c
    return hi, lo


def fuse(model: SlideFuseModel, query: np.ndarray, doc: np.ndarray, rank: np.ndarray,
         length: np.ndarray, score: np.ndarray) -> np.ndarray:
    """SlideFuse scores of the rows: higher is better, a run without the doc adds 0.

    Examples
    --------
    >>> learn(np.array([0, 0]), np.array([0, 1]), np.array([[1], [2]]), np.array([[2], [2]]),
    ...       np.full((2, 1), np.nan), np.array([0.0, 1.0]), w=1)
    SlideFuseModel(w=1, probs=[[0., 1.]])
    >>> m = SlideFuseModel(w=1, probs=np.array([[0.0, 1.0, 0.5]]))
    >>> fuse(m, np.zeros(3), np.arange(3), np.array([[1], [2], [3]]),
    ...      np.array([[3], [3], [3]]), np.full((3, 1), np.nan)).tolist()
    [0.5, 0.5, 0.75]
    """
    rank, length = np.asarray(rank), np.asarray(length)
    w, probs = model.w, model.probs
    deepest = max(probs.shape[1], int(length.max(initial=0)))

    def part(r: int, rows: np.ndarray) -> np.ndarray:
        table = np.zeros(deepest)
        table[:probs.shape[1]] = probs[r]
        hi, lo = _prefix_sums(table)
        p = rank[rows, r] - 1
        a = np.maximum(p - w, 0)
        b = np.minimum(p + w, length[rows, r] - 1) + 1  # one past the window
        out: np.ndarray = ((hi[b] - hi[a]) + (lo[b] - lo[a])) / (b - a)
        return out
    return run_sum("slidefuse", probs.shape[0], rank, 0.0, part)
