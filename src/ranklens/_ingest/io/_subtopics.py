"""Subtopic judgments: the TREC Web track's ``ndeval`` qrels (``topic subtopic doc grade``)
and their in-memory forms, read into a :class:`~ranklens._ingest.tables.SubtopicQrels`.

An ``ndeval`` file has four columns like a TREC qrels file, the second holding the subtopic
instead of trec_eval's ignored iteration, so nothing in a file tells the two kinds apart:
``load_qrels(..., kind="subtopic")`` says which, and this reader never guesses.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..._base.errors import InputError
from ..._base.lazy import polars as pl
from ..tables import SubtopicQrels
from ._frames import ALIASES, read_frame, require_column
from ._lines import check_text, data_lines, strict_int
from .trec.files import read_bytes

__all__ = ["SUBTOPIC_ALIASES", "read_ndeval_qrels", "subtopic_qrels_from_frame",
           "subtopic_qrels_from_mapping"]

#: column names a frame's subtopic column may go by
SUBTOPIC_ALIASES = ALIASES["subtopic"]

_LAYOUT = "topic subtopic doc grade"


def read_ndeval_qrels(path: str | Path, *, data: bytes | None = None) -> SubtopicQrels:
    """Read an ``ndeval`` qrels file: ``topic subtopic doc grade`` per line.

    The grade must be an integer; blank lines and lines starting with ``#`` are skipped (the
    one tokenizer's rules, :mod:`ranklens._ingest.io._lines`).

    Examples
    --------
    >>> read_ndeval_qrels("x", data=b"1 1 d1 1\\n1 2 d1 0\\n1 2 d2 1\\n")
    SubtopicQrels('x', 1 queries, 2 subtopics, 3 judgments)
    """
    source = str(path)
    if data is None:
        data = read_bytes(path)
    check_text(data, source)
    rows: list[tuple[str, str, str, float]] = []
    for lineno, fields in data_lines(data, source, 4, _LAYOUT):
        try:
            grade = strict_int(fields[3])
        except ValueError:
            raise InputError(f"expected an integer grade, got {fields[3]!r}", source=source,
                             line=lineno) from None
        rows.append((fields[0], fields[1], fields[2], float(grade)))
    if not rows:
        raise InputError("no judgment lines found (only comments or blank lines)",
                         source=source)
    return SubtopicQrels(pl.DataFrame(rows, orient="row", schema={
        "query_id": pl.String, "subtopic": pl.String, "doc_id": pl.String,
        "relevance": pl.Float64}), source)


def subtopic_qrels_from_mapping(qrels: Mapping) -> SubtopicQrels:
    """Subtopic judgments from ``{query: {subtopic: {doc: grade}}}`` (pyndeval's nested
    form)."""
    source = "<subtopic qrels dict>"
    rows: list[tuple[Any, Any, Any, Any]] = []
    for qid, subtopics in qrels.items():
        if not isinstance(subtopics, Mapping) or not all(
                isinstance(docs, Mapping) for docs in subtopics.values()):
            raise InputError(
                f"query {qid!r}: expected {{subtopic: {{doc: grade}}}}, got "
                f"{type(subtopics).__name__} (subtopic judgments as a mapping are "
                "{query: {subtopic: {doc: grade}}})", source=source)
        rows += [(qid, sub, doc, grade) for sub, docs in subtopics.items()
                 for doc, grade in docs.items()]
    columns = list(zip(*rows, strict=True)) or [()] * 4
    frame = pl.DataFrame([pl.Series(k, list(v), strict=False) for k, v in zip(
        ("query_id", "subtopic", "doc_id", "relevance"), columns, strict=True)])
    return SubtopicQrels(frame, source)


def subtopic_qrels_from_frame(obj: Any, source: str = "<subtopic qrels frame>") -> SubtopicQrels:
    """Subtopic judgments from a frame with query, subtopic, doc and grade columns (any of
    their aliases: :data:`SUBTOPIC_ALIASES` for the subtopic)."""
    df = read_frame(obj, "subtopic qrels", source)
    names = {k: require_column(df.columns, k, source)
             for k in ("query_id", "subtopic", "doc_id", "relevance")}
    return SubtopicQrels(df.select(pl.col(c).alias(k) for k, c in names.items()), source)
