"""Input files read a block of whole lines (or Parquet rows) at a time, each block parsed and
checked by ranklens's own readers, so that memory stays bounded by the block and an error
still names the original file and line.

Validation happens here, while partitioning: a block's reader reports a line of the block,
and :func:`_trec_blocks` adds the lines before it. The chunks on disk hold checked columns
only, so evaluating them can fail only on what needs a whole query (a duplicate, a
policy), which names no line in the in-memory engine either.
"""

from __future__ import annotations

import lzma
import os
from collections.abc import Callable, Iterator
from functools import partial
from itertools import pairwise
from pathlib import Path
from typing import TypeVar

from ..._base.errors import InputError
from ..._base.lazy import polars as pl
from ..._ingest.io._frames import frame_to_qrels, frame_to_run
from ..._ingest.io._lines import located, without_bom
from ..._ingest.io._load import data_line_numbers, strip_compression, text_table, unreadable
from ..._ingest.io.headerless import is_msmarco_run, read_headerless_run
from ..._ingest.io.trec import files
from ..._ingest.io.trec.qrels import read_trec_qrels
from ..._ingest.io.trec.run import read_trec_run
from ..._ingest.tables import Qrels, Run
from .size import is_table_path

__all__ = ["NOTHING", "Span", "lines_before", "qrels_blocks", "run_blocks", "spans", "text_blocks"]

_T = TypeVar("_T", Qrels, Run)


#: What a block's reader says when the block holds no data line (only comments or blanks):
#: an error for a whole file, nothing for one block of it
NOTHING = ("file is empty", "no judgment lines found", "no result lines found")


Span = tuple[int, int]


def text_blocks(path: str, size: int, span: Span | None = None
                ) -> Iterator[tuple[int, bytes]]:
    """``(lines before it, block)`` for each block of about ``size`` bytes of whole lines of
    ``path``'s text: a byte order mark dropped, classic Mac line ends (``\\r`` only) made
    ``\\n`` as :func:`~ranklens._ingest.io.trec.files.read_bytes` does. ``span``: only the
    bytes from ``start`` to ``end`` of a plain file (whole lines: see :func:`spans`), the
    lines counted from its start. A plain file
    (:func:`~ranklens._ingest.io.trec.files.plain_file`) is read once, in place, each block
    to its last line end."""
    before = 0
    for data in (files.read_blocks(path, size, span) if files.plain_file(path) is not None
                 else _stream_blocks(path, size, span)):
        yield before, data
        before += data.count(b"\n")


def _stream_blocks(path: str, size: int, span: Span | None) -> Iterator[bytes]:
    """:func:`text_blocks`' blocks of a file read as a stream (compressed, standard input,
    a byte order mark, classic Mac line ends)."""
    stream, raw = files.open_stream(path)
    rest, first, left = b"", True, None
    if span is not None:
        stream.seek(span[0])
        left, first = span[1] - span[0], span[0] == 0
    try:
        while True:
            try:
                data = stream.read(size if left is None else min(size, left))
                if left is not None:
                    left -= len(data)
            except (OSError, EOFError, lzma.LZMAError) as exc:
                raise InputError(f"corrupt compressed data ({exc})", source=path) from exc
            if first:
                data, first = without_bom(data), False
                if b"\r" in data and b"\n" not in data:  # classic Mac: all lines in one
                    data = (data + stream.read()).replace(b"\r", b"\n")
            if not data:
                if rest:
                    yield rest
                return
            data = rest + data
            cut = data.rfind(b"\n") + 1
            block, rest = data[:cut], data[cut:]
            if cut:
                yield block
    finally:
        if raw is not None:
            stream.close()
            raw.close()


def spans(path: str, parts: int) -> list[Span] | None:
    """``path`` cut into about ``parts`` spans of whole lines, to be read in parallel; None
    when it cannot be (standard input, compressed data, classic Mac line ends, a Parquet
    file) or is too small to be worth it."""
    if path == "-" or is_table_path(path) or not os.path.isfile(path):
        return None
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        head = f.read(1 << 16)
        if (files.decompressor(head) is not None or (b"\r" in head and b"\n" not in head)
                or parts < 2):
            return None
        cuts = [0]
        for i in range(1, parts):
            f.seek(max(cuts[-1], size * i // parts))
            f.readline()
            if f.tell() >= size:
                break
            if f.tell() > cuts[-1]:
                cuts.append(f.tell())
    cuts.append(size)
    return [(a, b) for a, b in pairwise(cuts) if b > a] if len(cuts) > 2 else None


def _trec_blocks(path: str, size: int, read: Callable[[bytes], _T],
                 span: Span | None = None) -> Iterator[_T]:
    """A TREC file's blocks, each read by ``read``; a file without any data line fails as it
    does when read whole."""
    nothing: InputError | None = InputError("file is empty, expected at least one line",
                                            source=path)
    for before, data in text_blocks(path, size, span):
        try:
            table = read(data)
        except InputError as exc:
            if exc.line is None and exc.detail.startswith(NOTHING):
                if nothing is not None and nothing.detail.startswith("file is empty"):
                    nothing = exc  # the first block's words: "no result lines found"
                continue
            if exc.line is not None and before:  # a line of the block, as a line of the file
                exc = InputError(exc.detail, source=exc.source, line=exc.line + before)
            raise exc from None
        nothing = None
        yield table
    if nothing is not None:
        raise nothing


def _frame_blocks(path: str, size: int, kind: str,
                  make: Callable[[pl.DataFrame], _T], span: Span | None = None
                  ) -> Iterator[_T]:
    """A CSV/TSV or JSON Lines file's blocks (each CSV block given the header), read as the
    in-memory reader reads the whole file; errors name the file's line."""
    header = b""
    if span is not None and span[0] > 0 and kind in ("csv", "tsv"):
        with open(path, "rb") as f:
            header = without_bom(f.readline())
    for before, data in text_blocks(path, size, span):
        raw, shift = data, before
        if kind in ("csv", "tsv"):
            if not header:
                header = data[:data.find(b"\n") + 1]
            else:
                raw, shift = header + data, before - 1  # the header stands for line 1
        if not raw.strip() or raw == header:
            continue
        frame = text_table(raw, kind, path, shift)
        yield located(partial(make, frame), partial(_at_line, path, kind, raw, shift))


def _table_blocks(path: str, rows: int, make: Callable[[pl.DataFrame], _T]) -> Iterator[_T]:
    """A Parquet or Arrow file (or a directory or glob of Parquet files) ``rows`` at a time;
    an error names the row, counted from 1 over the whole input."""
    kind = "arrow" if path.lower().endswith((".arrow", ".feather")) else "parquet"
    try:
        scan = pl.scan_ipc(path) if kind == "arrow" else pl.scan_parquet(path)
        batches = iter(scan.collect_batches(chunk_size=rows))
    except Exception as exc:
        raise unreadable(path, kind, exc) from exc
    before = 0
    while True:
        try:
            frame = next(batches)
        except StopIteration:
            return
        except Exception as exc:
            raise unreadable(path, kind, exc) from exc
        yield located(partial(make, frame), partial(_at_row, path, before))
        before += frame.height


def _at_line(path: str, kind: str, raw: bytes, shift: int, row: int,
             detail: str) -> InputError | None:
    """An error at data row ``row`` of a text block, placed at its line of the file."""
    numbers = data_line_numbers(raw, kind)
    if row < len(numbers):
        return InputError(detail, source=path, line=numbers[row] + shift)
    return None


def _at_row(path: str, before: int, row: int, detail: str) -> InputError:
    """An error at row ``row`` of a table block after ``before`` rows, counted from 1."""
    return InputError(f"row {row + before + 1} (counting from 1): {detail}", source=path)


def _blocks(path: str, size: int, trec: Callable[[bytes], _T],
            frame: Callable[[pl.DataFrame], _T], span: Span | None) -> Iterator[_T]:
    if is_table_path(path):
        return _table_blocks(path, max(1, size // 32), frame)
    kind = strip_compression(path.lower()).rsplit(".", 1)[-1]
    if kind in ("csv", "tsv", "jsonl", "ndjson"):
        return _frame_blocks(path, size, kind, frame, span)
    return _trec_blocks(path, size, trec, span)


def qrels_blocks(path: str, size: int, span: Span | None = None) -> Iterator[Qrels]:
    """``path``'s judgments, about ``size`` bytes of text (or ``size / 32`` Parquet rows) at
    a time, each block checked as :func:`ranklens.load_qrels` checks the whole file (only
    ``span`` of it, when given: its lines are counted from the span's start)."""
    return _blocks(path, size, lambda data: read_trec_qrels(path, data=data),
                   lambda frame: frame_to_qrels(frame, path), span)


def run_blocks(path: str, size: int, name: str | None, span: Span | None = None,
               columns: tuple[str, ...] | None = None) -> Iterator[Run]:
    """``path``'s run as :func:`qrels_blocks` reads judgments (a TREC file's blocks are named
    by their last tag unless ``name`` is given; the run is named by its last block's);
    ``columns``: a headerless file's, as ``load_run(..., columns=...)`` reads it."""
    if columns is not None or is_msmarco_run(path):  # as load_run reads them
        return _trec_blocks(path, size,
                            lambda data: read_headerless_run(path, columns, name, data), span)
    # doc ids written as numbers stay numbers: the chunks hold them in 4 bytes a row
    return _blocks(path, size,
                   lambda data: read_trec_run(path, data=data, name=name, numbers=True),
                   lambda frame: frame_to_run(frame, path, name or Path(path).name), span)


def lines_before(path: str, offset: int) -> int:
    """The lines of a plain file before byte ``offset`` (the start of a line)."""
    return sum(data.count(b"\n") for data in files.read_blocks(path, 1 << 24, (0, offset)))
