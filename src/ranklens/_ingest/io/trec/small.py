"""Small TREC qrels and run files read without polars' CSV reader.

Below :data:`SMALL_BYTES`, the fixed cost of polars' reader (planning a scan, starting its
threads, checking the columns it gives back) is most of the time a file takes. These files
are tokenized by Python's bytes methods instead (:func:`~.tokens.small_tokens`, by the
tokenizer's rules).

The reader only takes files that are regular by those rules: every data line with the
right number of fields, plain decimal relevance grades and scores, valid UTF-8. For
anything else it returns None, and the caller reads the file by the other paths, which
give the same table or the same error (file, line, expectation, finding). So this module
never words an error of its own.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from ...._base.lazy import polars as pl
from ...._base.tuning import SMALL_BYTES
from ...tables import Qrels, Run, table_schema
from .tokens import QRELS_WIDTH, RUN_WIDTH, small_tokens

__all__ = ["SMALL_BYTES", "read_small_qrels", "read_small_run", "small_file"]

_DIGITS = b"0123456789+-"
_NUMBER = b"0123456789+-.eE"


def small_file(path: str | Path) -> bool:
    """Whether ``path`` is a regular file of at most :data:`SMALL_BYTES` (standard input,
    ``-``, is not: it cannot be read a second time by the fallback)."""
    name = str(path)
    if name == "-":
        return False
    try:
        st = os.stat(name)
    except OSError:
        return False  # the other paths say what is wrong with it
    return st.st_size <= SMALL_BYTES and os.path.isfile(name)


def _tokens(data: bytes, width: int) -> list[bytes] | None:
    # longer than twice the size on disk: a small compressed file of many lines
    return small_tokens(data, width, 2 * SMALL_BYTES)


def _column(fields: list[bytes]) -> list[str]:
    """Fields decoded at once (none holds a ``\n``)."""
    return b"\n".join(fields).decode("utf-8").split("\n")


def _table(tokens: list[bytes], width: int, column: str, at: int, chars: bytes,
           numbers: Callable[[list[bytes]], list[float]]) -> pl.DataFrame | None:
    """The ids of each line (fields 0 and 2 of ``width``) and field ``at`` as the number
    column ``column``, or None if that field holds a byte not in ``chars`` or ``numbers``
    (the fields' values, as a list) refuses one (the line parser words the error)."""
    fields = tokens[at::width]
    if b"".join(fields).translate(None, chars):
        return None
    try:
        # a list, not an array: polars' conversion of arrays imports numpy.ma (slow to import)
        values = numbers(fields)
    except ValueError:
        return None
    return pl.DataFrame({"query_id": _column(tokens[0::width]),
                         "doc_id": _column(tokens[2::width]), column: values},
                        schema=table_schema(column))


def read_small_qrels(data: bytes, source: str) -> Qrels | None:
    """A qrels table from ``data`` (the file's bytes, as ``read_bytes`` gives them), or
    None if some line is not regular (see the module docstring)."""
    tokens = _tokens(data, QRELS_WIDTH)
    # ASCII decimal integers of at most 15 digits: exact in float64, below 2**53 (int()
    # alone would take "1_0": the digits keep it out; it refuses "+", "1-2")
    if tokens is None or max(map(len, tokens[3::4])) > 15:
        return None
    frame = _table(tokens, QRELS_WIDTH, "relevance", 3, _DIGITS,
                   lambda rels: [float(int(g)) for g in rels])
    return None if frame is None else Qrels(frame, source)


def read_small_run(data: bytes, source: str, name: str | None = None) -> Run | None:
    """A run from ``data`` (as ``read_bytes`` gives it), or None if some line is not
    regular. The name is the last line's tag unless ``name`` is given."""
    tokens = _tokens(data, RUN_WIDTH)
    if tokens is None:
        return None
    # decimal numbers only: nan, inf, "1_0", hexadecimal are the line parser's to judge;
    # float() refuses "1.2.3", "e5"
    frame = _table(tokens, RUN_WIDTH, "score", 4, _NUMBER, lambda raw: [float(s) for s in raw])
    return None if frame is None else Run(frame, source, name or tokens[-1].decode("utf-8"))
