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

import math

import numpy as np

from .measures import Chosen, register_agreement
from .rankings import Pairing, ranks

__all__ = ["jaccard", "kendall_tau", "overlap"]

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


def _inversions(seg: np.ndarray, values: np.ndarray, nq: int) -> np.ndarray:
    """Per segment, the pairs i < j (in the rows' order) with ``values[i] > values[j]``.

    Rows are grouped by ascending ``seg``; ``values`` are distinct integers >= 0 within a
    segment. A bottom-up merge sort run on every segment at once: at each width w, the
    rows of each right block count the rows of their left block above them (one
    ``searchsorted`` over all blocks), then each pair of blocks is merged by one sort.
    """
    out = np.zeros(nq)
    n = values.size
    if n < 2:
        return out
    length, pos = ranks(seg, nq)
    pos -= 1
    big = int(values.max()) + 1
    cur = values.astype(np.int64)
    longest = int(length.max())
    width = 1
    while width < longest:
        block = pos // width
        pair = seg.astype(np.int64) * (longest // (2 * width) + 1) + block // 2
        right = (block % 2) == 1
        key = pair * big + cur
        left_keys = key[~right]               # ascending: sorted blocks, pairs in order
        ends = np.searchsorted(left_keys, (pair[right] + 1) * big, side="left")
        at_or_below = np.searchsorted(left_keys, key[right], side="right")
        out += np.bincount(seg[right], weights=(ends - at_or_below).astype(np.float64),
                           minlength=nq)
        cur = cur[np.argsort(key, kind="stable")]   # rows stay within their pair
        width *= 2
    return out


def kendall_tau(pair: Pairing, m: Chosen) -> np.ndarray:
    assert m.cutoff is not None
    a, b = pair.a, pair.b
    nq = pair.nq
    # three kinds of documents: in both top k (M), in a's only (A), in b's only (B); a
    # document absent from a top k is tied there at k + 1 with the others absent from it
    in_both = a.other >= 0
    only_a = np.bincount(a.qidx[~in_both], minlength=nq).astype(np.float64)
    only_b = np.bincount(b.qidx[b.other < 0], minlength=nq).astype(np.float64)
    both = np.bincount(a.qidx[in_both], minlength=nq).astype(np.float64)
    # M x M: concordant minus discordant, the discordant being the inversions of b's ranks
    # read in a's order
    discordant = _inversions(a.qidx[in_both], b.rank[a.other[in_both]], nq)
    score = both * (both - 1) / 2 - 2 * discordant
    # M x A: b ranks the M document above (k + 1), so the pair is concordant when a does
    # too: +1 for each A document below it in a, -1 for each above
    score -= _signed_before(a.qidx, ~in_both, in_both, a.length, only_a, nq)
    score -= _signed_before(b.qidx, b.other < 0, b.other >= 0, b.length, only_b, nq)
    # A x B: a ranks the A document above, b the B document: discordant
    score -= only_a * only_b
    n = both + only_a + only_b
    n0 = n * (n - 1) / 2
    denom = np.sqrt((n0 - only_b * (only_b - 1) / 2) * (n0 - only_a * (only_a - 1) / 2))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denom > 0, score / denom, math.nan)


def _signed_before(qidx: np.ndarray, absent: np.ndarray, shared: np.ndarray,
                   length: np.ndarray, n_absent: np.ndarray, nq: int) -> np.ndarray:
    """Per query, the sum over the shared rows of (absent rows above it) - (absent rows
    below it), rows in ranked order."""
    flags = absent.astype(np.int64)
    before = np.cumsum(flags) - flags
    first = np.concatenate(([0], np.cumsum(length)[:-1])).astype(np.int64)
    base = np.concatenate((before, [0]))[np.minimum(first, before.size)] if before.size \
        else np.zeros(nq, dtype=np.int64)
    before = before - base[qidx]
    term = 2 * before[shared] - n_absent[qidx[shared]]
    return np.bincount(qidx[shared], weights=term.astype(np.float64), minlength=nq)


register_agreement("Overlap", "documents both top k hold, over k", cutoff_required=True,
                   aliases=("overlap_at_k",))(overlap)
register_agreement("Jaccard", "documents both top k hold over the documents either holds",
                   cutoff_required=True, aliases=("jaccard_at_k",))(jaccard)
register_agreement("KendallTau", "Kendall's tau-b over the union of the two top k, a "
                   "document absent from one top k tied at k + 1 there", cutoff_required=True,
                   aliases=("kendall", "kendall_tau", "tau"))(kendall_tau)
