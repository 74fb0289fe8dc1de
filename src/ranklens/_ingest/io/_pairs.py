"""Id-list inputs (RAG retrievers): ranked ids per query plus gold ids or grades -> tables.

Two forms:

- mappings ``{query: [ranked ids]}`` with ``{query: [gold ids]}`` (a set or list) or
  ``{query: {id: grade}}``;
- a JSON Lines file (or an iterable of dicts), one record per question::

      {"query_id": "q1", "retrieved": ["c7", "c2", "c9"], "relevant": ["c2"]}

  with the aliases ``question``/``id``/``qid``/``user_input`` for ``query_id``,
  ``retrieved_ids``/``contexts``/``retrieved_context_ids`` (ragas) for ``retrieved`` and
  ``gold_ids``/``expected_ids``/``relevant_ids``/``reference_context_ids`` for
  ``relevant``; ``relevant`` may also be an id-to-grade object.

The ranking is the list order. A question whose gold set is empty stays evaluated (as a
query without relevant items, see ``empty=``). A retrieved id listed twice is an error, or
with ``duplicates="first"`` every later occurrence is dropped: Spark's RankingMetrics and
LlamaIndex count repeats and can exceed 1.0, which ranklens never does.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..._base.errors import InputError
from ..._base.lazy import polars as pl
from ..._base.validate import Choice, check
from ..columns import GRADE_RANGE, MAX_GRADE
from ..tables import Qrels, Run, table_schema
from .rag.records import records as read_records
from .rag.records import source_name

__all__ = ["EMPTY_GOLD_ID", "FIELDS", "load_pairs", "pairs_to_tables"]

#: Accepted field names of a JSON Lines record, canonical name first.
FIELDS: dict[str, tuple[str, ...]] = {
    "query_id": ("query_id", "id", "qid", "question", "user_input"),
    "retrieved": ("retrieved", "retrieved_ids", "contexts", "retrieved_context_ids"),
    "relevant": ("relevant", "gold_ids", "expected_ids", "relevant_ids",
                 "reference_context_ids"),
}

#: Doc id of the grade-0 judgment that keeps a question with no gold id evaluated.
EMPTY_GOLD_ID = ""

_DUPLICATES = ("error", "first")


def _id(value: Any, what: str, source: str, line: int | None) -> str:
    if isinstance(value, bool) or value is None or isinstance(value, (list, dict, float)):
        raise InputError(f"{what}: expected a string or integer id, got {value!r}",
                         source=source, line=line)
    text = str(value)
    if not text:
        raise InputError(f"{what}: empty id", source=source, line=line)
    return text


def _ranked(q: str, ids: Any, duplicates: str, source: str,
            line: int | None) -> list[str]:
    if isinstance(ids, (str, bytes, Mapping)) or not isinstance(ids, Iterable):
        raise InputError(f"query {q!r}: retrieved ids must be a list in rank order, got "
                         f"{type(ids).__name__}", source=source, line=line)
    out: list[str] = []
    seen: dict[str, int] = {}
    for pos, raw in enumerate(ids, start=1):
        doc = _id(raw, f"query {q!r}, retrieved position {pos}", source, line)
        if doc in seen:
            if duplicates == "error":
                raise InputError(
                    f"query {q!r}: id {doc!r} is retrieved twice (positions {seen[doc]} and "
                    f"{pos}); pass duplicates='first' to keep only the first occurrence",
                    source=source, line=line)
            continue
        seen[doc] = pos
        out.append(doc)
    return out


def _gold(q: str, gold: Any, source: str, line: int | None) -> dict[str, float]:
    if isinstance(gold, Mapping):
        out: dict[str, float] = {}
        for raw, grade in gold.items():
            doc = _id(raw, f"query {q!r}, gold id", source, line)
            if isinstance(grade, bool) or not isinstance(grade, (int, float, np.number)):
                raise InputError(f"query {q!r}, gold id {doc!r}: expected a numeric grade, "
                                 f"got {grade!r}", source=source, line=line)
            try:
                value = float(grade)
            except OverflowError:  # an int beyond float64 (10**400)
                value = math.inf
            if math.isnan(value):
                raise InputError(f"query {q!r}, gold id {doc!r}: grade is NaN",
                                 source=source, line=line)
            if not abs(value) <= MAX_GRADE:  # JSON's 1e999 is inf
                shown = repr(grade) if len(repr(grade)) <= 40 else f"{repr(grade)[:40]}..."
                raise InputError(f"query {q!r}, gold id {doc!r}: expected a finite grade "
                                 f"{GRADE_RANGE}, got {shown}",
                                 source=source, line=line)
            out[doc] = value
        return out
    if isinstance(gold, (str, bytes)) or not isinstance(gold, Iterable):
        raise InputError(f"query {q!r}: gold ids must be a list, a set or an id-to-grade "
                         f"mapping, got {type(gold).__name__}", source=source, line=line)
    return {_id(raw, f"query {q!r}, gold id", source, line): 1.0 for raw in gold}


def _is_integer_id(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _tables(records: list[tuple[str, list[str] | None, dict[str, float] | None]],
            source: str, integer: bool = False) -> tuple[Qrels, Run]:
    """The tables of ``records``; ``integer``: every question id was given as an integer
    (they come back as integers, in numeric order: Result.to_polars)."""
    run: dict[str, list[Any]] = {"query_id": [], "doc_id": [], "score": []}
    judged: dict[str, list[Any]] = {"query_id": [], "doc_id": [], "relevance": []}
    empty: list[str] = []
    for q, ranked, gold in records:
        if ranked is not None and not ranked:
            empty.append(q)  # an empty retrieved list is an empty ranking, not an absent query
        if ranked is not None:
            # strictly decreasing scores: every tie policy keeps the list order
            _extend(run, q, ranked, [float(len(ranked) - i) for i in range(len(ranked))])
        if gold is not None:
            gold = gold or {EMPTY_GOLD_ID: 0.0}
            _extend(judged, q, list(gold), list(gold.values()))
    table = Run(pl.DataFrame(run, schema=table_schema("score")), source)
    if empty:
        table.empty_queries = tuple(dict.fromkeys(empty))
    return Qrels(pl.DataFrame(judged, schema=table_schema("relevance")), source,
                 integer_query_ids=integer and bool(records)), table


def _extend(columns: dict[str, list[Any]], q: str, docs: list[str], values: list[float]) -> None:
    """Add the rows of ``q``'s ``docs`` and their ``values`` to a table's ``columns``."""
    added: tuple[list[Any], ...] = ([q] * len(docs), docs, values)
    for column, rows in zip(columns.values(), added, strict=True):
        column.extend(rows)


def _aligned_lists(relevant: Any, retrieved: Any, source: str) -> tuple[Any, Any]:
    """Aligned lists (one entry per query, in order) as mappings from the query's position;
    anything else as it is."""
    if not (isinstance(relevant, (list, tuple)) and isinstance(retrieved, (list, tuple))):
        return relevant, retrieved
    if len(relevant) != len(retrieved):
        raise InputError(f"relevant and retrieved must hold one entry per query each; got "
                         f"{len(relevant)} and {len(retrieved)}", source=source)
    return dict(enumerate(relevant)), dict(enumerate(retrieved))


def pairs_to_tables(
    relevant: Mapping[Any, Any] | Sequence[Any],
    retrieved: Mapping[Any, Any] | Sequence[Any],
    *,
    duplicates: str = "error",
) -> tuple[Qrels, Run]:
    """Gold ids (or grades) and ranked id lists per query -> ``(Qrels, Run)``.

    Parameters
    ----------
    relevant : mapping or list
        ``{query: [gold ids]}`` (list or set; grade 1) or ``{query: {id: grade}}``; or a
        list of them, one per query, aligned with ``retrieved`` (the queries are then
        numbered ``0, 1, ...``).
    retrieved : mapping or list
        ``{query: [ids in rank order]}``, or a list of ranked id lists aligned with
        ``relevant`` (LlamaIndex's and ragas' shape: ``expected_ids``, ``retrieved_ids``).
    duplicates : {"error", "first"}, default "error"
        An id retrieved twice for one query: an :class:`InputError`, or keep the first.

    Examples
    --------
    >>> import ranklens
    >>> qrels, run = ranklens.from_pairs({"q1": ["b"]}, {"q1": ["a", "b", "c"]})
    >>> run
    Run('<id lists>', 1 queries, 3 rows)
    >>> qrels, run = ranklens.from_pairs([["b"], ["x"]], [["a", "b"], ["x"]])
    >>> ranklens.evaluate(qrels, run, ["RR"]).per_query("RR")
    {'0': 0.5, '1': 1.0}
    """
    check("duplicates", duplicates, Choice(_DUPLICATES))
    source = "<id lists>"
    relevant, retrieved = _aligned_lists(relevant, retrieved, source)
    for name, value in (("relevant", relevant), ("retrieved", retrieved)):
        if not isinstance(value, Mapping):
            raise InputError(f"{name} must be a mapping of query id to ids, got "
                             f"{type(value).__name__}", source=source)
    records: list[tuple[str, list[str] | None, dict[str, float] | None]] = []
    raw_ids = dict.fromkeys([*relevant, *retrieved])
    for raw_q in raw_ids:
        q = _id(raw_q, "query id", source, None)
        ranked = (_ranked(q, retrieved[raw_q], duplicates, source, None)
                  if raw_q in retrieved else None)
        gold = _gold(q, relevant[raw_q], source, None) if raw_q in relevant else None
        records.append((q, ranked, gold))
    return _tables(records, source, all(_is_integer_id(q) for q in raw_ids))


def _field(record: Mapping[str, Any], key: str, source: str, line: int | None,
           required: bool = True) -> Any:
    for alias in FIELDS[key]:
        if alias in record:
            return record[alias]
    if required:
        raise InputError(f"record has no {key!r} field (or {', '.join(FIELDS[key][1:])}); "
                         f"found {sorted(record)}", source=source, line=line)
    return None


def load_pairs(
    source: str | Path | Iterable[Mapping[str, Any]],
    *,
    duplicates: str = "error",
) -> tuple[Qrels, Run]:
    """Read RAG-style records (a JSON Lines file or dicts) into ``(Qrels, Run)``.

    Parameters
    ----------
    source : path or iterable of dicts
        A ``.jsonl`` file (optionally compressed; ``-`` is standard input), one record per
        question with ``query_id``, ``retrieved`` (ids in rank order) and ``relevant`` (gold
        ids, or an id-to-grade object); aliases ``question``/``id``, ``retrieved_ids``/
        ``contexts``, ``gold_ids``/``expected_ids`` are accepted.
    duplicates : {"error", "first"}, default "error"
        An id retrieved twice in one record: an error naming the line, or keep the first.

    Examples
    --------
    >>> qrels, run = load_pairs([
    ...     {"question": "who?", "contexts": ["c1", "c2"], "gold_ids": ["c2"]},
    ...     {"id": "q2", "retrieved_ids": ["c5"], "expected_ids": {"c5": 2}},
    ... ])
    >>> qrels
    Qrels('<records>', 2 queries, 2 judgments)
    """
    check("duplicates", duplicates, Choice(_DUPLICATES))
    name = source_name(source)
    records: list[tuple[str, list[str] | None, dict[str, float] | None]] = []
    first_line: dict[str, int | None] = {}
    integer = True
    for line, record in read_records(source):  # pydantic samples read as their fields
        raw_q = _field(record, "query_id", name, line)
        integer = integer and _is_integer_id(raw_q)
        q = _id(raw_q, "query id", name, line)
        if q in first_line:
            where = f" (line {first_line[q]})" if first_line[q] else ""
            raise InputError(f"query {q!r} appears in two records{where}; expected one record "
                             "per question", source=name, line=line)
        first_line[q] = line
        ranked = _ranked(q, _field(record, "retrieved", name, line), duplicates, name, line)
        gold = _gold(q, _field(record, "relevant", name, line), name, line)
        records.append((q, ranked, gold))
    if not records:
        raise InputError("no records", source=name)
    return _tables(records, name, integer)


def load_pairs_runs(
    sources: Sequence[str | Path],
    *,
    duplicates: str = "error",
    names: Sequence[str] | None = None,
) -> tuple[Qrels, dict[str, Run]]:
    """Several systems' RAG records, one file each, as one set of judgments and the runs.

    Each file carries the gold ids of its questions; the judgments are their union, and a
    question judged in two files must be judged the same in both (a system that skipped a
    question is a run missing that query, under the ``missing`` policy).

    Parameters
    ----------
    sources : sequence of paths
        JSON Lines files, as for :func:`load_pairs`.
    duplicates : {"error", "first"}, default "error"
        As for :func:`load_pairs`.
    names : sequence of str, optional
        The runs' names, one per source (default: by their file names, as
        :func:`ranklens._ingest.io._run_names.name_runs` names paths).

    Raises
    ------
    InputError
        A file that does not read, or a question whose gold ids (or grades) differ between
        two files: naming both files and the question.
    """
    loaded = [(str(s), *load_pairs(s, duplicates=duplicates)) for s in sources]
    frames = [qrels.frame.with_columns(pl.lit(at).alias("file"))
              for at, (_, qrels, _) in enumerate(loaded)]
    every = pl.concat(frames).sort(["query_id", "file", "doc_id"])
    # one key per (file, question): its gold ids and grades, in doc id order
    keys = every.group_by(["query_id", "file"], maintain_order=True).agg(
        pl.concat_str([pl.col("doc_id"), pl.col("relevance").cast(pl.String)],
                      separator="\x00").str.join("\x01").alias("key"))
    first = keys.group_by("query_id", maintain_order=True).agg(
        pl.col("file").first().alias("first"), pl.col("key").first().alias("first_key"))
    differ = keys.join(first, on="query_id").filter(pl.col("key") != pl.col("first_key"))
    if differ.height:
        row = differ.sort(["query_id", "file"]).row(0, named=True)
        raise InputError(
            f"question {row['query_id']!r} has other gold ids or grades here than in "
            f"{loaded[row['first']][0]}; expected the same judgments in every --pairs file",
            source=loaded[row["file"]][0])
    union = every.join(first, on="query_id").filter(pl.col("file") == pl.col("first"))
    qrels = Qrels(union.select("query_id", "doc_id", "relevance"), loaded[0][0],
                  integer_query_ids=all(q.integer_query_ids for _, q, _ in loaded))
    if names is None:
        from ._run_names import name_runs

        names = [str(n) for n in name_runs([source for source, _, _ in loaded])]
    return qrels, {name: run for name, (_, _, run) in zip(names, loaded, strict=True)}
