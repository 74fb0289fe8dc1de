"""Segments to documents: a segment run's documents scored by their segments (MaxP and
named alternatives), segment judgments to document judgments."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from ...._base.errors import InputError, ParameterError
from ...._base.lazy import polars as pl
from ...._base.validate import Choice, check
from ...tables import Qrels, Run

__all__ = ["QRELS_HOW", "RUN_HOW", "rollup"]

#: how a document's score comes from its segments' (first: in the run's given order)
RUN_HOW = ("maxp", "first", "sum")
#: how a document's grade comes from its segments'
QRELS_HOW = ("max", "min")

_T = TypeVar("_T", Run, Qrels)


def rollup(table: _T, by: str | re.Pattern[str] | Mapping[str, Any] | Path = "#",
           how: str | None = None) -> _T:
    """A segment run or segment judgments rolled up to documents.

    Parameters
    ----------
    table : Run or Qrels
        Segment-level rows (``load_run``, ``load_qrels`` or a RAG reader made them).
    by : str, re.Pattern, mapping or Path, default "#"
        A segment's document: the part before the first ``by`` (``"#"``: MS MARCO V2.1
        segments), a compiled regex's first group (its whole match without groups; found by
        ``re.search``), a
        mapping from segment id to document id (or to a list of them), or a file of
        ``segment document`` lines.
    how : str, optional
        For a run: ``"maxp"`` (default; the best segment's score, Anserini's MaxP),
        ``"first"`` (the score of the document's first segment in the run's given order)
        or ``"sum"``. For judgments: ``"max"`` (default; the highest grade) or ``"min"``.

    Returns
    -------
    Run or Qrels
        One row per (query, document): a run's ranked (score descending, ties by doc id
        descending, as trec_eval ranks), judgments in the order documents first appear.

    Raises
    ------
    InputError
        A segment that the regex does not match or the mapping does not list.

    Examples
    --------
    >>> import ranklens
    >>> run = ranklens.load_run({"q1": {"d1#0_5": 1.0, "d2#0_7": 3.0, "d1#1_9": 2.0}})
    >>> rollup(run, "#").frame.select("doc_id", "score").rows()
    [('d2', 3.0), ('d1', 2.0)]
    >>> rollup(ranklens.load_qrels({"q1": {"d1#0_5": 1, "d1#1_9": 3}})).frame.rows()
    [('q1', 'd1', 3.0)]
    """
    if isinstance(table, Run):
        check("how", how or "maxp", Choice(RUN_HOW))
        value = {"maxp": pl.col("score").max(), "first": pl.col("score").first(),
                 "sum": pl.col("score").sum()}[how or "maxp"]
        frame = _documents(table.frame.sort("order"), by, table.source)
        docs = frame.group_by("query_id", "doc_id", maintain_order=True).agg(value)
        return Run(docs.sort(["query_id", "score", "doc_id"], descending=[False, True, True]),
                   table.source, table.name)
    if isinstance(table, Qrels):
        check("how", how or "max", Choice(QRELS_HOW))
        grade = getattr(pl.col("relevance"), how or "max")()
        frame = _documents(table.frame, by, table.source)
        return Qrels(frame.group_by("query_id", "doc_id", maintain_order=True).agg(grade),
                     table.source, table.integer_query_ids)
    raise ParameterError(f"rollup takes a Run or a Qrels (load_run, load_qrels); got "
                         f"{type(table).__name__}")


def _documents(frame: pl.DataFrame, by: Any, source: str) -> pl.DataFrame:
    """``frame`` with each segment's ``doc_id`` replaced by its document's (rows exploded
    where a segment belongs to several)."""
    frame = frame.with_columns(pl.col("doc_id").cast(pl.String))
    if isinstance(by, Path):
        by = _mapping_file(by)
    if isinstance(by, str):
        if not by:
            raise ParameterError("the 'by' option of rollup must not be empty; got ''")
        return frame.with_columns(pl.col("doc_id").str.split(by).list.first())
    why = "is not in the mapping"
    if isinstance(by, re.Pattern):
        why = f"does not match the regex {by.pattern!r}"
        found = {s: by.search(s) for s in frame["doc_id"].unique().to_list()}
        by = {s: m.group(1 if by.groups else 0) for s, m in found.items() if m}
    if not isinstance(by, Mapping):
        raise ParameterError(f"the 'by' option of rollup must be a delimiter, a compiled "
                             f"regex, a mapping or a Path; got {type(by).__name__}")
    pairs = [(str(k), str(v)) for k, vs in by.items()
             for v in (vs if isinstance(vs, (list, tuple, set)) else [vs])]
    table = pl.DataFrame(pairs, orient="row", schema={"doc_id": pl.String,
                                                      "document": pl.String})
    return _checked(frame.join(table, on="doc_id", how="left", maintain_order="left"),
                    source, why)


def _checked(frame: pl.DataFrame, source: str, why: str) -> pl.DataFrame:
    missing = frame.filter(pl.col("document").is_null())
    if missing.height:
        raise InputError(f"segment {missing['doc_id'][0]!r} {why} ({missing.height} rows); "
                         "every segment needs its document", source=source)
    return frame.with_columns(pl.col("document").alias("doc_id")).drop("document")


def _mapping_file(path: Path) -> dict[str, list[str]]:
    """A ``segment document`` file as a mapping (a segment may be listed more than once)."""
    from ..trec.files import read_bytes

    mapping: dict[str, list[str]] = {}
    for number, line in enumerate(read_bytes(path).decode().splitlines(), 1):
        fields: Sequence[str] = line.split()
        if not fields:
            continue
        if len(fields) != 2:
            raise InputError(f"expected 'segment document', got {len(fields)} fields",
                             source=str(path), line=number)
        mapping.setdefault(fields[0], []).append(fields[1])
    return mapping
