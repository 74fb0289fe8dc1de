"""Labels from a judge merged into judgments, with their provenance kept beside them.

A label record gives a (query, doc) pair a grade: ``qid``/``query_id`` and
``docid``/``doc_id`` (or, without ids, its position among the requests of
:func:`ranklens.judge_requests`, as UMBRELA answers) and ``judgment`` (or ``label``,
``relevance``). ``result_status`` 0 or no grade is a failure: the pair stays unjudged.
Without a grade, ``votes`` (a list of grades) give their most common grade, the least on a
tie (UMBRELA's ensemble rule). ``judge``, ``model``, ``prompt_hash`` (or the hash of
``prompt``), ``votes`` and
``confidence`` are kept as provenance, one record per (pair, source), in the sidecar file
``<qrels>.provenance.jsonl``. Merging the same labels again changes nothing; two grades for
one pair is an error naming both sources.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from statistics import multimode
from typing import Any

from .._base.errors import InputError
from .._base.lazy import polars as pl
from .._ingest.io._load import load_qrels
from .._ingest.tables import Qrels
from .judge_export import JudgeRequests, json_records

__all__ = ["SIDECAR", "MergedJudgments", "merge_labels", "provenance_summary",
           "read_provenance"]

#: the provenance file beside a qrels file: its name plus this
SIDECAR = ".provenance.jsonl"
_QIDS, _DOCIDS, _GRADES = ("qid", "query_id"), ("docid", "doc_id"), ("judgment", "label",
                                                                      "relevance")
_KEPT = ("judge", "model", "prompt_hash", "votes", "confidence")


@dataclass(frozen=True, eq=False)
class MergedJudgments:
    """Judgments with the judge's labels added, and where each label came from.

    Attributes
    ----------
    qrels : the old judgments in their order, then the new pairs in the labels' order.
    provenance : one record per (pair, source): ``query_id``, ``doc_id``, ``relevance``
        (None when every attempt failed), ``source``, ``failures`` and the kept fields.
    added : pairs judged for the first time.
    failed : pairs left unjudged because every attempt failed.
    """

    qrels: Qrels
    provenance: tuple[dict[str, Any], ...]
    added: int = 0
    failed: int = 0

    @classmethod
    def read(cls, path: str) -> MergedJudgments:
        """Judgments written by :meth:`write`, with the provenance kept beside them."""
        return cls(load_qrels(path), read_provenance(path))

    def summary(self) -> str:
        """What the merge did, in one line."""
        return (f"new judgments: {self.added}; pairs left unjudged (every attempt failed): "
                f"{self.failed}; judgments in all: {self.qrels.frame.height}")

    def write(self, path: str) -> None:
        """Write the judgments as TREC qrels to ``path`` and the provenance beside it."""
        from .._base.outputs import write_atomically

        rows = self.qrels.frame.select("query_id", "doc_id", "relevance").rows()
        write_atomically(path, "".join(f"{q} 0 {d} {g:g}\n" for q, d, g in rows))
        write_atomically(path + SIDECAR, "".join(json.dumps(r, ensure_ascii=False) + "\n"
                                                 for r in self.provenance))


def read_provenance(qrels_path: str) -> tuple[dict[str, Any], ...]:
    """The provenance records kept beside ``qrels_path`` (none without a sidecar file)."""
    side = str(qrels_path) + SIDECAR
    return tuple(r for _, r in json_records(side)) if os.path.isfile(side) else ()


def provenance_summary(qrels_path: str) -> str | None:
    """One line on who judged what, from the sidecar of ``qrels_path``; None without one."""
    records = read_provenance(qrels_path)
    if not records:
        return None
    judged = [r for r in records if r["relevance"] is not None]
    by = sorted({f"{r.get('judge') or 'unnamed judge'} (model {r.get('model') or '?'}, "
                 f"prompt {r.get('prompt_hash') or '?'})" for r in judged})
    return (f"judgments: {len(judged)} labelled pairs in {qrels_path}{SIDECAR} by "
            f"{'; '.join(by) or 'nobody'}; {sum(r['failures'] for r in records)} failed "
            "attempts")


def _positions(requests: Any) -> list[tuple[str, str]]:
    if isinstance(requests, JudgeRequests):
        return requests.pairs()
    return [(str(r["query"]["qid"]), str(c["docid"])) for _, r in json_records(str(requests))
            for c in r["candidates"]]


def _label_rows(source: Any, name: str, positions: list[tuple[str, str]] | None
                ) -> list[dict[str, Any]]:
    """One row per label record: pair, grade (None: a failure), where, kept fields."""
    records = (list(json_records(os.fspath(source))) if isinstance(source, (str, os.PathLike))
               else list(enumerate(source, start=1)))
    if positions is not None and not all(any(k in r for k in _QIDS) for _, r in records):
        if len(records) != len(positions):
            raise InputError(f"{len(records)} label records without ids for "
                             f"{len(positions)} requested pairs; labels are joined to the "
                             "requests by position, so give the judge's whole output",
                             source=name)
        records = [(n, {"qid": q, "docid": d, **r}) for (n, r), (q, d)
                   in zip(records, positions, strict=True)]
    rows = []
    for n, r in records:
        q, d = (next((r[k] for k in keys if k in r), None) for keys in (_QIDS, _DOCIDS))
        if q is None or d is None:
            raise InputError("a label without qid and docid; give the requests file the "
                             "labels answer (requests=, --requests)", source=name, line=n)
        grade = next((r[k] for k in _GRADES if r.get(k) is not None), None)
        if grade is None and isinstance(r.get("votes"), list) and r["votes"]:
            grade = min(multimode(r["votes"]))  # UMBRELA's ensemble: the mode, ties to the least
        if grade is not None and (isinstance(grade, bool) or not isinstance(grade, (int, float))
                                  or not math.isfinite(grade)):
            raise InputError(f"the grade must be a finite number; got {grade!r}", source=name,
                             line=n)
        failed = r.get("result_status", 1) == 0 or grade is None
        kept = {k: r[k] for k in _KEPT if r.get(k) is not None}
        if "prompt_hash" not in kept and isinstance(r.get("prompt"), str):
            kept["prompt_hash"] = hashlib.sha256(r["prompt"].encode()).hexdigest()[:12]
        rows.append({"query_id": str(q), "doc_id": str(d),
                     "relevance": None if failed or grade is None else float(grade), "source": name,
                     "line": n, **kept})
    return rows


def _clash(pair: tuple[str, str], a: tuple[float, str], b: tuple[float, str]) -> InputError:
    return InputError(f"query {pair[0]!r} doc {pair[1]!r} has two grades: {a[0]:g} in "
                      f"{a[1]} and {b[0]:g} in {b[1]}; keep one of them (drop the other "
                      "label, or re-judge the pair)")


def merge_labels(qrels: Any, labels: Any, *, requests: Any = None) -> MergedJudgments:
    """``qrels`` with a judge's ``labels`` added, and their provenance.

    Parameters
    ----------
    qrels : judgments or MergedJudgments
        Any form :func:`ranklens.load_qrels` reads. A file's sidecar
        (``<qrels>.provenance.jsonl``), or a MergedJudgments' provenance, is kept.
    labels : path, list of records, or a list of those
        JSON Lines label files (or lists of dicts), one source each.
    requests : JudgeRequests or path, optional
        The requests the labels answer, for labels without ids (joined by position).

    Returns
    -------
    MergedJudgments

    Raises
    ------
    InputError
        A pair given two different grades (by two sources, one source twice, or a source
        and ``qrels``): naming both; labels without ids and no ``requests``; a count of
        positional labels that differs from the requests'.

    Examples
    --------
    >>> import ranklens
    >>> labels = [{"qid": "q1", "docid": "d2", "judgment": 2, "model": "m1"},
    ...           {"qid": "q1", "docid": "d3", "judgment": 0, "result_status": 0}]
    >>> m = ranklens.merge_labels({"q1": {"d1": 1}}, labels)
    >>> m.qrels.frame.rows()
    [('q1', 'd1', 1.0), ('q1', 'd2', 2.0)]
    >>> m.summary()
    'new judgments: 1; pairs left unjudged (every attempt failed): 1; judgments in all: 2'
    """
    kept = read_provenance(str(qrels)) if isinstance(qrels, (str, os.PathLike)) else \
        qrels.provenance if isinstance(qrels, MergedJudgments) else ()
    qrels = qrels.qrels if isinstance(qrels, MergedJudgments) else qrels
    old = load_qrels(qrels).frame.select("query_id", "doc_id", "relevance")
    qname = str(qrels) if isinstance(qrels, (str, os.PathLike)) else "the judgments"
    sources = labels if isinstance(labels, list) and labels and not isinstance(
        labels[0], Mapping) else [labels]
    positions = _positions(requests) if requests is not None else None
    old_pairs = set(zip(old["query_id"], old["doc_id"], strict=True))
    grades = {(r["query_id"], r["doc_id"]): (r["relevance"], r["source"]) for r in kept
              if r["relevance"] is not None}
    for q, d, g in old.rows():
        grades.setdefault((q, d), (g, qname))
    new: dict[tuple[str, str], float] = {}
    fresh: dict[tuple[str, str, str], dict[str, Any]] = {}  # replaces a source's old records
    for i, source in enumerate(sources):
        name = str(source) if isinstance(source, (str, os.PathLike)) else f"labels[{i}]"
        for row in _label_rows(source, name, positions):
            pair, g = (row["query_id"], row["doc_id"]), row.pop("relevance")
            where = f"{name} line {row.pop('line')}"
            mine = fresh.setdefault((*pair, name), {**row, "relevance": None, "failures": 0})
            if g is None:
                mine["failures"] += 1
                continue
            before = grades.setdefault(pair, (g, where))
            if before[0] != g:
                raise _clash(pair, before, (g, where))
            mine.update(row, relevance=g)
            if pair not in old_pairs:
                new.setdefault(pair, g)
    prov = {(r["query_id"], r["doc_id"], r["source"]): r for r in kept} | fresh
    ordered = tuple(sorted(prov.values(), key=lambda r: (r["query_id"], r["doc_id"],
                                                         r["source"])))
    if new:
        old = pl.concat([old, pl.DataFrame({"query_id": [p[0] for p in new],
                                            "doc_id": [p[1] for p in new],
                                            "relevance": list(new.values())})])
    failed = {(r["query_id"], r["doc_id"]) for r in ordered if r["relevance"] is None} - set(grades)
    return MergedJudgments(Qrels(old), ordered, len(new), len(failed))
