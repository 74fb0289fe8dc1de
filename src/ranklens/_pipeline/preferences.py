"""Preference judgments through the engine: ranking, internal ranks, the compute step.

:func:`compute_prefs` is the compute step of the preference measures
(:data:`ranklens._measures._prefs.PREF_REGISTRY`), like :func:`ranklens._pipeline.compute.
compute` a pure function of loaded tables (a :class:`~ranklens._ingest.tables.PrefJudgments`
and a :class:`~ranklens._ingest.tables.Run`): the run is ranked by the engine's one ranker
(:func:`~ranklens._model.ranking.run_index`, ties by doc id ascending, as trec_eval's
form_prefs_counts.c), checked for duplicates by the engine's one run duplicate check
(:func:`~ranklens._model.align.run_duplicates`, within the ``depth`` cut as trec_eval),
each topic's judged documents get their internal ranks (retrieved ones in ranking order,
the others in doc id order), each judgment group is counted by the judgment-group kernel
and each measure's kernel reads the topic. Each topic's values depend on its judgments and
ranking alone, so any subset of topics gives those topics' values of the whole.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .._base.errors import InputError
from .._ingest.tables import PrefJudgments, Run
from .._measures._prefs import GroupRows, PrefMeasureDef, PrefTopic, group_counts
from .._model.align import run_duplicates
from .._model.ranking import run_index

__all__ = ["compute_prefs"]


def _ranked_docs(run: Run, judged: set[str], depth: int | None) -> dict[str, list[str]]:
    """Each judged run query's doc ids in ranking order (score descending, ties by doc id
    ascending), cut at ``depth``; duplicates within the cut of a judged query are an
    error."""
    index = run_index(run, "docid_ascending")
    evaluated = np.array([q in judged for q in index.query_ids.to_list()], dtype=bool)
    if index.duplicated:
        run_duplicates(index, run, evaluated, "error", depth)
    starts, ends = index.offsets[:-1], index.offsets[1:]
    if depth is not None:
        ends = np.minimum(ends, starts + depth)
    lengths = np.where(evaluated, ends - starts, 0)  # only judged queries' doc ids are read
    # the kept rows' positions in the index: each query's start, plus 0 .. its length - 1
    pos = np.repeat(starts - (np.cumsum(lengths) - lengths), lengths)
    pos += np.arange(int(lengths.sum()), dtype=np.int64)
    docs = run.doc_ids_at(index.src_at(pos)).to_list()
    out: dict[str, list[str]] = {}
    at = 0
    for q, n, e in zip(index.query_ids.to_list(), lengths.tolist(), evaluated.tolist(),
                       strict=True):
        if e:
            out[q] = docs[at:at + n]
        at += n
    return out


def _topic(rows: list[tuple[str, str, float, str]], ranked: list[str]) -> PrefTopic:
    """One topic from its judgment rows ``(jg, jsg, level, doc)`` and its ranked docs."""
    judged = sorted({r[3] for r in rows})
    judged_set = set(judged)
    rank_of: dict[str, int] = {}
    for d in ranked:
        if d in judged_set:
            rank_of[d] = len(rank_of)
    njr = len(rank_of)
    for d in judged:
        if d not in rank_of:
            rank_of[d] = len(rank_of)
    nj = len(rank_of)
    ordered = sorted(((jg, jsg, level, rank_of[d], d) for jg, jsg, level, d in rows),
                     key=lambda r: (r[0], r[1], -r[2], r[3]))
    counts = np.zeros((nj, nj), dtype=np.int64)
    groups = []
    start = 0
    for end in range(1, len(ordered) + 1):
        if end < len(ordered) and ordered[end][0] == ordered[start][0]:
            continue
        group: GroupRows = [(r[1], r[2], r[3], r[4]) for r in ordered[start:end]]
        groups.append(group_counts(group, njr, nj, counts))
        start = end
    return PrefTopic(groups, counts, njr, nj)


def compute_prefs(judgments: PrefJudgments, run: Run, measures: Sequence[PrefMeasureDef], *,
                  complete: bool, depth: int | None) -> tuple[list[str], dict[str, np.ndarray]]:
    """Topic ids (trec_eval order) and per-topic values of each preference measure.

    Parameters
    ----------
    judgments : PrefJudgments
        The preference judgments (all, or those of some topics).
    run : Run
        A loaded run.
    measures : sequence of PrefMeasureDef
        The measures to compute.
    complete : bool
        Judged topics absent from the run are scored on an empty ranking (trec_eval's
        ``-c``); otherwise left out.
    depth : int, optional
        Only the top ``depth`` documents of each ranking count (``-M``).

    Returns
    -------
    query_ids : list of str
        The evaluated topics, byte-wise ascending.
    values : dict
        ``{measure name: float64 values, one per topic}``.

    Raises
    ------
    InputError
        No topic in common, a document ranked twice, or contradictory judgments.
    """
    judged = judgments.query_ids
    ranked = _ranked_docs(run, set(judged), depth)
    qids = [q for q in judged if complete or q in ranked]
    if not qids:
        raise InputError(f"the run ({run.source}) and the preferences ({judgments.source}) "
                         "share no query")
    frame = judgments.frame
    by_topic: dict[str, list[tuple[str, str, float, str]]] = {}
    for row in zip(frame["query_id"].to_list(), frame["jg"].to_list(),
                   frame["jsg"].to_list(), frame["level"].to_list(),
                   frame["doc_id"].to_list(), strict=True):
        by_topic.setdefault(row[0], []).append(row[1:])
    topics = [_topic(by_topic[q], ranked.get(q, [])) for q in qids]
    values = {m.name: np.array([m.kernel(t) for t in topics], dtype=np.float64)
              for m in measures}
    return qids, values
