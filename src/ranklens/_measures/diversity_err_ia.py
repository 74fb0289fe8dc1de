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

import numpy as np

from .._model.aligned import Aligned
from ._diversity import ALPHA, REL, alpha_of, hits, n_subtopics, novelty_gains, rank_gains
from ._registry import Measure, register


def err_ia(a: Aligned, m: Measure) -> np.ndarray:
    alpha = alpha_of(m)
    k = int(m.cutoff) if m.cutoff is not None else 0
    h = hits(a, m, k)
    q, rank, gain = rank_gains(h, novelty_gains(h, alpha))
    err = np.bincount(q, weights=gain / rank, minlength=a.nq)
    if k == 1:  # ndeval's normalisation loop starts at its second rank
        return err
    r = np.arange(1, k + 1, dtype=np.float64)
    ideal = n_subtopics(a, m) * float(np.sum((1.0 - alpha) ** (r - 1) / r))
    out = np.zeros(a.nq)
    np.divide(err, ideal, out=out, where=ideal > 0)
    return out


register(
    "ERR-IA", "intent-aware expected reciprocal rank (Chapelle et al. 2009, ndeval): novelty "
    "gains over subtopics divided by rank, normalised by M times the sum of (1 - alpha)^(r-1) "
    "/ r; needs subtopic judgments",
    params=(ALPHA, REL), cutoff="int", cutoff_required=True,
    aliases=("err_ia", "err-ia"), family="diversity", subtopics=True,
)(err_ia)
