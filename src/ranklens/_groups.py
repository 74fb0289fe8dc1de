"""Arrays grouped by query: offsets, ranks within a group, and a cheap duplicate test.

Every layer (alignment, the run and qrels indexes, the measure kernels) keeps rows grouped by
ascending query index; these are the few operations they all need on that layout.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import polars as pl
else:  # imported on first use (see ranklens._lazy)
    from ._lazy import polars as pl

__all__ = ["group_at", "group_offsets", "group_ranks", "maybe_duplicated"]


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


def maybe_duplicated(keys: np.ndarray) -> bool:
    """Whether two 64-bit keys are equal: equal pairs, or (rarely) a hash collision."""
    return bool(keys.size) and pl.Series(keys).n_unique() < keys.size
