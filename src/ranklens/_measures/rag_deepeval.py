"""deepeval's contextual precision and recall on given verdicts (deepeval 4.1).

A judged document at level ``rel`` is a node with the verdict "yes". Precision is the
precision at each relevant rank, summed and divided by the relevant retrieved (0 when
none, no floor); recall is the relevant retrieved over the relevant judged (0 when none).
``strict`` is deepeval's ``strict_mode``. See docs/rag-measures.md.
"""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from ._common import divide, rel_level
from ._rag import STRICT, hit_terms, per_query, strict
from ._registry import REL, Measure, register


@register("ContextualPrecision", "deepeval contextual precision: sum of precision at each "
          "relevant rank / relevant retrieved, 0 when none (trec_eval's AP divides by all "
          "relevant judged)", params=(REL, STRICT),
          aliases=("contextual_precision", "contextual_precision_metric"), family="deepeval",
          unit_range=True, needs_unretrieved=False)
def contextual_precision(a: Aligned, m: Measure) -> np.ndarray:
    q, rank, running = hit_terms(a, m)
    return strict(m, divide(per_query(a, q, running / rank), per_query(a, q)))


@register("ContextualRecall", "deepeval contextual recall: relevant retrieved / relevant "
          "judged, 0 when none (trec_eval's set_recall, but for strict)", params=(REL, STRICT),
          aliases=("contextual_recall", "contextual_recall_metric"), family="deepeval",
          unit_range=True, order_free="always")
def contextual_recall(a: Aligned, m: Measure) -> np.ndarray:
    q, _, _ = hit_terms(a, m)
    return strict(m, divide(per_query(a, q), a.num_rel(rel_level(a, m))))
