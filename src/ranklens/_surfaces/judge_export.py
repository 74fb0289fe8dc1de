"""Judge-ready requests: the unjudged pairs of a depth-k pool, for an LLM judge to label.

One JSON Lines record per query, in the request shape ragnarok writes and UMBRELA reads
(``{"query": {"qid", "text"}, "candidates": [{"docid", "doc": {"segment", ...}}]}``).
The pool is :func:`ranklens.pool`'s: the pairs are in its order, so a judge's outputs that
carry no ids (UMBRELA's) are joined back to them by position. ranklens calls no model.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .._base.errors import InputError
from .._ingest.io._lines import text_lines
from .._ingest.io.given_columns import Columns
from .._ingest.io.trec.files import open_stream, read_bytes
from .pool import Pool, pool

__all__ = ["JudgeRequests", "json_records", "judge_requests"]

#: the keys read for a topic's id and text, and a corpus record's id and passage, first found
TOPIC_IDS, TOPIC_TEXTS = ("qid", "id", "query_id", "topic_id", "_id"), ("text", "title",
                                                                         "query", "narrative")
DOC_IDS, DOC_TEXTS = ("docid", "_id", "id", "doc_id"), ("segment", "text", "contents", "body")


@dataclass(frozen=True, eq=False)
class JudgeRequests:
    """The requests to send to a judge, one per query with unjudged pairs.

    Attributes
    ----------
    records : the request records, in the pool's order.
    pool : the pool they come from.
    """

    records: tuple[dict[str, Any], ...]
    pool: Pool

    def pairs(self) -> list[tuple[str, str]]:
        """The (query id, doc id) pairs in request order (the order a judge answers in)."""
        return [(r["query"]["qid"], c["docid"]) for r in self.records for c in r["candidates"]]

    def render(self) -> str:
        """The requests as JSON Lines."""
        return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in self.records)

    def summary(self) -> str:
        """How many requests and pairs, in one line."""
        return f"{len(self.records)} requests; {self.pool.summary()}"


def json_records(source: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, record) of a JSON Lines file, read as a stream (compression undone);
    a line that is not a JSON object is an error naming the file and line."""
    stream, raw = open_stream(source)
    try:
        for number, line in enumerate(stream, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                raise InputError(f"not valid JSON: {exc}", source=source, line=number) from None
            if not isinstance(record, dict):
                raise InputError(f"expected a JSON object; got {line[:40]!r}", source=source,
                                 line=number)
            yield number, record
    finally:
        if raw is not None:
            raw.close()


def _first(record: Mapping[str, Any], keys: tuple[str, ...], what: str, source: str,
           line: int) -> Any:
    found = next((record[k] for k in keys if k in record), None)
    if found is None:
        raise InputError(f"no {what}: expected one of the keys {', '.join(keys)}",
                         source=source, line=line)
    return found


def _topics(topics: Any, wanted: set[str]) -> dict[str, str]:
    """Query id -> text: a mapping, a JSON Lines file or a ``qid<TAB>text`` file."""
    if isinstance(topics, Mapping):
        return {str(k): str(v) for k, v in topics.items()}
    name = str(topics)
    if read_bytes(name).lstrip()[:1] == b"{":
        return {str(_first(r, TOPIC_IDS, "topic id", name, n)):
                str(_first(r, TOPIC_TEXTS, "topic text", name, n))
                for n, r in json_records(name)}
    out = {}
    for n, line in enumerate(text_lines(read_bytes(name), name), start=1):
        if line.strip():
            qid, tab, text = line.rstrip("\r").partition("\t")
            if not tab:
                raise InputError("expected 'query id<TAB>text'; found no tab", source=name,
                                 line=n)
            if qid in wanted:
                out[qid] = text
    return out


def _corpus(corpus: Any, wanted: set[str]) -> dict[str, dict[str, Any]]:
    """Doc id -> ``doc`` object, for the pooled docs only (the bound: a corpus is streamed,
    and only the pool's documents are kept)."""
    if isinstance(corpus, Mapping):
        return {str(k): (dict(v) if isinstance(v, Mapping) else {"segment": str(v)})
                for k, v in corpus.items() if str(k) in wanted}
    out = {}
    for n, record in json_records(str(corpus)):
        docid = str(_first(record, DOC_IDS, "doc id", str(corpus), n))
        if docid in wanted:
            doc = {k: v for k, v in record.items() if k not in DOC_IDS}
            doc.setdefault("segment", _first(record, DOC_TEXTS, "passage text", str(corpus), n))
            out[docid] = doc
    return out


def _missing(found: Mapping[str, Any], wanted: list[str], what: str, source: Any) -> None:
    lacking = [w for w in dict.fromkeys(wanted) if w not in found]
    if lacking:
        raise InputError(f"the pooled {what} {lacking[0]!r} has no text here ({len(lacking)} "
                         f"lack one); give a file holding every pooled {what}",
                         source=source if isinstance(source, str) else None)


def judge_requests(runs: Any, depth: int = 10, qrels: Any = None, *, topics: Any = None,
                   corpus: Any = None, ties: Literal["docid", "input"] = "docid",
                   columns: Columns = None) -> JudgeRequests:
    """The unjudged pairs of a depth-``depth`` pool of ``runs``, as judge requests.

    Parameters
    ----------
    runs, depth, qrels, ties, columns
        As for :func:`ranklens.pool`: the pairs ``qrels`` holds are left out.
    topics : path or mapping {query id: text}, optional
        The queries' text: a ``qid<TAB>text`` file (TREC RAG 2024) or JSON Lines with an id
        (``qid``, ``id``, ...) and a text (``text``, ``title``, ``narrative``, ...).
        Without it, ``text`` is empty.
    corpus : path or mapping {doc id: text or dict}, optional
        The passages: JSON Lines with ``docid`` (or ``_id``, ``id``) and ``segment`` (or
        ``text``, ``contents``); the record's other fields go into ``doc`` too. Streamed:
        only the pooled documents are kept. Without it, ``doc`` is empty.

    Returns
    -------
    JudgeRequests

    Raises
    ------
    InputError
        A pooled query missing from ``topics``, or a pooled document missing from
        ``corpus``.

    Examples
    --------
    >>> import ranklens
    >>> run = {"q1": {"d1": 2.0, "d2": 1.0}}
    >>> req = ranklens.judge_requests([run], depth=2, qrels={"q1": {"d1": 1}},
    ...                               topics={"q1": "what is x"}, corpus={"d2": "x is y"})
    >>> req.records[0]["candidates"]
    [{'docid': 'd2', 'doc': {'segment': 'x is y'}}]
    >>> req.render()[:45]
    '{"query": {"qid": "q1", "text": "what is x"},'
    """
    got = pool(runs, depth, qrels, ties=ties, columns=columns)
    qids, docids = got.frame["query_id"].to_list(), got.frame["doc_id"].to_list()
    texts = _topics(topics, set(qids)) if topics is not None else {}
    docs = _corpus(corpus, set(docids)) if corpus is not None else {}
    if topics is not None:
        _missing(texts, qids, "query", topics)
    if corpus is not None:
        _missing(docs, docids, "document", corpus)
    records: dict[str, dict[str, Any]] = {}
    for q, d in zip(qids, docids, strict=True):
        record = records.setdefault(q, {"query": {"qid": q, "text": texts.get(q, "")},
                                        "candidates": []})
        record["candidates"].append({"docid": d, "doc": docs.get(d, {})})
    return JudgeRequests(tuple(records.values()), got)
