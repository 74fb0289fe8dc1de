"""The TREC run reader: ``query iter doc rank score tag [ignored ...]`` per line."""

from __future__ import annotations

from pathlib import Path

from ...._base.threads import jobs
from ...tables import Run
from . import files
from .run_parts import RunParts
from .small import read_small_run, small_file
from .tokens import line_run

__all__ = ["read_trec_run"]

#: a run's blocks are this many times smaller when the next one is parsed on a second
#: thread while this one is kept: a block being parsed briefly holds several times its
#: size (polars' string columns, the parser's buffers), and two small blocks in flight
#: cost less than one large one (docs/benchmarks.md)
AHEAD_PARTS = 4


def read_trec_run(path: str | Path, *, data: bytes | None = None,
                  name: str | None = None, numbers: bool | None = None) -> Run:
    """Read a TREC run file: ``query iter doc rank score tag [ignored ...]`` per line.

    The run's name is the tag of its last line (as trec_eval reports it) unless ``name``
    is given. Scores are parsed as float64; a non-numeric or NaN score is an error.
    The run holds every row's doc id: nothing reads the file again. ``data``: the bytes of
    a block of the file handed over (a chunked evaluation's), read as the file would be.
    ``numbers``: keep doc ids written as numbers as UInt32 numbers (None: when a whole
    file is read, not ``data``; a chunked evaluation's blocks ask, as its chunks hold 4
    bytes a row).
    """
    source = str(path)
    if data is None and small_file(source):  # tokenized without polars' reader, or None
        small = read_small_run(files.read_bytes(path), source, name)
        if small is not None:
            return small
    if numbers is None:
        numbers = data is None
    # blocks parsed one ahead (jobs > 1) are smaller ones: two are in flight at once
    block = files.BLOCK if jobs() == 1 else files.BLOCK // AHEAD_PARTS
    blocks, size, whole = files.blocks_of(path, data, block)
    parts = RunParts.read(blocks, size, numbers=numbers)
    blocks.close()  # a file left half read by a block the typed pass cannot take
    if parts is not None:
        run = parts.run(source, name)
        del parts
        if whole is None:
            files.release_heap(source)
        return run
    # a line the typed pass cannot take: the line parser reads it or words the error
    frame, tag = line_run(files.read_bytes(path) if whole is None else whole, source)
    return Run(frame, source, name or tag)
