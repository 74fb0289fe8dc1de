"""Tie policies per measure, and ``ties="average"``: the expected value over tied orders.

Under ``ties="average"`` a measure's value for a query is its mean over every order of each
group of equally scored documents (McSherry and Najork, ECIR 2008; sklearn's ``ndcg_score``).
The registry entry of a measure says how: ``order_free`` measures keep their value, a
``closed_form`` (defined in the measure's module, next to its kernel, from the tied-group
helpers here) computes the expectation directly, and every other measure is averaged by
enumerating the distinct arrangements of the judgments inside each tied group (exact,
refused beyond :data:`ENUMERATION_LIMIT`). The closed forms rest on one fact: in a uniformly
shuffled group of ``n`` documents holding ``r`` relevant ones, each position is relevant with
probability ``r/n``, and given that, each other position of the group is relevant with
probability ``(r-1)/(n-1)``.

Queries without a tied group get the ordinary kernel's value, bit for bit, so
``ties="average"`` equals trec_eval wherever the scores are distinct.

This module holds only shared machinery: it imports no measure module.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from .._base.errors import ParameterError
from .._model.aligned import Aligned
from ._common import data, rel_level
from ._registry import TIES, Measure

__all__ = ["BOUNDS", "COUNTED_AT_ONE_POSITION", "ENUMERATION_LIMIT", "PERMUTATIONS",
           "REORDERED", "TIES_PARAM", "NoBound", "NoClosedForm", "TiedGroups", "bound",
           "bound_hits", "bound_position", "compute", "cutoff_per_group",
           "effective_ties", "expected_hits", "first_relevant_group", "permuted",
           "relevant_at_or_above", "segment_cumprod", "segment_cumsum"]

#: The per-measure ``ties`` parameter; None means "the evaluation's ``ties`` option".
TIES_PARAM = TIES

#: Most arrangements (summed over queries) enumerated for a measure without a closed form.
ENUMERATION_LIMIT = 200_000


class NoClosedForm(Exception):
    """Raised by a closed form for a parameter value it does not cover (enumeration follows)."""


class NoBound(Exception):
    """Raised by a measure's ``tie_bound`` where the definition of ``ties="pessimistic"`` /
    ``"optimistic"`` does not say what to do (the message says why; a ParameterError
    follows)."""


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
    defn = measure.definition
    base = defn.kernel(aligned, measure)
    if defn.text or measure.ignores_order:
        return base  # a rendering of one ranking has no average: the tie-broken order is shown
    if defn.ties.closed_form is not None:
        d = data(aligned, measure)
        groups = TiedGroups.of(d)
        if not groups.any_ties:
            return base
        try:
            value = defn.ties.closed_form(d, measure, groups)
        except NoClosedForm:
            return _by_enumeration(aligned, measure, base)
        return np.where(groups.query_has_ties(), value, base)
    return _by_enumeration(aligned, measure, base)


# -- tied groups -----------------------------------------------------------------------


@dataclass(frozen=True)
class TiedGroups:
    """Runs of equal scores inside each query, over the ranked documents of ``d``.

    What a closed form receives: per group its first flat index, size, first rank and
    query, and per ranked document its group.
    """

    gid: np.ndarray      # group of each ranked doc
    start: np.ndarray    # flat index of each group's first doc
    size: np.ndarray     # docs in each group
    first_rank: np.ndarray
    query: np.ndarray    # query index of each group
    nq: int

    @classmethod
    def of(cls, d: Aligned) -> TiedGroups:
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
        """Per group: the sum of ``per_group`` over the earlier groups of its query.

        Summed inside each query from its first group (not a running total over every
        query minus an offset), so a query's value never depends on the queries before it:
        evaluating any subset of queries gives the same bits (see ranklens._pipeline.compute).
        """
        values = np.asarray(per_group, dtype=np.float64)
        if values.size == 0:
            return values.copy()
        first = np.concatenate(([True], self.query[1:] != self.query[:-1]))
        lengths = np.diff(np.append(np.flatnonzero(first), values.size))
        # what comes before each group: 0 for a query's first, else the previous group's
        shifted = np.where(first, 0.0, np.concatenate(([0.0], values[:-1])))
        return segment_cumsum(shifted, lengths)


# -- helpers for closed forms ---------------------------------------------------------


def cutoff_per_group(g: TiedGroups, k: float | None) -> np.ndarray:
    """The rank cutoff ``k`` repeated per group (a huge number when there is none)."""
    big = np.iinfo(np.int64).max // 4
    return np.full(g.size.size, big if k is None else int(k), dtype=np.int64)


def expected_hits(d: Aligned, m: Measure, g: TiedGroups,
                  k: np.ndarray | None = None) -> np.ndarray:
    """E[relevant documents in the top k] per query; ``k`` per group, default ``m``'s cutoff.

    With the default it is the closed form of the relevant-retrieved count itself.
    """
    if k is None:
        k = cutoff_per_group(g, m.cutoff)
    r = g.count(d.relevant(rel_level(d, m)))
    return g.per_query(r * g.inside(k) / g.size)


def first_relevant_group(d: Aligned, m: Measure,
                         g: TiedGroups) -> tuple[np.ndarray, np.ndarray]:
    """Per query, the first group holding a relevant doc within the cutoff (or -1), and the
    relevant count of every group."""
    r = g.count(d.relevant(rel_level(d, m)))
    k = cutoff_per_group(g, m.cutoff)
    live = (r > 0) & (g.first_rank <= k)
    first = np.full(g.nq, -1, dtype=np.int64)
    idx = np.flatnonzero(live)[::-1]
    first[g.query[idx]] = idx  # written last-to-first, so the earliest group wins
    return first, r


def segment_cumsum(values: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Cumulative sums restarting at each segment (exact sequential sums)."""
    return _segment_scan(np.cumsum, values, lengths)


def segment_cumprod(factors: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Cumulative products restarting at each segment (exact sequential products)."""
    return _segment_scan(np.cumprod, factors, lengths)


def _segment_scan(scan: Callable[..., np.ndarray], values: np.ndarray,
                  lengths: np.ndarray) -> np.ndarray:
    """``scan`` (np.cumsum or np.cumprod) restarting at each segment: segments of one length
    are scanned together as the rows of a matrix, in the same sequential order as alone."""
    out = np.empty_like(values)
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int64)
    for length in np.unique(lengths):
        if length == 0:
            continue
        sel = np.flatnonzero(lengths == length)
        idx = starts[sel][:, None] + np.arange(length)[None, :]
        out[idx] = scan(values[idx], axis=1)
    return out


# -- enumeration -------------------------------------------------------------------------


def _distinct_orders(labels: list[tuple]) -> Iterator[tuple[int, ...]]:
    """Index orders giving each distinct arrangement of ``labels`` once."""
    by_label: dict[tuple, list[int]] = {}
    for i, lab in enumerate(labels):
        by_label.setdefault(lab, []).append(i)
    pools = list(by_label.values())
    left = [len(p) for p in pools]

    def rec(order: list[int]) -> Iterator[tuple[int, ...]]:
        if len(order) == len(labels):
            yield tuple(order)
            return
        for j, pool in enumerate(pools):
            if left[j]:  # each label's indices taken in their own order
                left[j] -= 1
                yield from rec([*order, pool[len(pool) - left[j] - 1]])
                left[j] += 1

    yield from rec([])


def _arrangements(labels: list[tuple]) -> int:
    out = math.factorial(len(labels))
    for c in Counter(labels).values():
        out //= math.factorial(c)
    return out


def _labels(a: Aligned, idx: np.ndarray) -> list[tuple]:
    """What tells the ranked documents at ``idx`` apart for a measure: grade and whether
    judged; with subtopic judgments also each document's (subtopic, grade) pairs (two
    documents of one grade may cover different subtopics)."""
    labels: list[tuple] = list(zip(a.grade[idx].tolist(), a.judged[idx].tolist(),
                                   strict=True))
    s = a.subtopics
    if s is None:
        return labels
    at = np.searchsorted(a.judged_at, idx)
    for i, (pos, j) in enumerate(zip(idx.tolist(), at.tolist(), strict=True)):
        if j < a.judged_at.size and a.judged_at[j] == pos:
            d = int(s.judged_doc[j])
            lo, hi = int(s.pair_offsets[d]), int(s.pair_offsets[d + 1])
            labels[i] += (tuple(zip(s.pair_sub[lo:hi].tolist(),
                                    s.pair_grade[lo:hi].tolist(), strict=True)),)
    return labels


def _by_enumeration(a: Aligned, m: Measure, base: np.ndarray) -> np.ndarray:
    g = TiedGroups.of(a)
    if not g.any_ties:
        return base
    plans: list[tuple[int, list[list[tuple[int, ...]]], list[np.ndarray]]] = []
    total = 0
    for grp in np.flatnonzero(g.size > 1):
        q = int(g.query[grp])
        idx = np.arange(g.start[grp], g.start[grp] + g.size[grp])
        labels = _labels(a, idx)
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
    # a kernel may hand back integers (an empty bincount): the averages are not
    out = base.astype(np.float64)
    owner = np.asarray(owners)
    sums = np.bincount(owner, weights=values, minlength=a.nq)
    counts = np.bincount(owner, minlength=a.nq)
    hit = counts > 0
    out[hit] = sums[hit] / counts[hit]
    return out


#: scikit-learn's tie policies: each (relevant) document after, or before, everything it
#: ties with (see :data:`ranklens._model.policies.Ties`)
BOUNDS = ("pessimistic", "optimistic")
#: tie policies that order each tied group by judgment: the worst and the best order
PERMUTATIONS = ("worst", "best")
#: the policies computed from the doc id order, tied groups found by score
REORDERED = BOUNDS + PERMUTATIONS


def bound_position(g: TiedGroups, optimistic: bool) -> np.ndarray:
    """Per ranked document, its position under ``ties="pessimistic"`` (its group's last: the
    number of documents scored at least as high) or ``"optimistic"`` (its group's first)."""
    first = g.first_rank[g.gid]
    return first if optimistic else first + g.size[g.gid] - 1


def relevant_at_or_above(g: TiedGroups, relevant: np.ndarray, optimistic: bool) -> np.ndarray:
    """Per ranked document, the relevant documents at or above it, itself included if it is
    relevant: its group's and the earlier groups' (``pessimistic``), or the earlier groups'
    and itself (``optimistic``)."""
    r = g.count(relevant)
    earlier = g.before(r)[g.gid]
    return earlier + (relevant.astype(np.float64) if optimistic else r[g.gid])


#: why ``ties="optimistic"`` is refused for a measure counting the documents within a cutoff
COUNTED_AT_ONE_POSITION = (
    "the relevant documents of a tied group would all stand at its first position, and a "
    "count of the documents in the top k would exceed k; ties='best' is the best order of "
    "each tied group")


def bound_hits(d: Aligned, g: TiedGroups, relevant: np.ndarray, cutoff: np.ndarray | None,
               optimistic: bool) -> np.ndarray:
    """Per query, the relevant documents whose :func:`bound_position` is within ``cutoff``
    (per ranked document; None: all of them)."""
    inside = relevant
    if cutoff is not None:
        inside = relevant & (bound_position(g, optimistic) <= cutoff)
    return np.bincount(d.qidx[inside], minlength=d.nq).astype(np.int64)


def bound(a: Aligned, m: Measure, optimistic: bool) -> np.ndarray:
    """Per-query values of ``m`` under ``ties="optimistic"`` or ``"pessimistic"``.

    A measure whose order never matters keeps its value; one whose registry entry has no
    ``tie_bound``, or whose bound raises :class:`NoBound`, is refused whatever the data
    (so whether it is refused never depends on the scores). Queries without a tied group
    get the ordinary kernel's value, bit for bit. ``a`` must be sorted by score (any
    tie-break).
    """
    policy = "optimistic" if optimistic else "pessimistic"
    d = data(a, m)
    base = m.definition.kernel(d, m)
    if m.definition.text or m.ignores_order:
        return base  # as ties="average" does: see compute
    form = m.definition.ties.bound
    if form is None:
        raise ParameterError(
            f"ties={policy!r} is not defined for {m}: it ranks each "
            f"{'relevant document before' if optimistic else 'document after'} everything it "
            f"ties with, which says what to do only for measures read from each relevant "
            f"document's position (see "
            f"docs/conventions.md, Ties); use ties='{'best' if optimistic else 'worst'}' "
            f"(the {'best' if optimistic else 'worst'} order of each tied group) or 'average'")
    g = TiedGroups.of(d)
    try:
        value = form(d, m, g, optimistic)
    except NoBound as exc:
        raise ParameterError(f"ties={policy!r} is not defined for {m}: {exc}") from None
    if not g.any_ties:
        return base
    return np.where(g.query_has_ties(), value, base)


def permuted(a: Aligned, m: Measure, best: bool) -> np.ndarray:
    """Per-query values of ``m`` with each tied group ordered by grade: ascending (a tied
    relevant document after everything it ties with: ``worst``) or descending (``best``).
    Unjudged documents count as grade 0; equal grades keep ``a``'s order. ``a`` must be
    sorted by score (any tie-break)."""
    d = data(a, m)
    if d.qidx.size == 0 or m.definition.text or m.ignores_order:
        return m.definition.kernel(d, m)  # as ties="average" does: see compute
    g = TiedGroups.of(d)
    if not g.any_ties:
        return m.definition.kernel(d, m)
    grade = np.where(d.judged, d.grade, 0.0)
    order = np.lexsort((-grade if best else grade, g.gid))  # stable within a grade
    pieces = np.split(order, d.offsets[1:-1])
    return _evaluate_virtual(d, m, pieces, list(range(d.nq)))


def _evaluate_virtual(a: Aligned, m: Measure, pieces: list[np.ndarray],
                      owners: list[int]) -> np.ndarray:
    """The measure on one virtual query per arrangement (ranked docs gathered by ``pieces``)."""
    virtual = a.regrouped(pieces, np.asarray(owners, dtype=np.int64))
    return np.asarray(m.definition.kernel(virtual, m), dtype=np.float64)
