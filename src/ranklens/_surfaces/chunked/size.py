"""Sizes: ``memory_limit="2GB"`` read as bytes, the in-memory engine's need estimated from
the input files, and the number of chunks that keeps each worker's share under the limit."""

from __future__ import annotations

import functools
import lzma
import math
import os
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..._base.tuning import BYTES_PER_ROW, PROCESS_BYTES, WORKER_SHARE
from ..._base.validate import Constraint, Integer, check
from ..._ingest.io.trec import files

if TYPE_CHECKING:
    import polars as pl
else:  # imported on first use (see ranklens._base.lazy)
    from ..._base.lazy import polars as pl

__all__ = ["BYTES_PER_ROW", "MIN_CHUNK", "PROCESS_BYTES", "MemoryLimit", "chunks_for", "cores",
           "default_jobs", "estimated_rows",
           "parse_size", "resolve_jobs"]

#: The least chunk a worker is given room for beside its interpreter.
MIN_CHUNK = 16 << 20

_UNITS = {"": 1, "b": 1, "k": 1e3, "kb": 1e3, "m": 1e6, "mb": 1e6, "g": 1e9, "gb": 1e9,
          "t": 1e12, "tb": 1e12, "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}
_SIZE = re.compile(r"^\s*([0-9]+(?:\.[0-9]*)?)\s*([a-zA-Z]*)\s*$")


def _bytes(value: object) -> float | None:
    """The bytes a size stands for, or None when ``value`` is not one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    found = _SIZE.match(value) if isinstance(value, str) else None
    if found is None or found.group(2).lower() not in _UNITS:
        return None
    return float(found.group(1)) * _UNITS[found.group(2).lower()]


def parse_size(value: object) -> int | None:
    """Bytes of a size: an integer (bytes), or a number with a unit ("2GB", "512MiB",
    "1.5g"; decimal units are powers of 10, ``KiB``/``MiB``/``GiB`` of 2), or None.

    Examples
    --------
    >>> parse_size("2GB"), parse_size("512MiB"), parse_size(1000), parse_size(None)
    (2000000000, 536870912, 1000, None)
    """
    check("memory_limit", value, MemoryLimit())
    return None if value is None else int(_bytes(value))  # type: ignore[arg-type]


class MemoryLimit(Constraint):
    """A size in bytes (an integer >= 1) or a string with a unit ("2GB"), or None."""

    def accepts(self, value: object) -> bool:
        size = _bytes(value)
        return value is None or (size is not None and size >= 1)

    def describe(self) -> str:
        return ("a size such as '2GB', '512MiB' or a number of bytes (B, KB, MB, GB, TB or "
                "KiB, MiB, GiB, TiB), or None")


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def resolve_jobs(jobs: object, limit: int | None = None) -> int:
    """``jobs`` checked (an integer >= 1, or None: :func:`default_jobs`)."""
    check("jobs", jobs, Integer(1, none=True))
    return default_jobs(limit) if jobs is None else int(jobs)  # type: ignore[call-overload]


def estimated_rows(path: str) -> int:
    """Rows of an input file: from the metadata of Parquet and Arrow files (a directory or a
    glob of Parquet files counts them all), else its (decompressed) size over the length of
    its first lines."""
    if is_table_path(path):
        scan = pl.scan_ipc(path) if path.lower().endswith((".arrow", ".feather")) \
            else pl.scan_parquet(path)
        return int(scan.select(pl.len()).collect().item())
    if path == "-" or (os.path.exists(path) and not os.path.isfile(path)):
        # unknown: standard input and pipes are read as a stream in any case (and a pipe's
        # head read here would be lost to its reader); an absent file raises, for the
        # caller to leave it to the reader, which says so
        return 0
    st = os.stat(path)
    return _text_rows(path, st.st_size, st.st_mtime_ns, st.st_ino)


@functools.lru_cache(maxsize=32)
def _text_rows(path: str, size: int, mtime_ns: int, inode: int) -> int:
    """:func:`estimated_rows` of a text file, kept for the file as it is (its size, time
    and inode in the key): one evaluation asks for it when choosing chunks and again when
    choosing how to read in memory. A compressed file's size is scaled by the ratio of its
    first 4 MiB of text to the bytes they took."""
    stream, raw = files.open_stream(path)
    with raw, stream:
        try:
            text = stream.read(1 << 22 if stream is not raw else 1 << 16)
            ratio = max(1.0, len(text) / max(1, raw.tell())) if stream is not raw else 1.0
        except (OSError, EOFError, lzma.LZMAError):  # the reader reports the corrupt data
            raw.seek(0)
            text, ratio = raw.read(1 << 16), 1.0
    head = text[:1 << 16]
    lines = max(1, head.count(b"\n"))
    return math.ceil(size * ratio / (len(head) / lines)) if head else 0


def is_table_path(path: str) -> bool:
    """Whether ``path`` names Parquet or Arrow data: such a file, a directory of Parquet
    files, or a glob of them."""
    lowered = path.lower()
    if lowered.endswith((".parquet", ".pq", ".arrow", ".feather")):
        return True
    return os.path.isdir(path) or any(c in path for c in "*?[")


def chunks_for(rows: Sequence[int], limit: int | None, jobs: int) -> int:
    """How many chunks: enough that ``jobs`` workers, each holding one chunk of the inputs
    (``rows``: the judgments' and the largest run's) at :data:`BYTES_PER_ROW`, stay within
    :data:`WORKER_SHARE` of ``limit`` together, their interpreters
    (:data:`PROCESS_BYTES` each) included when the limit leaves a chunk at least
    :data:`MIN_CHUNK` beside them (a smaller limit is read as the data's alone); with
    ``jobs`` > 1 at least 2 per worker (so a slow chunk does not leave a core idle); 1 when
    the whole fits in one worker."""
    need = BYTES_PER_ROW * sum(rows)
    if limit is None:
        by_memory = 1
    else:
        share = WORKER_SHARE * limit / jobs
        per_chunk = share - PROCESS_BYTES if share - PROCESS_BYTES >= MIN_CHUNK else share
        by_memory = math.ceil(need / per_chunk)
    return max(by_memory, 2 * jobs) if jobs > 1 else max(1, by_memory)


def default_jobs(limit: int | None) -> int:
    """Workers when ``jobs`` is not given: one per core, as many as the limit holds with a
    chunk of at least :data:`MIN_CHUNK` each beside its interpreter."""
    if limit is None:
        return cores()
    fits = int(WORKER_SHARE * limit // (PROCESS_BYTES + MIN_CHUNK))
    return max(1, min(cores(), fits))
