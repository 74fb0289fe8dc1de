"""Ideal rankings over every judgment, with counted relevant items kept as a count.

``evaluate_arrays(n_relevant=[10**8])`` judges 10^8 relevant items by count
(:meth:`~ranklens._model.aligned.Aligned.counted_judgments`). An ideal ranking over every
judgment (uncut nDCG and IdealDCG, nDCGRel, RnDCG, G, Compat) holds them as one run of equal
gains (:class:`IdealList`), and the sums over it are computed a chunk at a time, each chunk's
terms by the same formula as one row per item would get and added in the same sequential
order (``np.cumsum`` from the carry of the chunks before), so the values equal those of the
rows bit for bit while memory stays in proportion to :data:`CHUNK`.

This module holds only shared machinery: it imports no measure module.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .._model.aligned import Aligned

__all__ = ["CHUNK", "IdealList", "ideal_lists", "sequential_prefix"]

#: terms computed at once by the chunked sums (8 MB of float64)
CHUNK = 1 << 20

#: ``term(first, stop)``: the terms of positions ``first`` to ``stop - 1`` (1-based)
Terms = Callable[[int, int], np.ndarray]


def sequential_prefix(terms: Terms, at: np.ndarray, vanishing: bool = False) -> np.ndarray:
    """``S[r]`` for each ``r`` in ``at``: the sum of terms 1 to r added one by one from 0.0
    (``S[0] = 0``), as ``np.concatenate(([0.0], np.cumsum(all_terms)))[at]`` gives it, bit
    for bit, with at most :data:`CHUNK` terms in memory.

    ``vanishing``: once a chunk's terms are all 0.0 every later term is too (``p**i`` for
    p < 1 underflows and stays 0), so the sums stop growing and the scan stops there.
    """
    at = np.asarray(at, dtype=np.int64)
    out = np.zeros(at.size, dtype=np.float64)
    if at.size == 0:
        return out
    order = np.argsort(at, kind="stable")
    wanted = at[order]
    top = int(wanted[-1])
    carry, lo = 0.0, 0
    while lo < top:
        hi = min(lo + CHUNK, top)
        t = np.asarray(terms(lo + 1, hi + 1), dtype=np.float64)
        sums = np.cumsum(np.concatenate(([carry], t)))  # sums[i] = S[lo + i]
        a, b = np.searchsorted(wanted, [lo, hi], side="right")
        out[order[a:b]] = sums[wanted[a:b] - lo]
        carry, lo = float(sums[-1]), hi
        if vanishing and not t.any():
            break
    if lo < top:  # stopped early: every later sum is the last one
        out[order[np.searchsorted(wanted, lo, side="right"):]] = carry
    return out


@dataclass(frozen=True)
class IdealList:
    """One query's positive ideal gains, largest first: ``head`` (larger than ``gain``),
    ``count`` items of gain ``gain`` (counted items and rows of that gain alike: equal
    gains are interchangeable), then ``tail`` (smaller)."""

    head: np.ndarray
    gain: float
    count: int
    tail: np.ndarray

    @property
    def size(self) -> int:
        return self.head.size + self.count + self.tail.size

    def gains(self, lo: int, hi: int) -> np.ndarray:
        """The gains at 0-based positions ``lo`` to ``hi - 1``."""
        h, c = self.head.size, self.count
        parts = [self.head[min(lo, h):min(hi, h)],
                 np.full(max(0, min(hi, h + c) - max(lo, h)), self.gain),
                 self.tail[max(lo - h - c, 0):max(hi - h - c, 0)]]
        return np.concatenate(parts)

    def prefix(self, term: Callable[[np.ndarray, np.ndarray], np.ndarray],
               at: np.ndarray) -> np.ndarray:
        """The running sum of ``term(gain, rank)`` over ranks 1 to r, for each r in ``at``
        (see :func:`sequential_prefix`)."""
        return sequential_prefix(
            lambda first, stop: term(self.gains(first - 1, stop - 1),
                                     np.arange(first, stop, dtype=np.float64)), at)

    def changes(self) -> np.ndarray:
        """The 0-based positions j >= 1 where the gain differs from position j - 1."""
        h, c = self.head.size, self.count
        out = [np.flatnonzero(self.head[1:] != self.head[:-1]) + 1]
        if h and self.size > h:
            out.append(np.array([h]))  # the head is larger than what follows
        if self.tail.size and self.size > self.tail.size:
            out.append(np.array([h + c]))
        out.append(np.flatnonzero(self.tail[1:] != self.tail[:-1]) + 1 + h + c)
        return np.concatenate(out).astype(np.int64)


def ideal_lists(d: Aligned, gains_of: Callable[[np.ndarray], np.ndarray],
                queries: np.ndarray, nonnegative: bool) -> dict[int, IdealList]:
    """The :class:`IdealList` of each query in ``queries``: the positive gains of its rows
    (those judged >= 0 only, if ``nonnegative``) and counted items, largest first.
    ``gains_of(grades)`` is the measure's gain of judged grades."""
    offsets, _, grade = d.judgment_rows()
    counted = d.counted_judgments()
    out: dict[int, IdealList] = {}
    for q in queries.tolist():
        g = grade[offsets[q]:offsets[q + 1]]
        gains = gains_of(g)
        if nonnegative:
            gains = gains[g >= 0]
        gains = np.sort(gains[gains > 0])[::-1]
        gain, count = 0.0, 0
        if counted is not None and counted[1][q] > 0:
            level = np.array([counted[0][q]], dtype=np.float64)
            cg = float(gains_of(level)[0]) if level[0] >= 0 or not nonnegative else 0.0
            if cg > 0:
                gain, count = cg, int(counted[1][q])
        if count == 0:
            out[q] = IdealList(gains, 0.0, 0, np.zeros(0))
            continue
        out[q] = IdealList(gains[gains > gain], gain, count + int((gains == gain).sum()),
                           gains[gains < gain])
    return out
