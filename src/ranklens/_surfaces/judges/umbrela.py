"""UMBRELA's judgments read as qrels: its output records carry no ids, so they are joined by
position with the request file it judged (each request's candidates in order).

Named as a judge's columns: ``umbrela:REQUESTS.jsonl`` (``--columns llm:umbrela:req.jsonl``).
A record UMBRELA could not parse (``result_status`` 0) keeps UMBRELA's own label, 0.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from ..._base.errors import InputError

__all__ = ["PREFIX", "umbrela_qrels"]

PREFIX = "umbrela:"


def _field(record: Any, keys: tuple[str, ...], source: str, line: int | None) -> Any:
    value = record
    for key in keys:
        if not isinstance(value, dict) or key not in value:
            raise InputError(f"the record has no {'.'.join(keys)!r}; UMBRELA's requests hold "
                             "query.qid and candidates[].docid, its outputs a judgment",
                             source=source, line=line)
        value = value[key]
    return value


def _label(value: Any, source: str, line: int | None) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(f"judgment: expected a number, got {value!r}", source=source,
                         line=line)
    return float(value)


def umbrela_qrels(outputs: Any, requests: str) -> pl.DataFrame:
    """The judgments (``query_id, doc_id, relevance``): the ``n``-th output record labels the
    ``n``-th candidate of the requests, read in file order."""
    from ..._ingest.io._pairs import _id
    from ..._ingest.io.rag.records import _read_jsonl

    pairs = [(_id(_field(r, ("query", "qid"), requests, n), "query.qid", requests, n),
              _id(_field(c, ("docid",), requests, n), "docid", requests, n))
             for n, r in _read_jsonl(requests)
             for c in _field(r, ("candidates",), requests, n)]
    labels = [_label(_field(r, ("judgment",), str(outputs), n), str(outputs), n)
              for n, r in _read_jsonl(str(outputs))]
    if len(labels) != len(pairs):
        raise InputError(f"{len(labels)} judgments for the {len(pairs)} candidates of "
                         f"{requests}; give the request file UMBRELA judged", source=str(outputs))
    return pl.DataFrame({"query_id": [q for q, _ in pairs], "doc_id": [d for _, d in pairs],
                         "relevance": pl.Series(labels, dtype=pl.Float64)})
