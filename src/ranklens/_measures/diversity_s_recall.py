"""S-recall@k, subtopic recall (Zhai, Cohen and Lafferty, SIGIR 2003), as ndeval computes it
(``strec@k``; TREC Web track 2009-2014; ir_measures' ``StRecall@k``).

The share of the query's subtopics that some document in the top k is relevant to:

    S-recall@k = |{subtopics with a relevant document in the top k}| / M

M counting the subtopics with a relevant document anywhere in the judgments (0 without
any: the query scores 0). Without a cutoff the whole ranking counts. Order within the top
k does not matter.
"""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from ._common import divide
from ._diversity import DIVERSITY, REL, hits, n_subtopics
from ._registry import Measure, register


def subtopic_recall(a: Aligned, m: Measure) -> np.ndarray:
    h = hits(a, m, m.cutoff)
    width = int(h.sub.max()) + 1 if h.sub.size else 1
    covered = np.unique(h.q * width + h.sub) // width
    return divide(np.bincount(covered, minlength=a.nq), n_subtopics(a, m))


register("S-recall", "subtopic recall (Zhai et al. 2003, ndeval's strec): the share of the "
         "query's subtopics with a relevant document in the top k; needs subtopic judgments",
         params=(REL,), cutoff="int", aliases=("s_recall", "s-recall", "strec", "strecall",
                                               "st_recall", "subtopic_recall"),
         order_free="without_cutoff", **DIVERSITY)(subtopic_recall)
