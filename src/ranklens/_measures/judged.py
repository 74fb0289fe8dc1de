"""Measures about judgment coverage: Unj@k, Judged@k, RBPResid and infAP.

Vocabulary (trec_eval's): a retrieved document is *unpooled* when the qrels do not list it
and *unjudged* when the qrels list it with a negative value; both count as "unjudged" for
Unj and RBPResid, while infAP skips unpooled documents and counts unjudged ones.
"""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from ._common import data, divide, rel_level
from ._registry import JUDGED_ONLY, REL, Measure, Param, Spelled, register

PERSISTENCE = Param("p", Spelled("float", minimum=0), 0.9, "persistence: probability of looking at "
                    "the next document")
_JUDGED_DENOM = Param("denom", Spelled("choice", ("ret", "k")), "ret", "divisor: ret = min(k, "
                      "documents retrieved) (ir_measures, OpenNIR), k = k always")
_INFAP_EPSILON = 1e-5


def unjudged_mask(d: Aligned) -> np.ndarray:
    """Ranked documents without a judgment >= 0 (trec_eval's rel < 0)."""
    return ~d.judged | (d.grade < 0)


def powers(p: float, n: int) -> np.ndarray:
    """``[1, p, p*p, ...]`` built by repeated multiplication, as trec_eval's loops do."""
    steps = np.full(n + 1, float(p))
    steps[0] = 1.0
    return np.cumprod(steps)


@register("Unj", "fraction of the top k that is unjudged (not in the qrels, or judged < 0); k "
          "fixed even when fewer are retrieved; without k, over all retrieved",
          cutoff="int", trec_cut="unj", trec_cutoffs=(5.0, 10.0, 20.0), aliases=("unj",),
          family="judged", order_free="without_cutoff", needs_unretrieved=False,
          lower_is_better=True, trec_reset=True)
def unjudged_at(a: Aligned, m: Measure) -> np.ndarray:
    mask = unjudged_mask(a)
    if m.cutoff is None:
        return divide(a.seg_count(mask), a.n_ret)
    mask = mask & (a.rank <= m.cutoff)
    return divide(a.seg_count(mask), np.full(a.nq, m.cutoff))


@register("Judged", "judgment rate: documents of the top k that have any judgment in the "
          "qrels, divided by denom (default min(k, retrieved), as ir_measures); 0 on an empty "
          "ranking", params=(_JUDGED_DENOM,), cutoff="int", aliases=("judged",),
          unit_range=True, family="judged", order_free="without_cutoff",
          needs_unretrieved=False)
def judged_at(a: Aligned, m: Measure) -> np.ndarray:
    n = a.n_ret
    if m.cutoff is None:
        return divide(a.seg_count(a.judged), n)
    # the judged positions only, not a mask over every ranked document
    hits = np.bincount(a.qidx_at(a.judged_within(m.cutoff)[0]), minlength=a.nq)
    k = np.full(a.nq, m.cutoff)
    return divide(hits, k if m.get("denom") == "k" else np.minimum(k, n))


@register("RBPResid", "RBP residual: if any retrieved document is unjudged, p^n + (1-p) sum of "
          "p^(i-1) over unjudged ranks i (the most RBP could grow), else 0",
          params=(PERSISTENCE,), trec="rbp_resid", aliases=("rbp_resid",), family="judged",
          needs_unretrieved=False, lower_is_better=True, trec_reset=True)
def rbp_residual(a: Aligned, m: Measure) -> np.ndarray:
    p = float(m.get("p"))
    n = a.n_ret
    pw = powers(p, int(n.max()) if n.size else 0)
    mask = unjudged_mask(a)
    total = a.seg_sum(pw[a.rank - 1], mask)
    value = pw[n] + (1.0 - p) * total
    return np.where(a.seg_count(mask) > 0, value, 0.0)


@register("InfAP", "inferred AP (Yilmaz & Aslam; trec_eval infAP): unpooled documents skipped, "
          "documents judged < 0 treated as sampled-but-unjudged; equals AP (to ~1e-5) without them",
          params=(REL, JUDGED_ONLY), trec="infAP", aliases=("infap", "inf_ap"), family="judged")
def inferred_ap(a: Aligned, m: Measure) -> np.ndarray:
    d = data(a, m)
    rel = rel_level(d, m)
    pooled = d.judged
    sampled_unjudged = pooled & (d.grade < 0)
    nonrel = pooled & (d.grade >= 0) & (d.grade < rel)
    relevant = d.relevant(rel)
    rel_so_far = d.seg_cumcount(relevant)[relevant].astype(np.float64)
    nonrel_above = d.seg_cumcount(nonrel)[relevant].astype(np.float64)
    unj_above = d.seg_cumcount(sampled_unjudged)[relevant].astype(np.float64)
    j = (d.rank[relevant] - 1).astype(np.float64)
    safe_j = np.where(j == 0, 1.0, j)
    prior = rel_so_far - 1.0
    # same operation order as trec_eval: 1/(j+1) + ((j/(j+1)) * (a/j)) * (b/c)
    term = 1.0 / (j + 1.0) + (j / (j + 1.0)) * ((prior + nonrel_above + unj_above) / safe_j) * (
        (prior + _INFAP_EPSILON) / (prior + nonrel_above + 2 * _INFAP_EPSILON)
    )
    term = np.where(j == 0, 1.0, term)
    total = np.bincount(d.qidx[relevant], weights=term, minlength=d.nq)
    return divide(total, d.num_rel(rel))
