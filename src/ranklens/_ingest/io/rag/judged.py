"""Judgments in TREC RAG's other shapes: the 2025 participant judgment file (six columns:
``topic Q0 segment grade confidence tag``) and UMBRELA's outputs (one record per candidate,
without ids, in the order of the requests judged)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

from ...._base.errors import InputError
from ...._base.lazy import polars as pl
from ...._base.validate import Choice, check
from ...._base.warn import warn_user
from ...tables import Qrels
from .records import field, records, source_name

__all__ = ["RagJudgments", "read_rag_judgments", "read_umbrela"]


class RagJudgments(NamedTuple):
    """The 2025 judgment file: ``qrels`` (topic, segment, grade) and ``extra`` (``query_id,
    doc_id, confidence, tag``, one row per judgment)."""

    qrels: Qrels
    extra: pl.DataFrame


def read_rag_judgments(path: str | Path) -> RagJudgments:
    """Read a TREC RAG 2025 participant judgment file.

    Its six columns (``topic Q0 segment grade confidence tag``) are no trec_eval qrels file,
    which has four: the grade is kept as the judgment, confidence and tag beside it.

    Raises
    ------
    InputError
        A line without six fields, or a grade or confidence that is no number.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "judged.txt"
    >>> _ = p.write_text("1 Q0 d#0_1 3 0.9 mine\\n")
    >>> read_rag_judgments(p).extra.row(0)
    ('1', 'd#0_1', 0.9, 'mine')
    """
    from ..trec.files import read_bytes

    name, rows = str(path), []
    for number, raw in enumerate(read_bytes(name).decode().splitlines(), 1):
        fields = raw.split()
        if not fields:
            continue
        if len(fields) != 6:
            raise InputError(f"expected 6 fields (topic Q0 segment grade confidence tag), "
                             f"got {len(fields)}", source=name, line=number)
        try:
            rows.append((fields[0], fields[2], float(fields[3]), float(fields[4]), fields[5]))
        except ValueError:
            raise InputError(f"grade {fields[3]!r} and confidence {fields[4]!r} must be "
                             "numbers", source=name, line=number) from None
    frame = pl.DataFrame(rows, orient="row", schema={
        "query_id": pl.String, "doc_id": pl.String, "relevance": pl.Float64,
        "confidence": pl.Float64, "tag": pl.String})
    return RagJudgments(Qrels(frame.select("query_id", "doc_id", "relevance"), name),
                        frame.select("query_id", "doc_id", "confidence", "tag"))


_UNPARSED = ("drop", "zero", "error")


def read_umbrela(outputs: str | Path | Iterable[Any], requests: str | Path | Iterable[Any],
                 *, unparsed: str = "drop") -> Qrels:
    """UMBRELA's judgments joined by position with the requests it judged.

    Parameters
    ----------
    outputs : path or iterable of dicts
        UMBRELA's output records (``judgment``, ``result_status``, ``query``), one per
        candidate, in the requests' order.
    requests : path or iterable of dicts
        The request records judged (``query.qid``, ``query.text``, ``candidates[].docid``).
    unparsed : {"drop", "zero", "error"}, default "drop"
        A record with ``result_status`` 0 (no score parsed; UMBRELA writes judgment 0):
        left unjudged (with a warning), kept as grade 0, or an error naming it.

    Raises
    ------
    InputError
        Counts that differ, or a record whose ``query`` is not its request's text.

    Examples
    --------
    >>> read_umbrela([{"query": "q", "judgment": 2, "result_status": 1}],
    ...              [{"query": {"qid": "1", "text": "q"}, "candidates": [{"docid": "a"}]}])
    Qrels('<records>', 1 queries, 1 judgments)
    """
    check("unparsed", unparsed, Choice(_UNPARSED))
    name = source_name(requests)
    pairs = [(str(field(r, "query.qid", name, line)), field(r, "query.text", name, line),
              str(c["docid"] if isinstance(c, dict) else c))
             for line, r in records(requests) for c in field(r, "candidates", name, line)]
    judged = list(records(outputs))
    out = source_name(outputs)
    if len(judged) != len(pairs):
        raise InputError(f"{len(judged)} judgments for {len(pairs)} candidates in {name}; "
                         "UMBRELA writes one per candidate, in order", source=out)
    rows, dropped = [], 0
    for (line, record), (qid, text, docid) in zip(judged, pairs, strict=True):
        if "query" in record and record["query"] != text:
            raise InputError(f"query {record['query']!r:.60} is not that of its request "
                             f"({qid!r}: {text!r:.60})", source=out, line=line)
        if record.get("result_status", 1) == 0 and unparsed != "zero":
            if unparsed == "error":
                raise InputError(f"no score was parsed for ({qid}, {docid}) (result_status "
                                 "0); pass unparsed='drop' or 'zero'", source=out, line=line)
            dropped += 1
            continue
        rows.append((qid, docid, float(field(record, "judgment", out, line))))
    if dropped:
        warn_user(f"{out}: {dropped} judgment(s) without a parsed score left unjudged "
                  "(unparsed='drop')")
    return Qrels(pl.DataFrame(rows, orient="row", schema={
        "query_id": pl.String, "doc_id": pl.String, "relevance": pl.Float64}), out)
