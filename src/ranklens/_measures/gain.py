"""Graded measures: CG, DCG, nDCG and the ideal DCG, with named gains, discounts and ideals."""

from __future__ import annotations

import numpy as np

from .._base.groups import group_offsets, group_ranks
from .._model.aligned import Aligned
from ._common import clib_log2, data, divide
from ._ideal import ideal_lists
from ._registry import JUDGED_ONLY, Measure, Param, Spelled, all_judged_read, register
from ._ties import COUNTED_AT_ONE_POSITION, NoBound, TiedGroups, bound_position

_DEPTHS = (5.0, 10.0, 15.0, 20.0, 30.0, 100.0, 200.0, 500.0, 1000.0)
GAIN = Param("gain", Spelled("gain"), "linear",
             "gain of a judged level g: linear = g, exp2 = 2^g - 1 (Burges), or a map such as "
             "1:3;2:9 (unlisted levels keep gain g); unjudged documents gain 0")
DISCOUNT = Param("discount", Spelled("choice", ("log2", "jk", "rank")), "log2", "rank discount: "
                 "log2 = 1/log2(i+1); jk = 1 at rank 1, 1/log2(i) after (Jarvelin-Kekalainen); "
                 "rank = 1/i")
IDEAL = Param("ideal", Spelled("choice", ("qrels", "run")), "qrels", "ideal ranking: qrels = every "
              "judged document (trec_eval), run = only the retrieved ones (sklearn, torchmetrics)")
LOG_BASE = Param("log_base", Spelled("float", minimum=1), 2.0, "base of the logarithm of the log2 "
                 "discount, 1/log_b(i+1) (sklearn dcg_score's log_base; 1 makes every discount 0); "
                 "nDCG does not depend on it")
_GRADED = (GAIN, DISCOUNT, IDEAL, JUDGED_ONLY, LOG_BASE)


def _zero_gains_zero(m: Measure) -> bool:
    """Grade 0 gains 0 as unjudged documents do (linear, exp2; a gain map may say
    otherwise), and no document is dropped for being unjudged."""
    return m.get("gain") in ("linear", "exp2") and all_judged_read(m)


def _nonnegative_gains(m: Measure) -> bool:
    """Whether no judged level has a negative gain under ``m``'s gain: linear and exp2 give
    non-positive levels 0; a level map may say otherwise. With gains >= 0 and a discount
    that never grows with the rank (log2, jk and rank all shrink), no ranking's DCG exceeds
    the ideal's (the gains sorted), so nDCG lies in [0, 1] (the ideal from the run too)."""
    spec = m.get("gain")
    return not isinstance(spec, tuple) or all(g >= 0 for _, g in spec)


def gain_values(grade: np.ndarray, judged: np.ndarray, spec: object) -> np.ndarray:
    """Gain of each document under ``spec`` (0 for unjudged and non-positive default levels)."""
    positive = judged & (grade > 0)
    if spec == "exp2":
        return np.where(positive, np.exp2(np.where(positive, grade, 0.0)) - 1.0, 0.0)
    out = np.where(positive, grade, 0.0)
    if isinstance(spec, tuple):
        for level, g in spec:
            out = np.where(judged & (grade == level), g, out)
    return out


def discounted(gains: np.ndarray, rank: np.ndarray, discount: str,
               base: float = 2.0) -> np.ndarray:
    """``gain / discount(rank)``, written as trec_eval divides (not multiplies) for exact bits.
    ``base`` is the log discount's (2 unless ``log_base`` says otherwise)."""
    r = rank.astype(np.float64)
    if discount == "log2" and base != 2.0:
        # sklearn's dcg_score: 1 / log_b(i + 1) = log(b) / log(i + 1) (0 for b = 1)
        return gains * (np.log(base) / np.log(r + 1.0))
    if discount == "rank":
        return gains / r
    if discount == "jk":
        return gains / np.where(r < 2, 1.0, clib_log2(np.maximum(r, 2.0)))
    return gains / clib_log2(r + 1.0)


def _base(m: Measure) -> float:
    return float(m.get("log_base"))


def dcg_values(d: Aligned, m: Measure) -> np.ndarray:
    # unjudged docs gain exactly 0, so summing over judged docs only gives the same bits
    # judgments are few next to ranked docs: no full-length masks
    idx, grade = d.judged_within(m.cutoff)
    g = gain_values(grade, np.ones(idx.size, dtype=bool), m.get("gain"))
    contrib = discounted(g, d.rank_at(idx), m.get("discount"), _base(m))
    return np.bincount(d.qidx_at(idx), weights=contrib, minlength=d.nq)


def ideal_values(d: Aligned, m: Measure) -> np.ndarray:
    """Ideal DCG: the positive gains sorted descending, discounted, cut at k."""
    if m.get("ideal") != "run" and m.cutoff is None and d.counted_judgments() is not None:
        return _ideal_with_counts(d, m)
    if m.get("ideal") == "run":
        g, q = gain_values(d.grade, d.judged, m.get("gain")), d.qidx
    else:
        # only the top k judgments can enter an ideal ranking cut at k
        q, grade = d.judgments_upto(m.cutoff)
        g = gain_values(grade, np.ones(grade.shape, dtype=bool), m.get("gain"))
    return _ideal_dcg(d, m, q, g)


def _ideal_dcg(d: Aligned, m: Measure, q: np.ndarray, g: np.ndarray) -> np.ndarray:
    """Per query, the DCG of its positive gains ``g`` (query ``q``) sorted descending,
    cut at ``m``'s cutoff."""
    keep = g > 0
    g, q = g[keep], q[keep]
    # judgments come query-ordered, grade descending, so monotone gains are usually
    # sorted already; the sort only runs when they are not
    if q.size > 1 and not ((q[1:] > q[:-1]) | ((q[1:] == q[:-1]) & (g[1:] <= g[:-1]))).all():
        order = np.lexsort((-g, q))
        g, q = g[order], q[order]
    rank = group_ranks(q, group_offsets(q, d.nq))
    contrib = discounted(g, rank, m.get("discount"), _base(m))
    if m.cutoff is not None:
        inside = rank <= m.cutoff
        return np.bincount(q[inside], weights=contrib[inside], minlength=d.nq)
    return np.bincount(q, weights=contrib, minlength=d.nq)


def _ideal_with_counts(d: Aligned, m: Measure) -> np.ndarray:
    """Uncut ideal DCG over every judgment, relevant items judged by count held as a count
    (:mod:`ranklens._measures._ideal`: the same bits as one row per item)."""
    counted = d.counted_judgments()
    assert counted is not None
    spec, discount, base = m.get("gain"), m.get("discount"), _base(m)
    _, q, grade = d.judgment_rows()
    # the queries without a count: the rows as they are (float: an empty bincount is not)
    rows = gain_values(grade, np.ones(grade.shape, dtype=bool), spec)
    out = _ideal_dcg(d, m, q, rows).astype(np.float64)
    some = np.flatnonzero(counted[1] > 0)
    lists = ideal_lists(d, lambda g: gain_values(g, np.ones(g.shape, dtype=bool), spec),
                        some, nonnegative=False)
    for i, ideal in lists.items():
        out[i] = ideal.prefix(lambda g, r: discounted(g, r, discount, base),
                              np.array([ideal.size]))[0]
    return out


def _reads_judgments(m: Measure) -> bool:
    # with ideal=run the ideal ranking is built from the retrieved documents alone
    return m.get("ideal") != "run"


# -- under ties="average": a tied document's expected gain is its group's mean gain, and
# every sum here is linear in the gains


def _mean_gain(d: Aligned, m: Measure, g: TiedGroups) -> np.ndarray:
    gains = gain_values(d.grade, d.judged, m.get("gain"))
    total = np.bincount(g.gid, weights=gains, minlength=g.size.size)
    return (total / g.size)[g.gid]


def _cumulative_gain_tied(d: Aligned, m: Measure, g: TiedGroups) -> np.ndarray:
    mask = None if m.cutoff is None else d.rank <= m.cutoff
    return d.seg_sum(_mean_gain(d, m, g), mask)


def _dcg_tied(d: Aligned, m: Measure, g: TiedGroups) -> np.ndarray:
    contrib = discounted(_mean_gain(d, m, g), d.rank, m.get("discount"), _base(m))
    mask = None if m.cutoff is None else d.rank <= m.cutoff
    return d.seg_sum(contrib, mask)


def _ndcg_tied(d: Aligned, m: Measure, g: TiedGroups) -> np.ndarray:
    return divide(_dcg_tied(d, m, g), ideal_values(d, m))


def _dcg_bound(d: Aligned, m: Measure, g: TiedGroups, optimistic: bool) -> np.ndarray:
    # under ties="pessimistic" each document is discounted at its group's last position
    if optimistic:
        raise NoBound(COUNTED_AT_ONE_POSITION)
    pos = bound_position(g, False)
    keep = d.judged if m.cutoff is None else d.judged & (pos <= m.cutoff)
    gains = gain_values(d.grade[keep], np.ones(int(keep.sum()), dtype=bool), m.get("gain"))
    contrib = discounted(gains, pos[keep], m.get("discount"), _base(m))
    return np.bincount(d.qidx[keep], weights=contrib, minlength=d.nq)


def _ndcg_bound(d: Aligned, m: Measure, g: TiedGroups, optimistic: bool) -> np.ndarray:
    return divide(_dcg_bound(d, m, g, optimistic), ideal_values(d, m))


@register("nDCG", "normalised DCG: DCG@k / ideal DCG@k (0 when the ideal is 0)",
          params=_GRADED, cutoff="int", trec="ndcg", trec_cut="ndcg_cut", trec_cutoffs=_DEPTHS,
          aliases=("ndcg",), variants=(("ndcg_burges", (("gain", "exp2"),)),), family="gain",
          closed_form=_ndcg_tied, tie_bound=_ndcg_bound, needs_unretrieved=_reads_judgments,
          convention_params=("gain", "ideal"), unit_range=lambda m: _nonnegative_gains(m),
          zero_grade_unread=lambda m: _zero_gains_zero(m), residual=True)
def ndcg(a: Aligned, m: Measure) -> np.ndarray:
    d = data(a, m)
    return divide(dcg_values(d, m), ideal_values(d, m))


@register("DCG", "discounted cumulative gain of the top k", params=_GRADED, cutoff="int",
          trec="dcg", aliases=("dcg",), variants=(("dcg_burges", (("gain", "exp2"),)),),
          family="gain", closed_form=_dcg_tied, tie_bound=_dcg_bound, needs_unretrieved=False,
          convention_params=("gain",), zero_grade_unread=lambda m: _zero_gains_zero(m),
          residual=True)
def dcg(a: Aligned, m: Measure) -> np.ndarray:
    return dcg_values(data(a, m), m)


@register("IdealDCG", "DCG of the ideal ranking of the top k", params=_GRADED, cutoff="int",
          trec="ideal_dcg", aliases=("idcg", "ideal_dcg"), family="gain",
          order_free="always", needs_unretrieved=_reads_judgments,
          convention_params=("gain", "ideal"))
def ideal_dcg(a: Aligned, m: Measure) -> np.ndarray:
    return ideal_values(data(a, m), m)


@register("CG", "cumulative gain: sum of the gains of the top k, order ignored",
          params=(GAIN, JUDGED_ONLY), cutoff="int", aliases=("cg",), family="gain",
          closed_form=_cumulative_gain_tied, order_free="without_cutoff",
          needs_unretrieved=False, convention_params=("gain",), residual=True)
def cumulative_gain(a: Aligned, m: Measure) -> np.ndarray:
    d = data(a, m)
    g = gain_values(d.grade, d.judged, m.get("gain"))
    mask = None if m.cutoff is None else d.rank <= m.cutoff
    return d.seg_sum(g, mask)
