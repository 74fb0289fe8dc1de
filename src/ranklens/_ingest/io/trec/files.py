"""The bytes of a TREC text file: read whole (compression undone) or a block of whole lines
at a time, in place.

Every TREC reader takes its bytes from here: the whole-file and block readers of
:mod:`~ranklens._ingest.io.trec.qrels` and :mod:`~ranklens._ingest.io.trec.run`, and the
chunked evaluation's blocks (``ranklens._surfaces.chunked.blocks``).
"""

from __future__ import annotations

import bz2
import functools
import gzip
import io
import lzma
import os
import select
import stat
import sys
from collections.abc import Callable, Generator
from pathlib import Path
from typing import IO, Any, cast

from ...._base.errors import InputError
from .._lines import check_text, without_bom

__all__ = ["BLOCK", "HEAD", "blocks_of", "decompressor", "line_end", "open_stream", "plain_file",
           "prime_allocator", "read_blocks", "read_bytes", "release_heap", "split_blocks",
           "text"]

#: the bytes of a block of whole lines: large inputs never sit in memory whole, and only the
#: kept columns of each block survive it (never the whole text and its string columns)
BLOCK = 1 << 24
#: the bytes of a file's head that its form (compression, byte order mark, line ends) is
#: told from
HEAD = 1 << 16

_BOM = b"\xef\xbb\xbf"

_MAGIC = (
    (b"\x1f\x8b", gzip.decompress),
    (b"BZh", bz2.decompress),
    (b"\xfd7zXZ\x00", lzma.decompress),
)
# "BZh" is also how a text file may start (a query id "BZh1"): bzip2 data is told apart by
# the block size digit and the magic of its first block (pi) or of an empty stream (sqrt pi)
_BZ2_BLOCKS = (b"1AY&SY", b"\x17rE8P\x90")
_DIGITS = b"123456789"


def decompressor(data: bytes) -> Callable[[bytes], bytes] | None:
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


def text(data: bytes) -> bytes:
    """Bytes handed over (a chunked evaluation's block) as :func:`read_bytes` gives a file's:
    a byte order mark dropped, classic Mac line ends made ``\\n``."""
    return _line_ends(without_bom(data))


def _existing(name: str) -> Path:
    """``name`` as a path, after checking it is a file that exists."""
    p = Path(name)
    if not p.exists():
        raise InputError("no such file", source=name)
    if p.is_dir():
        raise InputError("is a directory, expected a file", source=name)
    return p


def _stdin_bytes() -> bytes:
    """Standard input whole, read as it arrives with short waits between reads.

    A Ctrl-C may reach another of the process's threads (polars', BLAS's) rather than this
    one, leaving a plain blocking read waiting for input; between waits Python runs the
    signal's handler here. A regular file, or a stream without a file descriptor, is read
    at once.
    """
    stream = sys.stdin.buffer
    try:
        fd = stream.fileno() if isinstance(stream, io.BufferedReader) else -1
    except (OSError, ValueError):  # a test's stand-in, a closed stream
        fd = -1
    # (a regular file never blocks; Windows' select takes sockets only)
    if fd < 0 or os.name == "nt" or stat.S_ISREG(os.fstat(fd).st_mode):
        return stream.read()
    assert isinstance(stream, io.BufferedReader)
    whole = io.BytesIO()  # its value is handed over without a copy, as read() would
    while True:
        if not select.select([fd], [], [], 0.2)[0]:
            continue  # nothing yet: a pending Ctrl-C is raised before the next wait
        part = stream.read1(1 << 20)  # what is buffered, else one read that cannot block
        if not part:
            return whole.getvalue()
        whole.write(part)


def read_bytes(path: str | Path) -> bytes:
    """Read a whole file (``-`` = standard input), undoing gzip, bz2 or xz compression; a
    byte order mark is dropped and classic Mac line ends (``\\r`` only) become ``\\n``."""
    name = str(path)
    if name == "-":
        data = _stdin_bytes()
    else:
        try:
            data = _existing(name).read_bytes()
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror}", source=name) from exc
    decompress = decompressor(data)
    if decompress is not None:
        try:
            data = decompress(data)
        except (OSError, EOFError, lzma.LZMAError, ValueError) as exc:
            raise InputError(f"corrupt compressed data ({exc})", source=name) from exc
    return text(data)


def open_stream(path: str) -> tuple[IO[bytes], Any]:
    """``path`` as a stream of its bytes (compression undone), with :func:`read_bytes`'s
    errors, and the file to close with it (None: standard input)."""
    if path == "-":
        return sys.stdin.buffer, None
    _existing(path)
    raw = open(path, "rb")  # noqa: SIM115 - closed by the caller (or by the wrapper)
    decompress = decompressor(raw.peek(16)[:16])
    if decompress is gzip.decompress:
        return cast(IO[bytes], gzip.GzipFile(fileobj=raw, mode="rb")), raw
    if decompress is bz2.decompress:
        return bz2.BZ2File(raw), raw
    if decompress is lzma.decompress:
        return lzma.LZMAFile(raw), raw
    return raw, raw


def plain_file(name: str) -> bytes | None:
    """The head of ``name`` when it is a plain file that :func:`read_blocks` can read in
    place (a regular file: no compression, byte order mark nor classic Mac line ends), else
    None (standard input too)."""
    if name == "-" or not os.path.isfile(name):
        return None
    with open(name, "rb") as f:
        head = f.read(HEAD)
    if (decompressor(head) is not None or head.startswith(_BOM)
            or (b"\r" in head and b"\n" not in head)):
        return None  # read whole by read_bytes (or as a stream), which undoes all of these
    return head


def read_blocks(name: str, block: int, span: tuple[int, int] | None = None
                ) -> Generator[bytes, None, None]:
    """A plain file (:func:`plain_file`) in blocks of whole lines of about ``block`` bytes,
    each read once, in place, to its exact length. ``span``: only the bytes from ``start``
    to ``end`` (whole lines)."""
    fd = os.open(name, os.O_RDONLY)
    try:
        start, stop = span if span is not None else (0, os.fstat(fd).st_size)
        while start < stop:
            end = line_end(fd, start, start + max(1, block), stop)
            data = os.pread(fd, end - start, start)
            if len(data) != end - start:
                raise InputError("the file changed while being read", source=name)
            yield data
            # not held while the next block is read: the caller's is then its only reference
            del data
            start = end
    finally:
        os.close(fd)


def line_end(fd: int, start: int, end: int, stop: int) -> int:
    """Just after the last line end before ``end`` (``stop`` if ``end`` reaches it), found
    in small reads of the block's tail (so the block itself is read once); past the first
    line end after it for a line longer than the block."""
    if end >= stop:
        return stop
    tail = end
    while tail > start:  # backwards from the nominal end
        lo = max(start, tail - HEAD)
        newline = os.pread(fd, tail - lo, lo).rfind(b"\n")
        if newline >= 0:
            return lo + newline + 1
        tail = lo
    while end < stop:  # a line longer than a block: forwards to its end
        newline = os.pread(fd, min(HEAD, stop - end), end).find(b"\n")
        if newline >= 0:
            return end + newline + 1
        end += HEAD
    return stop


def blocks_of(path: str | Path, data: bytes | None, block: int, *, split: bool = True
              ) -> tuple[Generator[bytes, None, None], int, bytes | None]:
    """The input of a TREC reader in blocks of whole lines of about ``block`` bytes, its
    size in bytes, and its whole text when it was read whole (None: a plain file read in
    place, block by block). ``data``: bytes handed over instead of the file's; ``split``:
    whether text read whole is cut into blocks too (else it is one block)."""
    name = str(path)
    if data is None:
        head = plain_file(name)
        # an empty head or binary data: read whole, and refused below
        if head is not None and head.strip() and b"\x00" not in head:
            size = os.stat(name).st_size
            if size > block:
                prime_allocator()
            return read_blocks(name, block), size, None
        data = read_bytes(path)
    else:
        data = text(data)
    check_text(data, name)
    return split_blocks(data, block if split else len(data)), len(data), data


def split_blocks(data: bytes, block: int) -> Generator[bytes, None, None]:
    """``data`` in blocks of whole lines (of ``block`` bytes or so)."""
    start = 0
    while start < len(data):
        end = data.find(b"\n", min(start + block, len(data)) - 1)
        end = len(data) if end < 0 else end + 1
        yield data[start:end]
        start = end


def prime_allocator() -> None:
    """Let the C allocator recycle the block buffers instead of mapping fresh pages.

    glibc serves an allocation from freshly mapped pages when it is at least as large as
    the largest mapped allocation freed so far, so every block would fault in its size of
    new memory. Freeing one larger allocation first (zeroed by calloc, so its pages are
    never touched) raises that bar above the block size, and the blocks then reuse the
    same heap memory. Elsewhere this is one idle allocation.
    """
    buffer = bytes(BLOCK + (1 << 20))
    del buffer


def release_heap(name: str) -> None:
    """After a file of more than one block was read: hand the C heap's free memory back to
    the system (glibc's ``malloc_trim``; elsewhere nothing).

    The blocks and the parser's NumPy temporaries come from the C heap, which
    :func:`prime_allocator` keeps from returning freed memory: its free pages would stay
    counted in the process's memory while the tables are indexed and evaluated.
    """
    try:
        if not sys.platform.startswith("linux") or os.stat(name).st_size <= BLOCK:
            return
    except OSError:  # gone since: nothing to say about the memory
        return
    trim = malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None (another C library)."""
    import ctypes  # a few ms: only for large files

    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
        return trim
    except (OSError, AttributeError):
        return None
