"""Rank-sensitive binary measures: AP (and its denominators), AR, RR, bpref, their gm_ forms."""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from ._common import data, divide, rel_level
from ._registry import JUDGED_ONLY, REL, Measure, Param, Spelled, all_judged_read, register
from ._ties import (
    NoClosedForm,
    TiedGroups,
    bound_position,
    cutoff_per_group,
    first_relevant_group,
    relevant_at_or_above,
    segment_cumprod,
)

_DEPTHS = (5.0, 10.0, 15.0, 20.0, 30.0, 100.0, 200.0, 500.0, 1000.0)
_DENOM = Param("denom", Spelled("choice", ("rel", "min", "hits")), "rel", "divisor: rel = all "
               "relevant judged (trec_eval), min = min(k, R) (Kaggle apk, RecBole, Spark "
               "meanAveragePrecisionAt), hits = relevant retrieved in the top k (torchmetrics, "
               "ragas)")


def _denominator(d: Aligned, m: Measure, hits: np.ndarray) -> np.ndarray:
    big_r = d.num_rel(rel_level(d, m))
    kind = m.get("denom")
    if kind == "min" and m.cutoff is not None:
        return np.minimum(big_r, int(m.cutoff))
    if kind == "hits":
        return hits
    return big_r


def _at_relevant(d: Aligned, m: Measure) -> tuple[np.ndarray, np.ndarray]:
    """Positions of the relevant docs within the cutoff, and the running count of them.

    Only those positions are computed: ranked arrays are query-ordered, so the running
    count is a doc's place among its query's relevant docs.
    """
    idx = d.within(d.relevant_positions(rel_level(d, m)), m.cutoff)
    q = d.qidx_at(idx)
    return idx, np.arange(1, idx.size + 1) - np.searchsorted(q, q, side="left")


def average_precision(a: Aligned, m: Measure) -> np.ndarray:
    d = data(a, m)
    idx, running = _at_relevant(d, m)
    q = d.qidx_at(idx)
    total = np.bincount(q, weights=running / d.rank_at(idx), minlength=d.nq)
    hits = np.bincount(q, minlength=d.nq).astype(np.int64)
    return divide(total, _denominator(d, m, hits))


def _relevant_weight(d: Aligned, m: Measure,
                     g: TiedGroups) -> tuple[np.ndarray, np.ndarray]:
    """E[rel(p) * relevant at or above p] for each ranked doc p, and the cutoff mask."""
    rel = d.relevant(rel_level(d, m))
    r = g.count(rel)
    above = g.before(r)  # relevant docs in earlier groups of the query
    n = g.size.astype(np.float64)
    i = g.offset().astype(np.float64)
    gid = g.gid
    others = np.where(n[gid] > 1, i * (r[gid] - 1.0) / np.maximum(n[gid] - 1.0, 1.0), 0.0)
    weight = r[gid] / n[gid] * (above[gid] + 1.0 + others)
    mask = np.ones(gid.size, dtype=bool) if m.cutoff is None else d.rank <= m.cutoff
    return weight, mask


def _tied_denominator(d: Aligned, m: Measure) -> np.ndarray:
    if m.get("denom") == "hits":
        raise NoClosedForm  # the hit count in the divisor varies with the order
    big_r = d.num_rel(rel_level(d, m))
    if m.get("denom") == "min" and m.cutoff is not None:
        return np.minimum(big_r, int(m.cutoff))
    return big_r


def _average_precision_tied(d: Aligned, m: Measure, g: TiedGroups) -> np.ndarray:
    weight, mask = _relevant_weight(d, m, g)
    return divide(d.seg_sum(weight / d.rank, mask), _tied_denominator(d, m))


def _bound_terms(d: Aligned, m: Measure, g: TiedGroups,
                 optimistic: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Under ties="pessimistic" / "optimistic", for the relevant documents within the
    cutoff: their query, position, the relevant documents at or above them, and per query
    how many there are (see :data:`ranklens._model.policies.Ties`)."""
    relevant = d.relevant(rel_level(d, m))
    pos = bound_position(g, optimistic)
    count = relevant_at_or_above(g, relevant, optimistic)
    keep = relevant if m.cutoff is None else relevant & (pos <= m.cutoff)
    q = d.qidx[keep]
    return q, pos[keep].astype(np.float64), count[keep], np.bincount(q, minlength=d.nq)


def _average_precision_bound(d: Aligned, m: Measure, g: TiedGroups,
                             optimistic: bool) -> np.ndarray:
    # precision at each relevant document: the relevant ones at or above it over its
    # position (scikit-learn's average_precision_score and LRAP under "pessimistic")
    q, pos, count, hits = _bound_terms(d, m, g, optimistic)
    total = np.bincount(q, weights=count / pos, minlength=d.nq)
    return divide(total, _denominator(d, m, hits))


def _reads_relevant_count(m: Measure) -> bool:
    # AP with denom=hits never looks at R
    return m.get("denom") != "hits"


register("AP", "average precision: sum of precision at each relevant rank within k, divided "
         "by denom (default R, all relevant judged)", params=(REL, JUDGED_ONLY, _DENOM),
         cutoff="int", trec="map", trec_cut="map_cut", trec_cutoffs=_DEPTHS,
         aliases=("map", "ap"), unit_range=True, family="rank", closed_form=_average_precision_tied,
         tie_bound=_average_precision_bound, needs_unretrieved=_reads_relevant_count,
         convention_params=("denom",), nonpositive_not_hit=True,
         zero_grade_unread=all_judged_read, residual=True)(average_precision)
register("GMAP", "AP aggregated by geometric mean, exp(mean(log(max(AP, 1e-5))))",
         params=(REL, JUDGED_ONLY, _DENOM), cutoff="int", aggregate="gmean", trec="gm_map",
         aliases=("gm_map",), family="rank", closed_form=_average_precision_tied,
         tie_bound=_average_precision_bound, needs_unretrieved=_reads_relevant_count,
         convention_params=("denom",), trec_per_query=False)(average_precision)


def _average_recall_tied(d: Aligned, m: Measure, g: TiedGroups) -> np.ndarray:
    weight, mask = _relevant_weight(d, m, g)
    big_r = d.num_rel(rel_level(d, m)).astype(np.float64)
    return divide(divide(d.seg_sum(weight, mask), big_r), _tied_denominator(d, m))


def _average_recall_bound(d: Aligned, m: Measure, g: TiedGroups,
                          optimistic: bool) -> np.ndarray:
    q, _, count, hits = _bound_terms(d, m, g, optimistic)
    big_r = d.num_rel(rel_level(d, m)).astype(np.float64)
    total = np.bincount(q, weights=divide(count, big_r[q]), minlength=d.nq)
    return divide(total, _denominator(d, m, hits))


@register("AR", "average recall (MAR@k): sum of recall at each relevant rank within k, "
          "divided by denom", params=(REL, JUDGED_ONLY, _DENOM), cutoff="int",
          aliases=("mar", "ar"), family="rank", closed_form=_average_recall_tied,
          tie_bound=_average_recall_bound,
          # without k the sum of recall at each relevant rank is 1/R + 2/R + ... + h/R
          order_free="without_cutoff", convention_params=("denom",))
def average_recall(a: Aligned, m: Measure) -> np.ndarray:
    d = data(a, m)
    idx, running = _at_relevant(d, m)
    q = d.qidx_at(idx)
    big_r = d.num_rel(rel_level(d, m)).astype(np.float64)
    total = np.bincount(q, weights=divide(running, big_r[q]), minlength=d.nq)
    hits = np.bincount(q, minlength=d.nq).astype(np.int64)
    return divide(total, _denominator(d, m, hits))


def _reciprocal_rank_tied(d: Aligned, m: Measure, g: TiedGroups) -> np.ndarray:
    first, r_all = first_relevant_group(d, m, g)
    out = np.zeros(g.nq)
    qs = np.flatnonzero(first >= 0)
    if not qs.size:
        return out
    grp = first[qs]
    n = g.size[grp].astype(np.float64)
    r = r_all[grp]
    s = g.first_rank[grp]
    # the first relevant doc sits at offset i (0 <= i <= n - r) with probability
    # prod_{j<i} (n-r-j)/(n-j) * r/(n-i); positions past the cutoff contribute nothing
    k = cutoff_per_group(g, m.cutoff)[grp]
    length = np.minimum(n - r + 1, k - s + 1).astype(np.int64)
    owner = np.repeat(np.arange(qs.size), length)
    i = np.arange(owner.size) - np.repeat(np.cumsum(length) - length, length)
    survive = (n[owner] - r[owner] - i + 1) / (n[owner] - i + 1)
    survive[i == 0] = 1.0
    p = segment_cumprod(survive, length) * r[owner] / (n[owner] - i)
    out[qs] = np.bincount(owner, weights=p / (s[owner] + i), minlength=qs.size)
    return out


def _reciprocal_rank_bound(d: Aligned, m: Measure, g: TiedGroups,
                           optimistic: bool) -> np.ndarray:
    q, pos, _, _ = _bound_terms(d, m, g, optimistic)
    first = np.full(d.nq, np.inf)
    np.minimum.at(first, q, pos)
    return divide(np.ones(d.nq), np.where(np.isinf(first), 0.0, first))


@register("RR", "reciprocal rank of the first relevant document within k; 0 if none",
          params=(REL, JUDGED_ONLY), cutoff="int", trec="recip_rank",
          aliases=("mrr", "recip_rank", "rr"), unit_range=True, family="rank",
          closed_form=_reciprocal_rank_tied, tie_bound=_reciprocal_rank_bound,
          needs_unretrieved=False, nonpositive_not_hit=True,
          zero_grade_unread=all_judged_read, residual=True)
def reciprocal_rank(a: Aligned, m: Measure) -> np.ndarray:
    d = data(a, m)
    idx = d.within(d.relevant_positions(rel_level(d, m)), m.cutoff)
    first = d.first_rank_at(idx)
    return divide(np.ones(d.nq), first)


def bpref(a: Aligned, m: Measure) -> np.ndarray:
    d = data(a, m)
    rel = rel_level(d, m)
    big_r = d.num_rel(rel)
    nonrel = d.judged & (d.grade >= 0) & (d.grade < rel)
    above = d.seg_cumcount(nonrel)
    mask = d.relevant(rel)
    if m.cutoff is not None:
        mask = mask & (d.rank <= m.cutoff)
    cap = np.minimum(d.num_judged_nonrel(rel), big_r)[d.qidx]
    penalty = divide(np.minimum(above, big_r[d.qidx]), cap)
    term = np.where(above > 0, 1.0 - penalty, 1.0)
    return divide(d.seg_sum(term, mask), big_r)


register("Bpref", "binary preference: for each relevant judged doc, 1 - (judged non-relevant "
         "above it, capped at R) / min(judged non-relevant, R); divided by R",
         params=(REL, JUDGED_ONLY), cutoff="int", trec="bpref", aliases=("bpref",),
         unit_range=True, family="rank")(bpref)
register("GMBpref", "bpref aggregated by geometric mean (floor 1e-5)", params=(REL, JUDGED_ONLY),
         aggregate="gmean", trec="gm_bpref", aliases=("gm_bpref",), family="rank",
         trec_per_query=False)(bpref)
