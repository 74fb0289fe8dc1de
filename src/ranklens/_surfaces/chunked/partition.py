"""Chunks on disk: the checked rows of each block, split by a hash of the query id and
appended to one file per chunk (per span of a file written in parallel), so that a chunk is
its files read in order: every query whole, its rows in the input's order (``ties="input"``
reads it).

A chunk file is a sequence of segments, each an 8-byte length and an Arrow IPC stream: per
block of the judgments that had rows in the chunk, its rows; per block of a run, its query
blocks (ids and lengths), then its rows (doc ids as UInt32 numbers when the block's reader
kept them so, else text: 12 bytes a recsys row against 24; a chunk's run is read as one
type). One Parquet file per (block, chunk) cost more to create and delete than its rows;
appending costs neither, and holds no row in memory between blocks (docs/scale.md).
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Literal, cast

import numpy as np

from ..._base.lazy import polars as pl
from ..._ingest.tables import Qrels, Run

__all__ = ["SEED", "Partitions", "chunk_of", "read_qrels_chunk", "read_run_chunk"]

#: The seed of the query-id hash that assigns chunks (any fixed value: the chunks of the
#: judgments and of every run must agree, and they are written by one process).
SEED = 2029

#: The chunks' segments: uncompressed Arrow IPC. A segment is one block's rows of one chunk,
#: so there are blocks x chunks of them (thousands): on segments of that size IPC writes and
#: reads faster than Parquet or lz4 IPC, which only save disk (docs/scale.md)
COMPRESSION: Literal["uncompressed"] = "uncompressed"

_LENGTH = 8  # bytes of a segment's length, little-endian


def chunk_of(query_ids: pl.Expr, n: int) -> pl.Expr:
    """The chunk (0 .. n-1) of each query id."""
    return (query_ids.hash(SEED) % n).cast(pl.UInt32)


class Partitions:
    """One input's chunks under ``root``: ``<root>/<chunk>/<span>.segments``, where ``span``
    numbers the parts of a file written in parallel, in file order.

    A run's segments hold its rows' doc ids and scores and, apart, the query id and length
    of each block of adjacent rows with one query id, as :class:`~ranklens._ingest.tables.Run`
    holds them: the rows' query ids are never made, hashed, gathered nor written (a
    judgments' segment holds its rows)."""

    def __init__(self, root: Path, n: int, span: int = 0) -> None:
        self.root, self.n, self.span, self.blocks, self.rows = root, n, span, 0, 0
        root.mkdir(parents=True, exist_ok=True)

    def add(self, table: Qrels | Run) -> None:
        """Append one block's rows (its query ids, doc ids and grades or scores)."""
        if not len(table.frame if isinstance(table, Qrels) else table):
            return
        pieces = _split_qrels(table, self.n) if isinstance(table, Qrels) \
            else _split_run(table, self.n)
        for k, frames in pieces:
            folder = self.root / f"{k:05d}"
            folder.mkdir(exist_ok=True)
            segment = io.BytesIO()
            for frame in frames:
                at = segment.tell()
                segment.write(bytes(_LENGTH))
                frame.write_ipc_stream(segment, compression=COMPRESSION)
                end = segment.tell()
                segment.seek(at)
                segment.write((end - at - _LENGTH).to_bytes(_LENGTH, "little"))
                segment.seek(end)
            with open(folder / f"{self.span:04d}.segments", "ab") as f:
                f.write(segment.getbuffer())
        self.blocks += 1
        self.rows += len(table.frame) if isinstance(table, Qrels) else len(table)

    def files(self, k: int) -> list[str]:
        """Chunk ``k``'s files, in file order."""
        folder = self.root / f"{k:05d}"
        return sorted(str(folder / f) for f in os.listdir(folder)) if folder.is_dir() else []


def _split_qrels(qrels: Qrels, n: int) -> Iterator[tuple[int, list[pl.DataFrame]]]:
    frame = qrels.frame
    parts = frame.with_columns(chunk_of(pl.col("query_id"), n).alias("chunk")).partition_by(
        "chunk", as_dict=True, include_key=False)
    for (k,), part in parts.items():
        yield cast(int, k), [part]


def _split_run(run: Run, n: int) -> Iterator[tuple[int, list[pl.DataFrame]]]:
    """Each chunk's (blocks, rows) of a run: its blocks of adjacent rows with one query id
    and those blocks' rows, in the run's order (stable sorts by chunk)."""
    heads = run.block_ids.to_frame().select(chunk_of(pl.col("query_id"), n)).to_series()
    head_chunk = heads.to_numpy().astype(np.uint16 if n <= 1 << 16 else np.uint32)
    block_order = np.argsort(head_chunk, kind="stable")  # a radix sort for 16-bit keys
    row_order = np.argsort(np.repeat(head_chunk, run.block_lengths), kind="stable")
    blocks = pl.DataFrame({"query_id": run.block_ids.gather(block_order),
                           "length": run.block_lengths[block_order]})
    # doc ids as the block's reader holds them: UInt32 numbers when all of the block's are
    # written as numbers (4 bytes a row on disk, against a 16-byte string view), else text
    rows = pl.DataFrame({"doc_id": run.held_doc_id.gather(row_order),
                         "score": run.score[row_order]})
    block_counts = np.bincount(head_chunk, minlength=n)
    row_counts = np.bincount(head_chunk, weights=run.block_lengths, minlength=n).astype(np.int64)
    block_at = row_at = 0
    for k in np.flatnonzero(block_counts):
        b, r = int(block_counts[k]), int(row_counts[k])
        yield int(k), [blocks.slice(block_at, b), rows.slice(row_at, r)]
        block_at, row_at = block_at + b, row_at + r


def _segments(path: str) -> Iterator[bytes]:
    with open(path, "rb") as f:
        while head := f.read(_LENGTH):
            yield f.read(int.from_bytes(head, "little"))


def read_qrels_chunk(files: Sequence[str]) -> pl.DataFrame:
    """A chunk's judgments from its files, in order (no file: a frame with no row)."""
    schema = pl.Schema({"query_id": pl.String, "doc_id": pl.String, "relevance": pl.Float64})
    frames = [pl.read_ipc_stream(data) for path in files for data in _segments(path)]
    return pl.concat(frames, rechunk=False).cast(schema) if frames \
        else pl.DataFrame(schema=schema)


def read_run_chunk(files: Sequence[str], source: str, name: str) -> Run:
    """A chunk's run from its files, in order (no file: a run with no row); a query
    continued from one segment to the next is one block of rows, as the whole file's reader
    makes it."""
    blocks, rows = [], []
    for path in files:
        segments = _segments(path)
        for data in segments:
            blocks.append(pl.read_ipc_stream(data))
            rows.append(pl.read_ipc_stream(next(segments)))
    if not blocks:
        return Run(pl.DataFrame(schema={"query_id": pl.String, "doc_id": pl.String,
                                        "score": pl.Float64}), source, name)
    heads = pl.concat(blocks, rechunk=True)
    ids, lengths = heads["query_id"], heads["length"].to_numpy()
    new = np.ones(ids.len(), dtype=bool)
    new[1:] = (ids.slice(1) != ids.slice(0, ids.len() - 1)).to_numpy()
    starts = np.flatnonzero(new)
    frame = pl.concat(_one_doc_type(rows), rechunk=False)
    return Run.from_blocks(ids.gather(starts), np.add.reduceat(lengths, starts),
                           frame["doc_id"], frame["score"].to_numpy(), source, name)


def _one_doc_type(rows: list[pl.DataFrame]) -> list[pl.DataFrame]:
    """A chunk's segments with one doc id type: UInt32 numbers when every segment holds
    them, else text (a block of the run with any other doc id wrote its segments in text;
    a number's text is the id as the file writes it, see ranklens._ingest.io.trec.run_parts)."""
    if all(frame["doc_id"].dtype == rows[0]["doc_id"].dtype for frame in rows):
        return rows
    return [frame.with_columns(pl.col("doc_id").cast(pl.String)) for frame in rows]
