"""A small set of 64-bit keys that many keys are looked up in.

MS MARCO-sized runs hold a thousand ranked rows per judgment. Searching all of them in the
sorted judgments costs a binary search each; a lookup table indexed by the keys' low bits
(a few hundred times more slots than keys, so it stays cache-sized) rules out nearly every
non-member with one read, and only the few rows that pass are searched for exactly.
"""

from __future__ import annotations

import numpy as np

from .._base.groups import locate

__all__ = ["KeySet"]

_STEP = 1 << 20  # keys screened at a time: the temporaries stay cache-sized


class KeySet:
    """The keys ``keys`` (uint64, repeats allowed), ready for :meth:`find`.

    Examples
    --------
    >>> ks = KeySet(np.array([7, 3, 7], dtype=np.uint64))
    >>> pos, at = ks.find(np.array([1, 3, 7, 9], dtype=np.uint64))
    >>> pos.tolist(), ks.sorted[at].tolist(), ks.repeated
    ([1, 2], [3, 7], True)
    """

    def __init__(self, keys: np.ndarray) -> None:
        self.order = np.argsort(keys)  # (unstable: repeated keys are told apart no further)
        self.sorted = keys[self.order]
        #: whether some key is given more than once (then ``order[at]`` is one of them)
        self.repeated = bool((self.sorted[1:] == self.sorted[:-1]).any())
        # ~100 slots a key (1% false candidates), but at most 1 MiB: it must stay in cache
        bits = min(max(int(keys.size).bit_length() + 7, 16), 20)
        # signed: masked keys are then indices as they are (no conversion pass)
        self._mask = np.int64((1 << bits) - 1)
        self._table = np.zeros(1 << bits, dtype=bool)
        self._table[keys.view(np.int64) & self._mask] = True

    def find(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The positions (ascending) of the members among ``keys``, and for each the index
        into :attr:`sorted` of its first equal key."""
        if self.sorted.size == 0:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty
        table, mask, signed = self._table, self._mask, keys.view(np.int64)
        cand = np.concatenate([
            np.flatnonzero(np.take(table, signed[i:i + _STEP] & mask)) + i
            for i in range(0, keys.size, _STEP)
        ] or [np.zeros(0, dtype=np.int64)])
        at, hit = locate(self.sorted, keys[cand])
        return cand[hit], at[hit]
