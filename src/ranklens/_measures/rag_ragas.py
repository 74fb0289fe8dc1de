"""ragas's retrieval measures on ids and on given verdicts (ragas 0.4).

``IDBasedContextPrecision`` and ``IDBasedContextRecall`` compare the set of retrieved ids
with the set of reference ids (the judged documents at level ``rel``). ``ContextPrecision``
is the arithmetic of ragas's LLM context precision on verdicts already given (the
judgments): the precision at each relevant rank, summed and divided by the relevant
retrieved plus 1e-10. See docs/rag-measures.md.
"""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from ._common import divide, rel_level
from ._rag import hit_terms, nan_where, per_query
from ._registry import REL, Measure, register

#: ragas's floor on the divisor of context precision
EPSILON = 1e-10


@register("IDBasedContextPrecision", "ragas id_based_context_precision: relevant retrieved / "
          "retrieved, rank ignored; NaN on an empty ranking (trec_eval's set_P: 0)",
          params=(REL,), aliases=("id_based_context_precision",), family="ragas",
          order_free="always", needs_unretrieved=False)
def id_context_precision(a: Aligned, m: Measure) -> np.ndarray:
    q, _, _ = hit_terms(a, m)
    return nan_where(a.n_ret == 0, divide(per_query(a, q), a.n_ret))


@register("IDBasedContextRecall", "ragas id_based_context_recall: relevant retrieved / "
          "relevant judged; NaN without a relevant judgment (trec_eval's set_recall: 0)",
          params=(REL,), aliases=("id_based_context_recall",), family="ragas",
          order_free="always")
def id_context_recall(a: Aligned, m: Measure) -> np.ndarray:
    q, _, _ = hit_terms(a, m)
    big_r = a.num_rel(rel_level(a, m))
    return nan_where(big_r == 0, divide(per_query(a, q), big_r))


@register("ContextPrecision", "ragas context_precision on given verdicts: sum of precision "
          "at each relevant rank / (relevant retrieved + 1e-10); trec_eval's AP divides by "
          "all relevant judged", params=(REL,),
          aliases=("context_precision", "llm_context_precision_with_reference",
                   "llm_context_precision_without_reference", "context_utilization"),
          family="ragas", unit_range=True, needs_unretrieved=False)
def context_precision(a: Aligned, m: Measure) -> np.ndarray:
    q, rank, running = hit_terms(a, m)
    return per_query(a, q, running / rank) / (per_query(a, q) + EPSILON)
