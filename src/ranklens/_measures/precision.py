"""Set and cutoff measures: P, R, F, R-precision, success, relative P and the set_* family."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._model.aligned import Aligned
from ._common import data, divide, rel_level
from ._registry import JUDGED_ONLY, REL, Measure, Param, Spelled, all_judged_read, register
from ._ties import (
    COUNTED_AT_ONE_POSITION,
    NoBound,
    TiedGroups,
    bound_hits,
    cutoff_per_group,
    expected_hits,
    first_relevant_group,
)

_DEPTHS = (5.0, 10.0, 15.0, 20.0, 30.0, 100.0, 200.0, 500.0, 1000.0)
_BETA2 = Param("beta2", Spelled("float", minimum=0), 1.0,
               "weight of recall: F = (1+b2)PR / (b2 P + R)")


def _hits(d: Aligned, m: Measure) -> np.ndarray:
    # relevant docs are few: count them from their positions, not from full-length masks
    idx = d.within(d.relevant_positions(rel_level(d, m)), m.cutoff)
    return np.bincount(d.qidx_at(idx), minlength=d.nq).astype(np.int64)


_ADAPTIVE = Param("adaptive", Spelled("bool"), False, "divide by min(k, documents retrieved) "
                  "instead of k (LensKit's precision, torchmetrics adaptive_k=True)")


def _precision_den(d: Aligned, m: Measure) -> np.ndarray:
    if m.cutoff is None:
        return d.n_ret
    if m.get("adaptive"):
        return np.minimum(d.n_ret, int(m.cutoff))
    return np.full(d.nq, m.cutoff)


def _bound_hits(d: Aligned, m: Measure, g: TiedGroups, optimistic: bool,
                cutoff: np.ndarray | None = None) -> np.ndarray:
    """Relevant documents in the top k under ties="pessimistic": a tied group is inside the
    cutoff only when all of it is. ``cutoff`` per ranked document, default the measure's.
    ``optimistic`` is refused (see :data:`COUNTED_AT_ONE_POSITION`)."""
    if optimistic:
        raise NoBound(COUNTED_AT_ONE_POSITION)
    if cutoff is None and m.cutoff is not None:
        cutoff = np.full(d.qidx.size, int(m.cutoff), dtype=np.int64)
    return bound_hits(d, g, d.relevant(rel_level(d, m)), cutoff, False)


OfHits = Callable[[Aligned, Measure, np.ndarray], np.ndarray]


def _of_hits(of: OfHits, name: str, doc: str, **declared: Any) -> None:
    """Register the measure that is ``of(d, m, hits)`` of the relevant documents in the top
    k: its kernel, its closed form (hits expected over tied orders) and its bound (hits of
    whole tied groups), each unless ``declared`` gives its own."""
    def kernel(a: Aligned, m: Measure) -> np.ndarray:
        d = data(a, m)
        return of(d, m, _hits(d, m))

    forms = {"closed_form": lambda d, m, g: of(d, m, expected_hits(d, m, g)),
             "tie_bound": lambda d, m, g, optimistic: of(d, m, _bound_hits(d, m, g, optimistic))}
    register(name, doc, **{**forms, **declared})(kernel)


def _precision_of(d: Aligned, m: Measure, hits: np.ndarray) -> np.ndarray:
    return divide(hits, _precision_den(d, m))


_of_hits(_precision_of, "P", "precision: relevant in the top k / k (k fixed even when fewer "
         "are returned; min(k, retrieved) with adaptive=true); without k, relevant retrieved "
         "/ retrieved", params=(REL, JUDGED_ONLY, _ADAPTIVE), cutoff="int",
         trec="set_P", trec_cut="P", trec_cutoffs=_DEPTHS,
         aliases=("precision", "prec"), unit_range=True, family="precision",
         order_free="without_cutoff", needs_unretrieved=False, nonpositive_not_hit=True,
         zero_grade_unread=all_judged_read, residual=True)


def _recall_of(d: Aligned, m: Measure, hits: np.ndarray) -> np.ndarray:
    return divide(hits, d.num_rel(rel_level(d, m)))


_of_hits(_recall_of, "R", "recall: relevant in the top k / all relevant judged (R); 0 when "
         "R = 0", params=(REL, JUDGED_ONLY), cutoff="int", trec="set_recall",
         trec_cut="recall", trec_cutoffs=_DEPTHS, aliases=("recall",), unit_range=True,
         family="precision", order_free="without_cutoff", nonpositive_not_hit=True,
         zero_grade_unread=all_judged_read, residual=True)


def _f_measure_tied(d: Aligned, m: Measure, g: TiedGroups) -> np.ndarray:
    # With P = h/k and R' = h/R, F = (1+b2) h / (b2 R + k): linear in the hit count h.
    big_r = d.num_rel(rel_level(d, m)).astype(np.float64)
    k = d.n_ret if m.cutoff is None else np.full(d.nq, float(m.cutoff))
    b2 = float(m.get("beta2"))
    return divide((1.0 + b2) * expected_hits(d, m, g), b2 * big_r + k)


def _f_of_hits(d: Aligned, m: Measure, hits: np.ndarray) -> np.ndarray:
    den_p = d.n_ret if m.cutoff is None else np.full(d.nq, m.cutoff)
    p = divide(hits, den_p)
    r = divide(hits, d.num_rel(rel_level(d, m)))
    b2 = float(m.get("beta2"))
    return np.where(hits > 0, divide((b2 + 1.0) * p * r, b2 * p + r), 0.0)


_of_hits(_f_of_hits, "F", "F-measure of P@k and R@k: (1+b2)PR / (b2 P + R); 0 when nothing "
         "relevant is retrieved (F1 = beta2 1)", params=(REL, JUDGED_ONLY, _BETA2),
         cutoff="int", trec="set_F", aliases=("f1", "f"), unit_range=True, family="precision",
         closed_form=_f_measure_tied, order_free="without_cutoff",
         # set_F.1.0,0.5: F at each beta (trec_eval's -m would read only the first)
         trec_comma="measures", residual=True)


def _r_precision_tied(d: Aligned, m: Measure, g: TiedGroups) -> np.ndarray:
    big_r = d.num_rel(rel_level(d, m))
    return divide(expected_hits(d, m, g, big_r[g.query]), big_r)


def _r_precision_bound(d: Aligned, m: Measure, g: TiedGroups, optimistic: bool) -> np.ndarray:
    big_r = d.num_rel(rel_level(d, m))
    return divide(_bound_hits(d, m, g, optimistic, big_r[d.qidx]), big_r)


@register("Rprec", "R-precision: relevant in the top R / R, R = relevant judged; 0 when R = 0",
          params=(REL, JUDGED_ONLY), trec="Rprec", aliases=("r-precision", "r_precision",
          "rprec"), unit_range=True, family="precision", closed_form=_r_precision_tied,
          tie_bound=_r_precision_bound, residual=True)
def r_precision(a: Aligned, m: Measure) -> np.ndarray:
    d = data(a, m)
    big_r = d.num_rel(rel_level(d, m))
    idx = d.relevant_positions(rel_level(d, m))  # only relevant docs can count
    q = d.qidx_at(idx)
    hits = np.bincount(q[d.rank_at(idx) <= big_r[q]], minlength=d.nq).astype(np.int64)
    return divide(hits, big_r)


def _success_tied(d: Aligned, m: Measure, g: TiedGroups) -> np.ndarray:
    first, r_all = first_relevant_group(d, m, g)
    out = np.zeros(g.nq)
    qs = np.flatnonzero(first >= 0)
    grp = first[qs]
    n = g.size[grp].astype(np.int64)
    r = r_all[grp].astype(np.int64)
    k = cutoff_per_group(g, m.cutoff)[grp]
    mpos = np.clip(k - g.first_rank[grp] + 1, 0, n)
    # P(no relevant among the first mpos of the group) = prod_{i<mpos} (n-r-i)/(n-i)
    length = np.where(mpos <= n - r, mpos, 0)
    none = np.where(mpos <= n - r, 1.0, 0.0)
    owner = np.repeat(np.arange(qs.size), length)
    i = np.arange(owner.size) - np.repeat(np.cumsum(length) - length, length)
    factors = (n[owner] - r[owner] - i) / (n[owner] - i)
    if factors.size:
        starts = np.cumsum(length) - length
        has = length > 0
        none[has] = np.multiply.reduceat(factors, starts[has])
    out[qs] = 1.0 - none
    return out


def _success_bound(d: Aligned, m: Measure, g: TiedGroups, optimistic: bool) -> np.ndarray:
    # one relevant document within k is enough: under ties="optimistic" the first relevant
    # group counts from its first position, and no count of documents exceeds k
    cutoff = None if m.cutoff is None else np.full(d.qidx.size, int(m.cutoff), dtype=np.int64)
    hits = bound_hits(d, g, d.relevant(rel_level(d, m)), cutoff, optimistic)
    return (hits > 0).astype(np.float64)


@register("Success", "1 if a relevant document is in the top k, else 0 (hit rate)",
          params=(REL, JUDGED_ONLY), cutoff="int", trec_cut="success",
          trec_cutoffs=(1.0, 5.0, 10.0), aliases=("hit_rate", "hitrate", "success", "hit"),
          unit_range=True, family="precision", closed_form=_success_tied, tie_bound=_success_bound,
          order_free="without_cutoff",
          needs_unretrieved=False, zero_grade_unread=all_judged_read, residual=True)
def success(a: Aligned, m: Measure) -> np.ndarray:
    return (_hits(data(a, m), m) > 0).astype(np.float64)


def _relative_precision_of(d: Aligned, m: Measure, hits: np.ndarray) -> np.ndarray:
    k = d.n_ret if m.cutoff is None else np.full(d.nq, m.cutoff)
    return divide(hits, np.minimum(k, d.num_rel(rel_level(d, m))))


_of_hits(_relative_precision_of, "RelP", "relative precision: relevant in the top k / "
         "min(k, R)", params=(REL, JUDGED_ONLY), cutoff="int", trec="set_relative_P",
         trec_cut="relative_P", trec_cutoffs=_DEPTHS, family="precision",
         order_free="without_cutoff")


@register("SetAP", "set AP: (relevant retrieved)^2 / (retrieved x R)",
          params=(REL, JUDGED_ONLY), trec="set_map", family="precision", order_free="always")
def set_ap(a: Aligned, m: Measure) -> np.ndarray:
    d = data(a, m)
    hits = _hits(d, m).astype(np.float64)
    return divide(hits * hits, d.n_ret.astype(np.float64) * d.num_rel(rel_level(d, m)))
