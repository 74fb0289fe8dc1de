"""nERR-IA@k, intent-aware ERR normalised by an ideal ranking (Chapelle et al., CIKM 2009),
as ndeval computes it (TREC Web track 2009-2014; ir_measures' ``nERR_IA@k``).

ERR-IA@k's sum ``sum over r <= k of G_r / r`` (see :mod:`ranklens._measures.diversity_err_ia`)
divided by the same sum for ndeval's greedy ideal ranking of the judged documents (the
one alpha-nDCG divides by). A query without a relevant subtopic scores 0, and so does a
ranking with nothing relevant in its top k.
"""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from ._diversity import ALPHA, REL, alpha_of, hits, ideal_gains, novelty_gains, rank_gains
from ._registry import Measure, register


def nerr_ia(a: Aligned, m: Measure) -> np.ndarray:
    alpha = alpha_of(m)
    k = int(m.cutoff) if m.cutoff is not None else 0
    h = hits(a, m, k)
    q, rank, gain = rank_gains(h, novelty_gains(h, alpha))
    err = np.bincount(q, weights=gain / rank, minlength=a.nq)
    ideal = np.array([float(np.sum(g[:k] / np.arange(1, g[:k].size + 1)))
                      for g in ideal_gains(a, m, alpha, k)])
    out = np.zeros(a.nq)
    np.divide(err, ideal, out=out, where=(err > 0) & (ideal > 0))
    return out


register(
    "nERR-IA", "intent-aware expected reciprocal rank normalised by ndeval's greedy ideal "
    "ranking (Chapelle et al. 2009, ndeval); needs subtopic judgments",
    params=(ALPHA, REL), cutoff="int", cutoff_required=True,
    aliases=("nerr_ia", "nerr-ia"), family="diversity", subtopics=True,
)(nerr_ia)
