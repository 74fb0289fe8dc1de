"""nNRBP, NRBP normalised by an ideal ranking (Clarke, Kolla and Vechtomova, ICTIR 2009), as
ndeval computes it (TREC Web track 2009-2014; ir_measures' ``nNRBP``).

NRBP (:mod:`ranklens._measures.diversity_nrbp`) divided by the NRBP of ndeval's greedy
ideal ranking of every judged document. A query without a relevant subtopic scores 0.
"""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from ._common import divide
from ._diversity import ALPHA, BETA, REL, alpha_of, hits, ideal_gains, novelty_gains, rank_gains
from ._registry import Measure, register


def nnrbp(a: Aligned, m: Measure) -> np.ndarray:
    alpha = alpha_of(m)
    beta = float(m.get("beta"))
    h = hits(a, m, None)
    q, rank, gain = rank_gains(h, novelty_gains(h, alpha))
    total = np.bincount(q, weights=gain * beta ** (rank - 1.0), minlength=a.nq)
    # the whole greedy ideal: it ends where every remaining gain is 0
    ideal = np.array([float(np.sum(g * beta ** np.arange(g.size)))
                      for g in ideal_gains(a, m, alpha, None)])
    return divide(total, ideal)


register(
    "nNRBP", "NRBP divided by the NRBP of ndeval's greedy ideal ranking (Clarke et al. 2009, "
    "ndeval); needs subtopic judgments",
    params=(ALPHA, BETA, REL), aliases=("nnrbp",), family="diversity", subtopics=True,
)(nnrbp)
