"""TREC RAG topics: 2024/2026 TSV (``qid<TAB>text``), 2025 JSONL ``{id, title}`` (drafts:
``narrative``), and ragnarok requests (``query.qid``, ``query.text``)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ...._base.errors import InputError
from .records import records, source_name

__all__ = ["read_topics"]

#: the key of a JSONL topic's id and of its text, in the order tried
_ID_KEYS, _TEXT_KEYS = ("id", "qid", "topic_id"), ("title", "narrative", "text", "query")


def read_topics(source: str | Path | Iterable[Any]) -> dict[str, str]:
    """Topic texts by topic id, in the file's order.

    Parameters
    ----------
    source : path or iterable of dicts
        A TSV file (``qid<TAB>text``: TREC RAG 2024 and 2026), a JSON Lines file (TREC RAG
        2025's ``{"id", "title"}``, its drafts' ``narrative``, or a ragnarok request's
        ``query``), or such dicts. A ``.jsonl`` suffix or a first line starting with ``{``
        makes it JSON Lines.

    Returns
    -------
    dict of str to str

    Examples
    --------
    >>> read_topics([{"id": 464, "title": "I want to understand tides"}])
    {'464': 'I want to understand tides'}
    """
    name = source_name(source)
    if isinstance(source, (str, Path)) and not _is_jsonl(str(source)):
        from ..trec.files import read_bytes

        topics: dict[str, str] = {}
        for number, line in enumerate(read_bytes(str(source)).decode().splitlines(), 1):
            if not line.strip():
                continue
            if "\t" not in line:
                raise InputError("expected 'topic id<TAB>text'; found no tab", source=name,
                                 line=number)
            qid, text = line.split("\t", 1)
            _add(topics, qid.strip(), text.strip(), name, number)
        return topics
    topics = {}
    for at, record in records(source):
        record = record.get("query", record) if isinstance(record.get("query"), dict) \
            else record
        ident = next((record[k] for k in _ID_KEYS if k in record), None)
        words = next((record[k] for k in _TEXT_KEYS if k in record), None)
        if ident is None or not isinstance(words, str):
            raise InputError(f"expected a topic id ({', '.join(_ID_KEYS)}) and its text "
                             f"({', '.join(_TEXT_KEYS)}); found {sorted(record)}",
                             source=name, line=at)
        _add(topics, str(ident), words, name, at)
    return topics


def _is_jsonl(path: str) -> bool:
    from ..trec.files import read_bytes

    return ".jsonl" in path or read_bytes(path).lstrip()[:1] == b"{"


def _add(topics: dict[str, str], qid: str, text: str, name: str, line: int | None) -> None:
    if qid in topics:
        raise InputError(f"topic {qid!r} is given twice", source=name, line=line)
    topics[qid] = text
