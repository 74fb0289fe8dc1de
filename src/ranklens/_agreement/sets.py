"""Overlap@k, Jaccard@k and Kendall's tau@k between the two rankings' top k.

- ``Overlap@k``: the documents both top k hold, divided by k (RBO's agreement at depth
  k; a ranking shorter than k still divides by k).
- ``Jaccard@k``: the documents both top k hold over the documents either holds.
- ``KendallTau@k``: Kendall's tau-b over the union of the two top k. A document absent
  from one top k is placed in that ranking at k + 1, tied with the others absent from it
  (Fagin, Kumar & Sivakumar 2003's placement of the missing at k + 1), so tau-b's tie
  correction counts them; this is ``scipy.stats.kendalltau`` of the two rank vectors. NaN
  where tau-b is undefined (fewer than two documents, or one ranking holding none of the
  union).

A query whose two rankings are both empty has no value (NaN, left out of the means).
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from .measures import Chosen, register_agreement
from .rankings import Pairing

__all__ = ["jaccard", "kendall_tau", "overlap"]

#: pairs of documents compared at once by Kendall's tau (a block of whole queries)
_PAIRS_PER_BLOCK = 1 << 22


def _shared(pair: Pairing) -> np.ndarray:
    hit = pair.a.other >= 0
    return np.bincount(pair.a.qidx[hit], minlength=pair.nq).astype(np.float64)


def _none_ranked(pair: Pairing, values: np.ndarray) -> np.ndarray:
    return np.where((pair.a.length == 0) & (pair.b.length == 0), math.nan, values)


def overlap(pair: Pairing, m: Chosen) -> np.ndarray:
    assert m.cutoff is not None
    return _none_ranked(pair, _shared(pair) / m.cutoff)


def jaccard(pair: Pairing, m: Chosen) -> np.ndarray:
    both = _shared(pair)
    union = pair.a.length + pair.b.length - both
    with np.errstate(divide="ignore", invalid="ignore"):
        return _none_ranked(pair, both / union)


def kendall_tau(pair: Pairing, m: Chosen) -> np.ndarray:
    assert m.cutoff is not None
    absent = m.cutoff + 1
    a, b = pair.a, pair.b
    only_b = b.other < 0
    # every document of the union: its query and its rank in each ranking
    q = np.concatenate((a.qidx, b.qidx[only_b]))
    ra = np.concatenate((a.rank, np.full(int(only_b.sum()), absent)))
    rb = np.concatenate((np.where(a.other >= 0, b.rank[np.maximum(a.other, 0)], absent),
                         b.rank[only_b]))
    order = np.argsort(q, kind="stable")
    q, ra, rb = q[order], ra[order], rb[order]
    n = np.bincount(q, minlength=pair.nq).astype(np.int64)
    start = np.concatenate(([0], np.cumsum(n))).astype(np.int64)
    score = np.zeros(pair.nq)
    pairs_per_query = n * (n - 1) // 2
    # queries in blocks of about _PAIRS_PER_BLOCK pairs: a block's pairs are expanded at once
    ends = np.cumsum(pairs_per_query)
    cut = np.searchsorted(ends, np.arange(_PAIRS_PER_BLOCK, int(ends[-1]) if ends.size else 0,
                                          _PAIRS_PER_BLOCK), side="right")
    bounds = np.unique(np.concatenate(([0], cut, [pair.nq])))
    for lo, hi in itertools.pairwise(bounds):
        rows = np.arange(start[lo], start[hi], dtype=np.int64)
        if rows.size < 2:
            continue
        after = start[q[rows] + 1] - rows - 1          # partners later in the same query
        i = np.repeat(rows, after)
        first = np.concatenate(([0], np.cumsum(after)[:-1])).astype(np.int64)
        j = i + 1 + (np.arange(i.size, dtype=np.int64) - np.repeat(first, after))
        sign = np.sign(ra[i] - ra[j]) * np.sign(rb[i] - rb[j])
        score += np.bincount(q[i], weights=sign.astype(np.float64), minlength=pair.nq)
    # tau-b: the only ties are the documents absent from one ranking (at k + 1)
    tied_a = np.bincount(q[ra == absent], minlength=pair.nq).astype(np.float64)
    tied_b = np.bincount(q[rb == absent], minlength=pair.nq).astype(np.float64)
    n0 = n * (n - 1) / 2.0
    denom = np.sqrt((n0 - tied_a * (tied_a - 1) / 2) * (n0 - tied_b * (tied_b - 1) / 2))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denom > 0, score / denom, math.nan)


register_agreement("Overlap", "documents both top k hold, over k", cutoff_required=True,
                   aliases=("overlap_at_k",))(overlap)
register_agreement("Jaccard", "documents both top k hold over the documents either holds",
                   cutoff_required=True, aliases=("jaccard_at_k",))(jaccard)
register_agreement("KendallTau", "Kendall's tau-b over the union of the two top k, a "
                   "document absent from one top k tied at k + 1 there", cutoff_required=True,
                   aliases=("kendall", "kendall_tau", "tau"))(kendall_tau)
