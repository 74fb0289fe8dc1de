"""NRBP, novelty- and rank-biased precision (Clarke, Kolla and Vechtomova, ICTIR 2009), as
ndeval computes it (TREC Web track 2009-2014; ir_measures' ``NRBP``).

RBP's patient user (who goes on to the next rank with probability beta) meets novelty
gains: with ``G_r`` alpha-nDCG's gain of the document at rank r,

    NRBP = (1 - (1 - alpha) beta) / M * sum over every rank r of G_r beta^(r-1)

M being the query's subtopics with a relevant document (0 without any). The whole ranking
counts (no cutoff: the ``depth`` option limits it); alpha and beta are ndeval's 0.5 by
default. ndeval's collection-independent normalisation, not nNRBP's.
"""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from ._common import divide
from ._diversity import PATIENT, alpha_of, n_subtopics, novelty_sum, patience_discounted
from ._registry import Measure, register


def nrbp(a: Aligned, m: Measure) -> np.ndarray:
    total = novelty_sum(a, m, patience_discounted)
    return divide(total * (1.0 - (1.0 - alpha_of(m)) * float(m.get("beta"))),
                  n_subtopics(a, m))


register("NRBP", "novelty- and rank-biased precision (Clarke et al. 2009, ndeval): novelty gains "
         "over subtopics weighted beta^(r-1), times (1 - (1 - alpha) beta) / M; needs subtopic "
         "judgments",
         aliases=("nrbp",), **PATIENT)(nrbp)
