"""Recall at a fixed precision: the best recall of a top k whose precision is high enough.

``RecallAtPrecision(min_precision=x)@K`` is the largest ``R@k`` over the depths k <= K whose
``P@k >= x`` (0 when there is none), ``R@k`` dividing by all relevant judged documents and
``P@k`` by k. That is torchmetrics' ``RetrievalRecallAtFixedPrecision(min_precision=x,
max_k=K)`` on one query (its first output; the second, the k reached, is not reported).
On several queries torchmetrics averages the P@k and R@k curves over the queries first and
picks the best recall of the averaged curves; here each query gets its own value and the
mean is over queries, as for every other measure. Without a cutoff every depth of the
ranking counts. Under ``ties="average"`` the tied orders are enumerated.
"""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from ._common import data, divide, rel_level
from ._registry import JUDGED_ONLY, REL, Measure, Param, Spelled, register

_MIN_PRECISION = Param("min_precision", Spelled("float", minimum=0), 0.5, "the precision P@k a "
                       "depth k must reach (torchmetrics' min_precision, which has no default)")


def recall_at_precision(a: Aligned, m: Measure) -> np.ndarray:
    d = data(a, m)
    level = rel_level(d, m)
    relevant = d.relevant(level)
    hits = d.seg_cumcount(relevant)
    rank = d.rank
    ok = divide(hits, rank) >= float(m.get("min_precision"))
    if m.cutoff is not None:
        ok &= rank <= m.cutoff
    big_r = d.num_rel(level)
    recall = divide(hits, big_r[d.qidx])
    out = np.zeros(d.nq)
    # recall never falls with depth: the deepest qualifying rank has the best one
    np.maximum.at(out, d.qidx[ok], recall[ok])
    return out


register("RecallAtPrecision", "recall at a fixed precision: the largest R@k over the depths "
         "k <= K with P@k >= min_precision, 0 if none (torchmetrics "
         "RetrievalRecallAtFixedPrecision, per query)", params=(_MIN_PRECISION, REL, JUDGED_ONLY),
         cutoff="int", aliases=("recall_at_precision", "recall_at_fixed_precision"),
         family="recall_at_precision")(recall_at_precision)
