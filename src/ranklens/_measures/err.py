"""Expected reciprocal rank, ERR@k (Chapelle, Metzler, Zhang and Grinspan, CIKM 2009).

A user reads down the ranking and stops at a document with its satisfaction probability
``R = (2^g - 1) / 2^gmax`` (g its grade); ERR@k is the expected reciprocal rank of the stop:
``sum over r <= k of (1/r) R_r prod_{i<r} (1 - R_i)``. Values follow gdeval.pl, the TREC Web
track's script (2010-2014, also behind ir_measures' ``ERR@k``):

- ``gmax`` is fixed at 4 there (its ``MAX_JUDGMENT``; it refuses qrels above it): here the
  ``max_grade`` parameter, and a grade above it counts as ``max_grade``, so that R stays
  below 1 and every value of the parameter gives a value;
- documents not in the qrels or judged at a level <= 0 have R = 0;
- the ranking is by score, ties by doc id descending (``ties="docid"``, as gdeval sorts);
- gdeval takes k as an argument (the Web track reported ERR@20); without a cutoff here the
  whole ranking counts;
- gdeval does not report a query without a positive judgment; here the evaluation's
  ``empty`` option decides (0 by default).

The sums run in rank order with the decay multiplied step by step, as gdeval's loop does.
"""

from __future__ import annotations

import math

import numpy as np

from .._model.aligned import Aligned
from ._common import data
from ._registry import JUDGED_ONLY, Measure, Param, Spelled, register
from ._ties import (
    COUNTED_AT_ONE_POSITION,
    NoBound,
    TiedGroups,
    bound_position,
    cutoff_per_group,
    segment_cumprod,
)

_MAX_GRADE = Param("max_grade", Spelled("float", minimum=0), 4.0, "grade of certain satisfaction, "
                   "2^max_grade in R = (2^g - 1) / 2^max_grade (gdeval: 4)")


def _satisfaction(grade: np.ndarray, m: Measure) -> np.ndarray:
    """R of each grade, grades taken within [0, max_grade].

    ``2^(g - top) - 2^-top`` is gdeval's ``(2^g - 1) / 2^top`` without overflow for a large
    ``top``; both are exact for the small whole grades of real qrels.
    """
    top = float(m.get("max_grade"))
    g = np.clip(grade, 0.0, top)
    return np.exp2(g - top) - np.exp2(-top)


def expected_reciprocal_rank(a: Aligned, m: Measure) -> np.ndarray:
    d = data(a, m)
    # a document with R = 0 multiplies the decay by exactly 1: only positive grades count
    idx, grade = d.judged_within(m.cutoff)
    sat = _satisfaction(grade, m)
    keep = sat > 0
    idx, sat = idx[keep], sat[keep]
    q = d.qidx_at(idx)
    lengths = np.bincount(q, minlength=d.nq)
    survive = segment_cumprod(1.0 - sat, lengths)  # after each document
    first = np.ones(idx.size, dtype=bool)
    first[1:] = q[1:] != q[:-1]
    decay = np.where(first, 1.0, np.roll(survive, 1))  # before each document
    terms = sat * decay / d.rank_at(idx).astype(np.float64)
    return np.bincount(q, weights=terms, minlength=d.nq)


# -- ties="average" -----------------------------------------------------------------------
#
# A tied group of n documents at ranks s..s+n-1, shuffled uniformly, holds m documents with
# R > 0. The groups before it multiply every term of the group by P, the product of their
# (1 - R), whatever their order. The document at offset j is a given positive one with
# probability 1/n, and the j documents ahead of it are then a uniform j-subset of the other
# n - 1, so
#
#     E[term at offset j] = P / (n (s + j)) * sum over positive a of R_a M_j(others of a),
#
# M_j(S) the mean over j-subsets of S of the product of their (1 - R). Documents with R = 0
# contribute a factor 1: a j-subset of the n - 1 others holds a hypergeometric number k of
# the positive ones, themselves a uniform k-subset, so M_j = sum_k H(k; n-1, m', j) M'_k with
# M'_k the same mean over the m' positive others alone. M'_k follows from adding one
# element y at a time to a set of N: M_k <- ((N + 1 - k) M_k + k y M_{k-1}) / (N + 1), a
# convex combination, so the computation stays in [0, 1].


def _subset_means(y: np.ndarray) -> np.ndarray:
    """``out[k]`` = mean over the k-subsets of ``y`` of their product, k = 0..len(y)."""
    out = np.ones(1)
    for n, value in enumerate(y.tolist()):
        k = np.arange(n + 2, dtype=np.float64)
        grown = np.zeros(n + 2)
        grown[: n + 1] = (n + 1 - k[: n + 1]) * out
        grown[1:] += k[1:] * value * out
        out = grown / (n + 1)
    return out


def _hypergeometric(population: int, marked: int, draws: np.ndarray) -> np.ndarray:
    """``out[i, k]`` = P(k marked among draws[i] drawn from population without replacement)."""
    log_fact = np.array([math.lgamma(i + 1.0) for i in range(population + 1)])

    def log_choose(n: np.ndarray | int, r: np.ndarray) -> np.ndarray:
        return log_fact[n] - log_fact[r] - log_fact[np.asarray(n) - r]

    k = np.arange(marked + 1)[None, :]
    j = draws[:, None]
    ok = (j - k >= 0) & (j - k <= population - marked)
    rest = np.clip(j - k, 0, population - marked)
    logp = (log_choose(marked, np.broadcast_to(k, ok.shape)) + log_choose(
        population - marked, rest) - log_choose(population, np.broadcast_to(j, ok.shape)))
    return np.where(ok, np.exp(np.where(ok, logp, 0.0)), 0.0)


def _group_terms(sat: np.ndarray, n: int, first_rank: int, depth: int) -> float:
    """Expected sum of ``R / rank * decay inside the group`` over the group's first ``depth``
    offsets, for a shuffled group of ``n`` documents whose positive R are ``sat``."""
    offsets = np.arange(depth)
    total = 0.0
    values, counts = np.unique(sat, return_counts=True)
    for value, count in zip(values.tolist(), counts.tolist(), strict=True):
        others = np.delete(sat, int(np.flatnonzero(sat == value)[0]))
        means = _hypergeometric(n - 1, others.size, offsets) @ _subset_means(1.0 - others)
        total += count * value * float(np.sum(means / (first_rank + offsets)))
    return total / n


def _err_tied(d: Aligned, m: Measure, g: TiedGroups) -> np.ndarray:
    sat = np.where(d.judged, _satisfaction(d.grade, m), 0.0)
    k = cutoff_per_group(g, m.cutoff)
    # the product of (1 - R) over each group, and over the earlier groups of its query
    log_keep = np.bincount(g.gid, weights=np.log1p(-sat), minlength=g.size.size)
    before = np.exp(g.before(log_keep))
    depth = np.clip(k - g.first_rank + 1, 0, g.size)
    inside = np.zeros(g.size.size)
    single = g.size == 1
    inside[single] = sat[g.start[single]] / g.first_rank[single] * (depth[single] > 0)
    positive = np.bincount(g.gid, weights=sat > 0, minlength=g.size.size) > 0
    for grp in np.flatnonzero(~single & positive & (depth > 0)).tolist():
        lo = int(g.start[grp])
        members = sat[lo:lo + int(g.size[grp])]
        inside[grp] = _group_terms(members[members > 0], int(g.size[grp]),
                                   int(g.first_rank[grp]), int(depth[grp]))
    return g.per_query(before * inside)


def _err_bound(d: Aligned, m: Measure, g: TiedGroups, optimistic: bool) -> np.ndarray:
    # under ties="pessimistic" a document stands at its group's last position, below every
    # other document scored at least as high: the rest of its group and the earlier groups
    # all failed to satisfy before it
    if optimistic:
        raise NoBound(COUNTED_AT_ONE_POSITION)
    sat = np.where(d.judged, _satisfaction(d.grade, m), 0.0)
    log_keep = np.bincount(g.gid, weights=np.log1p(-sat), minlength=g.size.size)
    before = np.exp(g.before(log_keep))[g.gid]
    others = np.exp(log_keep[g.gid] - np.log1p(-sat))  # the rest of the group
    pos = bound_position(g, False)
    terms = sat * before * others / pos
    if m.cutoff is not None:
        terms = np.where(pos <= m.cutoff, terms, 0.0)
    return np.bincount(d.qidx, weights=terms, minlength=d.nq)


register("ERR", "expected reciprocal rank (Chapelle et al.): sum over ranks r <= k of R_r / r "
         "times the chance that no earlier document satisfied, R = (2^g - 1) / 2^max_grade "
         "(gdeval)", params=(_MAX_GRADE, JUDGED_ONLY), cutoff="int", aliases=("err",),
         family="err", closed_form=_err_tied, tie_bound=_err_bound, needs_unretrieved=False,
         residual=True)(expected_reciprocal_rank)
