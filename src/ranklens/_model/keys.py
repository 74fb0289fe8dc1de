"""Ids as numbers: query numbering and the one (query, doc) pair key, :class:`PairKeys`.

A pair key is ``query number * span + doc value``. The doc value is an exact code where a
dictionary of doc ids exists (judgments held as codes, nested dicts' judgments, fusion's
fallback) or the doc id is held as a UInt32 number (the number itself), otherwise the top
bits of a 64-bit doc id hash (polars's, of the ids as held).
:func:`word_hashes` hashes nested dicts' doc ids for their dictionary. Equal pairs have
equal keys, so a hashed key can only over-select: every match is confirmed on the ids (see
:mod:`ranklens._model.matching`). String work then stays proportional to the judgments, not
to the run rows."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._base.lazy import polars as pl

__all__ = ["PairKeys", "block_index", "codes", "index_dtype", "judgment_order", "numbered",
           "sorted_blocks", "stable_order", "word_hashes"]

#: odd 64-bit constants of the word hash (splitmix64's)
_SPLITMIX = np.array([0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB],
                     dtype=np.uint64)


@dataclass(frozen=True)
class PairKeys:
    """The one (query, doc) pair key: ``query number * span + doc value``.

    The doc value is an exact code below ``span`` (:meth:`exact`: keys never collide), or
    the top bits of a 64-bit doc id hash (:meth:`hashed`: a match found on a key is
    confirmed on the ids). Either way the keys sort by query first.

    Examples
    --------
    >>> PairKeys.exact(2, 10).of(np.array([1]), np.array([3])).tolist()
    [13]
    """

    #: how many doc values a query spans (a power of two for hashes)
    span: int
    #: bits a doc hash is shifted right by (None: exact codes)
    drop: int | None
    #: the keys' type: uint32 for exact keys that fit (half the memory, a faster search)
    dtype: type[np.unsignedinteger]

    @classmethod
    def hashed(cls, n_queries: int) -> PairKeys:
        """Keys of doc hashes for query numbers below ``n_queries``: the query number in
        the high bits, the hash's top bits in the others (uint64)."""
        drop = max(int(n_queries - 1).bit_length(), 1)
        return cls(1 << (64 - drop), drop, np.uint64)

    @classmethod
    def numbers(cls) -> PairKeys:
        """Keys of doc ids held as UInt32 numbers: each number is its own exact code."""
        return cls(1 << 32, None, np.uint64)

    @classmethod
    def exact(cls, n_queries: int, n_docs: int) -> PairKeys:
        """Keys of doc codes below ``n_docs`` for query numbers below ``n_queries``."""
        span = max(n_docs, 1)
        return cls(span, None, np.uint32 if max(n_queries, 1) * span <= 2**32 else np.uint64)

    def of(self, query: np.ndarray, doc: np.ndarray) -> np.ndarray:
        """A fresh array of the keys of pairs (``query`` number, ``doc`` code or hash)."""
        keys = np.array(doc, dtype=self.dtype)  # a copy, made keys in place
        self.into(keys, query)
        return keys

    def into(self, keys: np.ndarray, query: np.ndarray) -> None:
        """Turn doc codes or hashes ``keys`` into pair keys in place, a slice at a time (no
        full-length temporary)."""
        step = 1 << 20
        for i in range(0, keys.size, step):
            part, mix = keys[i:i + step], query[i:i + step].astype(keys.dtype)
            if self.drop is None:
                mix *= keys.dtype.type(self.span)
                part += mix
            else:
                part >>= np.uint64(self.drop)
                mix <<= np.uint64(64 - self.drop)
                part |= mix

    def grouped(self, keys: np.ndarray, offsets: np.ndarray) -> None:
        """:meth:`into` for rows grouped by query (``offsets``): no full-length query
        numbers."""
        step = 1 << 20
        for i in range(0, keys.size, step):
            j = min(i + step, keys.size)
            self.into(keys[i:j], codes(offsets, i, j))

    def query_of(self, keys: np.ndarray) -> np.ndarray:
        """The query number of each key."""
        if self.drop is None:
            return keys // keys.dtype.type(self.span)
        return keys >> np.uint64(64 - self.drop)


def word_hashes(words: tuple[np.ndarray, ...]) -> np.ndarray:
    """The 64-bit hash of each doc id given as words (the nested dicts' form,
    :mod:`ranklens._model.dicts`): the words mixed, then splitmix64's finaliser (what
    their dictionary of judged ids is found by)."""
    mix = _SPLITMIX
    out = np.empty(words[0].size, dtype=np.uint64)
    np.multiply(words[0], mix[0], out=out)
    spare = np.empty_like(out)  # one temporary array, reused
    for k, w in enumerate(words[1:], start=1):
        np.multiply(w, mix[1 + k % 2], out=spare)
        out ^= spare
    np.right_shift(out, np.uint64(31), out=spare)
    out ^= spare
    out *= mix[1]
    np.right_shift(out, np.uint64(29), out=spare)
    out ^= spare
    return out


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


def sorted_blocks(block_ids: pl.Series) -> tuple[pl.Series, np.ndarray]:
    """The distinct ids of ``block_ids`` sorted (byte-wise), and each block's index among
    them (int64). Ids each in one block are sorted once, with no lookup."""
    if block_ids.n_unique() < block_ids.len():
        distinct = block_ids.unique().sort()
        return distinct, block_index(block_ids, numbered(distinct))
    order = block_ids.arg_sort().to_numpy()
    code = np.empty(order.size, dtype=np.int64)
    code[order] = np.arange(order.size)
    return block_ids.gather(order), code


def stable_order(groups: np.ndarray) -> np.ndarray:
    """A stable argsort of non-negative integers (NumPy's radix sort when they are below
    2**16, a value sort of the values packed with their rows when both fit in 64 bits)."""
    top = int(groups.max()) if groups.size else 0
    if top < 1 << 16:
        return np.argsort(groups.astype(np.uint16, copy=False), kind="stable")
    shift = groups.size.bit_length()
    if top >= 1 << (64 - shift):
        return np.argsort(groups, kind="stable")
    # each value with its row in the low bits: one value sort, cheaper than an argsort
    packed = groups.astype(np.uint64) << np.uint64(shift)
    packed |= np.arange(groups.size, dtype=np.uint64)
    packed.sort()
    return (packed & np.uint64((1 << shift) - 1)).astype(np.int64)


def judgment_order(code: np.ndarray, grade: np.ndarray) -> np.ndarray:
    """The order of judgments by query number ``code``, then grade descending (stable).

    Whole grades of a small range are one integer key each (:func:`stable_order`, a radix
    or value sort); other grades, a lexsort (polars' multi-column arg sort is slower on
    millions of judgments).
    """
    if grade.size:
        whole = grade.dtype.kind in "iu" or bool((grade == np.round(grade)).all())
        span = int(grade.max()) - int(grade.min()) + 1 if whole else 0
        if 0 < span < 1 << 20:  # one int64 key, made in place (memory)
            key = code.astype(np.int64)
            key *= span
            key += int(grade.max())
            np.subtract(key, grade, out=key, casting="unsafe")  # (whole grades: exact)
            return stable_order(key)
    return np.lexsort((-grade.astype(np.int16) if grade.dtype == np.int8 else -grade, code))
