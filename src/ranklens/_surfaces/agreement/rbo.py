"""Rank-biased overlap (Webber, Moffat & Zobel 2010), with Corsi & Urbano's tie-aware forms.

For rankings S (the shorter, ``s`` documents) and L (``l`` documents) and persistence
``p``, RBO is ``(1 - p) / p * sum_d p^d A_d`` over every depth d, where ``A_d = X_d / d``
and ``X_d`` is the overlap of the two rankings' top d. Only the seen prefixes are known,
so one of three forms is computed:

- ``min`` (Eq. 11 for prefixes of equal length): the lowest value any continuation of the
  rankings could give (no document beyond the prefixes ever matches);
- ``res`` (Eq. 13 for equal lengths): the residual, the highest value any continuation
  could give (the unseen documents match as early as they can) minus ``min``;
- ``ext`` (Eq. 32, for uneven lengths): the extrapolated value, the agreement at depth
  ``s`` carried on to the unseen depths.

For uneven lengths ``min`` and ``res`` are those same bounds over every continuation, as
Corsi & Urbano compute them (tests/unit/test_agreement_rbo.py sums the definition over the
extreme continuations).

Ties (``ties``): ``ordered``, the default, reads each ranking in the order the evaluation's
tie policy gives (trec_eval's doc id descending, or input order), every document at its own
rank, as every other measure does. ``w``, ``a`` and ``b`` are Corsi & Urbano's tie-aware
definitions (SIGIR 2024, "The Treatment of Ties in Rank-Biased Overlap") over the groups of
equal scores: ``w`` treats tied documents as sharing their group's first rank (ties as
equality: a document counts at every depth from its group's first rank on, and the
agreement divides by the documents seen, ``2 X_d / (|S_d| + |L_d|)``); ``a`` is the expected
RBO over every order of each tied group (a document of a group spanning ranks t..b counts
``(d - t + 1) / (b - t + 1)`` at depth d < b); ``b`` takes ``a``'s counts and divides by
their norms, so that a ranking compared with itself scores 1. Without ties all four agree.
A tied group straddling the cutoff ``@k`` is cut there: its documents beyond k are unseen.

Every sum runs over all queries at once: one slot per (query, depth to l), filled with
``np.bincount`` and summed per query by segmented sums.
"""

from __future__ import annotations

import math

import numpy as np

from ..._base.groups import ranges
from ..._base.params import Param, Spelled
from .measures import Chosen, register_agreement
from .rankings import Pairing, Side, ranks

__all__ = ["rbo"]


P = Param("p", Spelled("float", minimum=0, maximum=1, strict=True), 0.9, "persistence: the "
          "probability of reading on to the next depth (the first d documents weigh 1 - p^d)")
FORM = Param("form", Spelled("choice", ("ext", "min", "res")), "ext", "ext = extrapolated "
             "(Webber et al.'s Eq. 32), min = lower bound (Eq. 11), res = residual, the bound's "
             "width (Eq. 13)")
TIES = Param("ties", Spelled("choice", ("ordered", "w", "a", "b")), "ordered", "ordered = tied "
             "documents in the order of the evaluation's tie policy, each at its own rank; w, a, "
             "b = Corsi & Urbano's tie-aware RBO over groups of equal scores (w: ties as "
             "equality, a: expected value over every order of the ties, b: a normalised so that "
             "RBO(X, X) = 1)")


class _Slots:
    """One slot per (query, depth d = 1..l), queries one after the other."""

    def __init__(self, length: np.ndarray) -> None:
        self.nq = length.size
        self.length = length
        self.base = np.concatenate(([0], np.cumsum(length)[:-1])).astype(np.int64)
        self.n = int(length.sum())
        self.q = np.repeat(np.arange(self.nq, dtype=np.int64), length)
        self.d = (np.arange(self.n, dtype=np.int64) - self.base[self.q] + 1).astype(np.float64)

    def at(self, q: np.ndarray, d: np.ndarray) -> np.ndarray:
        return self.base[q] + d - 1

    def add(self, q: np.ndarray, d: np.ndarray, values: np.ndarray | float = 1.0
            ) -> np.ndarray:
        """An array over the slots with ``values`` added at (q, d) (d within 1..l)."""
        w = np.broadcast_to(np.asarray(values, dtype=np.float64), q.shape)
        return np.bincount(self.at(q, d), weights=w, minlength=self.n)

    def cumsum(self, values: np.ndarray) -> np.ndarray:
        """The running sum of ``values`` within each query."""
        c = np.cumsum(values)
        before = np.concatenate(([0.0], c))[self.base]
        return c - np.repeat(before, self.length)

    def total(self, values: np.ndarray) -> np.ndarray:
        """The sum of ``values`` within each query."""
        return np.bincount(self.q, weights=values, minlength=self.nq)

    def last(self, values: np.ndarray, d: np.ndarray) -> np.ndarray:
        """``values`` at depth ``d`` of each query (0 where d is 0)."""
        out = np.zeros(self.nq)
        ok = d > 0
        out[ok] = values[self.at(np.flatnonzero(ok), d[ok])]
        return out


def _spread(q: np.ndarray, start: np.ndarray, stop: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every depth d in [start, stop) of each entry: (entry, query, depth)."""
    n = np.maximum(stop - start, 0)
    entry = np.repeat(np.arange(q.size, dtype=np.int64), n)
    return entry, q[entry], ranges(start, n)


def _share(d: np.ndarray, t: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A document's count at depth d of a group spanning ranks t..b (1 from b on)."""
    return np.where(d >= b, 1.0, (d - t + 1) / (b - t + 1))


def _counts(slots: _Slots, q: np.ndarray, t: np.ndarray, b: np.ndarray, start: np.ndarray,
            power: int = 1) -> np.ndarray:
    """Per slot, the sum over documents (query ``q``, group ranks ``t``..``b``) of their
    count to the power ``power``, each counted from depth ``start`` (>= t) on: 1 from
    max(start, b), its share of its group between."""
    lim = slots.length[q]
    step = np.maximum(start, b)
    ok = step <= lim
    # a whole count holds at every deeper depth; a share only at its own
    out = slots.cumsum(slots.add(q[ok], step[ok]))
    entry, qq, d = _spread(q, start, np.minimum(step, lim + 1))
    if entry.size:
        out += slots.add(qq, d, _share(d, t[entry], b[entry]) ** power)
    return out


def rbo(pair: Pairing, m: Chosen) -> np.ndarray:
    p, form, ties = float(m.get("p")), m.get("form"), m.get("ties")
    a, b = pair.a, pair.b
    # S is the shorter ranking (b on equal lengths): which side it is, per query
    s_is_a = a.length < b.length
    s = np.where(s_is_a, a.length, b.length)
    length = np.where(s_is_a, b.length, a.length)
    slots = _Slots(length)

    def span(side: Side) -> tuple[np.ndarray, np.ndarray]:
        if ties == "ordered":
            return side.rank, side.rank
        if ties == "w":
            return side.top, side.top
        return side.top, side.bottom

    (ta, ba), (tb, bb) = span(a), span(b)
    # X_d: each shared document counts (its count in S) x (its count in L) at depth d
    shared = np.flatnonzero(a.other >= 0)
    q, o = a.qidx[shared], a.other[shared]
    t_sa, b_sa, t_sb, b_sb = ta[shared], ba[shared], tb[o], bb[o]
    m0, m1 = np.maximum(t_sa, t_sb), np.maximum(b_sa, b_sb)
    x = slots.cumsum(slots.add(q, m1))
    entry, qq, d = _spread(q, m0, m1)
    if entry.size:
        x += slots.add(qq, d, _share(d, t_sa[entry], b_sa[entry])
                       * _share(d, t_sb[entry], b_sb[entry]))
    # each side's documents seen by depth d (w) or their squared counts (b), and L's
    power = 2 if ties == "b" else 1
    seen_a, seen_b = (_counts(slots, side.qidx, t, bt, t, power)
                      for side, t, bt in ((a, ta, ba), (b, tb, bb)))
    s_q, dd = s[slots.q].astype(np.float64), slots.d
    s_rows = np.where(s_is_a[slots.q], seen_a, seen_b)
    l_rows = np.where(s_is_a[slots.q], seen_b, seen_a)
    first = dd <= s_q

    def agreement(xd: np.ndarray) -> np.ndarray:
        # A_d of the variant; past s, S's seen count is d itself (Corsi & Urbano)
        if ties in ("ordered", "a"):
            return xd / dd
        with np.errstate(divide="ignore", invalid="ignore"):
            if ties == "w":
                return np.where(first, 2 * xd / (s_rows + l_rows), 2 * xd / (dd + l_rows))
            return np.where(first, xd / np.sqrt(s_rows) / np.sqrt(l_rows),
                            xd / np.sqrt(dd) / np.sqrt(l_rows))

    weight = p ** dd
    a_seen = np.nan_to_num(agreement(x))
    x_l = slots.last(x, slots.length)
    a_s = slots.last(a_seen, s)
    scale = (1 - p) / p
    lq = length.astype(np.float64)
    sq = s.astype(np.float64)
    # the documents of L absent from S, in L's order: j = 1, 2, ... per query
    uq_a = np.flatnonzero((a.other < 0) & ~s_is_a[a.qidx])
    uq_b = np.flatnonzero((b.other < 0) & s_is_a[b.qidx])
    u_q, u_t, u_b, u_rank = (np.concatenate((x[uq_a], y[uq_b])) for x, y in
                             ((a.qidx, b.qidx), (ta, tb), (ba, bb), (a.rank, b.rank)))
    order = np.lexsort((u_rank, u_q))
    u_q, u_t, u_b = u_q[order], u_t[order], u_b[order]
    u_j = ranks(u_q, slots.nq)[1]
    if form == "ext":
        # past s, the unseen part of S is assumed to agree as the seen part did: (d - s)
        # unseen documents of S each matching with A_s times the mean count of L's
        # documents not in S (1 without ties)
        present = _counts(slots, u_q, u_t, u_t, u_t)
        weight_l = _counts(slots, u_q, u_t, u_b, u_t)
        with np.errstate(divide="ignore", invalid="ignore"):
            mean_l = np.where(present > 0, weight_l / present, 0.0)
        a_sq = a_s[slots.q]
        x_ext = np.where(first, x, x + (dd - s_q) * a_sq * mean_l)
        a_ext = np.nan_to_num(agreement(x_ext))
        with np.errstate(divide="ignore", invalid="ignore"):
            tail = np.where(lq > 0, (x_l + (lq - sq) * a_s) / lq, 0.0) * p ** (lq + 1) / (1 - p)
        out = scale * (slots.total(a_ext * weight) + tail)
        return _empty_queries(np.where(s > 0, out, 0.0), length)
    head = np.log(1 / (1 - p)) - slots.total(weight / dd)
    low = scale * (slots.total(a_seen * weight) + x_l * head)
    if form == "min":
        return _empty_queries(low, length)
    # res = max - min. max: past s, the j-th document of L absent from S matches S's
    # (s + j)-th (unseen) document; past l, every unseen document of either matches as
    # early as it can, until depth f = l + s - X_l, from where the agreement is 1
    extra = _counts(slots, u_q, u_t, u_b, np.maximum(s[u_q] + u_j, u_t))
    a_max = np.nan_to_num(agreement(np.where(first, x, x + extra)))
    count = np.maximum(np.ceil(sq - x_l - 1e-9).astype(np.int64), 0)
    tq = np.repeat(np.arange(slots.nq, dtype=np.int64), count)
    tfirst = np.concatenate(([0], np.cumsum(count)[:-1])).astype(np.int64)
    td = (lq[tq] + 1 + (np.arange(tq.size) - tfirst[tq]))
    tail_terms = (2 * td - lq[tq] - sq[tq] + x_l[tq]) / td * p ** td
    f = lq + sq - x_l
    tail_max = np.bincount(tq, weights=tail_terms, minlength=slots.nq) + p ** (f + 1) / (1 - p)
    high = scale * (slots.total(a_max * weight) + tail_max)
    return _empty_queries(high - low, length)


def _empty_queries(values: np.ndarray, length: np.ndarray) -> np.ndarray:
    # both rankings empty: nothing to compare (NaN, left out of the means)
    return np.where(length == 0, math.nan, values)


register_agreement(
    "RBO", "rank-biased overlap (Webber, Moffat & Zobel 2010): extrapolated, lower bound or "
    "residual; tie-aware forms of Corsi & Urbano 2024", params=(P, FORM, TIES),
    aliases=("rank_biased_overlap",),
    lower_is_better=lambda m: m.get("form") == "res")(rbo)
