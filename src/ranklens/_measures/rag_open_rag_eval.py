"""vectara open-rag-eval's retrieval measures on UMBRELA labels (open-rag-eval 0.2).

A passage is relevant from UMBRELA label 2 (the measures' own ``rel``, default 2, whatever
the evaluation's ``rel`` option). A cutoff k deeper than the ranking is skipped by
open-rag-eval: NaN here. See docs/rag-measures.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._model.aligned import Aligned
from ._common import divide
from ._rag import hit_terms, nan_where, per_query
from ._registry import Measure, Param, Spelled, register

_REL2 = Param("rel", Spelled("int", minimum=0), 2, "lowest UMBRELA label counted relevant")
_COMMON: dict[str, Any] = dict(params=(_REL2,), family="open_rag_eval",
                               needs_unretrieved=False)


@register("OpenRAGEvalPrecision", "open-rag-eval precision@k: relevant (label >= 2) in the "
          "top k / k; NaN when fewer than k are retrieved (trec_eval's P@k: 0 for the "
          "missing ranks)", cutoff="int", cutoff_required=True,
          aliases=("open_rag_eval_precision",), order_free="without_cutoff", **_COMMON)
def open_rag_eval_precision(a: Aligned, m: Measure) -> np.ndarray:
    k = int(m.cutoff or 0)
    return nan_where(a.n_ret < k, per_query(a, hit_terms(a, m, k)[0]) / k)


@register("OpenRAGEvalAP", "open-rag-eval AP@k: mean precision at the relevant (label >= 2) "
          "ranks within k, 0 when none; NaN when fewer than k are retrieved (trec_eval's "
          "AP divides by all relevant judged)", cutoff="int", cutoff_required=True,
          aliases=("open_rag_eval_ap",), **_COMMON)
def open_rag_eval_ap(a: Aligned, m: Measure) -> np.ndarray:
    q, rank, running = hit_terms(a, m, m.cutoff)
    ap = divide(per_query(a, q, running / rank), per_query(a, q))
    return nan_where(a.n_ret < m.cutoff, ap)


@register("OpenRAGEvalMRR", "open-rag-eval MRR: 1 / rank of the first relevant (label >= 2) "
          "passage in the whole ranking, 0 when none (trec_eval's recip_rank at rel 1)",
          aliases=("open_rag_eval_mrr",), unit_range=True, **_COMMON)
def open_rag_eval_mrr(a: Aligned, m: Measure) -> np.ndarray:
    q, rank, running = hit_terms(a, m)
    return per_query(a, q[running == 1], 1.0 / rank[running == 1])
