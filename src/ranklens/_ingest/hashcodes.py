"""Strings numbered through their 64-bit hashes: a direct-mapped table in NumPy.

A qrels file's doc ids are numbered by a dictionary of the distinct ones, and a run's doc
ids are looked up in it. Looking up each string (polars's cast to an Enum) costs ~60-100 ns
a row; a hash join of their 64-bit hashes ~20 ns and leaves polars's allocator holding
freed memory. Here a hash indexes a table of a few times more slots than there are
distinct hashes, with one read (and one more to confirm the whole hash): ~10 ns a row, in
memory the C library hands back. A hash is not the string: callers compare the strings
of the rows found (one gather and one comparison, cheap next to a lookup).
"""

from __future__ import annotations

import numpy as np

from .._base.lazy import polars as pl

__all__ = ["HashCodes", "doc_hashes"]

#: marks a slot no hash has (-1) and one several hashes share (-2)
_EMPTY, _SHARED = -1, -2

_STEP = 1 << 18  # rows looked up at a time: the temporaries stay small


class HashCodes:
    """The code (index) of each of distinct 64-bit ``hashes``, found by hash.

    Examples
    --------
    >>> table = HashCodes(np.array([7, 3, 2**40 + 7], dtype=np.uint64))
    >>> table.find(np.array([3, 5, 2**40 + 7, 7], dtype=np.uint64)).tolist()
    [1, -1, 2, 0]
    """

    def __init__(self, hashes: np.ndarray) -> None:
        hashes = np.ascontiguousarray(hashes, dtype=np.uint64)
        self.hashes = hashes
        # ~8 slots a hash (most slots then hold one: ~6% share theirs), at least 2**12
        # and at most 2**22 (a 16 MB table: past ~500,000 hashes, fewer than 8 slots a hash)
        bits = min(max(12, (max(int(hashes.size), 1) * 8).bit_length()), 22)
        self._mask = np.uint64((1 << bits) - 1)
        slot = (hashes & self._mask).astype(np.intp)
        codes = np.arange(hashes.size, dtype=np.int32 if hashes.size < 2**31 else np.int64)
        table = np.full(1 << bits, _EMPTY, dtype=codes.dtype)
        table[slot] = codes  # of hashes sharing a slot, one is written: the others see it
        shared = np.flatnonzero(table[slot] != codes)
        table[slot[shared]] = _SHARED
        shared = np.flatnonzero(table[slot] == _SHARED)  # the written ones too
        self._table = table
        # the hashes of shared slots, sorted, searched for instead
        order = np.argsort(hashes[shared])
        self._shared = hashes[shared][order]
        self._shared_code = shared[order]

    def find(self, hashes: np.ndarray) -> np.ndarray:
        """The code of each of ``hashes`` (int64), -1 where it is none of the table's."""
        out = np.empty(hashes.size, dtype=np.int64)
        for i in range(0, hashes.size, _STEP):
            out[i:i + _STEP] = self._find(hashes[i:i + _STEP])
        return out

    def _find(self, hashes: np.ndarray) -> np.ndarray:
        code = self._table[(hashes & self._mask).astype(np.intp)].astype(np.int64)
        one = np.flatnonzero(code >= 0)
        # a slot's hash, confirmed whole
        wrong = self.hashes[code[one]] != hashes[one]
        code[one[wrong]] = _EMPTY
        shared = np.flatnonzero(code == _SHARED)
        if shared.size:
            at = np.minimum(np.searchsorted(self._shared, hashes[shared]),
                            self._shared.size - 1)
            hit = self._shared[at] == hashes[shared]
            code[shared] = np.where(hit, self._shared_code[at], _EMPTY)
        return code


def doc_hashes(ids: pl.Series) -> np.ndarray:
    """The 64-bit hash of each of the ids ``ids`` as held, strings or UInt32 numbers
    (``Series.hash(0)``: equal ids have equal hashes in every table of a process)."""
    return ids.hash(0).to_numpy()

