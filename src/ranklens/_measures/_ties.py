"""Tie policies per measure, and ``ties="average"``: the expected value over tied orders.

Under ``ties="average"`` a measure's value for a query is its mean over every order of each
group of equally scored documents (McSherry and Najork, ECIR 2008; sklearn's ``ndcg_score``).
Closed forms cover P, R, F, R-precision, relative P, success, NumRelRet, CG, DCG, nDCG, RR,
AP (``denom=rel`` or ``min``) and AR; they rest on one fact: in a uniformly shuffled group of
``n`` documents holding ``r`` relevant ones, each position is relevant with probability
``r/n``, and given that, each other position of the group is relevant with probability
``(r-1)/(n-1)``. Every other measure is averaged by enumerating the distinct arrangements of
the judgments inside each tied group (exact, refused beyond :data:`ENUMERATION_LIMIT`).

Queries without a tied group get the ordinary kernel's value, bit for bit, so
``ties="average"`` equals trec_eval wherever the scores are distinct.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from .._errors import ParameterError
from ._common import data, divide, rel_level
from ._registry import TIES, Measure

if TYPE_CHECKING:
    from .._engine.aligned import Aligned

__all__ = ["ENUMERATION_LIMIT", "TIES_PARAM", "compute", "effective_ties"]

#: The per-measure ``ties`` parameter; None means "the evaluation's ``ties`` option".
TIES_PARAM = TIES

#: Most arrangements (summed over queries) enumerated for a measure without a closed form.
ENUMERATION_LIMIT = 200_000


def effective_ties(measure: Measure, default: str) -> str:
    """The tie policy in force for ``measure``: its own ``ties`` parameter, else ``default``."""
    if any(p.name == "ties" for p in measure.definition.params):
        return str(measure.get("ties", default))
    return default


def compute(aligned: Aligned, measure: Measure) -> np.ndarray:
    """Per-query values of ``measure`` under ``ties="average"``.

    ``aligned`` may be sorted by either tie-break: tied groups are runs of equal scores
    inside a query, the same whichever way they were ordered.
    """
    kernel = measure.definition.kernel
    base = kernel(aligned, measure)
    name = measure.definition.name
    if measure.definition.text:
        return base  # a rendering of one ranking has no average: the tie-broken order is shown
    if name in _ORDER_FREE or (name in _ORDER_FREE_WITHOUT_CUTOFF and measure.cutoff is None):
        return base
    closed = _CLOSED.get(name)
    if closed is not None:
        d = data(aligned, measure)
        groups = _Groups.of(d)
        if not groups.any_ties:
            return base
        try:
            value = closed(d, measure, groups)
        except _NoClosedForm:
            return _by_enumeration(aligned, measure, base)
        return np.where(groups.query_has_ties(), value, base)
    return _by_enumeration(aligned, measure, base)


# -- tied groups -----------------------------------------------------------------------


@dataclass(frozen=True)
class _Groups:
    """Runs of equal scores inside each query, over the ranked documents of ``d``."""

    gid: np.ndarray      # group of each ranked doc
    start: np.ndarray    # flat index of each group's first doc
    size: np.ndarray     # docs in each group
    first_rank: np.ndarray
    query: np.ndarray    # query index of each group
    nq: int

    @classmethod
    def of(cls, d: Aligned) -> _Groups:
        n = d.qidx.size
        new = np.ones(n, dtype=bool)
        if n > 1:
            new[1:] = (d.qidx[1:] != d.qidx[:-1]) | (d.score[1:] != d.score[:-1])
        gid = np.cumsum(new) - 1
        start = np.flatnonzero(new)
        size = np.diff(np.append(start, n))
        return cls(gid, start, size, d.rank_at(start), d.qidx[start], d.nq)

    @property
    def any_ties(self) -> bool:
        return bool((self.size > 1).any())

    def query_has_ties(self) -> np.ndarray:
        return np.bincount(self.query, weights=(self.size > 1), minlength=self.nq) > 0

    def count(self, mask: np.ndarray) -> np.ndarray:
        """Per-group number of True entries."""
        return np.bincount(self.gid[mask], minlength=self.size.size).astype(np.float64)

    def inside(self, k: np.ndarray) -> np.ndarray:
        """Per-group number of positions at rank <= k (k per group)."""
        return np.clip(k - self.first_rank + 1, 0, self.size).astype(np.float64)

    def per_query(self, weights: np.ndarray) -> np.ndarray:
        return np.bincount(self.query, weights=weights, minlength=self.nq)

    def offset(self) -> np.ndarray:
        """0-based position of each ranked doc inside its group."""
        return np.arange(self.gid.size) - self.start[self.gid]

    def before(self, per_group: np.ndarray) -> np.ndarray:
        """Per group: the sum of ``per_group`` over the earlier groups of its query."""
        total = np.cumsum(per_group) - per_group
        first = np.concatenate(([True], self.query[1:] != self.query[:-1]))
        base = np.maximum.accumulate(np.where(first, np.arange(first.size), 0))
        return total - total[base]


def _cutoff_per_group(g: _Groups, k: float | None) -> np.ndarray:
    big = np.iinfo(np.int64).max // 4
    return np.full(g.size.size, big if k is None else int(k), dtype=np.int64)


def _expected_hits(d: Aligned, m: Measure, g: _Groups, k: np.ndarray) -> np.ndarray:
    """E[relevant in the top k] per query, k per group."""
    r = g.count(d.relevant(rel_level(d, m)))
    return g.per_query(r * g.inside(k) / g.size)


def _hits(d: Aligned, m: Measure, g: _Groups) -> np.ndarray:
    return _expected_hits(d, m, g, _cutoff_per_group(g, m.cutoff))


def _precision(d: Aligned, m: Measure, g: _Groups) -> np.ndarray:
    den = d.n_ret if m.cutoff is None else np.full(d.nq, m.cutoff)
    return divide(_hits(d, m, g), den)


def _recall(d: Aligned, m: Measure, g: _Groups) -> np.ndarray:
    return divide(_hits(d, m, g), d.num_rel(rel_level(d, m)))


def _num_rel_ret(d: Aligned, m: Measure, g: _Groups) -> np.ndarray:
    return _hits(d, m, g)


def _f_measure(d: Aligned, m: Measure, g: _Groups) -> np.ndarray:
    # With P = h/k and R' = h/R, F = (1+b2) h / (b2 R + k): linear in the hit count h.
    big_r = d.num_rel(rel_level(d, m)).astype(np.float64)
    k = d.n_ret if m.cutoff is None else np.full(d.nq, float(m.cutoff))
    b2 = float(m.get("beta2"))
    return divide((1.0 + b2) * _hits(d, m, g), b2 * big_r + k)


def _r_precision(d: Aligned, m: Measure, g: _Groups) -> np.ndarray:
    big_r = d.num_rel(rel_level(d, m))
    return divide(_expected_hits(d, m, g, big_r[g.query]), big_r)


def _relative_precision(d: Aligned, m: Measure, g: _Groups) -> np.ndarray:
    big_r = d.num_rel(rel_level(d, m))
    k = d.n_ret if m.cutoff is None else np.full(d.nq, m.cutoff)
    return divide(_hits(d, m, g), np.minimum(k, big_r))


def _segment_cumprod(factors: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Cumulative products restarting at each segment (exact sequential products)."""
    out = np.empty_like(factors)
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int64)
    for length in np.unique(lengths):
        if length == 0:
            continue
        sel = np.flatnonzero(lengths == length)
        idx = starts[sel][:, None] + np.arange(length)[None, :]
        out[idx] = np.cumprod(factors[idx], axis=1)
    return out


def _first_group(d: Aligned, m: Measure, g: _Groups) -> tuple[np.ndarray, np.ndarray]:
    """Per query, the first group holding a relevant doc within the cutoff (or -1), and r."""
    r = g.count(d.relevant(rel_level(d, m)))
    k = _cutoff_per_group(g, m.cutoff)
    live = (r > 0) & (g.first_rank <= k)
    first = np.full(g.nq, -1, dtype=np.int64)
    idx = np.flatnonzero(live)[::-1]
    first[g.query[idx]] = idx  # written last-to-first, so the earliest group wins
    return first, r


def _reciprocal_rank(d: Aligned, m: Measure, g: _Groups) -> np.ndarray:
    first, r_all = _first_group(d, m, g)
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
    k = _cutoff_per_group(g, m.cutoff)[grp]
    length = np.minimum(n - r + 1, k - s + 1).astype(np.int64)
    owner = np.repeat(np.arange(qs.size), length)
    i = np.arange(owner.size) - np.repeat(np.cumsum(length) - length, length)
    survive = (n[owner] - r[owner] - i + 1) / (n[owner] - i + 1)
    survive[i == 0] = 1.0
    p = _segment_cumprod(survive, length) * r[owner] / (n[owner] - i)
    out[qs] = np.bincount(owner, weights=p / (s[owner] + i), minlength=qs.size)
    return out


def _success(d: Aligned, m: Measure, g: _Groups) -> np.ndarray:
    first, r_all = _first_group(d, m, g)
    out = np.zeros(g.nq)
    qs = np.flatnonzero(first >= 0)
    grp = first[qs]
    n = g.size[grp].astype(np.int64)
    r = r_all[grp].astype(np.int64)
    k = _cutoff_per_group(g, m.cutoff)[grp]
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


def _relevant_weight(d: Aligned, m: Measure, g: _Groups) -> tuple[np.ndarray, np.ndarray]:
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


def _ap_denominator(d: Aligned, m: Measure) -> np.ndarray:
    big_r = d.num_rel(rel_level(d, m))
    if m.get("denom") == "min" and m.cutoff is not None:
        return np.minimum(big_r, int(m.cutoff))
    return big_r


def _average_precision(d: Aligned, m: Measure, g: _Groups) -> np.ndarray:
    weight, mask = _relevant_weight(d, m, g)
    return divide(d.seg_sum(weight / d.rank, mask), _ap_denominator(d, m))


def _average_recall(d: Aligned, m: Measure, g: _Groups) -> np.ndarray:
    weight, mask = _relevant_weight(d, m, g)
    big_r = d.num_rel(rel_level(d, m)).astype(np.float64)
    return divide(divide(d.seg_sum(weight, mask), big_r), _ap_denominator(d, m))


def _mean_gain(d: Aligned, m: Measure, g: _Groups) -> np.ndarray:
    from .gain import gain_values

    gains = gain_values(d.grade, d.judged, m.get("gain"))
    total = np.bincount(g.gid, weights=gains, minlength=g.size.size)
    return (total / g.size)[g.gid]


def _cumulative_gain(d: Aligned, m: Measure, g: _Groups) -> np.ndarray:
    mask = None if m.cutoff is None else d.rank <= m.cutoff
    return d.seg_sum(_mean_gain(d, m, g), mask)


def _dcg(d: Aligned, m: Measure, g: _Groups) -> np.ndarray:
    from .gain import discounted

    contrib = discounted(_mean_gain(d, m, g), d.rank, m.get("discount"))
    mask = None if m.cutoff is None else d.rank <= m.cutoff
    return d.seg_sum(contrib, mask)


def _ndcg(d: Aligned, m: Measure, g: _Groups) -> np.ndarray:
    from .gain import ideal_values

    return divide(_dcg(d, m, g), ideal_values(d, m))


Closed = Callable[["Aligned", Measure, _Groups], np.ndarray]

_CLOSED: dict[str, Closed] = {
    "P": _precision,
    "R": _recall,
    "F": _f_measure,
    "Rprec": _r_precision,
    "RelP": _relative_precision,
    "Success": _success,
    "NumRelRet": _num_rel_ret,
    "Hits": _num_rel_ret,
    "RR": _reciprocal_rank,
    "CG": _cumulative_gain,
    "DCG": _dcg,
    "nDCG": _ndcg,
}


def _closed_ap(name: str) -> None:
    def kernel(d: Aligned, m: Measure, g: _Groups) -> np.ndarray:
        if m.get("denom") == "hits":
            raise _NoClosedForm
        return (_average_precision if name != "AR" else _average_recall)(d, m, g)

    _CLOSED[name] = kernel


class _NoClosedForm(Exception):
    pass


# Measures that do not depend on the order of the ranked documents at all, or only through
# their cutoff.
_ORDER_FREE = frozenset({"NumQ", "NumRet", "NumRel", "NumNonRelJudgedRet", "IdealDCG", "SetAP",
                         "Utility"})
_ORDER_FREE_WITHOUT_CUTOFF = frozenset(
    {"P", "R", "F", "Success", "NumRelRet", "Hits", "CG", "RelP"}
)


# -- enumeration -------------------------------------------------------------------------


def _distinct_orders(labels: list[tuple[float, bool]]) -> Iterator[tuple[int, ...]]:
    """Index orders giving each distinct arrangement of ``labels`` once."""
    by_label: dict[tuple[float, bool], list[int]] = {}
    for i, lab in enumerate(labels):
        by_label.setdefault(lab, []).append(i)
    keys = list(by_label)
    counts = [len(by_label[k]) for k in keys]
    n = len(labels)

    def rec(prefix: list[int], left: list[int]) -> Iterator[list[int]]:
        if len(prefix) == n:
            yield prefix
            return
        for j, c in enumerate(left):
            if c:
                left[j] -= 1
                yield from rec([*prefix, j], left)
                left[j] += 1

    for pattern in rec([], counts):
        used = [0] * len(keys)
        order = []
        for j in pattern:
            order.append(by_label[keys[j]][used[j]])
            used[j] += 1
        yield tuple(order)


def _arrangements(labels: list[tuple[float, bool]]) -> int:
    counts: dict[tuple[float, bool], int] = {}
    for lab in labels:
        counts[lab] = counts.get(lab, 0) + 1
    out = math.factorial(len(labels))
    for c in counts.values():
        out //= math.factorial(c)
    return out


def _by_enumeration(a: Aligned, m: Measure, base: np.ndarray) -> np.ndarray:
    g = _Groups.of(a)
    if not g.any_ties:
        return base
    plans: list[tuple[int, list[list[tuple[int, ...]]], list[np.ndarray]]] = []
    total = 0
    for grp in np.flatnonzero(g.size > 1):
        q = int(g.query[grp])
        idx = np.arange(g.start[grp], g.start[grp] + g.size[grp])
        labels = list(zip(a.grade[idx].tolist(), a.judged[idx].tolist(), strict=True))
        if len(set(labels)) == 1:
            continue
        if not plans or plans[-1][0] != q:
            plans.append((q, [], []))
        plans[-1][1].append(list(_distinct_orders(labels)) if _arrangements(labels)
                            <= ENUMERATION_LIMIT else [])
        plans[-1][2].append(idx)
        if not plans[-1][1][-1]:
            total = ENUMERATION_LIMIT + 1
            break
    sizes = [math.prod(len(o) for o in orders) for _, orders, _ in plans]
    total = max(total, sum(sizes))
    if total > ENUMERATION_LIMIT:
        raise ParameterError(
            f"ties='average' for {m}: this measure has no closed form, and its tied groups "
            f"have more than {ENUMERATION_LIMIT} distinct arrangements to enumerate; use "
            "ties='docid' or 'input', or break the ties in the scores"
        )
    if not plans:
        return base
    pieces: list[np.ndarray] = []
    owners: list[int] = []
    for q, orders, idxs in plans:
        lo, hi = int(a.offsets[q]), int(a.offsets[q + 1])
        for combo in itertools.product(*orders):
            perm = np.arange(lo, hi)
            for idx, order in zip(idxs, combo, strict=True):
                perm[idx - lo] = idx[list(order)]
            pieces.append(perm)
            owners.append(q)
    values = _evaluate_virtual(a, m, pieces, owners)
    out = base.copy()
    owner = np.asarray(owners)
    sums = np.bincount(owner, weights=values, minlength=a.nq)
    counts = np.bincount(owner, minlength=a.nq)
    hit = counts > 0
    out[hit] = sums[hit] / counts[hit]
    return out


def _evaluate_virtual(a: Aligned, m: Measure, pieces: list[np.ndarray],
                      owners: list[int]) -> np.ndarray:
    """The measure on one virtual query per arrangement (ranked docs gathered by ``pieces``)."""
    flat = np.concatenate(pieces)
    lengths = np.array([p.size for p in pieces], dtype=np.int64)
    nv = len(pieces)
    qidx = np.repeat(np.arange(nv, dtype=np.int64), lengths)
    offsets = np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)
    owner = np.asarray(owners, dtype=np.int64)
    j_counts = np.diff(a.j_offsets)[owner]
    j_index = np.concatenate([np.arange(a.j_offsets[q], a.j_offsets[q + 1]) for q in owners])
    judged = a.judged[flat]
    virtual = replace(
        a,
        query_ids=a.query_ids[owner],
        offsets=offsets,
        given_qidx=qidx,
        judged_at=np.flatnonzero(judged),
        judged_grade=a.grade[flat][judged],
        score_rows=a.score_rows_at(flat),
        j_offsets=np.concatenate(([0], np.cumsum(j_counts))).astype(np.int64),
        j_qidx=np.repeat(np.arange(nv, dtype=np.int64), j_counts),
        j_grade=a.j_grade[j_index.astype(np.int64)],
        missing=a.missing[owner],
        to_sorted=None,
        qidx_from=None,
        _cache={},
    )
    return np.asarray(m.definition.kernel(virtual, m), dtype=np.float64)


for _name in ("AP", "GMAP", "AR"):
    _closed_ap(_name)
