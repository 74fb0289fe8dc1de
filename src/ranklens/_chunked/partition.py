"""Chunks on disk: the checked rows of each block, split by a hash of the query id and
written as one Parquet file per (block, chunk), so that a chunk is its files read in block
order: every query whole, its rows in the input's order (``ties="input"`` reads it)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from .._tables import Qrels, Run

if TYPE_CHECKING:
    import polars as pl
else:  # imported on first use (see ranklens._lazy)
    from .._lazy import polars as pl

__all__ = ["SEED", "Partitions", "chunk_of"]

#: The seed of the query-id hash that assigns chunks (any fixed value: the chunks of the
#: judgments and of every run must agree, and they are written by one process).
SEED = 2029

#: Parquet compression of the chunks: lz4 writes and reads fastest of polars' codecs; the
#: files live only for one evaluation
COMPRESSION: Literal["lz4"] = "lz4"


def chunk_of(query_ids: pl.Expr, n: int) -> pl.Expr:
    """The chunk (0 .. n-1) of each query id."""
    return (query_ids.hash(SEED) % n).cast(pl.UInt32)


class Partitions:
    """One input's chunks under ``root``: ``<root>/<chunk>/<block>.parquet``."""

    def __init__(self, root: Path, n: int) -> None:
        self.root, self.n, self.blocks, self.rows = root, n, 0, 0
        root.mkdir(parents=True)

    def add(self, table: Qrels | Run) -> None:
        """Write one block's rows (its query ids, doc ids and grades or scores)."""
        if isinstance(table, Qrels):
            frame = table.frame
        else:
            frame = pl.DataFrame({"query_id": table.query_id, "doc_id": table.doc_id,
                                  "score": table.score})
        if not frame.height:
            return
        parts = frame.with_columns(chunk_of(pl.col("query_id"), self.n).alias("chunk")
                                   ).partition_by("chunk", as_dict=True, include_key=False)
        for (k,), part in parts.items():
            folder = self.root / f"{k:05d}"
            folder.mkdir(exist_ok=True)
            part.write_parquet(folder / f"{self.blocks:08d}.parquet", compression=COMPRESSION,
                               statistics=False)
        self.blocks += 1
        self.rows += frame.height

    def files(self, k: int) -> list[str]:
        """Chunk ``k``'s files, in block order."""
        folder = self.root / f"{k:05d}"
        return sorted(str(folder / f) for f in os.listdir(folder)) if folder.is_dir() else []
