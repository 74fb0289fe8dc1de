"""ERR-IA@k, intent-aware expected reciprocal rank (Chapelle, Metzler, Zhang and Grinspan,
CIKM 2009; Agrawal et al., WSDM 2009), as ndeval computes it (TREC Web track 2009-2014;
ir_measures' ``ERR_IA@k``).

A user with intent s (one of the query's M subtopics, equally likely) stops at a document
relevant to s with probability alpha, so the k-th such document is reached with
probability ``(1 - alpha)^(k-1)``. With ``G_r`` the novelty gain of the document at rank r
(alpha-nDCG's: ``sum over its relevant subtopics s of (1 - alpha)^(n_s)``):

    ERR-IA@k = (sum over r <= k of G_r / r) / (M * sum over r <= k of (1 - alpha)^(r-1) / r)

The divisor is ndeval's collection-independent ("ideal ideal") normalisation: the value of
a ranking whose every document is relevant to every subtopic; it is ndeval's ERR-IA, not
nERR-IA (normalised by an ideal ranking). ndeval starts that division at rank 2, so
ERR-IA@1 is left undivided (``G_1``, up to M): reproduced here. alpha is ndeval's 0.5 by
default. A query without a relevant subtopic scores 0.
"""

from __future__ import annotations

from ._diversity import novelty_measure, over_ideal_ideal, rank_discounted

novelty_measure(
    __name__, "ERR-IA",
    "intent-aware expected reciprocal rank (Chapelle et al. 2009, ndeval): novelty "
    "gains over subtopics divided by rank, normalised by M times the sum of (1 - alpha)^(r-1) "
    "/ r; needs subtopic judgments",
    ("err_ia", "err-ia"), over_ideal_ideal, rank_discounted)
