"""TREC qrels (``qid iter docno rel``) and run (``qid iter docno rank sim tag``) readers.

The fast path hands single-separator files to polars' multi-threaded CSV reader. Anything
it cannot take cleanly (runs of blanks, ragged lines, bad numbers) is re-read by a plain
line parser, which either copes (irregular white space) or reports the exact file, line,
expectation and finding. Both paths give identical tables.
"""

from __future__ import annotations

import bz2
import contextlib
import functools
import gzip
import io
import itertools
import lzma
import math
import os
import sys
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from ..._base.tuning import CODED_ROWS as _CODED_ROWS
from ..._base.tuning import CODED_SHARE as _CODED_SHARE

if TYPE_CHECKING:
    import polars as pl
else:  # imported on first use (see ranklens._base.lazy)
    from ..._base.lazy import polars as pl

from ..._base.errors import InputError
from ..._base.threads import ahead, jobs
from ..columns import MAX_GRADE
from ..hashcodes import HashCodes, doc_hashes
from ..tables import CodedJudgments, Qrels, Run, query_blocks
from ._lines import data_lines, strict_float, strict_int, without_bom
from ._small import read_small_qrels, read_small_run, small_file

_BOM = b"\xef\xbb\xbf"

__all__ = ["read_bytes", "read_trec_qrels", "read_trec_run"]

_MAGIC = (
    (b"\x1f\x8b", gzip.decompress),
    (b"BZh", bz2.decompress),
    (b"\xfd7zXZ\x00", lzma.decompress),
)
# "BZh" is also how a text file may start (a query id "BZh1"): bzip2 data is told apart by
# the block size digit and the magic of its first block (pi) or of an empty stream (sqrt pi)
_BZ2_BLOCKS = (b"1AY&SY", b"\x17rE8P\x90")
_DIGITS = b"123456789"

# compared as an integer: 2**53 + 1 is equal to float(2**53) after the cast polars makes
_MAX_INT_GRADE = int(MAX_GRADE)


def _beyond_max_grade(rel: pl.Series) -> bool:
    """Whether an integer grade is beyond 2**53 in magnitude (compared as integers: no
    absolute value, which int64's least value does not have)."""
    return bool(((rel > _MAX_INT_GRADE) | (rel < -_MAX_INT_GRADE)).any())


_QRELS_HINTS = {6: "this looks like a run line: are QRELS and RUN given in the wrong order?"}
_RUN_HINTS = {4: "this looks like a qrels line: are QRELS and RUN given in the wrong order?"}


def _decompressor(data: bytes) -> Callable[[bytes], bytes] | None:
    """How to undo the compression ``data`` starts with, or None for plain data."""
    for magic, decompress in _MAGIC:
        if data.startswith(magic):
            if magic == b"BZh" and not (data[3:4] and data[3] in _DIGITS
                                        and data[4:10] in _BZ2_BLOCKS):
                continue
            return decompress
    return None


def _line_ends(data: bytes) -> bytes:
    """``data`` with classic Mac line ends (``\\r`` only, no ``\\n`` anywhere) turned into
    ``\\n``: read as they are, the whole file would be one line."""
    if b"\r" in data and b"\n" not in data:
        return data.replace(b"\r", b"\n")
    return data


def read_bytes(path: str | Path) -> bytes:
    """Read a whole file (``-`` = standard input), undoing gzip, bz2 or xz compression; a
    byte order mark is dropped and classic Mac line ends (``\\r`` only) become ``\\n``."""
    name = str(path)
    if name == "-":
        data = sys.stdin.buffer.read()
    else:
        p = Path(path)
        if not p.exists():
            raise InputError("no such file", source=name)
        if p.is_dir():
            raise InputError("is a directory, expected a file", source=name)
        try:
            data = p.read_bytes()
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror}", source=name) from exc
    decompress = _decompressor(data)
    if decompress is not None:
        try:
            data = decompress(data)
        except (OSError, EOFError, lzma.LZMAError, ValueError) as exc:
            raise InputError(f"corrupt compressed data ({exc})", source=name) from exc
    return _line_ends(without_bom(data))


def _check_text(data: bytes, source: str) -> None:
    # the head first: stripping a whole 200 MB file copies it
    if not data[:65536].strip() and not data.strip():
        raise InputError("file is empty, expected at least one line", source=source)
    if b"\x00" in data[:65536]:
        raise InputError("binary data (NUL bytes), expected a text file", source=source)


def _separator(data: bytes) -> bytes | None:
    """The single-byte separator polars can use, or None when the file needs the slow path."""
    for raw in data[:65536].splitlines()[:50]:
        line = raw.strip()
        if not line or line.startswith(b"#"):
            continue
        if b"\t" in raw and b" " not in raw:
            return b"\t"
        if b" " in raw and b"\t" not in raw:
            return b" "
        return None
    return None


def _foreign_blanks(data: bytes, sep: bytes) -> bool:
    """Whether ``data`` holds a field separator other than ``sep`` (a tab in a space-separated
    file, ...): trec_eval splits there too, so only the line parser reads it right."""
    if any(b in data for b in (b"\t", b" ", b"\x0b", b"\x0c") if b != sep):
        return True
    # a carriage return anywhere but before a line end is a blank to trec_eval, while
    # polars would keep it in a field (a stray "\\r" before the first line)
    return b"\r" in data and data.count(b"\r") != data.count(b"\r\n")


def _fast_frame(data: bytes, names: list[str], sep: bytes, *,
                ragged: bool = False) -> pl.DataFrame | None:
    """``data`` as string columns ``names`` by polars' reader, or None when a line needs the
    line parser (a foreign blank, a missing or empty field, any polars complaint).
    ``ragged``: lines may carry extra trailing fields, which are dropped."""
    if _foreign_blanks(data, sep):
        return None
    try:
        df = pl.read_csv(
            io.BytesIO(data),
            has_header=False,
            separator=sep.decode(),
            comment_prefix="#",
            quote_char=None,
            columns=list(range(len(names))) if ragged else None,
            new_columns=names,
            infer_schema=False,
            truncate_ragged_lines=ragged,
        )
    except Exception:  # any polars complaint: let the line parser explain it
        return None
    if df.width != len(names) or df.null_count().sum_horizontal().item() != 0:
        return None
    if df.height and (df.select(pl.any_horizontal(pl.col(n).str.len_bytes() == 0 for n in names))
                      .to_series().any()):
        return None
    return df


_N = TypeVar("_N", int, float)


def _number(parse: Callable[[str], _N], field: str, expected: str, source: str,
            lineno: int) -> _N:
    """``parse(field)``, or the line's error: ``expected`` (an integer relevance, ...) and
    the field found."""
    try:
        return parse(field)
    except ValueError:
        raise InputError(f"expected {expected}, got {field!r}", source=source,
                         line=lineno) from None


def _slow_qrels(data: bytes, source: str) -> dict[str, list]:
    qids: list[str] = []
    dids: list[str] = []
    rels: list[float] = []
    for lineno, fields in data_lines(data, source, 4, "query iter doc relevance",
                                     _QRELS_HINTS):
        rel = _number(strict_int, fields[3], "an integer relevance", source, lineno)
        if abs(rel) > MAX_GRADE:
            raise InputError(f"expected a relevance grade between -2**53 and 2**53, got "
                             f"{_shortened(fields[3])}", source=source, line=lineno)
        qids.append(fields[0])
        dids.append(fields[2])
        rels.append(float(rel))
    return {"query_id": qids, "doc_id": dids, "relevance": rels}


def _slow_run(data: bytes, source: str) -> tuple[dict[str, list], str]:
    qids: list[str] = []
    dids: list[str] = []
    scores: list[float] = []
    ranks: list[int] = []
    tag = ""
    for lineno, fields in data_lines(data, source, (6, None),
                                     "query iter doc rank score tag", _RUN_HINTS):
        score = _number(strict_float, fields[4], "a numeric score", source, lineno)
        if math.isnan(score):
            raise InputError("expected a numeric score, got NaN", source=source, line=lineno)
        try:
            rank = strict_int(fields[3])
        except ValueError:
            rank = 0  # the rank column is ignored unless ties are broken by input order
        if not -(2**63) <= rank < 2**63:
            rank = 0  # beyond int64 (and ignored all the same)
        qids.append(fields[0])
        dids.append(fields[2])
        scores.append(score)
        ranks.append(rank)
        tag = fields[5]
    return {"query_id": qids, "doc_id": dids, "score": scores, "rank": ranks}, tag


def _shortened(text: str, most: int = 40) -> str:
    """``text`` for an error message: a 400-digit number is cut, with its length said."""
    return text if len(text) <= most else f"{text[:most]}... ({len(text)} characters)"


def _no_rows(source: str, what: str) -> InputError:
    return InputError(f"no {what} lines found (only comments or blank lines)", source=source)


def _typed_qrels(data: bytes, sep: bytes) -> pl.DataFrame | None:
    """The judgments in one typed pass of polars' reader: the iter column is checked but
    never kept and the grades are parsed as integers, so the only string columns are the
    two ids. None when a line does not parse cleanly (the general path then decides)."""
    if _foreign_blanks(data, sep):
        return None
    schema = {"query_id": pl.String, "iter": pl.String, "doc_id": pl.String,
              "relevance": pl.Int64}
    # an empty field (two separators in a row, one at a line's start) either adds a field
    # (a polars error) or leaves an empty id: both are sent to the general path
    empty = pl.any_horizontal(pl.col(c).str.len_bytes() == 0
                              for c in ("query_id", "iter", "doc_id"))
    qid = pl.col("query_id")
    try:
        df = (pl.scan_csv(data, has_header=False, separator=sep.decode(), quote_char=None,
                          comment_prefix="#" if b"#" in data else None, schema=schema)
              .select("query_id", "doc_id", "relevance", empty.alias("empty"),
                      # where a block of rows with one query id starts, found by the
                      # parser's threads (the judgment index groups rows by it)
                      (qid != qid.shift(1)).fill_null(True).alias("new"))
              .collect())
    except Exception:  # any polars complaint: let the general path explain it
        return None
    # a line short of a field leaves a null (a blank line, a row of them)
    if df.null_count().sum_horizontal().item() != 0 or df["empty"].any():
        return None
    rel = df["relevance"]
    if _beyond_max_grade(rel):
        return None
    return df.select("query_id", "doc_id", rel.cast(pl.Float64), "new")


def _typed_blocks(blocks: Iterator[bytes], exact: bool = False,
                  one: bool = False) -> list[_CodedPart] | pl.DataFrame | None:
    """:func:`_typed_qrels` of a file given in blocks of whole lines (so the whole text
    never sits in memory next to its columns); None if some block needs the general path.

    Each block's ids are turned into codes at once (:class:`_CodedPart`) while the distinct
    doc ids stay at most :data:`_CODED_SHARE` of the judgments read: then codes hold them
    in less memory than strings. Past it (every judgment of its
    own document: a recommender's qrels) the blocks are kept as they are parsed and a frame
    is given instead. ``exact``: see :class:`_Dictionary`; ``one``: the file is one block
    (decided before any code is made)."""
    parts: list[_CodedPart] = []
    frames: list[pl.DataFrame] = []
    seps: list[bytes | None] = []  # the first block's separator

    def parsed(block: bytes) -> pl.DataFrame | None:
        if not seps:
            seps.append(_separator(block))
        return _typed_qrels(block, seps[0]) if seps[0] else None

    dictionary = _Dictionary(exact)
    rows = 0
    coding: bool | None = None  # whether to hold codes (None: not decided yet)
    # under an evaluation's jobs > 1 the next block is parsed on a second thread while
    # this one's ids are coded (ranklens._base.threads)
    with contextlib.closing(ahead(blocks, parsed)) as it:
        for i, (block, part) in enumerate(it):
            del block
            if part is None:
                return None
            if not part.height:
                continue
            rows += part.height
            if coding is None and not i and (one or rows >= _CODED_ROWS):
                # almost every doc id of the first block its own (of a file of one block:
                # most of them): not coded
                most = _CODED_SHARE if one else _HOPELESS_SHARE
                if pl.Series(doc_hashes(part["doc_id"])).n_unique() > most * rows:
                    coding = False
            if coding is False:
                frames.append(part)
                continue
            parts.append(_CodedPart.of(part, dictionary))
            del part
            # decided from _CODED_ROWS judgments and the second block on (the first
            # block's documents are all new); given up, the blocks coded so far are
            # turned back into their strings
            if i and rows >= _CODED_ROWS:
                coding = dictionary.size <= _CODED_SHARE * rows
                if not coding:
                    frames = [p.frame() for p in parts]
                    parts.clear()
    if coding is None and dictionary.size > _CODED_SHARE * rows:  # decided at the end
        frames = [p.frame() for p in parts]
        coding = False
    if coding is False:
        return pl.concat(frames, rechunk=False)
    return parts


#: a first block's share of distinct doc ids past which codes are given up at once (a
#: recommender's qrels: each judgment of its own document)
_HOPELESS_SHARE = 0.9


class _Collision(Exception):
    """Two distinct doc ids of a qrels file share a 64-bit hash (see :class:`_Dictionary`)."""


class _Dictionary:
    """The distinct doc ids of a qrels file read block by block, in order of first
    appearance, and each block's doc ids as codes into them.

    A block's ids are looked up in the ids seen so far and only the ones not found are
    added: TREC qrels judge the same documents again and again (Robust x13: 94,041
    distinct doc ids in 1.67M judgments), so most blocks add few or none. The lookup is by
    the ids' 64-bit hashes (:class:`~ranklens._ingest.hashcodes.HashCodes`: tables of the ids
    added, each twice the size of the next at most, merged as they grow, so each id is
    put in a table a few times at most), and every row's id is then compared with its
    code's: two ids sharing a hash raise :class:`_Collision`, and the file is read again
    with ``exact`` lookups of the strings (a cast to the Enum of the ids seen so far,
    several times slower).
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
            raise _Collision
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
class _CodedPart:
    """One parsed block of judgments with its ids as codes: each block of adjacent rows'
    query id once, and each doc id as a code of the file's :class:`_Dictionary`."""

    block_ids: pl.Series
    block_lengths: np.ndarray
    doc_code: np.ndarray
    relevance: np.ndarray
    dictionary: _Dictionary  # the file's (every part holds the same)

    def frame(self) -> pl.DataFrame:
        """The block as :func:`_typed_qrels` parsed it (its ids as strings again)."""
        new = np.zeros(self.doc_code.size, dtype=bool)
        new[np.cumsum(self.block_lengths) - self.block_lengths] = True
        blocks = np.repeat(np.arange(self.block_lengths.size), self.block_lengths)
        return pl.DataFrame({
            "query_id": self.block_ids.gather(blocks),
            "doc_id": self.dictionary.ids.gather(self.doc_code),
            "relevance": self.relevance.astype(np.float64, copy=False), "new": new})

    @classmethod
    def of(cls, typed: pl.DataFrame, dictionary: _Dictionary) -> _CodedPart:
        heads, lengths = query_blocks(typed["query_id"], typed["new"])
        return cls(heads, lengths, dictionary.codes(typed["doc_id"]),
                   _compact(typed["relevance"].to_numpy()), dictionary)


def _compact(grades: np.ndarray) -> np.ndarray:
    """Integer grades (the typed pass parses them so) as int8 when every one fits (one
    byte each: Robust x13's 1.67M take 1.7 MB instead of 13), else as they are; exact as
    float64 either way."""
    if not grades.size or (grades.min() >= -128 and grades.max() <= 127):
        return grades.astype(np.int8)
    return grades


#: the most distinct doc ids sorted (polars's sort of strings: ~10 ms for Robust x13's
#: 94,041, ~0.5 s for a million)
_SORTED_IDS = 1 << 18


def _coded_table(parts: list[_CodedPart], source: str) -> Qrels:
    """The qrels of blocks of judgments held as codes (:class:`CodedJudgments`); a query
    continued across blocks stays one block of rows.

    Up to :data:`_SORTED_IDS` distinct doc ids are sorted byte-wise (trec_eval's
    ``strcmp`` order) and the codes renumbered: a file sorted by query and doc id (as
    TREC qrels are) then gives its (query, doc code) pairs in order, and the judgment
    index need not sort them (~0.1 s and 20 MB on Robust x13)."""
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
        block_ids, block_lengths = part.block_ids, part.block_lengths
        if heads and heads[-1][-1] == block_ids[0]:  # a query continued across blocks
            lengths[-1] = lengths[-1].copy()
            lengths[-1][-1] += block_lengths[0]
            block_ids, block_lengths = block_ids[1:], block_lengths[1:]
        if block_ids.len():
            heads.append(block_ids)
            lengths.append(block_lengths)
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


def _typed_table(typed: pl.DataFrame, source: str) -> Qrels:
    """The qrels of a typed pass's frame; its block starts are kept for the index."""
    # the columns as they are (dropping one from the frame may copy the others whole),
    # but the doc ids in one chunk: alignments gather them at random rows, ~15x slower
    # across the blocks' dozens of chunks; and the grades in one, which NumPy then reads
    # in place (the index and each alignment would each copy them whole)
    qrels = Qrels(pl.DataFrame([typed["query_id"], typed["doc_id"].rechunk(),
                                typed["relevance"].rechunk()]), source)
    # taken by ranklens._model.matching, which groups the judgments by query with it
    qrels._hints.block_starts = typed["new"]
    return qrels


def read_trec_qrels(path: str | Path, *, data: bytes | None = None) -> Qrels:
    """Read a TREC qrels file: ``query iter doc relevance`` per line.

    Lines whose first non-blank character is ``#`` and blank lines are skipped; a ``#``
    inside a field is data (MS MARCO doc ids contain one). Relevance must be an integer.
    """
    source = str(path)
    if data is None and small_file(source):  # tokenized without polars' reader, or None
        small = read_small_qrels(read_bytes(path), source)
        if small is not None:
            return small
    # a whole file's ids are held as codes; a block handed over (a chunked evaluation's)
    # keeps them as strings, as its chunks do
    coded = data is None
    # a plain file, read in place, in small blocks: each block's parse leaves freed
    # memory in polars's allocator, more of it the larger the block (Robust x13's
    # qrels: ~80 MB in 16 MiB blocks, ~40 in 4 MiB)
    block = _BLOCK // _QRELS_PARTS
    blocks = _file_blocks(source, block) if data is None else None
    if blocks is not None:
        one = os.stat(source).st_size <= block
        try:
            parts = _typed_blocks(blocks, one=one)
        except _Collision:  # two doc ids share a hash: read again, looking up the strings
            blocks.close()
            blocks = _file_blocks(source, block)
            assert blocks is not None
            parts = _typed_blocks(blocks, exact=True, one=one)
        blocks.close()  # a file left half read by a block the typed pass cannot take
        if isinstance(parts, pl.DataFrame) or parts:
            table = _typed_table(parts, source) if isinstance(parts, pl.DataFrame) \
                else _coded_table(parts, source)
            del parts
            _release_heap(source)
            return table
    data = read_bytes(path) if data is None else _line_ends(without_bom(data))
    _check_text(data, source)
    sep = _separator(data)
    typed = _typed_qrels(data, sep) if sep else None
    if typed is not None and typed.height:
        if not coded or pl.Series(doc_hashes(typed["doc_id"])).n_unique() \
                > _CODED_SHARE * typed.height:
            return _typed_table(typed, source)  # (codes would not pay)
        try:
            part = _CodedPart.of(typed, _Dictionary())
        except _Collision:  # two doc ids share a hash: looked up as strings
            part = _CodedPart.of(typed, _Dictionary(exact=True))
        if part.dictionary.size > _CODED_SHARE * typed.height:
            return _typed_table(typed, source)
        return _coded_table([part], source)
    df = _fast_frame(data, ["query_id", "iter", "doc_id", "rel"], sep) if sep else None
    if df is not None:
        rel = df["rel"].cast(pl.Int64, strict=False)
        if rel.null_count() == 0 and not _beyond_max_grade(rel):
            frame = pl.DataFrame(
                {"query_id": df["query_id"], "doc_id": df["doc_id"],
                 "relevance": rel.cast(pl.Float64)}
            )
            if frame.height == 0:
                raise _no_rows(source, "judgment")
            return Qrels(frame, source)
    cols = _slow_qrels(data, source)
    if not cols["query_id"]:
        raise _no_rows(source, "judgment")
    frame = pl.DataFrame(
        cols, schema={"query_id": pl.String, "doc_id": pl.String, "relevance": pl.Float64}
    )
    return Qrels(frame, source)


def read_trec_run(path: str | Path, *, data: bytes | None = None,
                  name: str | None = None, numbers: bool | None = None) -> Run:
    """Read a TREC run file: ``query iter doc rank score tag [ignored ...]`` per line.

    The run's name is the tag of its last line (as trec_eval reports it) unless ``name``
    is given. Scores are parsed as float64; a non-numeric or NaN score is an error.
    The run holds every row's doc id: nothing reads the file again. ``numbers``: keep doc
    ids written as numbers as UInt32 numbers (None: when a whole file is read, not ``data``).
    """
    source = str(path)
    if data is None and small_file(source):  # tokenized without polars' reader, or None
        small = read_small_run(read_bytes(path), source, name)
        if small is not None:
            return small
    # a whole file's numeric doc ids are kept as numbers; a block handed over keeps them as
    # text unless asked (a chunked evaluation's blocks ask: its chunks hold 4 bytes a row)
    if numbers is None:
        numbers = data is None
    # blocks parsed one ahead (jobs > 1) are smaller ones: two are in flight at once
    block = _BLOCK if jobs() == 1 else _BLOCK // _AHEAD_PARTS
    # a plain file, read in place
    blocks = _file_blocks(source, block) if data is None else None
    if blocks is not None:
        size = os.stat(source).st_size
    else:
        data = read_bytes(path) if data is None else _line_ends(without_bom(data))
        _check_text(data, source)
        blocks, size = _split_blocks(data, block), len(data)
    parts = _RunParts.read(blocks, size, numbers=numbers)
    blocks.close()  # a file left half read by a block the fast path cannot take
    if parts is not None:
        run = parts.run(source, name)
        del parts
        if data is None:
            _release_heap(source)
        return run
    if data is None:
        data = read_bytes(path)
    sep = _separator(data)
    # extra trailing columns are allowed in runs: read the first six of each line
    df = _fast_frame(data, _RUN_COLUMNS, sep, ragged=True) if sep else None
    if df is not None and df.height:
        score = df["score"].cast(pl.Float64, strict=False)
        if score.null_count() == 0 and not score.is_nan().any():
            frame = pl.DataFrame({"query_id": df["query_id"], "doc_id": df["doc_id"],
                                  "score": score})
            return Run(frame, source, name or str(df["tag"][-1]))
    cols, tag = _slow_run(data, source)
    if not cols["query_id"]:
        raise _no_rows(source, "result")
    frame = pl.DataFrame(
        cols,
        schema={"query_id": pl.String, "doc_id": pl.String, "score": pl.Float64,
                "rank": pl.Int64},
    )
    return Run(frame, source, name or tag)


# Large runs never sit in memory whole: they are parsed a block of whole lines at a time
# (a plain file is read block by block), and only the kept columns of each block survive,
# never the whole text and its six string columns at once.
_BLOCK = 1 << 24
#: a run's blocks are this many times smaller when the next one is parsed on a second
#: thread while this one is kept: a block being parsed briefly holds several times its
#: size (polars' string columns, the parser's buffers), and two of 4 MiB in flight cost
#: less than one of 16 (the msmarco preset's whole command, two workers: 16 MiB blocks
#: peak at ~345 MB, 8 MiB at ~305, 4 MiB at ~278; one worker, 16 MiB: ~296) for ~0.05 s
#: more CPU time on its 7M lines
_AHEAD_PARTS = 4
_SLICE = 1 << 20  # bytes checked at a time by _RunParts._regular
#: the margin on a run's rows foretold by the bytes read so far (see _RunParts.add)
_ROWS_MARGIN = 1.15
#: a qrels file's blocks are this many times smaller (see read_trec_qrels)
_QRELS_PARTS = 4
_RUN_COLUMNS = ["query_id", "iter", "doc_id", "rank", "score", "tag"]


def _split_blocks(data: bytes, block: int = _BLOCK) -> Generator[bytes, None, None]:
    """``data`` in blocks of whole lines (of ``block`` bytes or so)."""
    start = 0
    while start < len(data):
        end = data.find(b"\n", min(start + block, len(data)) - 1)
        end = len(data) if end < 0 else end + 1
        yield data[start:end]
        start = end


def _file_blocks(name: str, block: int = _BLOCK) -> Generator[bytes, None, None] | None:
    """A plain (uncompressed, non-empty, text) file in blocks of whole lines, each read
    once, to its exact length; None for anything else (standard input, compressed data)."""
    if name == "-" or not Path(name).is_file():
        return None
    with open(name, "rb") as f:
        head = f.read(65536)
    if (not head.strip() or _decompressor(head) is not None or b"\x00" in head
            or head.startswith(_BOM) or (b"\r" in head and b"\n" not in head)):
        return None  # read whole by read_bytes, which undoes all of these
    return _read_blocks(name, block)


def _read_blocks(name: str, block: int = _BLOCK) -> Generator[bytes, None, None]:
    fd = os.open(name, os.O_RDONLY)
    try:
        size = os.fstat(fd).st_size
        if size > block:
            _prime_allocator()
        start = 0
        while start < size:
            end = _block_end(fd, start, size, block)
            data = os.pread(fd, end - start, start)
            if len(data) != end - start:
                raise InputError("the file changed while being read", source=name)
            yield data
            # not held while the next block is read: the caller's is then its only reference
            del data
            start = end
    finally:
        os.close(fd)


def _prime_allocator() -> None:
    """Let the C allocator recycle the block buffers instead of mapping fresh pages.

    glibc serves an allocation from freshly mapped pages when it is at least as large as
    the largest mapped allocation freed so far, so every 16 MiB block would fault in 16 MiB
    of new memory (~30% of a large read's page faults). Freeing one larger allocation first
    (zeroed by calloc, so its pages are never touched) raises that bar above the block size,
    and the blocks then reuse the same heap memory. Elsewhere this is one idle allocation.
    """
    buffer = bytes(_BLOCK + (1 << 20))
    del buffer


def _release_heap(name: str) -> None:
    """After a file of more than one block was read: hand the C heap's free memory back to
    the system (glibc's ``malloc_trim``; elsewhere nothing).

    The blocks and the parser's NumPy temporaries come from the C heap, which
    :func:`_prime_allocator` keeps from returning freed memory. Its free pages would stay
    counted in the process's memory while the tables are indexed and evaluated: ~35 MB
    after the msmarco preset's run, ~50 MB after each of Robust x13's qrels and run, freed
    here in ~5-10 ms.
    """
    try:
        if not sys.platform.startswith("linux") or os.stat(name).st_size <= _BLOCK:
            return
    except OSError:  # gone since: nothing to say about the memory
        return
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None (another C library)."""
    import ctypes  # a few ms: only for large files

    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
        return trim
    except (OSError, AttributeError):
        return None


def _block_end(fd: int, start: int, size: int, block: int = _BLOCK) -> int:
    """Where the block of whole lines starting at ``start`` ends: just after the last
    newline before ``start + block``, found in small reads of the block's tail (so the
    block itself is read once); past the first newline after it for a longer line."""
    end = start + block
    if end >= size:
        return size
    tail = end
    while tail > start:  # backwards from the nominal end
        lo = max(start, tail - 65536)
        newline = os.pread(fd, tail - lo, lo).rfind(b"\n")
        if newline >= 0:
            return lo + newline + 1
        tail = lo
    while end < size:  # a line longer than a block: forwards to its end
        newline = os.pread(fd, 65536, end).find(b"\n")
        if newline >= 0:
            return end + newline + 1
        end += 65536
    return size


def _last_tag(block: bytes, sep: bytes) -> str | None:
    """The tag (6th field) of the block's last data line (None if it has none)."""
    end = len(block)
    while end > 0:
        start = block.rfind(b"\n", 0, end - 1) + 1
        line = block[start:end].rstrip(b"\r\n")
        end = start
        if not line.strip() or line.startswith(b"#"):
            continue
        fields = line.split(sep)
        if len(fields) < 6:
            return None
        try:
            return fields[5].decode("utf-8")
        except UnicodeDecodeError:
            return None
    return None


#: the least UInt32 written with as many digits as the index (1: 0, 2: 10, ..., 10: 10**9)
_LEAST = np.array([0, 0, *(10 ** k for k in range(1, 10))], dtype=np.uint32)


def _decimal_ids(number: pl.Series, length: pl.Series) -> np.ndarray | None:
    """Doc ids as UInt32 numbers when every one is written as its number is (digits, no
    sign, no leading zero, below 2**32), else None. ``number``: each id read as a UInt32
    (null where it is none); ``length``: its length in bytes."""
    if number.null_count():
        return None  # not a UInt32 at all
    lengths = length.to_numpy()
    if int(lengths.max()) >= _LEAST.size:
        return None
    values = number.to_numpy()
    # a sign or a leading zero: written longer than the number is
    if (values < _LEAST[lengths]).any():
        return None
    return values


def _looks_decimal(block: bytes, sep: bytes) -> bool:
    """Whether the doc id of the block's first data line is all ASCII digits."""
    for line in block[:65536].splitlines():
        if line.strip() and not line.startswith(b"#"):
            fields = line.split(sep)
            return len(fields) > 2 and fields[2].isdigit()
    return False


class _RunParts:
    """Columns of a run gathered block by block: each block of adjacent rows with one query
    id keeps that id once, so the 7M-row query column never exists as strings.

    Doc ids written as numbers (MS MARCO's) are kept as UInt32 numbers while every block's
    are: 4 bytes a row instead of polars's 16-byte string views (the run gives them back
    as text, see :class:`ranklens._ingest.tables.Run`). A block with any other doc id turns the
    numbers read so far into text, and the run goes on in text.
    """

    def __init__(self, size: int, sep: bytes) -> None:
        self.size = size  # bytes in the input, to size the score array from the first block
        self.sep = sep
        self.tag = ""  # the last data line's
        self.block_ids: list[pl.Series] = []
        self.block_lengths: list[np.ndarray] = []
        self.doc_ids: list[pl.Series] = []
        #: the doc ids as numbers, filled like the scores (None: kept as text)
        self.doc_numbers: np.ndarray | None = None
        self.numbers = False  # whether blocks are parsed with their doc ids as numbers
        # arrays filled block by block: concatenating parts would hold each column twice
        self.scores = np.zeros(0, dtype=np.float64)
        self.doc_hashes = np.zeros(0, dtype=np.uint64)  # hashed by the parser's threads
        self.rows = 0
        self.bytes = 0  # bytes parsed so far
        self.scratch = np.empty((2, _SLICE), dtype=bool)  # for _regular

    @classmethod
    def read(cls, blocks: Iterator[bytes], size: int, *,
             numbers: bool = False) -> _RunParts | None:
        """The run in ``blocks`` (of whole lines, ``size`` bytes in all); None if some
        block needs the line parser (which then reads the whole input and explains).
        ``numbers``: keep doc ids written as numbers as numbers."""
        first = next(blocks, None)
        sep = None if first is None else _separator(first)
        if first is None or sep is None:
            return None
        parts = cls(size, sep)
        if numbers and _looks_decimal(first, sep):
            parts.doc_numbers = np.zeros(0, dtype=np.uint32)
            parts.numbers = True
        # under an evaluation's jobs > 1 the next block is read and parsed on a second
        # thread while this one's columns are kept (ranklens._base.threads)
        chained = itertools.chain([first], blocks)
        del first  # (held by the chain until it is read: one block at a time)
        with contextlib.closing(ahead(chained, parts.parsed)) as it:
            for block, df in it:
                kept = parts.add(block, df)
                # the block's frame freed before the next block is read and parsed: one
                # block's columns held at a time (with jobs > 1, two: the next one's too)
                del block, df
                if not kept:
                    return None
        return parts if parts.rows else None

    def parsed(self, data: bytes) -> pl.DataFrame | None:
        """The kept columns of one block of whole lines (:meth:`_parse`); None if it needs
        the line parser. Called for one block at a time (it reuses ``scratch``)."""
        sep = self.sep
        if _foreign_blanks(data, sep):
            return None
        # (read here, perhaps on a second thread: add may have turned it off since, and
        # then drops the block's numbers)
        numbers = self.numbers
        if self._regular(data):
            return self._parse(data, sep, None, numbers)
        df = self._parse(data, sep, pl.Int64, numbers)  # integer ranks parse without strings
        return df if df is not None else self._parse(data, sep, pl.String, numbers)

    def add(self, data: bytes, df: pl.DataFrame | None) -> bool:
        """Keep one block's columns (``df``: :meth:`parsed`); False if it needs the line
        parser."""
        sep = self.sep
        self.bytes += len(data)
        if df is None:
            return False
        if df["missing"].any():
            # blank lines come through as rows of nulls; any other gap is an irregular line
            blank = df["query_id"].is_null() & df["doc_id"].is_null() & df["score"].is_null()
            if not (blank | ~df["missing"]).all():
                return False
            # the starts of query blocks are found again without the blank rows
            df = df.filter(~blank).drop("new")
        if df.height == 0:
            return True
        decimal = None
        if "doc_number" in df.columns:  # (taken out in place: DataFrame.drop runs a query)
            number, length = df.drop_in_place("doc_number"), df.drop_in_place("doc_length")
            if self.doc_numbers is not None:
                decimal = _decimal_ids(number, length)
                if decimal is None:
                    self._as_text()
        if df.null_count().sum_horizontal().item():
            return False
        heads, lengths = query_blocks(df["query_id"], df.get_column("new", default=None))
        continued = bool(self.block_ids) and self.block_ids[-1][-1] == heads[0]
        if continued:
            self.block_lengths[-1][-1] += lengths[0]  # a query continued across blocks
            heads, lengths = heads[1:], lengths[1:]
        if heads.len():
            self.block_ids.append(heads)
            self.block_lengths.append(lengths)
        end = self.rows + df.height
        if end > self.scores.size:
            # an estimate that falls short copies the columns whole, both copies held at
            # once (Robust x13 concatenated, its first lines longer than most: 1.105x the
            # rows its first 4 MiB block foretells, 17 MB more at the peak); pages of one
            # that overshoots are never written and cost no memory
            size = max(int(self.size * end / self.bytes * _ROWS_MARGIN) + 1024, end)
            self.scores = _grown(self.scores, self.rows, size)
            self.doc_hashes = _grown(self.doc_hashes, self.rows, size)
            if self.doc_numbers is not None:
                self.doc_numbers = _grown(self.doc_numbers, self.rows, size)
        scores = self.scores[self.rows:end]
        _copy_chunks(df["score"], scores)
        if np.isnan(scores).any():
            return False
        _copy_chunks(df["doc_hash"], self.doc_hashes[self.rows:end])
        if self.doc_numbers is not None and decimal is not None:
            self.doc_numbers[self.rows:end] = decimal
        else:
            self.doc_ids.append(df["doc_id"])
        self.rows = end
        tag = _last_tag(data, sep)
        if tag is None:
            return False
        self.tag = tag
        return True

    def _regular(self, data: bytes) -> bool:
        """Whether no two adjacent bytes of ``data`` are blanks or line ends (so no field is
        empty: only a line cut short, or one starting with a blank, leaves a null)."""
        # a cache-sized slice at a time, through two reused buffers: fresh pages cost more
        # than the comparisons
        codes = np.frombuffer(data, dtype=np.uint8)
        step = self.scratch.shape[1] - 1
        for i in range(0, max(codes.size - 1, 0), step):
            part = codes[i:i + step + 1]  # one byte of overlap: pairs across slices
            blank = np.less_equal(part, 32, out=self.scratch[0, :part.size])
            pairs = np.logical_and(blank[1:], blank[:-1], out=self.scratch[1, :part.size - 1])
            if pairs.any():
                return False
        return True

    def _as_text(self) -> None:
        """Keep the doc ids as text from now on: the numbers read so far become text."""
        if self.doc_numbers is not None and self.rows:
            self.doc_ids = [pl.Series("doc_id", self.doc_numbers[:self.rows]).cast(pl.String)]
        self.doc_numbers = None
        self.numbers = False

    @staticmethod
    def _parse(data: bytes, sep: bytes, rank: type[pl.DataType] | None,
               numbers: bool = False) -> pl.DataFrame | None:
        """The kept columns of a block, ``missing`` marking lines short of a field (a null).

        ``rank=None`` is for a :meth:`_regular` block: a line with fewer than six fields has
        no tag there, and the iter and rank columns are not parsed at all. Otherwise an
        empty field also leaves a null, and ranks are parsed as ``rank``. ``numbers``: also
        each doc id as a UInt32 number (``doc_number``, null where it is none) and its length
        in bytes (``doc_length``).
        """
        schema: dict[str, type[pl.DataType]] = dict.fromkeys(_RUN_COLUMNS, pl.String)
        schema.update(score=pl.Float64, rank=rank or pl.String)
        missing = pl.col("tag").is_null()
        if rank is not None:
            missing = missing | pl.col("iter").is_null() | pl.col("rank").is_null()
        qid, doc = pl.col("query_id"), pl.col("doc_id")
        # (a cast: a third faster than str.to_integer; both read "+7" and "007" as 7, which
        # the lengths tell apart)
        numbered = [doc.cast(pl.UInt32, strict=False).alias("doc_number"),
                    doc.str.len_bytes().alias("doc_length")] if numbers else []
        try:
            return (pl.scan_csv(data, has_header=False, separator=sep.decode(), quote_char=None,
                                comment_prefix="#" if b"#" in data else None, schema=schema)
                    .select("query_id", "doc_id", "score", missing.alias("missing"),
                            doc.hash(0).alias("doc_hash"),
                            # where a new block of rows with one query id starts
                            (qid != qid.shift(1)).fill_null(True).alias("new"), *numbered)
                    .collect())
        except Exception:  # any polars complaint: let the line parser explain it
            return None

    def run(self, source: str, name: str | None) -> Run:
        """The run read (its columns checked block by block: no second pass)."""
        if self.doc_numbers is not None:
            doc_ids = pl.Series("doc_id", self.doc_numbers[:self.rows])
        else:
            doc_ids = pl.concat(self.doc_ids, rechunk=False)
        run = Run.from_blocks(
            pl.concat(self.block_ids), np.concatenate(self.block_lengths), doc_ids,
            self.scores[:self.rows], source, name or self.tag,
        )
        # taken by ranklens._model.ranking, which turns it into the run's keys
        run._hints.doc_hashes = self.doc_hashes[:self.rows]
        return run


def _copy_chunks(column: pl.Series, out: np.ndarray) -> None:
    """Copy a null-free numeric column into ``out`` a chunk at a time: each chunk is viewed
    in place, where converting the whole column would first gather its chunks into a
    fresh array (a parsed block comes in dozens of chunks)."""
    at = 0
    for chunk in column.get_chunks():
        out[at:at + len(chunk)] = chunk.to_numpy()
        at += len(chunk)


def _grown(values: np.ndarray, rows: int, size: int) -> np.ndarray:
    grown = np.empty(size, dtype=values.dtype)
    grown[:rows] = values[:rows]
    return grown
