"""A TREC qrels file's doc ids as codes: one dictionary of the distinct ones, each block's
doc ids looked up in it as it is read (:class:`Dictionary`), and the judgments held as
:class:`~ranklens._ingest.tables.CodedJudgments` (:func:`coded_table`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...._base.lazy import polars as pl
from ...._base.tuning import CODED_ROWS, CODED_SHARE, HOPELESS_SHARE
from ...hashcodes import HashCodes, doc_hashes
from ...tables import CodedJudgments, Qrels, extend_blocks, per_row, query_blocks

__all__ = ["CODED_ROWS", "CODED_SHARE", "HOPELESS_SHARE", "CodedPart", "Collision",
           "Dictionary", "coded_table"]

class Collision(Exception):
    """Two distinct doc ids of a qrels file share a 64-bit hash (see :class:`Dictionary`)."""


class Dictionary:
    """The distinct doc ids of a qrels file read block by block, in order of first
    appearance, and each block's doc ids as codes into them.

    A block's ids are looked up in the ids seen so far and only the ones not found are
    added: TREC qrels judge the same documents again and again, so most blocks add few or
    none. The lookup is by
    the ids' 64-bit hashes (:class:`~ranklens._ingest.hashcodes.HashCodes`: tables of the ids
    added, each twice the size of the next at most, merged as they grow, so each id is
    put in a table a few times at most), and every row's id is then compared with its
    code's: two ids sharing a hash raise :class:`Collision`, and the file is read again
    with ``exact`` lookups of the strings (a cast to the Enum of the ids seen so far,
    several times slower).

    The tables grow in levels because a :class:`HashCodes` is built once for a fixed set
    of hashes: one rebuilt for every block would cost the blocks times the distinct ids.
    """

    def __init__(self, exact: bool = False) -> None:
        self.exact = exact
        self.parts: list[pl.Series] = []
        self.size = 0
        self.enum: pl.Enum | None = None  # exact: the ids seen so far
        #: hashed: tables of the ids' hashes and the code of each table's first
        self.tables: list[tuple[HashCodes, int]] = []

    @property
    def ids(self) -> pl.Series:
        """The distinct ids, code by code."""
        return pl.concat(self.parts, rechunk=False).alias("doc_id") if self.parts \
            else pl.Series("doc_id", [], dtype=pl.String)

    def codes(self, doc: pl.Series) -> np.ndarray:
        """The code of each of ``doc`` (uint32), adding the ids not seen before."""
        if self.exact:
            return self._exact(doc)
        h = doc_hashes(doc)
        codes = self._lookup(h)
        absent = codes < 0
        if absent.any():
            rest = h[absent]
            new, first, inverse = np.unique(rest, return_index=True, return_inverse=True)
            # numbered in order of first appearance
            order = np.argsort(first)
            number = np.empty(order.size, dtype=np.int64)
            number[order] = np.arange(order.size)
            new, first = new[order], first[order]
            codes[absent] = number[inverse.reshape(-1)] + self.size
            self._insert(new)
            self._add(doc.filter(pl.Series(absent)).gather(first))
        out = codes.astype(np.uint32)
        # every row's id is its code's id (else two ids share a hash)
        if not bool((self.ids.gather(out) == doc).all()):
            raise Collision
        return out

    def _lookup(self, h: np.ndarray) -> np.ndarray:
        codes = np.full(h.size, -1, dtype=np.int64)
        todo: np.ndarray | None = None  # the rows not found yet (None: all)
        for table, first in self.tables:  # the largest first
            found = table.find(h if todo is None else h[todo])
            hit = found >= 0
            if todo is None:
                codes[hit] = found[hit] + first
                todo = np.flatnonzero(~hit)
            else:
                codes[todo[hit]] = found[hit] + first
                todo = todo[~hit]
            if not todo.size:
                break
        return codes

    def _insert(self, new: np.ndarray) -> None:
        tables = self.tables
        tables.append((HashCodes(new), self.size))
        # adjacent code ranges merged while the last is at least half the one before
        while len(tables) > 1 and tables[-2][0].hashes.size <= 2 * tables[-1][0].hashes.size:
            (a, first), (b, _) = tables[-2], tables[-1]
            tables[-2:] = [(HashCodes(np.concatenate((a.hashes, b.hashes))), first)]

    def _exact(self, doc: pl.Series) -> np.ndarray:
        missing: np.ndarray | None = None
        if self.enum is not None:
            found = doc.cast(self.enum, strict=False).to_physical()
            absent = found.is_null()
            if not absent.any():
                return found.to_numpy().astype(np.uint32)
            codes = found.fill_null(0).to_numpy().astype(np.uint32)
            missing = absent.to_numpy()
            doc = doc.filter(absent)
        else:
            codes = np.empty(doc.len(), dtype=np.uint32)
        new = doc.unique(maintain_order=True)
        added = doc.cast(pl.Enum(new)).to_physical().to_numpy().astype(np.uint32)
        added += np.uint32(self.size)
        if missing is None:
            codes[:] = added
        else:
            codes[missing] = added
        self._add(new)
        self.enum = pl.Enum(self.ids)
        return codes

    def _add(self, new: pl.Series) -> None:
        self.parts.append(new)
        self.size += new.len()


@dataclass
class CodedPart:
    """One parsed block of judgments with its ids as codes: each block of adjacent rows'
    query id once, and each doc id as a code of the file's :class:`Dictionary`."""

    block_ids: pl.Series
    block_lengths: np.ndarray
    doc_code: np.ndarray
    relevance: np.ndarray
    dictionary: Dictionary  # the file's (every part holds the same)

    def frame(self) -> pl.DataFrame:
        """The block as :func:`~.tokens.scan_qrels` parsed it (its ids as strings again)."""
        new = np.zeros(self.doc_code.size, dtype=bool)
        new[np.cumsum(self.block_lengths) - self.block_lengths] = True
        return pl.DataFrame({
            "query_id": per_row(self.block_ids, self.block_lengths),
            "doc_id": self.dictionary.ids.gather(self.doc_code),
            "relevance": self.relevance.astype(np.float64, copy=False), "new": new})

    @classmethod
    def of(cls, typed: pl.DataFrame, dictionary: Dictionary) -> CodedPart:
        heads, lengths = query_blocks(typed["query_id"], typed["new"])
        return cls(heads, lengths, dictionary.codes(typed["doc_id"]),
                   _compact(typed["relevance"].to_numpy()), dictionary)


def _compact(grades: np.ndarray) -> np.ndarray:
    """Integer grades (the typed pass parses them so) as int8 when every one fits (one
    byte each instead of eight), else as they are; exact as
    float64 either way."""
    if not grades.size or (grades.min() >= -128 and grades.max() <= 127):
        return grades.astype(np.int8)
    return grades


#: the most distinct doc ids sorted (a sort of strings is dear past it)
_SORTED_IDS = 1 << 18


def coded_table(parts: list[CodedPart], source: str) -> Qrels:
    """The qrels of blocks of judgments held as codes (:class:`CodedJudgments`); a query
    continued across blocks stays one block of rows.

    Up to :data:`_SORTED_IDS` distinct doc ids are sorted byte-wise (trec_eval's
    ``strcmp`` order) and the codes renumbered: a file sorted by query and doc id (as
    TREC qrels are) then gives its (query, doc code) pairs in order, and the judgment
    index need not sort them."""
    dictionary = parts[0].dictionary.ids.rechunk()
    recode: np.ndarray | None = None
    if dictionary.len() <= _SORTED_IDS:
        order = dictionary.arg_sort().to_numpy()
        recode = np.empty(order.size, dtype=np.uint32)
        recode[order] = np.arange(order.size, dtype=np.uint32)
        dictionary = dictionary.gather(order)
    heads: list[pl.Series] = []
    lengths: list[np.ndarray] = []
    for part in parts:
        extend_blocks(heads, lengths, part.block_ids, part.block_lengths)
    n = sum(p.doc_code.size for p in parts)
    doc_code = np.empty(n, dtype=np.uint32)
    # (see _compact)
    small = all(p.relevance.dtype == np.int8 for p in parts)
    relevance = np.empty(n, dtype=np.int8 if small else np.float64)
    at = 0
    parts.reverse()
    while parts:  # each block's arrays freed once copied
        part = parts.pop()
        end = at + part.doc_code.size
        if recode is None:
            doc_code[at:end] = part.doc_code
        else:
            np.take(recode, part.doc_code, out=doc_code[at:end])
        relevance[at:end] = part.relevance
        at = end
        del part
    coded = CodedJudgments(pl.concat(heads).alias("query_id"),
                           np.concatenate(lengths).astype(np.int64, copy=False),
                           doc_code, dictionary, relevance)
    return Qrels.from_codes(coded, source)
