"""Integer sort keys of strings that order as their UTF-8 bytes do (trec_eval's ``strcmp``).

Score ties are broken by doc id, and on runs such as TREC DL 2019's RepLLaMA run nearly
every row ties: sorting those rows on their strings was the largest step of ranking a small
run (polars's string sort). :func:`group_byte_order` sorts them as plain unsigned 64-bit
integers instead (faster, most of the time spent reading the bytes out of polars), when the
strings are short and uniform enough to fit.

Each string is read as a row of byte columns, padded past its end with a symbol lower than
every byte (so a prefix sorts first: ``"abc" < "abcd"``, as ``strcmp`` and polars's string
order have it; a NUL byte stays distinct from the padding, as in polars). In column ``j``
the bytes are counted from the column's lowest one, so the column takes ``radix[j]``
values, and the string is the mixed-radix number of its columns: comparing the numbers
compares the bytes lexicographically. Doc ids use few values per column (MS MARCO's
passage ids: ten digits and the padding, 24 bits for seven bytes), so the row's group and
position fit beside the key in 64 bits.
"""

from __future__ import annotations

import numpy as np

from .._base.lazy import polars as pl

__all__ = ["MAX_BYTES", "byte_keys", "group_byte_order", "word_keys"]

#: the longest string (in UTF-8 bytes) tried: beyond it the key rarely fits in 64 bits
MAX_BYTES = 24

#: how many strings are tried first, when there are many
_SAMPLE = 1024


def group_byte_order(group: np.ndarray, strings: pl.Series | np.ndarray,
                     descending: bool) -> np.ndarray | None:
    """The stable order of rows by ``group`` ascending, then ``strings`` by their UTF-8 bytes
    (descending if ``descending``); None when the strings are too long or too varied for
    the sort done here (the caller's string sort then). ``strings`` may also be given as
    the rows of words :func:`word_keys` reads.

    ``group`` is non-decreasing (rows come grouped), numbered from 0 or 1. The group, the string's
    key and the row's position are packed into one unsigned 64-bit integer per row and
    sorted as values: distinct by the position, so equal strings keep their order (a
    stable sort), and a value sort is cheaper than an argsort.
    """
    n = group.size
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    shift = n.bit_length()
    limit = ((1 << 64) >> shift) // (int(group[-1]) + 1)
    keyed = word_keys(strings, limit) if isinstance(strings, np.ndarray) else \
        byte_keys(strings, limit)
    if keyed is None:
        return None
    key, span = keyed
    if descending:
        key = key.dtype.type(span - 1) - key
    packed = group.astype(np.uint64)
    packed *= np.uint64(span)
    packed += key
    packed <<= np.uint64(shift)
    packed |= np.arange(n, dtype=np.uint64)
    packed.sort()
    packed &= np.uint64((1 << shift) - 1)
    return packed.astype(np.int64)


def byte_keys(strings: pl.Series, limit: int = 1 << 64) -> tuple[np.ndarray, int] | None:
    """One key per string, ordered as the strings' UTF-8 bytes are (unsigned integers, 32
    or 64 bits, below the span returned); None when they do not fit (nulls, strings over
    :data:`MAX_BYTES` bytes, or a span over ``limit``, at most ``2**64``)."""
    if strings.null_count():
        return None
    n = strings.len()
    if n > 4 * _SAMPLE:
        # a subset's span is at most the whole's (each column's range can only shrink): a
        # sample over the limit rejects the whole cheaply (varied ids would otherwise be
        # read in full for nothing)
        rows = np.linspace(0, n - 1, _SAMPLE).astype(np.int64)
        if byte_keys(strings.gather(rows), limit) is None:
            return None
    lengths = strings.str.len_bytes().to_numpy()
    width = int(lengths.max()) if lengths.size else 0
    if width > MAX_BYTES:
        return None
    words = -(-width // 8) or 1
    # each string's bytes then NUL bytes, as big-endian 64-bit words, read by polars (pyarrow
    # is optional): ASCII strings padded to eight characters (bytes) if that is enough,
    # others given 8 * words NULs and cut (a little more work)
    matrix = np.empty((lengths.size, words), dtype=">u8")  # big-endian: bytes in order
    try:
        _fill_words(matrix, strings)
    except AttributeError:  # a polars older than bin.slice / bin.reinterpret: its string sort
        return None
    return _column_keys(matrix.view(np.uint8)[:, :width], lengths, min(limit, 1 << 64))


def word_keys(words: np.ndarray, limit: int = 1 << 64) -> tuple[np.ndarray, int] | None:
    """:func:`byte_keys` of strings without NUL given as ``words[k]``: bytes ``8k`` to
    ``8k + 7`` of each, NUL-padded, as the value of an unsigned 64-bit word."""
    if 8 * words.shape[0] > MAX_BYTES:
        return None
    matrix = np.empty((words.shape[1], words.shape[0]), dtype=">u8")  # bytes in order
    matrix[:] = words.T
    return _column_keys(matrix.view(np.uint8), None, limit)


def _fill_words(matrix: np.ndarray, strings: pl.Series) -> None:
    """Each string's first ``8 * matrix.shape[1]`` bytes (NUL-padded) into the rows of
    ``matrix``, as big-endian 64-bit words."""
    words = matrix.shape[1]
    if words == 1:
        word = strings.str.pad_end(8, "\0").cast(pl.Binary).bin.reinterpret(
            dtype=pl.UInt64, endianness="big")
        if not word.null_count():
            matrix[:, 0] = word.to_numpy()
            return
    padded = (strings + "\0" * (8 * words)).cast(pl.Binary)
    for i in range(words):
        matrix[:, i] = padded.bin.slice(8 * i, 8).bin.reinterpret(
            dtype=pl.UInt64, endianness="big").to_numpy()


def _column_keys(matrix: np.ndarray, lengths: np.ndarray | None,
                 limit: int) -> tuple[np.ndarray, int] | None:
    """The mixed-radix keys of strings (see the module doc) and their span, given the rows
    of their bytes (NUL-padded) and their lengths in bytes (None: the strings hold no NUL,
    so a NUL is the padding); None once the span exceeds ``limit``.

    Column ``j``'s symbols: the byte less the column's lowest byte, plus one if some
    string ends before the column (symbol 0 past a string's end: a NUL byte is a byte, not
    the end).
    """
    n, width = matrix.shape
    columns = np.ascontiguousarray(matrix.T)  # a column's bytes adjacent: cheap to scan
    symbols: list[tuple[np.ndarray, int]] = []
    span = 1
    for j in range(width):
        col = columns[j]
        past = col == 0 if lengths is None else lengths <= j
        if not past.any():
            low = int(col.min())
            radix = int(col.max()) - low + 1
            symbol = col - np.uint8(low)
        elif past.all():
            continue  # every string ended: the column orders nothing
        else:
            low = int(np.where(past, np.uint8(255), col).min())
            radix = int(col.max()) - low + 2  # the padding (0) is the highest past ones
            # modulo 256 (UTF-8 has no byte 0xFF, so no real byte wraps); the padding
            # wraps too, and is cleared next
            symbol = col - np.uint8((low - 1) & 0xFF)
            symbol *= ~past
        if radix == 1:
            continue
        span *= radix
        if span > limit:
            return None
        symbols.append((symbol, radix))
    # Horner's rule, in 32 bits when the keys fit (half the memory traffic)
    dtype = np.uint32 if span <= 1 << 32 else np.uint64
    key = np.zeros(n, dtype=dtype)
    for symbol, radix in symbols:
        key *= dtype(radix)
        key += symbol
    return key, span
