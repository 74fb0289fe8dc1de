"""trec_eval's further gain measures: RBP, ndcg_rel, Rndcg, G, binG and yaap.

Gains follow :data:`ranklens._measures.gain.GAIN`. The ideal ranking of a query is the
positive gains of its judged (>= 0) documents in decreasing order, as trec_eval's gain table
walk builds it. ndcg_rel, Rndcg and G are experimental in trec_eval and loop per query here;
every sum runs in rank order so values match trec_eval to the bit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._model.aligned import Aligned
from ._common import clib_log, clib_log2, data, divide, rel_level
from ._ideal import IdealList, ideal_lists
from ._registry import JUDGED_ONLY, REL, Measure, register
from ._ties import COUNTED_AT_ONE_POSITION, NoBound, TiedGroups, bound_position
from .gain import GAIN, gain_values
from .judged import PERSISTENCE, powers


def _ideal_lists(d: Aligned, spec: Any) -> dict[int, IdealList]:
    """Per query, the positive gains of all judged (>= 0) documents, largest first; relevant
    items judged by count stay a count (:mod:`ranklens._measures._ideal`)."""
    return ideal_lists(d, lambda g: gain_values(g, np.ones(g.shape, dtype=bool), spec),
                       np.arange(d.nq), nonnegative=True)


def _dcg_term(gains: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """``gain / log2(rank + 1)``: the terms of :func:`_running_dcg`, by rank."""
    return gains / clib_log2(rank + 1.0)


def _discount(n: int) -> np.ndarray:
    """``log2(i + 2)`` for 0-based rank i, trec_eval's divisor."""
    return clib_log2(np.arange(n, dtype=np.float64) + 2.0)


def _running_dcg(gains: np.ndarray) -> np.ndarray:
    """``out[i]`` = DCG through i documents (``out[0] = 0``); cumsum adds in rank order."""
    return np.concatenate(([0.0], np.cumsum(gains / _discount(gains.size))))


# -- RBP ----------------------------------------------------------------------------------------
def _level_table(levels: int, spec: Any) -> np.ndarray:
    """Gains of trec_eval's table: every level 0..levels-1 plus the levels a map names."""
    base = np.arange(levels, dtype=np.float64)
    gains = gain_values(base, np.ones(levels, dtype=bool), spec)
    if isinstance(spec, tuple):
        named = np.array([g for level, g in spec if not (0 <= level < levels)], dtype=np.float64)
        gains = np.concatenate((gains, named))
    return gains


def rbp_gains(d: Aligned, spec: Any) -> np.ndarray:
    """Gain of each ranked document for RBP, rescaled to [0, 1] per query as trec_eval does.

    When a query's gain table (its levels 0..max judged, plus any named level) holds a gain
    outside [0, 1], every gain becomes (g - min) / (max - min) over that table.
    """
    g = gain_values(d.grade, d.judged, spec)
    in_table = d.judged & (d.grade >= 0)
    top = np.full(d.nq, -1, dtype=np.int64)
    # every grade a query judges is among its judgments up to 1 (counted items: one row)
    j_qidx, j_grade = d.judgments_upto(1)
    ok = j_grade >= 0
    np.maximum.at(top, j_qidx[ok], j_grade[ok].astype(np.int64))
    out = np.where(in_table, g, 0.0)
    for levels in np.unique(top + 1):
        table = _level_table(int(levels), spec)
        if table.size == 0:
            continue
        low, high = float(table.min()), float(table.max())
        if (low < 0 or high > 1) and high > low:
            sel = in_table & (top[d.qidx] + 1 == levels)
            out[sel] = (g[sel] - low) / (high - low)
        elif low < 0 or high > 1:
            # a one-gain table outside [0, 1] (trec_eval divides 0 by 0): such a gain counts
            # as fully relevant, so RBP stays in [0, 1]
            sel = in_table & (top[d.qidx] + 1 == levels)
            out[sel] = (g[sel] > 0).astype(np.float64)
    return out


def _rbp_bound(d: Aligned, m: Measure, g: TiedGroups, optimistic: bool) -> np.ndarray:
    # under ties="pessimistic" each document weighs p^(position - 1) at its group's last
    # position, and is inside a cutoff only when its whole group is
    if optimistic:
        raise NoBound(COUNTED_AT_ONE_POSITION)
    p = float(m.get("p"))
    gains = rbp_gains(d, m.get("gain"))
    pw = powers(p, int(d.n_ret.max()) if d.nq else 0)
    pos = bound_position(g, False)
    mask = gains != 0
    if m.cutoff is not None:
        mask &= pos <= m.cutoff
    return (1.0 - p) * d.seg_sum(gains * pw[pos - 1], mask)


@register("RBP", "rank-biased precision (Moffat & Zobel): (1-p) sum of gain_i p^(i-1); gains "
          "rescaled to [0,1] per query when any exceeds it (levels 0..4 => level/4), as trec_eval",
          params=(PERSISTENCE, GAIN, JUDGED_ONLY), cutoff="int", trec="rbp", aliases=("rbp",),
          family="gain", needs_unretrieved=False, tie_bound=_rbp_bound,
          # reads only the query's top judged level
          residual=True)
def rbp(a: Aligned, m: Measure) -> np.ndarray:
    d = data(a, m)
    p = float(m.get("p"))
    g = rbp_gains(d, m.get("gain"))
    pw = powers(p, int(d.n_ret.max()) if d.nq else 0)
    mask = g != 0
    if m.cutoff is not None:
        mask &= d.rank <= m.cutoff
    return (1.0 - p) * d.seg_sum(g * pw[d.rank - 1], mask)


# -- binary gain measures -----------------------------------------------------------------------
@register("BinG", "binary G: sum over relevant retrieved of 1/log2(2 + non-relevant (or unjudged) "
          "ranked above it), divided by R", params=(REL, JUDGED_ONLY), trec="binG",
          aliases=("bing",), family="gain")
def bin_g(a: Aligned, m: Measure) -> np.ndarray:
    d = data(a, m)
    rel = rel_level(d, m)
    mask = d.relevant(rel)
    above = (d.rank - d.seg_cumcount(mask) + 2)[mask].astype(np.float64)
    total = np.bincount(d.qidx[mask], weights=1.0 / clib_log2(above), minlength=d.nq)
    return divide(total, d.num_rel(rel))


@register("yaAP", "yet another AP (Robertson): log((1+S)/(1+R-S)), S = sum of precision at each "
          "relevant retrieved rank; log(1/(1+R)) when nothing relevant is retrieved",
          params=(REL, JUDGED_ONLY), trec="yaap", aliases=("yaap",), family="gain")
def yaap(a: Aligned, m: Measure) -> np.ndarray:
    d = data(a, m)
    rel = rel_level(d, m)
    mask = d.relevant(rel)
    prec = d.seg_cumcount(mask).astype(np.float64) / d.rank.astype(np.float64)
    s = d.seg_sum(prec, mask)
    ratio = (1.0 + s) / (1.0 + d.num_rel(rel).astype(np.float64) - s)
    return clib_log(ratio)


# -- experimental graded measures (per-query loops) ---------------------------------------------
def _per_query(d: Aligned, m: Measure, value: Callable[[np.ndarray, IdealList], float],
               scored: np.ndarray | None = None) -> np.ndarray:
    """Each query's ``value(gains, ideal)``: ``gains`` those of its ranked documents, by
    rank, and ``ideal`` its :func:`_ideal_lists` entry. A query without a positive judged
    gain (an empty ideal: trec_eval divides 0 by 0 there) scores 0, and so does one that
    ``scored`` (a mask of the queries) leaves out."""
    spec = m.get("gain")
    gains, ideals = gain_values(d.grade, d.judged, spec), _ideal_lists(d, spec)
    out = np.zeros(d.nq, dtype=np.float64)
    for q, ideal in ideals.items():
        if ideal.size and (scored is None or scored[q]):
            out[q] = value(gains[d.offsets[q]:d.offsets[q + 1]], ideal)
    return out


def _ndcg_rel_of(g: np.ndarray, ideal: IdealList) -> float:
    """One query's nDCGRel, from its ranked gains and its (non-empty) ideal."""
    k = ideal.size
    dcg = _running_dcg(g)
    hits = np.flatnonzero(g > 0)
    # the ideal's running DCG at each hit's rank (capped at k), then at k
    idcg = ideal.prefix(_dcg_term, np.append(np.minimum(hits + 1, k), k))
    terms = dcg[hits + 1] / idcg[:-1]
    # cumsum adds in rank order, as trec_eval's running sum does
    total = float(np.cumsum(terms)[-1]) if terms.size else 0.0
    total += float(k - hits.size) * dcg[-1] / idcg[-1]
    return total / k if total > 0.0 else 0.0


@register("nDCGRel", "nDCG averaged over the positive-gain judged documents: at each retrieved one "
          "its rank's DCG / ideal DCG, the final DCG / ideal DCG for the rest (trec_eval ndcg_rel)",
          params=(GAIN, JUDGED_ONLY), trec="ndcg_rel", aliases=("ndcg_rel",), family="gain")
def ndcg_rel(a: Aligned, m: Measure) -> np.ndarray:
    return _per_query(data(a, m), m, _ndcg_rel_of)


def _r_ndcg_of(g: np.ndarray, ideal: IdealList) -> float:
    """One query's RnDCG, from its ranked gains and its (non-empty) ideal."""
    k, n = ideal.size, g.size
    dcg = _running_dcg(g)
    changes = [*ideal.changes().tolist(), k]
    idcg = ideal.prefix(_dcg_term, np.array([*changes, k]))  # at each change, then k
    total = 0.0
    for j, ideal_dcg in zip(changes, idcg[:-1].tolist(), strict=True):
        total += dcg[min(j, n)] / ideal_dcg
    count = len(changes)
    if k + 1 < n:
        total += dcg[n] / idcg[-1]
        count += 1
    return total / count


@register("RnDCG", "nDCG averaged at the R-levels: the ranks where the ideal gain changes (and the "
          "end of the ranking when it is past them); 0 when R = 0 (trec_eval Rndcg)",
          params=(GAIN, REL, JUDGED_ONLY), trec="Rndcg", aliases=("rndcg",), family="gain")
def r_ndcg(a: Aligned, m: Measure) -> np.ndarray:
    d = data(a, m)
    return _per_query(d, m, _r_ndcg_of, scored=d.num_rel(rel_level(d, m)) > 0)


def _g_of(g: np.ndarray, ideal: IdealList) -> float:
    """One query's G, from its ranked gains and its (non-empty) ideal."""
    # the gains added one by one, as cumsum does (all positive: the total is too)
    total_ideal = float(ideal.prefix(lambda x, _: x, np.array([ideal.size]))[0])
    n = g.size
    step = np.ones(n, dtype=np.float64)
    top = min(n, ideal.size)
    step[:top] = np.maximum(ideal.gains(0, top), 1.0)
    cost = np.cumsum(step)
    got = np.cumsum(g)
    nz = g != 0
    # a gain map that gives retrieved documents more than the ideal can drive the log's
    # argument below 0; the value is then NaN, as in trec_eval, and the mean says so
    with np.errstate(invalid="ignore", divide="ignore"):
        terms = g[nz] / clib_log2(2.0 + cost[nz] - got[nz])
    value = float(np.cumsum(terms)[-1]) if terms.size else 0.0
    return value / total_ideal


@register("G", "normalised gain G (trec_eval, experimental): sum of gain_i / log2(2 + cost_i - "
          "gain so far), cost_i = sum over ranks <= i of max(ideal gain, 1), divided by the ideal "
          "total gain", params=(GAIN, JUDGED_ONLY), trec="G", family="gain")
def g_measure(a: Aligned, m: Measure) -> np.ndarray:
    return _per_query(data(a, m), m, _g_of)
