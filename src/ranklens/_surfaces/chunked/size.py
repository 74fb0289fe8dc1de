"""Sizes: ``memory_limit="2GB"`` read as bytes, the in-memory engine's need estimated from
the input files, and the number of chunks that keeps each worker's share under the limit."""

from __future__ import annotations

import functools
import glob
import lzma
import math
import os
import re

from ..._base.errors import InputError
from ..._base.lazy import polars as pl
from ..._base.tuning import BYTES_PER_ROW, PROCESS_BYTES, WORKER_SHARE
from ..._base.validate import Constraint, Integer, check
from ..._ingest.io._load import strip_compression
from ..._ingest.io.trec import files

__all__ = ["BYTES_PER_ROW", "MIN_CHUNK", "PROCESS_BYTES", "MemoryLimit", "bytes_per_row",
           "chunks_for", "cores", "default_jobs", "estimated_rows", "floor", "parse_size",
           "resolve_jobs"]

#: The least chunk a worker is given room for beside its interpreter.
MIN_CHUNK = 16 << 20

#: Bytes a run row's doc id takes when the reader holds it as a number (the ids of the
#: runs :data:`BYTES_PER_ROW` was measured on).
NUMBER_ID_BYTES = 4

#: Peak bytes of the in-memory engine per byte a doc id takes beyond a number's: the id is
#: held, hashed and matched (measured: a 2.5M-line run with ids such as "D684113").
ID_BYTES_FACTOR = 2.6

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
    """``jobs`` checked (an integer >= 1, or None: :func:`default_jobs`), at most
    :func:`cores` (more threads or workers than cores only wait for them)."""
    check("jobs", jobs, Integer(1, none=True))
    return default_jobs(limit) if jobs is None else min(int(jobs), cores())  # type: ignore[call-overload]


def estimated_rows(path: str) -> int:
    """Rows of an input file: from the metadata of Parquet and Arrow files (a directory or a
    glob of Parquet files counts them all), else its (decompressed) size over the length of
    its first lines."""
    if is_table_path(path):
        return _table_rows(path)
    if path == "-" or (os.path.exists(path) and not os.path.isfile(path)):
        # unknown: standard input and pipes are read as a stream in any case (and a pipe's
        # head read here would be lost to its reader); an absent file raises, for the
        # caller to leave it to the reader, which says so
        return 0
    st = os.stat(path)
    return _text_rows(path, st.st_size, st.st_mtime_ns, st.st_ino)


def _table_rows(path: str) -> int:
    """Rows of Parquet or Arrow data from its metadata; data that is not such names the
    path and what was expected."""
    arrow = path.lower().endswith((".arrow", ".feather"))
    if not arrow and not os.path.isfile(path) and not glob.glob(
            os.path.join(path, "**", "*") if os.path.isdir(path) else path, recursive=True):
        where = "the directory holds no file" if os.path.isdir(path) \
            else "no file matches this pattern"
        raise InputError(f"{where}; give a run file, or a directory or glob of Parquet "
                         "files", source=path)
    try:
        scan = pl.scan_ipc(path) if arrow else pl.scan_parquet(path)
        return int(scan.select(pl.len()).collect().item())
    except Exception as exc:  # polars' words, with the path and the fix
        text = " ".join(str(exc).split())[:200]
        kind = "an Arrow file" if arrow else "Parquet data"
        fix = "a directory is read as Parquet files: give the run file itself" \
            if os.path.isdir(path) else "name a text file by its format (.txt, .csv, .jsonl)"
        raise InputError(f"is not {kind} ({text}); {fix}", source=path) from exc


@functools.lru_cache(maxsize=32)
def _head(path: str, size: int, mtime_ns: int, inode: int) -> tuple[bytes, float]:
    """The head of a text file's text and how many bytes of text each byte of the file
    stands for (1.0 for a plain file; for a compressed file, read from a longer head),
    kept for the file as it is (its size, time and inode in the key): one evaluation asks
    when choosing chunks and again when choosing how to read in memory."""
    stream, raw = files.open_stream(path)
    with raw, stream:
        try:
            text = stream.read(1 << 22 if stream is not raw else 1 << 16)
            ratio = max(1.0, len(text) / max(1, raw.tell())) if stream is not raw else 1.0
        except (OSError, EOFError, lzma.LZMAError):  # the reader reports the corrupt data
            raw.seek(0)
            text, ratio = raw.read(1 << 16), 1.0
    return text[:1 << 16], ratio


def _text_rows(path: str, size: int, mtime_ns: int, inode: int) -> int:
    """:func:`estimated_rows` of a text file: its text's size over its first lines'."""
    head, ratio = _head(path, size, mtime_ns, inode)
    lines = max(1, head.count(b"\n"))
    return math.ceil(size * ratio / (len(head) / lines)) if head else 0


def bytes_per_row(path: str) -> float:
    """The in-memory engine's peak bytes per line of the run ``path``:
    :data:`BYTES_PER_ROW` for doc ids held as numbers, more for ids held as text, the
    difference measured on the table the reader makes of the file's first lines (a TREC
    text file; other inputs: :data:`BYTES_PER_ROW`)."""
    from ..._ingest.io.trec.run import read_trec_run

    if path == "-" or is_table_path(path) or strip_compression(path.lower()).endswith(
            (".csv", ".tsv", ".jsonl", ".ndjson")) or not os.path.isfile(path):
        return BYTES_PER_ROW
    st = os.stat(path)
    head = _head(path, st.st_size, st.st_mtime_ns, st.st_ino)[0]
    head = head[:head.rfind(b"\n") + 1]
    try:
        ids = read_trec_run(path, data=head).held_doc_id.cast(pl.String)
    except (InputError, pl.exceptions.PolarsError):  # the reader says why when it reads
        return BYTES_PER_ROW
    if not ids.len() or ids.str.contains(r"^(?:0|[1-9][0-9]{0,8})$").all():
        return BYTES_PER_ROW  # held as numbers
    # a string view: 16 bytes, and the id's bytes beyond the 12 it holds inline
    held = 16 + float((ids.str.len_bytes().cast(pl.Int64) - 12).clip(0).mean() or 0.0)
    return BYTES_PER_ROW + ID_BYTES_FACTOR * (held - NUMBER_ID_BYTES)


def is_table_path(path: str) -> bool:
    """Whether ``path`` names Parquet or Arrow data: such a file, a directory of Parquet
    files, or a glob of them."""
    lowered = path.lower()
    if lowered.endswith((".parquet", ".pq", ".arrow", ".feather")):
        return True
    return os.path.isdir(path) or any(c in path for c in "*?[")


def chunks_for(need: int, limit: int | None, jobs: int) -> int:
    """How many chunks: enough that ``jobs`` workers, each holding one chunk of inputs that
    take ``need`` bytes in memory, hold at most :data:`WORKER_SHARE` of what ``limit``
    leaves beside the interpreters (:data:`PROCESS_BYTES` for the main process, and for
    each worker when there are several); with ``jobs`` > 1 at least 2 per worker (so a slow
    chunk does not leave a core idle); 1 when the whole fits in one worker."""
    if limit is None:
        by_memory = 1
    else:
        room = limit - PROCESS_BYTES * (1 + (jobs if jobs > 1 else 0))
        by_memory = math.ceil(need / (WORKER_SHARE * max(room, 1) / jobs))
    return max(by_memory, 2 * jobs) if jobs > 1 else max(1, by_memory)


def floor(jobs: int) -> int:
    """The least memory limit for ``jobs`` workers: the main process's interpreter and
    libraries, each worker's (with more than one: one job is the main process), and a
    chunk of :data:`MIN_CHUNK` per job."""
    return PROCESS_BYTES * (1 + (jobs if jobs > 1 else 0)) + MIN_CHUNK * jobs


def default_jobs(limit: int | None) -> int:
    """Workers when ``jobs`` is not given: one per core, as many as the limit holds
    (:func:`floor`)."""
    return max([w for w in range(1, cores() + 1) if limit is None or floor(w) <= limit],
               default=1)
