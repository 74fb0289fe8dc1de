"""alpha-nDCG@k (Clarke, Kolla, Cormack, Vechtomova, Ashkan, Büttcher and MacKinnon, SIGIR
2008), as ndeval computes it (TREC Web track 2009-2014; ir_measures' ``alpha_nDCG@k``).

With subtopic judgments, the document at rank r gains ``G_r = sum over its relevant
subtopics s of (1 - alpha)^(n_s)``, n_s the documents relevant to s ranked above it
(novelty: a subtopic seen again is worth less). Then

    alpha-DCG@k = sum over r <= k of G_r / log2(r + 1)
    alpha-nDCG@k = alpha-DCG@k / alpha-DCG@k of the ideal ranking

The ideal ranking is ndeval's greedy approximation (the exact one is NP-hard): at each rank
the judged document of largest gain given those above it, ties to the largest doc id.
A query without a relevant subtopic scores 0, and so does a ranking with nothing relevant
in its top k. Subtopic relevance is ``grade >= rel`` (ndeval: any positive grade), the
grades are not used otherwise. ndeval reports k = 5, 10, 20 (pyndeval any k <= 20); any
k >= 1 works here. Under ties="average" the value is averaged over tied orders by
enumerating them (no closed form).
"""

from __future__ import annotations

from ._diversity import log_discounted, novelty_measure, over_greedy_ideal

novelty_measure(
    __name__, "alpha-nDCG",
    "novelty-aware nDCG over subtopics (Clarke et al. 2008, ndeval): each "
    "document gains (1 - alpha)^(times seen before) per relevant subtopic, discounted by "
    "log2(r + 1), divided by ndeval's greedy ideal; needs subtopic judgments",
    ("alpha_ndcg", "alpha-ndcg", "a-ndcg", "andcg"), over_greedy_ideal, log_discounted)
