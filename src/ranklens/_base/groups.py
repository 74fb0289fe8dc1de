"""Arrays grouped by query: offsets, ranks within a group, and a cheap duplicate test.

Every layer (alignment, the run and qrels indexes, the measure kernels) keeps rows grouped by
ascending query index; these are the few operations they all need on that layout.
"""

from __future__ import annotations

import numpy as np

from .lazy import polars as pl

__all__ = ["group_at", "group_offsets", "group_ranks", "locate", "maybe_duplicated", "ranges",
           "steps_within"]


def group_offsets(qidx: np.ndarray, n: int) -> np.ndarray:
    """``offsets[q]:offsets[q+1]`` is group q's slice of rows grouped by ascending ``qidx``."""
    counts = np.bincount(qidx, minlength=n)
    return np.concatenate(([0], np.cumsum(counts))).astype(np.int64)


def group_at(offsets: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """The group of the rows at positions ``pos`` (rows grouped as ``offsets`` says)."""
    return np.searchsorted(offsets, pos, side="right") - 1


def group_ranks(qidx: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """1-based position of each row within its group (rows grouped by ascending ``qidx``)."""
    rank = np.arange(1, qidx.size + 1, dtype=np.int64)
    rank -= offsets[:-1][qidx]
    return rank


def ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The concatenation of ``arange(s, s + n)`` for each start ``s`` and length ``n``."""
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    ends = np.cumsum(lengths)
    shift = np.repeat(starts - (ends - lengths), lengths)
    return np.arange(total, dtype=np.int64) + shift


def maybe_duplicated(keys: np.ndarray) -> bool:
    """Whether two 64-bit keys are equal: equal pairs, or (rarely) a hash collision."""
    return bool(keys.size) and pl.Series(keys).n_unique() < keys.size


def locate(sorted_values: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each of ``values`` is in ``sorted_values`` (ascending, non-empty): the index of
    its first equal entry (or of a neighbour), and whether it is there at all."""
    at = np.minimum(np.searchsorted(sorted_values, values), sorted_values.size - 1)
    return at, sorted_values[at] == values


def steps_within(values: np.ndarray, ends: np.ndarray, what: str) -> np.ndarray:
    """The positions i (ascending) where rows i and i+1 are in one group (groups of rows
    end at ``ends``) and ``values[i+1]`` rises above ``values[i]`` (or either is NaN),
    ``what="rise"``, or equals it, ``what="tie"``.

    Rises and ties are few, so neighbours are compared a slice at a time and only the
    positions found are kept: no full-length temporaries.
    """
    step = 1 << 20
    found = [np.zeros(0, dtype=np.int64)]
    crossing = ends[:-1] - 1  # the last row of every group but the last
    for i in range(0, values.size - 1, step):
        j = min(i + step, values.size - 1)
        if what == "rise":  # "not less or equal" also catches NaN
            hit = np.less_equal(values[i + 1:j + 1], values[i:j])
            np.logical_not(hit, out=hit)
        else:  # NumPy treats -0.0 and 0.0 as equal (a tie, as in trec_eval)
            hit = np.equal(values[i + 1:j + 1], values[i:j])
        # a step from a group's last row to the next group's first is none (cleared in
        # place: cheaper than a set difference of the positions found)
        hit[crossing[(crossing >= i) & (crossing < j)] - i] = False
        found.append(np.flatnonzero(hit) + i)
    return np.concatenate(found)
