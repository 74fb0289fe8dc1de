"""TREC RAG answer submissions (AG/RAG: 2024 flat, 2025 nested; ragnarok responses) and
ragnarok requests, as runs: the ``references`` or ``candidates`` in their order."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...._base.errors import InputError
from ...._base.lazy import polars as pl
from ...tables import Run
from .records import field, records, source_name

__all__ = ["Answers", "jsonl_run_kind", "read_answers", "read_requests"]


@dataclass(frozen=True)
class Answers:
    """An answer submission read by :func:`read_answers`.

    Attributes
    ----------
    run : Run
        Each topic's ``references`` as a ranked run (rank = position + 1).
    citations : dict of str to list of tuple of str
        Per topic, the segment ids each answer sentence cites, in the sentence's order.
    topics : dict of str to str
        Per topic, the topic (2024) or narrative (2025) text the record carries.
    """

    run: Run
    citations: dict[str, list[tuple[str, ...]]]
    topics: dict[str, str]


def _ranked_run(rows: list[tuple[str, list[str], list[float] | None]], name: str,
                source: str) -> Run:
    """A run of ``(topic, ids, scores or None)``; no scores: ``len(ids) - position``."""
    q, d, s = [], [], []
    for topic, ids, scores in rows:
        q += [topic] * len(ids)
        d += ids
        s += scores if scores is not None else [float(len(ids) - i) for i in range(len(ids))]
    return Run(pl.DataFrame({"query_id": q, "doc_id": d, "score": s},
                            schema={"query_id": pl.String, "doc_id": pl.String,
                                    "score": pl.Float64}), source, name)


def _ids(value: Any, what: str, name: str, line: int | None) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, (str, int)) for v in value):
        raise InputError(f"{what} must be a list of ids; got {value!r:.80}", source=name,
                         line=line)
    return [str(v) for v in value]


def read_answers(source: str | Path | Iterable[Any], *, name: str | None = None) -> Answers:
    """Read an AG/RAG answer submission (JSON Lines, one record per topic).

    Parameters
    ----------
    source : path or iterable of dicts
        2024 flat records (``run_id``, ``topic_id``, ``topic``, ``references``, ``answer``;
        also ragnarok's responses) or 2025 nested ones (``metadata.run_id``,
        ``metadata.narrative_id``, ``references``, ``answer``). A citation is an index into
        ``references`` (2024; 2025 format 1) or a segment id listed there (2025 format 2).
    name : str, optional
        The run's name; default the records' ``run_id``.

    Returns
    -------
    Answers
        The references as a run, the cited ids per sentence, the topic texts.

    Raises
    ------
    InputError
        A missing field, a citation out of range or not among the references (naming the
        line), or two records for one topic.

    Examples
    --------
    >>> answers = read_answers([{"run_id": "r", "topic_id": "7", "topic": "why?",
    ...     "references": ["d1#0_5", "d2#3_9"],
    ...     "answer": [{"text": "Because.", "citations": [1]}]}])
    >>> answers.run, answers.citations
    (Run('<records>', 1 queries, 2 rows), {'7': [('d2#3_9',)]})
    """
    source_text = source_name(source)
    rows: list[tuple[str, list[str], list[float] | None]] = []
    citations: dict[str, list[tuple[str, ...]]] = {}
    topics: dict[str, str] = {}
    run_id = name
    for line, record in records(source):
        meta = record.get("metadata")
        nested = isinstance(meta, dict)
        info: Mapping[str, Any] = meta if isinstance(meta, dict) else record
        topic = str(field(info, "narrative_id" if nested else "topic_id", source_text, line))
        if topic in citations:
            raise InputError(f"topic {topic!r} has two records; expected one per topic",
                             source=source_text, line=line)
        refs = _ids(field(record, "references", source_text, line), "references",
                    source_text, line)
        run_id = run_id or str(info.get("run_id") or "run")
        topics[topic] = str(info.get("narrative" if nested else "topic", ""))
        citations[topic] = [_cited(sentence, refs, source_text, line)
                            for sentence in field(record, "answer", source_text, line)]
        rows.append((topic, refs, None))
    return Answers(_ranked_run(rows, run_id or "run", source_text), citations, topics)


def _cited(sentence: Any, refs: list[str], name: str, line: int | None) -> tuple[str, ...]:
    """The ids one answer sentence cites (indexes resolved against ``refs``)."""
    cited = sentence.get("citations", []) if isinstance(sentence, dict) else None
    if not isinstance(cited, list):
        raise InputError(f"an answer sentence must be an object with a 'citations' list; "
                         f"got {sentence!r:.80}", source=name, line=line)
    out = []
    for c in cited:
        if isinstance(c, int) and not isinstance(c, bool) and 0 <= c < len(refs):
            out.append(refs[c])
        elif isinstance(c, str) and c in refs:
            out.append(c)
        else:
            raise InputError(f"citation {c!r} is neither an index below {len(refs)} nor an "
                             "id among the references", source=name, line=line)
    return tuple(out)


def read_requests(source: str | Path | Iterable[Any], *, name: str = "requests") -> Run:
    """Read ragnarok/RankLLM request records (``query.qid``, ``candidates[].docid``,
    ``candidates[].score``) as a run; candidates without a score rank by position.

    Examples
    --------
    >>> read_requests([{"query": {"qid": "1", "text": "q"},
    ...     "candidates": [{"docid": "a", "score": 2.5}, {"docid": "b", "score": 1.0}]}])
    Run('<records>', 1 queries, 2 rows)
    """
    source_text = source_name(source)
    rows: list[tuple[str, list[str], list[float] | None]] = []
    for line, record in records(source):
        qid = str(field(record, "query.qid", source_text, line))
        candidates = field(record, "candidates", source_text, line)
        ids = _ids([c.get("docid") if isinstance(c, dict) else c for c in candidates],
                   "candidates' docid", source_text, line)
        scores = [c.get("score") if isinstance(c, dict) else None for c in candidates]
        given = None if None in scores else [float(s) for s in scores if s is not None]
        rows.append((qid, ids, given))
    return _ranked_run(rows, name, source_text)


#: the most of a JSON Lines file read to tell its kind: its first record's bytes
_FIRST_RECORD_BOUND = 1 << 24


def jsonl_run_kind(path: str) -> str | None:
    """``"answers"`` or ``"requests"`` when the first record of the JSON Lines file ``path``
    is one (``references`` and ``answer`` keys, or a ``candidates`` key), else None. Reads
    at most the first line, up to :data:`_FIRST_RECORD_BOUND` bytes."""
    import json

    from ..trec.files import open_stream

    stream, closing = open_stream(path)
    try:
        first = b""
        while not first.strip():
            first = stream.readline(_FIRST_RECORD_BOUND)
            if not first:
                return None
    finally:
        if closing is not None:
            closing.close()
    try:
        keys = json.loads(first)
    except ValueError:
        return None
    if isinstance(keys, dict) and "references" in keys and "answer" in keys:
        return "answers"
    return "requests" if isinstance(keys, dict) and "candidates" in keys else None
