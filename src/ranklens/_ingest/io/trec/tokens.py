"""The TREC tokenizer: qrels (``qid iter docno rel``) and run (``qid iter docno rank sim
tag``) bytes turned into columns.

One set of line rules (trec_eval's, see :mod:`ranklens._ingest.io._lines`: only ``\\n``
ends a line, fields are split at runs of ASCII blanks, blank lines and lines whose first
field starts with ``#`` are skipped) and three ways to apply them, each giving the same
columns:

- :func:`small_tokens`: a small file's fields by Python's bytes methods (no polars reader
  to start); None for anything but a regular file.
- :func:`scan_qrels` and :func:`scan_run`: a block of a file by polars' multi-threaded CSV
  reader, when its lines have one separator between fields; None when a line needs more.
- :func:`line_qrels` and :func:`line_run`: the line parser, which takes every file the
  rules allow and words every error (file, line, what was expected, what was found).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TypeVar

import numpy as np

from ...._base.errors import InputError
from ...._base.lazy import polars as pl
from ...columns import MAX_GRADE
from ...tables import table_schema
from .._lines import data_lines, strict_float, strict_int

__all__ = ["QRELS_WIDTH", "RUN_COLUMNS", "RUN_WIDTH", "foreign_blanks", "last_tag",
           "line_qrels", "line_run", "no_rows", "scan_qrels", "scan_run", "separator",
           "small_tokens"]

QRELS_WIDTH = 4
RUN_WIDTH = 6
RUN_COLUMNS = ["query_id", "iter", "doc_id", "rank", "score", "tag"]
_QRELS_LAYOUT = "query iter doc relevance"
_RUN_LAYOUT = "query iter doc rank score tag"
_QRELS_HINTS = {6: "this looks like a run line: are QRELS and RUN given in the wrong order? "
                     "(a TREC RAG 2025 judgment file: evaluate --format-in rag-judgments, "
                     "read_rag_judgments in Python)"}
_HEADERLESS = ("a headerless run? name its columns with --columns (columns= in Python), "
               "e.g. qid,docid,score")
_RUN_HINTS = {2: _HEADERLESS, 3: _HEADERLESS, 5: _HEADERLESS,
              4: "this looks like a qrels line: are QRELS and RUN given in the wrong order?"}

# compared as an integer: MAX_GRADE + 1 is equal to float(MAX_GRADE) after polars' cast
_MAX_INT_GRADE = int(MAX_GRADE)

# the bytes bytes.split() splits at: the rules' ASCII blanks, and the line end
_BLANKS = np.zeros(256, dtype=bool)
_BLANKS[list(b" \t\n\r\x0b\x0c")] = True


# -- the rules applied by Python's bytes methods (small files) -----------------------------

def small_tokens(data: bytes, width: int, most: int) -> list[bytes] | None:
    """Every field of ``data``, ``width`` per data line, or None unless every line holds
    exactly ``width`` fields or none, no line is a comment, the text is UTF-8 (without NUL
    bytes: binary data is the line parser's to refuse) and at most ``most`` bytes long."""
    if b"\x00" in data or len(data) > most:
        return None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    codes = np.frombuffer(data, dtype=np.uint8)
    blank = _BLANKS[codes]
    # a field starts at a non-blank byte after a blank, a line end or the file's start
    first = np.flatnonzero(~blank[:1])
    starts = np.concatenate((first, np.flatnonzero(blank[:-1] & ~blank[1:]) + 1))
    line = np.searchsorted(np.flatnonzero(codes == 10), starts)  # line of each field
    new_line = np.ones(starts.size, dtype=bool)
    new_line[1:] = line[1:] != line[:-1]
    if (codes[starts[new_line]] == ord("#")).any():
        return None  # a comment line: the line parser skips it
    per_line = np.diff(np.append(np.flatnonzero(new_line), starts.size))
    if not starts.size or (per_line != width).any():
        return None
    tokens = data.split()  # the same fields, by the same blanks
    return tokens if len(tokens) == starts.size else None


# -- the rules applied by polars' reader (a single separator between fields) ---------------

def separator(data: bytes) -> bytes | None:
    """The single-byte separator polars can use, or None when the file needs the line
    parser."""
    for raw in data[:65536].splitlines()[:50]:
        line = raw.strip()
        if not line or line.startswith(b"#"):
            continue
        if b"\t" in raw and b" " not in raw:
            return b"\t"
        if b" " in raw and b"\t" not in raw:
            return b" "
        return None
    return None


def foreign_blanks(data: bytes, sep: bytes) -> bool:
    """Whether ``data`` holds a field separator other than ``sep`` (a tab in a space-separated
    file, ...): trec_eval splits there too, so only the line parser reads it right."""
    if any(b in data for b in (b"\t", b" ", b"\x0b", b"\x0c") if b != sep):
        return True
    # a carriage return anywhere but before a line end is a blank to trec_eval, while
    # polars would keep it in a field (a stray "\\r" before the first line)
    return b"\r" in data and data.count(b"\r") != data.count(b"\r\n")


def _scan(data: bytes, sep: bytes, schema: dict[str, type[pl.DataType]],
          *columns: pl.Expr | str, ragged: bool = False) -> pl.DataFrame | None:
    """``columns`` of ``data`` read with ``schema`` by polars' reader, ``new`` marking where
    a block of rows with one query id starts (found by the parser's threads); None on any
    polars complaint (the line parser then explains it). ``ragged``: fields past the
    schema's are dropped."""
    qid = pl.col("query_id")
    try:
        return (pl.scan_csv(data, has_header=False, separator=sep.decode(), quote_char=None,
                            comment_prefix="#" if b"#" in data else None, schema=schema,
                            truncate_ragged_lines=ragged)
                .select(*columns, (qid != qid.shift(1)).fill_null(True).alias("new"))
                .collect())
    except Exception:  # any polars complaint: let the line parser explain it
        return None


def scan_qrels(data: bytes, sep: bytes) -> pl.DataFrame | None:
    """Judgments ``query_id``, ``doc_id``, ``relevance`` (float64) and ``new`` in one typed
    pass of polars' reader: the iter column is checked but never kept and the grades are
    parsed as integers, so the only string columns are the two ids. None when a line does
    not parse cleanly (the line parser then decides)."""
    if foreign_blanks(data, sep):
        return None
    schema = {"query_id": pl.String, "iter": pl.String, "doc_id": pl.String,
              "relevance": pl.Int64}
    # an empty field (two separators in a row, one at a line's start) either adds a field
    # (a polars error) or leaves an empty id: both are sent to the line parser
    empty = pl.any_horizontal(pl.col(c).str.len_bytes() == 0
                              for c in ("query_id", "iter", "doc_id"))
    df = _scan(data, sep, schema, "query_id", "doc_id", "relevance", empty.alias("empty"))
    # a line short of a field leaves a null (a blank line, a row of them)
    if df is None or df.null_count().sum_horizontal().item() != 0 or df["empty"].any():
        return None
    rel = df["relevance"]
    if bool(((rel > _MAX_INT_GRADE) | (rel < -_MAX_INT_GRADE)).any()):
        return None  # beyond MAX_GRADE (compared as integers: int64's least has no abs)
    return df.select("query_id", "doc_id", rel.cast(pl.Float64), "new")


def scan_run(data: bytes, sep: bytes, rank: type[pl.DataType] | None,
             numbers: bool = False) -> pl.DataFrame | None:
    """A run's kept columns (``query_id``, ``doc_id``, ``score``, ``doc_hash``, ``new``),
    ``missing`` marking lines short of a field (a null); fields past the sixth are dropped.

    ``rank=None`` is for a block where no two blanks are adjacent: a line with fewer than
    six fields has no tag there, and the iter and rank columns are not parsed at all.
    Otherwise an empty field also leaves a null, and ranks are parsed as ``rank``.
    ``numbers``: each doc id as a UInt32 number (``doc_number``, null where it is none)
    and its length in bytes (``doc_length``) instead of its hash (numbers key themselves).
    """
    schema: dict[str, type[pl.DataType]] = dict.fromkeys(RUN_COLUMNS, pl.String)
    schema.update(score=pl.Float64, rank=rank or pl.String)
    missing = pl.col("tag").is_null()
    if rank is not None:
        missing = missing | pl.col("iter").is_null() | pl.col("rank").is_null()
    doc = pl.col("doc_id")
    # (a cast: faster than str.to_integer; both read "+7" and "007" as 7, which
    # the lengths tell apart)
    kept = [doc.cast(pl.UInt32, strict=False).alias("doc_number"),
            doc.str.len_bytes().alias("doc_length")] if numbers else \
        [doc.hash(0).alias("doc_hash")]
    return _scan(data, sep, schema, "query_id", "doc_id", "score", missing.alias("missing"),
                 *kept, ragged=True)


def last_tag(block: bytes, sep: bytes) -> str | None:
    """The tag (6th field) of the block's last data line (None if it has none)."""
    end = len(block)
    while end > 0:
        start = block.rfind(b"\n", 0, end - 1) + 1
        line = block[start:end].rstrip(b"\r\n")
        end = start
        if not line.strip() or line.startswith(b"#"):
            continue
        fields = line.split(sep)
        if len(fields) < RUN_WIDTH:
            return None
        try:
            return fields[5].decode("utf-8")
        except UnicodeDecodeError:
            return None
    return None


# -- the line parser: every file the rules allow, and every error worded ------------------

_N = TypeVar("_N", int, float)


def _number(parse: Callable[[str], _N], field: str, expected: str, source: str,
            lineno: int) -> _N:
    """``parse(field)``, or the line's error: ``expected`` (an integer relevance, ...) and
    the field found."""
    try:
        return parse(field)
    except ValueError:
        raise InputError(f"expected {expected}, got {field!r}", source=source,
                         line=lineno) from None


def no_rows(source: str, what: str) -> InputError:
    """The error of a file without a data line (``what``: judgment, result)."""
    return InputError(f"no {what} lines found (only comments or blank lines)", source=source)


def line_qrels(data: bytes, source: str) -> pl.DataFrame:
    """Judgments ``query_id``, ``doc_id``, ``relevance`` by the line parser."""
    qids: list[str] = []
    dids: list[str] = []
    rels: list[float] = []
    for lineno, fields in data_lines(data, source, QRELS_WIDTH, _QRELS_LAYOUT,
                                     _QRELS_HINTS):
        rel = _number(strict_int, fields[3], "an integer relevance", source, lineno)
        # beyond the bound, as trec_eval's atol saturates at C's long range
        rel = max(-_MAX_INT_GRADE, min(rel, _MAX_INT_GRADE))
        qids.append(fields[0])
        dids.append(fields[2])
        rels.append(float(rel))
    if not qids:
        raise no_rows(source, "judgment")
    return pl.DataFrame({"query_id": qids, "doc_id": dids, "relevance": rels},
                        schema=table_schema("relevance"))


def line_run(data: bytes, source: str) -> tuple[pl.DataFrame, str]:
    """A run's ``query_id``, ``doc_id``, ``score`` and ``rank`` by the line parser, and the
    tag of its last line."""
    qids: list[str] = []
    dids: list[str] = []
    scores: list[float] = []
    ranks: list[int] = []
    tag = ""
    for lineno, fields in data_lines(data, source, (RUN_WIDTH, None), _RUN_LAYOUT,
                                     _RUN_HINTS):
        score = _number(strict_float, fields[4], "a numeric score", source, lineno)
        if math.isnan(score):
            raise InputError("expected a numeric score, got NaN", source=source, line=lineno)
        try:
            rank = strict_int(fields[3])
        except ValueError:
            rank = 0  # the rank column is ignored unless ties are broken by input order
        if not -(2**63) <= rank < 2**63:
            rank = 0  # beyond int64 (and ignored all the same)
        qids.append(fields[0])
        dids.append(fields[2])
        scores.append(score)
        ranks.append(rank)
        tag = fields[5]
    if not qids:
        raise no_rows(source, "result")
    return pl.DataFrame({"query_id": qids, "doc_id": dids, "score": scores, "rank": ranks},
                        schema={"query_id": pl.String, "doc_id": pl.String,
                                "score": pl.Float64, "rank": pl.Int64}), tag
