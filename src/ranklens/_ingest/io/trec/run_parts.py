"""A TREC run's columns gathered block by block (:class:`RunParts`): each block parsed by
the tokenizer (:func:`~.tokens.scan_run`), its kept columns copied into arrays that grow
with the file, its query ids held once per block of rows.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator

import numpy as np

from ...._base.lazy import polars as pl
from ...._base.threads import ahead
from ...tables import ReaderHints, Run, extend_blocks, query_blocks
from .tokens import foreign_blanks, last_tag, scan_run, separator

__all__ = ["RunParts"]

#: bytes checked at a time by RunParts.regular
SLICE = 1 << 20
#: the margin on a run's rows foretold by the bytes read so far (see RunParts.add)
ROWS_MARGIN = 1.15

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


class RunParts:
    """Columns of a run gathered block by block: each block of adjacent rows with one query
    id keeps that id once, so the 7M-row query column never exists as strings.

    Doc ids written as numbers (MS MARCO's) are kept as UInt32 numbers while every block's
    are: 4 bytes a row instead of polars's 16-byte string views (the run gives them back
    as text, see :class:`ranklens._ingest.tables.Run`). A block with any other doc id turns the
    numbers read so far into text, and the run goes on in text (unhashed: the index
    hashes it).
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
        #: hashed by the parser's threads (None: a run read as numbers, which need none)
        self.doc_hashes: np.ndarray | None = np.zeros(0, dtype=np.uint64)
        self.rows = 0
        self.bytes = 0  # bytes parsed so far
        self.scratch = np.empty((2, SLICE), dtype=bool)  # for regular

    @classmethod
    def read(cls, blocks: Iterator[bytes], size: int, *,
             numbers: bool = False) -> RunParts | None:
        """The run in ``blocks`` (of whole lines, ``size`` bytes in all); None if some
        block needs the line parser (which then reads the whole input and explains).
        ``numbers``: keep doc ids written as numbers as numbers."""
        first = next(blocks, None)
        sep = None if first is None else separator(first)
        if first is None or sep is None:
            return None
        parts = cls(size, sep)
        if numbers and _looks_decimal(first, sep):
            parts.doc_numbers = np.zeros(0, dtype=np.uint32)
            parts.numbers = True
            parts.doc_hashes = None
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
        """The kept columns of one block of whole lines (:func:`~.tokens.scan_run`); None
        if it needs the line parser. Called for one block at a time (it reuses ``scratch``)."""
        sep = self.sep
        if foreign_blanks(data, sep):
            return None
        # (read here, perhaps on a second thread: add may have turned it off since, and
        # then drops the block's numbers)
        numbers = self.numbers
        if self.regular(data):
            return scan_run(data, sep, None, numbers)
        df = scan_run(data, sep, pl.Int64, numbers)  # integer ranks parse without strings
        return df if df is not None else scan_run(data, sep, pl.String, numbers)

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
        extend_blocks(self.block_ids, self.block_lengths,
                      *query_blocks(df["query_id"], df.get_column("new", default=None)))
        end = self.rows + df.height
        if end > self.scores.size:
            # an estimate that falls short copies the columns whole, both copies held at
            # once; pages of one that overshoots are never written and cost no memory
            size = max(int(self.size * end / self.bytes * ROWS_MARGIN) + 1024, end)
            self.scores = _grown(self.scores, self.rows, size)
            if self.doc_hashes is not None:
                self.doc_hashes = _grown(self.doc_hashes, self.rows, size)
            if self.doc_numbers is not None:
                self.doc_numbers = _grown(self.doc_numbers, self.rows, size)
        scores = self.scores[self.rows:end]
        _copy_chunks(df["score"], scores)
        if np.isnan(scores).any():
            return False
        if self.doc_hashes is not None:
            _copy_chunks(df["doc_hash"], self.doc_hashes[self.rows:end])
        if self.doc_numbers is not None and decimal is not None:
            self.doc_numbers[self.rows:end] = decimal
        else:
            self.doc_ids.append(df["doc_id"])
        self.rows = end
        tag = last_tag(data, sep)
        if tag is None:
            return False
        self.tag = tag
        return True

    def regular(self, data: bytes) -> bool:
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

    def run(self, source: str, name: str | None) -> Run:
        """The run read (its columns checked block by block: no second pass)."""
        if self.doc_numbers is not None:
            doc_ids = pl.Series("doc_id", self.doc_numbers[:self.rows])
        else:
            doc_ids = pl.concat(self.doc_ids, rechunk=False)
        # the doc hashes are taken by ranklens._model.ranking, which turns them into keys
        return Run.from_blocks(
            pl.concat(self.block_ids), np.concatenate(self.block_lengths), doc_ids,
            self.scores[:self.rows], source, name or self.tag,
            hints=ReaderHints(doc_hashes=None if self.doc_hashes is None
                              else self.doc_hashes[:self.rows]))


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
