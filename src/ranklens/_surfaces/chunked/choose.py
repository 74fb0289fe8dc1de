"""Whether an evaluation is chunked, into how many chunks, and in what blocks its files are
read: the rule of docs/scale.md."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..._base.errors import ParameterError
from ..._base.tuning import CHUNK_READ_BYTES as BLOCK
from ..._ingest.io._peers import IRDS_PREFIX
from ..._pipeline.plan import Plan
from .size import (
    BYTES_PER_ROW,
    bytes_per_row,
    chunks_for,
    estimated_rows,
    floor,
    is_table_path,
    parse_size,
    resolve_jobs,
)

__all__ = ["Chunking", "chunking"]


@dataclass(frozen=True)
class Chunking:
    """How a chunked evaluation runs: ``chunks`` per input, ``jobs`` workers, files read
    ``block`` bytes at a time; ``need``: the in-memory engine's estimated peak (bytes);
    ``note``: what the limit changed of an explicit ``jobs``."""

    chunks: int
    jobs: int
    block: int
    need: int = 0
    note: str | None = None

    def describe(self) -> dict[str, Any]:
        """What was chosen, for ``Result.engine`` and ``-v``."""
        return {"engine": "chunked", "chunks": self.chunks, "workers": self.jobs,
                "estimated_bytes": self.need}


def _path(value: Any) -> str | None:
    if isinstance(value, (str, os.PathLike)):
        path = os.fspath(value)
        return None if path.startswith(IRDS_PREFIX) else str(path)
    return None


def chunking(plan: Plan, qrels: Any, runs: Sequence[Any], memory_limit: Any,
             jobs: Any) -> Chunking | None:
    """The chunking of an evaluation of files, or None for the in-memory engine.

    The rule: the in-memory engine needs about :data:`~.size.BYTES_PER_ROW` bytes per
    judgment and :func:`~.size.bytes_per_row` per line of the largest run (twice that when
    a second run is read ahead, with several jobs), rows counted from Parquet metadata, or
    estimated from a text file's (decompressed) size and its first lines' length. Inputs
    are chunked when that exceeds ``memory_limit``, into enough chunks that the ``jobs``
    workers together hold at most half of what the limit leaves beside the processes'
    interpreters (:func:`~.size.floor`; a limit below the floor of one job is refused, and
    ``jobs`` is lowered, with a note when it was given, to what the limit holds). Inputs
    that fit are never chunked, whatever ``jobs`` (docs/scale.md, "Jobs"). With more than
    one worker there are at least 2 chunks per worker, so that no core idles while a slow
    chunk finishes. Only paths are chunked (objects in memory are in memory already),
    never for subtopic measures nor those reading item tables (beyond accuracy:
    ``train=``, ``items=``); a directory or glob of Parquet files is always read by chunks.

    Raises
    ------
    ParameterError
        ``memory_limit`` below :func:`floor` of one job.
    """
    limit = parse_size(memory_limit)
    paths = [_path(qrels), *(_path(r) for r in runs)]
    if any(p is None for p in paths) or any(m.definition.subtopics or m.definition.items.needs
                                            for m in plan.canonical):
        return None
    if limit is not None and limit < floor(1):
        raise ParameterError(
            f"the 'memory_limit' option must be at least {floor(1) / 1e6:.0f}MB, what the "
            "interpreter and its libraries take with one chunk; got "
            f"{memory_limit!r} (raise it, or leave it unset)")
    workers = resolve_jobs(jobs, limit)
    try:
        rows = [estimated_rows(p) for p in paths if p is not None]
        # (without a limit, only a directory or glob is chunked: no need to measure)
        per_row = max((bytes_per_row(p) for p in paths[1:] if p is not None),
                      default=BYTES_PER_ROW) if limit is not None else BYTES_PER_ROW
    except OSError:  # a file that cannot be read: the in-memory reader says why
        return None
    largest = max(rows[1:], default=0)
    ahead = largest if workers > 1 and len(runs) > 1 else 0  # read while one is evaluated
    need = int(BYTES_PER_ROW * rows[0] + per_row * (largest + ahead))
    tables = any(is_table_path(p) and not os.path.isfile(p) for p in paths if p is not None)
    over = limit is not None and need > limit
    if not (over or tables):
        return None
    note = None
    if limit is not None:
        fits = max([w for w in range(1, workers + 1) if floor(w) <= limit], default=1)
        if fits < workers and jobs is not None:
            note = (f"a memory limit of {limit / 1e6:.0f}MB holds {fits} job(s), not {jobs}: "
                    f"{workers} take at least {floor(workers) / 1e6:.0f}MB (an interpreter "
                    f"per worker); evaluating with {fits}")
        workers = fits
    n = chunks_for(need, limit if over else None, workers if over else 1)
    jobs_used = workers if n > 1 else 1
    # each worker parses a block at a time when a file is cut into spans, and a block being
    # parsed briefly holds several times its size
    block = BLOCK if limit is None else max(4096, min(BLOCK, limit // (64 * jobs_used)))
    return Chunking(n, jobs_used, block, need, note)
