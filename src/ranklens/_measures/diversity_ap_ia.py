"""AP-IA, intent-aware average precision (Agrawal, Gollapudi, Halverson and Ieong, WSDM
2009), as ndeval computes it (its ``MAP-IA``; TREC Web track 2009-2014; ir_measures'
``AP_IA``).

The mean over the query's M subtopics (those with a relevant document) of AP counted for
that subtopic alone: for subtopic s with R_s relevant documents,
``AP_s = (sum over the ranks r of documents relevant to s of (their number up to r) / r) / R_s``.
The whole ranking counts. A query without a relevant subtopic scores 0.
"""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from ._common import divide
from ._diversity import DIVERSITY, REL, hits, n_subtopics, subtopic_sizes
from ._registry import Measure, register


def ap_ia(a: Aligned, m: Measure) -> np.ndarray:
    h = hits(a, m, None)
    total = np.zeros(a.nq)
    if h.q.size:
        order = np.lexsort((h.rank, h.sub, h.q))
        q, sub, rank = h.q[order], h.sub[order], h.rank[order]
        start = np.ones(q.size, dtype=bool)
        start[1:] = (q[1:] != q[:-1]) | (sub[1:] != sub[:-1])
        idx = np.arange(q.size)
        seen = idx - np.maximum.accumulate(np.where(start, idx, 0)) + 1
        group = np.cumsum(start) - 1
        precision = np.bincount(group, weights=seen / rank)
        size = subtopic_sizes(a, m, q[start], sub[start])
        np.add.at(total, q[start], precision / size)
    return divide(total, n_subtopics(a, m))


register("AP-IA", "intent-aware average precision (Agrawal et al. 2009, ndeval's MAP-IA): the mean "
         "over subtopics of AP counted for each subtopic alone; needs subtopic judgments",
         params=(REL,), aliases=("ap_ia", "ap-ia", "map-ia", "map_ia"),
         order_free="never", **DIVERSITY)(ap_ia)
