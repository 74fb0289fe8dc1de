"""Counting measures: num_q, num_ret, num_rel, num_rel_ret, num_nonrel_judged_ret."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._model.aligned import Aligned
from ._common import data, rel_level
from ._registry import JUDGED_ONLY, REL, Measure, register
from ._ties import expected_hits

#: what every trec_eval count declares: summed over queries, printed as an integer
_COUNT: dict[str, Any] = {"aggregate": "sum", "family": "counts", "trec_integer": True}
#: what the relevant retrieved counts (NumRelRet, Hits) declare
_HITS: dict[str, Any] = {"params": (REL, JUDGED_ONLY), "cutoff": "int",
                         "closed_form": expected_hits, "order_free": "without_cutoff",
                         "needs_unretrieved": False}


@register("NumQ", "number of evaluated queries (1 per query; summed)", trec="num_q",
          aliases=("num_q",), order_free="always", needs_unretrieved=False,
          trec_per_query=False, **_COUNT)
def num_q(a: Aligned, m: Measure) -> np.ndarray:
    return np.ones(a.nq, dtype=np.float64)


@register("NumRet", "number of documents retrieved (after any depth cut)",
          params=(JUDGED_ONLY,), trec="num_ret", order_free="always", needs_unretrieved=False,
          trec_reset=True, **_COUNT)
def num_ret(a: Aligned, m: Measure) -> np.ndarray:
    return data(a, m).n_ret.astype(np.float64)


@register("NumRel", "number of relevant documents judged, retrieved or not (R)",
          params=(REL,), trec="num_rel", order_free="always", **_COUNT)
def num_rel(a: Aligned, m: Measure) -> np.ndarray:
    return a.num_rel(rel_level(a, m)).astype(np.float64)


@register("NumRelRet", "number of relevant documents retrieved", trec="num_rel_ret",
          **_HITS, **_COUNT)
def num_rel_ret(a: Aligned, m: Measure) -> np.ndarray:
    d = data(a, m)
    mask = d.relevant(rel_level(d, m))
    if m.cutoff is not None:
        mask = mask & (d.rank <= m.cutoff)
    return d.seg_count(mask).astype(np.float64)


# ranx's "hits": the same count, averaged over queries instead of summed as trec_eval does
register("Hits", "number of relevant documents in the top k, averaged over queries (ranx hits)",
         aliases=("hits",), family="counts", residual=True, **_HITS)(num_rel_ret)


@register("NumNonRelJudgedRet", "number of retrieved documents judged non-relevant",
          params=(REL, JUDGED_ONLY), trec="num_nonrel_judged_ret", order_free="always",
          needs_unretrieved=False, **_COUNT)
def num_nonrel_judged_ret(a: Aligned, m: Measure) -> np.ndarray:
    d = data(a, m)
    mask = d.judged & (d.grade >= 0) & (d.grade < rel_level(d, m))
    return d.seg_count(mask).astype(np.float64)
