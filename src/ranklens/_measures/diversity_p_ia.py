"""P-IA@k, intent-aware precision (Agrawal, Gollapudi, Halverson and Ieong, WSDM 2009), as
ndeval computes it (TREC Web track 2009-2014; ir_measures' ``P_IA@k``).

The mean over the query's M subtopics (those with a relevant document) of P@k counted for
that subtopic alone:

    P-IA@k = (number of (document, subtopic) pairs in the top k with the document relevant
              to the subtopic) / (k M)

k counts ranks, not documents: a ranking shorter than k is not rescaled. A query without a
relevant subtopic scores 0. Order within the top k does not matter.
"""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from ._common import divide
from ._diversity import DIVERSITY, REL, hits, n_subtopics
from ._registry import Measure, register


def p_ia(a: Aligned, m: Measure) -> np.ndarray:
    k = int(m.cutoff) if m.cutoff is not None else 0
    count = np.bincount(hits(a, m, k).q, minlength=a.nq)
    return divide(count, k * n_subtopics(a, m))


register("P-IA", "intent-aware precision (Agrawal et al. 2009, ndeval): relevant (document, "
         "subtopic) pairs in the top k over k times the number of subtopics; needs subtopic "
         "judgments", params=(REL,), cutoff="int", cutoff_required=True,
         aliases=("p_ia", "p-ia", "precision-ia"), order_free="without_cutoff",
         **DIVERSITY)(p_ia)
