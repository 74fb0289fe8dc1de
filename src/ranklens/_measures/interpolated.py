"""Interpolated precision at recall levels (trec_eval iprec_at_recall) and its average (11pt_avg).

Interpolated precision at rank i is the best precision at any rank >= i. The value at recall
level x is the interpolated precision at the rank of the c-th relevant document, with
c = lround(x * R) (trec_eval 10; version 9 used (long)(x * R + 0.9)). c = 0 reads the value at
the first relevant document; c larger than the relevant documents retrieved gives 0. An
empty ranking gives 0 at every level: trec_eval gives 0 for a query absent from the run (-c)
but NaN (0/0) for a ranking emptied by -M0 or -J, which would make its mean NaN; ranklens
reports 0 there too.
"""

from __future__ import annotations

import numpy as np

from .._base.groups import group_offsets
from .._model.aligned import Aligned
from ._common import data, rel_level
from ._registry import JUDGED_ONLY, REL, Measure, Param, Spelled, register
from ._segments import lround, reverse_cummax

_RECALL_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
_POINTS = Param("points", Spelled("floats", minimum=0), _RECALL_LEVELS, "recall levels averaged "
                "(default the 11 levels 0, 0.1, ..., 1)")


class _Interpolated:
    """Per-query interpolated precision at each relevant retrieved document."""

    def __init__(self, d: Aligned, rel: int) -> None:
        # only the relevant positions: a pass over every ranked document per recall level
        # is what made this measure slow on many queries
        idx = d.relevant_positions(rel)
        self.qidx = d.qidx_at(idx)
        self.starts = group_offsets(self.qidx, d.nq)
        nth = np.arange(1, idx.size + 1, dtype=np.int64) - self.starts[:-1][self.qidx]
        # trec_eval divides (double) rel_so_far by (double) rank
        prec = nth.astype(np.float64) / d.rank_at(idx).astype(np.float64)
        self.best = reverse_cummax(prec, self.qidx, d.nq)
        self.hits = np.diff(self.starts)
        self.num_rel = d.num_rel(rel)

    def at(self, level: float) -> np.ndarray:
        """Interpolated precision at recall ``level`` for every query (0 past the last hit)."""
        c = lround(float(level) * self.num_rel.astype(np.float64))
        # c == 0 reads the first relevant document, like trec_eval's final fill-in loop
        idx = np.maximum(c, 1)
        ok = (idx <= self.hits) & (self.hits > 0)
        out = np.zeros(len(self.hits), dtype=np.float64)
        out[ok] = self.best[self.starts[:-1][ok] + idx[ok] - 1]
        return out


@register("IPrec", "interpolated precision at recall level x (the cutoff, 0..1): the best "
          "precision at or below the rank of the lround(x*R)-th relevant document; 0 if it is "
          "not retrieved", params=(REL, JUDGED_ONLY), cutoff="float", cutoff_required=True,
          trec_cut="iprec_at_recall", trec_cutoffs=_RECALL_LEVELS,
          aliases=("iprec_at_recall",), unit_range=True, family="interpolated")
def iprec_at_recall(a: Aligned, m: Measure) -> np.ndarray:
    d = data(a, m)
    return _Interpolated(d, rel_level(d, m)).at(float(m.cutoff or 0.0))


@register("IPrecAvg", "mean interpolated precision over recall levels (11-point average by "
          "default)", params=(REL, JUDGED_ONLY, _POINTS), trec="11pt_avg",
          aliases=("11pt_avg", "11pt"), family="interpolated")
def iprec_average(a: Aligned, m: Measure) -> np.ndarray:
    d = data(a, m)
    interp = _Interpolated(d, rel_level(d, m))
    points = sorted(m.get("points"))
    total = np.zeros(d.nq, dtype=np.float64)
    # trec_eval adds the levels from the highest down
    for level in reversed(points):
        total = total + interp.at(level)
    return total / float(len(points))
