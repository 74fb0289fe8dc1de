"""Counting measures: num_q, num_ret, num_rel, num_rel_ret, num_nonrel_judged_ret."""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from ._common import data, rel_level
from ._registry import JUDGED_ONLY, REL, Measure, register
from ._ties import expected_hits


@register("NumQ", "number of evaluated queries (1 per query; summed)", aggregate="sum",
          trec="num_q", aliases=("num_q",), family="counts", order_free="always",
          needs_unretrieved=False,
          trec_integer=True, trec_per_query=False)
def num_q(a: Aligned, m: Measure) -> np.ndarray:
    return np.ones(a.nq, dtype=np.float64)


@register("NumRet", "number of documents retrieved (after any depth cut)",
          params=(JUDGED_ONLY,), aggregate="sum", trec="num_ret", family="counts",
          order_free="always", needs_unretrieved=False,
          trec_integer=True, trec_reset=True)
def num_ret(a: Aligned, m: Measure) -> np.ndarray:
    return data(a, m).n_ret.astype(np.float64)


@register("NumRel", "number of relevant documents judged, retrieved or not (R)",
          params=(REL,), aggregate="sum", trec="num_rel", family="counts", order_free="always",
          trec_integer=True)
def num_rel(a: Aligned, m: Measure) -> np.ndarray:
    return a.num_rel(rel_level(a, m)).astype(np.float64)


@register("NumRelRet", "number of relevant documents retrieved",
          params=(REL, JUDGED_ONLY), cutoff="int", aggregate="sum", trec="num_rel_ret",
          family="counts", closed_form=expected_hits, order_free="without_cutoff",
          needs_unretrieved=False,
          trec_integer=True)
def num_rel_ret(a: Aligned, m: Measure) -> np.ndarray:
    d = data(a, m)
    mask = d.relevant(rel_level(d, m))
    if m.cutoff is not None:
        mask = mask & (d.rank <= m.cutoff)
    return d.seg_count(mask).astype(np.float64)


# ranx's "hits": the same count, averaged over queries instead of summed as trec_eval does
register("Hits", "number of relevant documents in the top k, averaged over queries (ranx hits)",
         params=(REL, JUDGED_ONLY), cutoff="int", aliases=("hits",),
         family="counts", closed_form=expected_hits, order_free="without_cutoff",
         needs_unretrieved=False, residual=True)(num_rel_ret)


@register("NumNonRelJudgedRet", "number of retrieved documents judged non-relevant",
          params=(REL, JUDGED_ONLY), aggregate="sum", trec="num_nonrel_judged_ret",
          family="counts", order_free="always", needs_unretrieved=False,
          trec_integer=True)
def num_nonrel_judged_ret(a: Aligned, m: Measure) -> np.ndarray:
    d = data(a, m)
    mask = d.judged & (d.grade >= 0) & (d.grade < rel_level(d, m))
    return d.seg_count(mask).astype(np.float64)
