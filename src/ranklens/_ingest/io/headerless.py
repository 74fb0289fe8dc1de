"""Headerless delimited files whose columns the caller names (``columns=``, ``--columns``),
and the MS MARCO run (``qid pid rank``), recognised by its three columns.

A name is any column name a frame may use (:data:`~._frames.ALIASES`: ``qid``, ``docid``,
``score``, ``rel``, ``uid``, ``iid`` ...), ``rank``, or ``_`` for a column to skip. Fields
are split at tabs, at runs of spaces, or at commas (the first data line's separator).

A run without a score column is ordered by its rank column (rank 1 first), else by the
file's order; equal ranks are tied scores, broken by the ``ties`` option.
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from functools import partial
from pathlib import Path

import numpy as np

from ..._base.errors import InputError, ParameterError
from ..._base.lazy import polars as pl
from ..columns import numeric
from ..tables import Qrels, Run
from ._frames import ALIASES, frame_to_qrels, frame_to_run
from ._lines import check_text, data_lines, located, split_fields
from .trec.files import HEAD, open_stream, read_bytes
from .trec.tokens import foreign_blanks, separator

__all__ = ["MSMARCO_COLUMNS", "column_names", "is_msmarco_run", "read_headerless_qrels",
           "read_headerless_run"]

#: the MS MARCO run's columns (``qid\tpid\trank``)
MSMARCO_COLUMNS = ("query_id", "doc_id", "rank")

#: every name a column may be given, by its role
_ROLES = {alias: key for key in ("query_id", "doc_id", "relevance", "score")
          for alias in ALIASES[key]} | {"rank": "rank", "_": "_"}


def column_names(columns: str | Sequence[str] | None,
                 option: str = "columns") -> tuple[str, ...] | None:
    """``columns`` (``"qid,docid,score"`` or a sequence of names) as the roles of the file's
    columns, in order; ParameterError naming ``option`` for an unknown or repeated name."""
    if columns is None:
        return None
    names = columns.split(",") if isinstance(columns, str) else list(columns)
    roles = []
    for raw in names:
        name = str(raw).strip().lower()
        if name not in _ROLES:
            raise ParameterError(f"the {option!r} option names an unknown column {raw!r}; "
                                 "use qid, docid, score, rank, rel (or their aliases) and "
                                 "_ for a column to skip, e.g. qid,docid,score")
        roles.append(_ROLES[name])
    named = [r for r in roles if r != "_"]
    if len(set(named)) < len(named) or not {"query_id", "doc_id"} <= set(named):
        raise ParameterError(f"the {option!r} option must name a query and a doc column, each "
                             f"once; got {','.join(map(str, names))!r}")
    return tuple(roles)


def _fields_of(head: bytes) -> list[str]:
    """The fields of the first data line of ``head``."""
    for line in head.decode("utf-8", errors="replace").split("\n"):
        fields = split_fields(line)
        if fields and not fields[0].startswith("#"):
            return fields
    return []


def is_msmarco_run(path: str | Path) -> bool:
    """Whether ``path`` looks like an MS MARCO run: three fields, the third an integer
    (standard input and pipes are not looked at: they cannot be read twice)."""
    if str(path) == "-" or not os.path.isfile(path):
        return False
    try:
        stream, raw = open_stream(str(path))
    except InputError:  # the reader words the error
        return False
    try:
        fields = _fields_of(stream.read(HEAD))
    except Exception:  # corrupt compressed data: the reader says so
        return False
    finally:
        stream.close()
        raw.close()
    return len(fields) == 3 and fields[2].isdigit()


def _frame(path: str, roles: tuple[str, ...], data: bytes) -> pl.DataFrame:
    """The columns of ``data`` (the file's bytes) as text, named by ``roles`` (skipped ones
    dropped)."""
    check_text(data, path)
    keys = [str(i) for i in range(len(roles))]
    first = _fields_of(data[:HEAD])
    comma = len(first) == 1 and "," in first[0]
    sep = b"," if comma else separator(data)
    frame = None
    if sep is not None and (comma or not foreign_blanks(data, sep)):
        frame = _parsed(data, sep, keys)
        if frame is None and comma:
            raise InputError(f"expected {len(roles)} comma-separated fields "
                             f"({' '.join(roles)}) on every line", source=path)
    if frame is None:  # the line parser reads any blanks and words the error
        rows = [fields for _, fields in data_lines(data, path, len(roles), " ".join(roles))]
        frame = pl.DataFrame(rows, orient="row", schema=keys)
    if not frame.height:
        raise InputError("no data lines found (only comments or blank lines)", source=path)
    return frame.select(pl.col(k).alias(r) for k, r in zip(keys, roles, strict=True)
                        if r != "_")


def _parsed(data: bytes, sep: bytes, keys: list[str]) -> pl.DataFrame | None:
    """The fields of ``data`` by polars' reader, or None if a line has another count."""
    try:
        frame = pl.read_csv(io.BytesIO(data), has_header=False, infer_schema=False,
                            separator=sep.decode(), quote_char=None, comment_prefix="#")
    except Exception:  # a line with more fields, ...: the line parser words it
        return None
    if frame.width != len(keys) or frame.null_count().sum_horizontal().item():
        return None
    frame.columns = keys
    return frame


def read_headerless_run(path: str | Path, columns: tuple[str, ...] | None,
                        name: str | None = None, data: bytes | None = None) -> Run:
    """A headerless run whose columns are ``columns`` (None: an MS MARCO run); ``data``: a
    block of the file's lines (the chunked reader's), whose lines errors count from 1."""
    source = str(path)
    text = read_bytes(source) if data is None else data
    frame = _frame(source, columns or MSMARCO_COLUMNS, text)

    def run() -> Run:
        scored = frame if "score" in frame.columns else frame.with_columns(
            _order(frame, source, columns is None, data is None))
        return frame_to_run(scored, source, name or Path(source).name)

    return located(run, partial(_at_line, source, text))


def _at_line(source: str, data: bytes, row: int, detail: str) -> InputError:
    """:func:`~._lines.located`'s place of row ``row`` of the table of ``data``: its line."""
    lines = [i for i, line in enumerate(data.split(b"\n"), 1)
             if line.strip() and not line.lstrip().startswith(b"#")]
    return InputError(detail, source=source, line=lines[row])


def _order(frame: pl.DataFrame, source: str, msmarco: bool, whole: bool) -> pl.Series:
    """The scores of a run without any: minus the rank, else minus the row number (of the
    file when ``whole``, else of a block: blocks are read in order, so the order holds)."""
    if "rank" not in frame.columns:
        return pl.Series("score", -np.arange(frame.height, dtype=np.float64))
    rank = numeric(frame["rank"], "rank", source)
    if msmarco:  # three integer columns: a rank column counts 1, 2, ... in each query
        first = frame.with_columns(rank).group_by("query_id", maintain_order=True).agg(
            pl.col("rank").first()).slice(0 if whole else 1)  # (a block may start mid-query)
        if first.height and not bool((first["rank"] == 1).all()):
            raise InputError("three columns whose third is not a rank (1, 2, ... per query); "
                             "name them with --columns (columns= in Python), e.g. "
                             "qid,docid,score", source=source)
    return (-rank).alias("score")


def read_headerless_qrels(path: str | Path, columns: tuple[str, ...]) -> Qrels:
    """Headerless judgments whose columns are ``columns`` (no relevance column: every row
    is relevant, grade 1)."""
    source = str(path)
    text = read_bytes(source)
    return located(lambda: frame_to_qrels(_frame(source, columns, text).drop(
        "rank", strict=False), source), partial(_at_line, source, text))
