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

from ._diversity import log_discounted, novelty_measure, over_ideal_ideal

novelty_measure(
    __name__, "alpha-DCG",
    "novelty-aware DCG over subtopics (Clarke et al. 2008, ndeval): alpha-nDCG's "
    "sum, divided by M times the sum of (1 - alpha)^(r-1) / log2(r + 1); needs subtopic "
    "judgments",
    ("alpha_dcg", "alpha-dcg"), over_ideal_ideal, log_discounted)
