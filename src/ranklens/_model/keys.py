"""Ids as numbers: query numbering and 64-bit (query, doc) pair keys.

Ids are compared through 64-bit hashes first: equal (query, doc) pairs always have equal
keys, so a key test can only over-select; every candidate it finds is re-checked on the
strings themselves (see :mod:`ranklens._model.matching`). This keeps string work
proportional to judgments, not to run rows. Doc ids held as tables are keyed by their
polars hash (:func:`pair_keys`), those read from nested dicts by their UTF-8 words
(:func:`word_pair_keys`); both mix in the query number with the same constant.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import polars as pl
else:  # imported on first use (see ranklens._base.lazy)
    from .._base.lazy import polars as pl

from .._ingest.tables import query_blocks

__all__ = ["block_index", "codes", "index_dtype", "mix_queries", "mix_query_into",
           "numbered", "pair_keys", "query_index", "word_pair_keys"]

#: odd 64-bit constants of the pair keys (the golden ratio's, then splitmix64's two)
_MIX = np.uint64(0x9E3779B97F4A7C15)
_SPLITMIX = np.array([int(_MIX), 0xBF58476D1CE4E5B9, 0x94D049BB133111EB],
                     dtype=np.uint64)


def pair_keys(query_number: np.ndarray, doc_hash: np.ndarray) -> np.ndarray:
    """The 64-bit key of each (query, doc) pair: ``doc_hash ^ query_number * _MIX``.

    Parameters
    ----------
    query_number : np.ndarray
        Each pair's query number (any integer dtype).
    doc_hash : np.ndarray
        Each pair's doc id hash (``Series.hash(0)``, uint64).

    Returns
    -------
    np.ndarray
        A fresh uint64 array of keys.
    """
    keys = np.array(doc_hash, dtype=np.uint64)  # a copy, mixed in place
    mix_query_into(keys, query_number)
    return keys


def word_pair_keys(words: tuple[np.ndarray, ...], query_number: np.ndarray,
                   out: np.ndarray) -> None:
    """The 64-bit key of each (query, doc) pair whose doc id is given as words (the
    nested dicts' form, :mod:`ranklens._model.dicts`) into ``out``: the words and the
    query number mixed, then splitmix64's finaliser. Equal pairs have equal keys; keys
    only select candidates, checked on the words."""
    mix = _SPLITMIX
    np.multiply(words[0], mix[0], out=out)
    spare = query_number.astype(np.uint64)  # one temporary array, reused
    spare *= mix[2]
    out ^= spare
    for k, w in enumerate(words[1:], start=1):
        np.multiply(w, mix[k % 2], out=spare)
        out ^= spare
    np.right_shift(out, np.uint64(31), out=spare)
    out ^= spare
    out *= mix[1]
    np.right_shift(out, np.uint64(29), out=spare)
    out ^= spare


def mix_query_into(keys: np.ndarray, query_number: np.ndarray) -> None:
    """Turn doc hashes ``keys`` into :func:`pair_keys` in place, a slice at a time (no
    full-length temporary)."""
    step = 1 << 20
    for i in range(0, keys.size, step):
        mix = query_number[i:i + step].astype(np.uint64)
        mix *= _MIX  # wraps around mod 2**64, as intended
        keys[i:i + step] ^= mix


def mix_queries(keys: np.ndarray, offsets: np.ndarray) -> None:
    """Mix each row's query number (rows grouped by ``offsets``) into ``keys`` in place
    (:func:`mix_query_into`), a slice at a time: no full-length query numbers."""
    step = 1 << 20
    for i in range(0, keys.size, step):
        j = min(i + step, keys.size)
        mix_query_into(keys[i:j], codes(offsets, i, j))


def index_dtype(n: int) -> type[np.signedinteger]:
    """The narrowest of int32/int64 that indexes ``n`` rows (half the memory, and at this
    scale fresh memory costs as much as the arithmetic)."""
    return np.int32 if n < 2**31 else np.int64


def codes(offsets: np.ndarray, start: int, stop: int) -> np.ndarray:
    """The group number of each row in ``start:stop`` of rows grouped by ``offsets``
    (read-only)."""
    first = int(np.searchsorted(offsets, start, side="right")) - 1
    last = int(np.searchsorted(offsets, stop, side="left"))
    lengths = np.diff(np.clip(offsets[first:last + 1], start, stop))
    dtype = index_dtype(int(offsets[-1]))
    code = np.repeat(np.arange(first, first + lengths.size, dtype=dtype), lengths)
    code.flags.writeable = False
    return code


def numbered(query_ids: list[str] | pl.Series) -> pl.DataFrame:
    """``query_id`` and its position ``qidx`` (the table query ids are looked up in)."""
    return pl.DataFrame(
        {"query_id": query_ids, "qidx": np.arange(len(query_ids), dtype=np.int64)},
        schema={"query_id": pl.String, "qidx": pl.Int64},
    )


#: at most this many ids looked up in at most this many numbered ids: a dict lookup, not
#: a join (cheaper for a few dozen queries; the join wins at thousands)
_FEW_IDS = 1 << 10


def block_index(block_ids: pl.Series, queries: pl.DataFrame) -> np.ndarray:
    """Index in ``queries`` (a :func:`numbered` table) of each id of ``block_ids``, -1
    where absent."""
    if block_ids.len() <= _FEW_IDS and queries.height <= 4 * _FEW_IDS:
        at = dict(zip(queries["query_id"].to_list(), queries["qidx"].to_list(), strict=True))
        return np.fromiter((at.get(q, -1) for q in block_ids.to_list()), dtype=np.int64,
                           count=block_ids.len())
    return (pl.DataFrame({"query_id": block_ids})
            .join(queries, on="query_id", how="left", maintain_order="left")["qidx"]
            .fill_null(-1).to_numpy().astype(np.int64, copy=False))


def query_index(qids: pl.Series, queries: pl.DataFrame,
                new: pl.Series | None = None) -> np.ndarray:
    """Index of each row's query in ``queries`` (-1 where absent; int32 or int64).

    Rows keep each query's rows together, so ids are looked up once per block of equal
    adjacent ids, not once per row. ``new`` marks rows that start a block when the
    reader found them already (a row marked needlessly only splits a block in two).
    """
    block_ids, lengths = query_blocks(qids, new)
    # int32 where it holds the numbers: half the memory of a row-length array
    return np.repeat(block_index(block_ids, queries).astype(index_dtype(queries.height)),
                     lengths)
