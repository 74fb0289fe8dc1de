"""alpha-DCG@k (Clarke et al., SIGIR 2008) with ndeval's collection-independent
normalisation (TREC Web track 2009-2014; ir_measures' ``alpha_DCG@k``).

With ``G_r`` alpha-nDCG's novelty gain of the document at rank r (see
:mod:`ranklens._measures.diversity_alpha_ndcg`) and M the query's subtopics with a relevant
document:

    alpha-DCG@k = (sum over r <= k of G_r / log2(r + 1))
                  / (M * sum over r <= k of (1 - alpha)^(r-1) / log2(r + 1))

The divisor is the value of a ranking whose every document is relevant to every subtopic
(ndeval's "ideal ideal"); ndeval starts that division at rank 2, so alpha-DCG@1 is left
undivided (``G_1``), reproduced here. A query without a relevant subtopic scores 0.
"""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from ._common import divide
from ._diversity import (
    ALPHA,
    REL,
    alpha_of,
    discount,
    hits,
    n_subtopics,
    novelty_gains,
    rank_gains,
)
from ._registry import Measure, register


def alpha_dcg(a: Aligned, m: Measure) -> np.ndarray:
    alpha = alpha_of(m)
    k = int(m.cutoff) if m.cutoff is not None else 0
    h = hits(a, m, k)
    q, rank, gain = rank_gains(h, novelty_gains(h, alpha))
    dcg = np.bincount(q, weights=gain * discount(rank), minlength=a.nq)
    if k == 1:  # ndeval's normalisation loop starts at its second rank
        return dcg
    r = np.arange(1, k + 1)
    return divide(dcg, n_subtopics(a, m) * float(np.sum((1.0 - alpha) ** (r - 1.0)
                                                        * discount(r))))


register(
    "alpha-DCG", "novelty-aware DCG over subtopics (Clarke et al. 2008, ndeval): alpha-nDCG's "
    "sum, divided by M times the sum of (1 - alpha)^(r-1) / log2(r + 1); needs subtopic "
    "judgments",
    params=(ALPHA, REL), cutoff="int", cutoff_required=True,
    aliases=("alpha_dcg", "alpha-dcg"), family="diversity", subtopics=True,
)(alpha_dcg)
