"""Exact segmented scans for the trec_eval extras (no float re-association across queries).

A global ``cumsum`` minus per-query prefixes is not bit-exact, and offsetting values to keep
``maximum.accumulate`` inside one query changes their bits; these helpers avoid both.
"""

from __future__ import annotations

import numpy as np

__all__ = ["lround", "reverse_cummax"]


def reverse_cummax(values: np.ndarray, qidx: np.ndarray, nq: int) -> np.ndarray:
    """For each entry, the max of ``values`` at or after it within its query.

    ``values`` are replaced by their dense rank so that a per-query integer offset keeps the
    running max inside one query; mapping back through the sorted uniques is exact.
    """
    if values.size == 0:
        return values.astype(np.float64)
    uniq, inv = np.unique(values, return_inverse=True)
    width = np.int64(len(uniq))
    # Reversed, queries run from last to first; a larger offset for earlier (in reversed
    # order, later) queries means a running max never leaks into the next segment.
    offset = (np.int64(nq) - 1 - qidx.astype(np.int64)) * width
    key = (offset + inv.astype(np.int64))[::-1]
    best = np.maximum.accumulate(key)[::-1]
    return uniq[best - offset]


def lround(x: np.ndarray) -> np.ndarray:
    """C ``lround``: nearest integer, halves away from zero (x >= 0 here), as int64.

    ``floor(x + 0.5)`` is wrong for 0.49999999999999994 (the sum rounds up to 1.0); the
    fractional part of a non-negative double is computed exactly.
    """
    x = np.asarray(x, dtype=np.float64)
    low = np.floor(x)
    return np.where(x - low >= 0.5, low + 1.0, low).astype(np.int64)
