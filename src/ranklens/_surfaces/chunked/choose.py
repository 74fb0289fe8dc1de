"""Whether an evaluation is chunked, into how many chunks, and in what blocks its files are
read: the rule of docs/scale.md."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..._base.tuning import CHUNK_READ_BYTES as BLOCK
from ..._ingest.io._peers import IRDS_PREFIX
from ..._pipeline.plan import Plan
from .size import (
    BYTES_PER_ROW,
    chunks_for,
    estimated_rows,
    is_table_path,
    parse_size,
    resolve_jobs,
)

__all__ = ["Chunking", "chunking"]


@dataclass(frozen=True)
class Chunking:
    """How a chunked evaluation runs: ``chunks`` per input, ``jobs`` workers, files read
    ``block`` bytes at a time."""

    chunks: int
    jobs: int
    block: int


def _path(value: Any) -> str | None:
    if isinstance(value, (str, os.PathLike)):
        path = os.fspath(value)
        return None if path.startswith(IRDS_PREFIX) else str(path)
    return None


def chunking(plan: Plan, qrels: Any, runs: Sequence[Any], memory_limit: Any,
             jobs: Any) -> Chunking | None:
    """The chunking of an evaluation of files, or None for the in-memory engine.

    The rule: the in-memory engine needs about :data:`~.size.BYTES_PER_ROW` bytes per
    judgment and per line of the largest run (rows counted from Parquet metadata, or
    estimated from a text file's (decompressed) size and its first lines' length). Inputs
    are chunked when that exceeds ``memory_limit``, into enough chunks that the ``jobs``
    workers together hold at most half the limit, their interpreters included (``jobs``
    None: one per core, fewer when the limit does not hold them). Inputs that fit are
    never chunked, whatever ``jobs``: the in-memory engine uses the cores itself, where
    the main process's partitioning would cost about as much as the whole in-memory
    evaluation (docs/scale.md, "Jobs"). With more than one worker there are at least 2
    chunks per worker, so that no core idles while a slow chunk finishes. Only paths are
    chunked (objects in memory are in memory already), never for subtopic measures nor
    those reading item tables (beyond accuracy: ``train=``, ``items=``); a directory or
    glob of Parquet files is always read by chunks.
    """
    limit = parse_size(memory_limit)
    paths = [_path(qrels), *(_path(r) for r in runs)]
    if any(p is None for p in paths) or any(m.definition.subtopics or m.definition.items.needs
                                            for m in plan.canonical):
        return None
    workers = resolve_jobs(jobs, limit)
    try:
        rows = [estimated_rows(p) for p in paths if p is not None]
    except OSError:  # a file that cannot be read: the in-memory reader says why
        return None
    largest = max(rows[1:], default=0)
    need = BYTES_PER_ROW * (rows[0] + largest)
    tables = any(is_table_path(p) and not os.path.isfile(p) for p in paths if p is not None)
    over = limit is not None and need > limit
    if not (over or tables):
        return None
    n = chunks_for([rows[0], largest], limit if over else None, workers if over else 1)
    jobs_used = workers if n > 1 else 1
    # each worker parses a block at a time when a file is cut into spans
    block = BLOCK if limit is None else max(4096, min(BLOCK, limit // (16 * jobs_used)))
    return Chunking(n, jobs_used, block)
