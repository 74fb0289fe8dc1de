"""Orders within queries: ranklens's (score descending, ties by doc id descending, as
trec_eval and ``evaluate`` read a run) and ranx's (numba's quicksort of the negated scores,
started from the order the documents arrived in).

numba's quicksort, which ranx's ``Run.sort`` runs through ``np.argsort`` when it is compiled,
sorts a stretch of up to 15 items by insertion (stable) and partitions longer stretches
around a median of three (unstable). So a query's tied documents keep their arrival order
when the query has at most 15 of them or no tie at all; only a longer query with a tie needs
the partitioning replayed, which :func:`quicksort_argsort` does (a plain re-implementation of
the algorithm, run on those queries alone).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from ..._model.ranking import full_src, rank_rows

__all__ = ["SMALL", "group_positions", "quicksort_argsort", "ranked", "starts_of"]

#: The longest stretch numba's quicksort sorts by insertion.
SMALL = 15


def starts_of(query: np.ndarray) -> np.ndarray:
    """Offsets of the blocks of equal adjacent values of ``query`` (sorted), with the end."""
    new = np.flatnonzero(np.diff(query)) + 1
    return np.concatenate(([0], new, [query.size])).astype(np.int64)


def group_positions(query_sorted: np.ndarray) -> np.ndarray:
    """0-based position of each row within its block of equal ``query_sorted`` values."""
    starts = starts_of(query_sorted)
    sizes = np.diff(starts)
    return np.arange(query_sorted.size, dtype=np.int64) - np.repeat(starts[:-1], sizes)


def quicksort_argsort(keys: np.ndarray) -> np.ndarray:
    """The permutation numba's ``np.argsort`` (its quicksort) gives for ``keys``.

    Insertion sort for stretches of at most :data:`SMALL` + 1 items; longer ones are split
    around the median of their first, middle and last item, the larger part kept on a stack.

    Examples
    --------
    >>> quicksort_argsort(np.array([2.0, 1.0, 2.0])).tolist()
    [1, 0, 2]
    """
    a = [float(x) for x in keys]
    r = list(range(len(a)))
    if len(a) < 2:
        return np.asarray(r, dtype=np.int64)
    stack = [(0, len(a) - 1)]
    while stack:
        low, high = stack.pop()
        while high - low >= SMALL:
            i = _partition(a, r, low, high)
            if high - i > i - low:
                if high > i:
                    stack.append((i + 1, high))
                high = i - 1
            else:
                if i > low:
                    stack.append((low, i - 1))
                low = i + 1
        _insertion(a, r, low, high)
    return np.asarray(r, dtype=np.int64)


def _insertion(a: list[float], r: list[int], low: int, high: int) -> None:
    for i in range(low + 1, high + 1):
        k = r[i]
        v = a[k]
        j = i
        while j > low and v < a[r[j - 1]]:
            r[j] = r[j - 1]
            j -= 1
        r[j] = k


def _partition(a: list[float], r: list[int], low: int, high: int) -> int:
    mid = (low + high) >> 1
    # median of three moved to the middle, then parked at the end
    if a[r[mid]] < a[r[low]]:
        r[low], r[mid] = r[mid], r[low]
    if a[r[high]] < a[r[mid]]:
        r[high], r[mid] = r[mid], r[high]
    if a[r[mid]] < a[r[low]]:
        r[low], r[mid] = r[mid], r[low]
    pivot = a[r[mid]]
    r[high], r[mid] = r[mid], r[high]
    i, j = low, high - 1
    while True:
        while i < high and a[r[i]] < pivot:
            i += 1
        while j >= low and pivot < a[r[j]]:
            j -= 1
        if i >= j:
            break
        r[i], r[j] = r[j], r[i]
        i += 1
        j -= 1
    r[i], r[high] = r[high], r[i]
    return i


def ranked(query: np.ndarray, score: np.ndarray, *, ranx: bool,
           docs: pl.Series | None = None, arrival: np.ndarray | None = None) -> np.ndarray:
    """The rows in ranked order: by query, score descending, then ties.

    ranklens: ties by doc id descending (``docs``: each row's doc id; only the tied rows'
    ids are compared). ranx: ties in ``arrival`` order (default: the rows' order), and a
    query of more than :data:`SMALL` rows with a tie is re-sorted by
    :func:`quicksort_argsort` from its arrival order. Rows already grouped by query with
    non-increasing scores (and arriving in row order) are not sorted again.
    """
    if query.size == 0:
        return np.empty(0, dtype=np.int64)
    if not ranx and docs is None:
        raise ValueError("ranklens's order of ties needs the doc ids")
    key = arrival if arrival is not None else np.arange(query.size, dtype=np.int64)
    # the one ranker of every run (:func:`~ranklens._model.ranking.rank_rows`), each block
    # of equal adjacent ``query`` values handed over as a block
    starts = starts_of(query)
    tiebreak = docs.gather if docs is not None and not ranx else (
        lambda rows: pl.Series(key[rows]))
    _, moves = rank_rows(query[starts[:-1]], np.diff(starts), int(query.max()) + 1, score,
                         tiebreak, not ranx)
    order = full_src(query.size, moves).astype(np.int64)
    if not ranx:
        return order
    q, s = query[order], score[order]
    starts = starts_of(q)
    sizes = np.diff(starts)
    tie = np.zeros(q.size, dtype=bool)
    tie[1:] = (q[1:] == q[:-1]) & (s[1:] == s[:-1])
    has_tie = np.add.reduceat(tie.astype(np.int64), starts[:-1]) > 0
    tied_blocks = np.flatnonzero(has_tie & (sizes > SMALL))
    for b in tied_blocks:  # only long queries with a tie: numba's partitioning replayed
        lo, hi = starts[b], starts[b + 1]
        rows = order[lo:hi]
        in_arrival = rows[np.argsort(key[rows], kind="stable")]
        order[lo:hi] = in_arrival[quicksort_argsort(-score[in_arrival])]
    return order
