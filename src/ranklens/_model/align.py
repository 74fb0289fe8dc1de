"""The one alignment path: a run's ranked rows matched to its judgments, per query.

The run-only work (ranking, keys, the duplicate check) is the run's :class:`RunIndex`,
the judgment-only work the qrels' :class:`QrelsIndex`, both built once and cached on the
tables; an alignment only maps the run's queries to the judged ones, applies the
missing-query, duplicates and depth policies, and matches judgments. Queries are numbered
the run's way (see :mod:`ranklens._model.aligned`).

Every input form hands its run and judgments to one builder, :func:`build`, as codes
(:class:`Coded`): tables through :func:`align`, nested dicts through
:func:`ranklens._model.dicts.align_dicts`. Each option is applied there alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from .._base.errors import DuplicateError
from .._base.groups import group_offsets, group_ranks
from .._base.lazy import polars as pl
from .._base.vocabulary import IR, Vocabulary, vocabulary_of
from .._ingest.tables import Qrels, Run, Slot, SubtopicQrels
from .aligned import Aligned
from .diagnostics import Diagnostics
from .keys import block_index, codes
from .matching import JudgedNumbers, JudgedPairs, QrelsIndex, qrels_index
from .policies import Policies, check_coverage
from .ranking import RunIndex, run_index
from .subtopics import doc_table

__all__ = ["FIRST_JUDGMENTS", "Coded", "Judgments", "align", "build", "evaluated_judgments",
           "run_duplicates"]

#: where a qrels table that judges a document twice for one query keeps its first
#: judgments only (``duplicates="first"``; see :func:`_distinct_judgments`)
FIRST_JUDGMENTS: Slot[Qrels] = Slot("first judgments")


def align(qrels: Qrels | SubtopicQrels, run: Run, policies: Policies | None = None, *,
          block: bool = False) -> tuple[Aligned, Diagnostics]:
    """Align ``run`` to ``qrels`` under ``policies``.

    Parameters
    ----------
    qrels : Qrels or SubtopicQrels
        The judgments (subtopic ones: see :mod:`ranklens._model.subtopics`).
    run : Run
        The ranked results.
    policies : Policies, optional
        Ties, missing queries, duplicates, depth and judged-only (defaults if None).
    block : bool, default False
        ``qrels`` and ``run`` are one block of the queries of a larger evaluation (a chunk,
        a Spark bucket): the policies that read every query (no query in common, a missing
        query under ``missing="error"``, which is then scored as ``"zero"`` would) are left
        to whoever merges the blocks (:func:`ranklens._pipeline.assemble.finish`).

    Returns
    -------
    aligned : Aligned
        The aligned arrays.
    diagnostics : Diagnostics
        The judged queries absent from the run, the run queries without judgments, the
        judged queries given with an empty ranking (each sorted).

    Raises
    ------
    InputError
        No judgments, a duplicate (query, doc) pair under ``duplicates="error"``, and
        unless ``block``: what :func:`~ranklens._model.policies.check_coverage` raises.
    """
    pol = policies or Policies()
    if isinstance(qrels, SubtopicQrels):
        return _align_subtopics(qrels, run, pol, block)
    # a recommender's tables (user and item columns) get its words
    words = vocabulary_of(qrels.hints.users and run.hints.users)
    if len(qrels) == 0:
        # no judgments: its own error
        check_coverage(pol, judged=0, retrieved=0, missing=(0, []), ignored=[],
                       run_source=run.source, qrels_source=qrels.source, words=words)
    # the run's index first: it takes (and frees) the reader's doc hashes before the
    # judgments' index is built, as when runs were indexed at load (peak memory)
    index = run_index(run, pol.ties)
    qrels = _distinct_judgments(qrels, pol.duplicates)
    qindex = qrels_index(qrels)
    run_of = block_index(index.query_ids, qindex.queries)
    # queries given with an empty ranking are in the run (scored on it), without rows
    empty = np.zeros(len(qindex.query_ids), dtype=bool)
    if run.empty_queries:
        empty_j = block_index(pl.Series(run.empty_queries, dtype=pl.String), qindex.queries)
        empty[empty_j[empty_j >= 0]] = True
    coded = Coded(
        judged_ids=qindex.query_ids, query_array=qindex.query_array, index=index,
        run_of=run_of, empty=empty, score=run.score, sources=(run.source, qrels.source),
        ignored=sorted(set(index.query_ids.filter(pl.Series(run_of < 0)).to_list())),
        drop=(lambda evaluated: run_duplicates(index, run, evaluated, pol.duplicates))
        if index.duplicated else None, words=words,
        judgments=lambda kept, judged_of: _judgments(qindex, qrels, kept, judged_of, index,
                                                     run),
        source_rows=index.ties_only)
    aligned, diagnostics = build(coded, pol, block=block)
    if qrels.unretrieved is not None:
        aligned = aligned.with_unretrieved(*_unretrieved(qrels.unretrieved, aligned.query_ids))
    return aligned, diagnostics


#: the judged-only work of an alignment, given which judged queries are evaluated (None:
#: all) and each run query's judged number before any is skipped
JudgmentsOf = Callable[[np.ndarray | None, np.ndarray], "Judgments"]


@dataclass(frozen=True, eq=False)
class Coded:
    """A run and its judgments as codes: what every input form (tables, nested dicts)
    hands :func:`build`, the one builder of :class:`Aligned`.

    Attributes
    ----------
    judged_ids : the judged query ids, in trec_eval order (their judged numbers).
    query_array : ``judged_ids`` as an object array.
    index : the run's rows ranked, query by query (its queries: the run's with rows).
    run_of : each of the run's queries' judged number (-1: none).
    empty : the judged queries given with an empty ranking (in the run, without rows).
    ignored : the run's queries without judgments, sorted.
    score : each run row's score.
    sources : the run's and the judgments' sources (for errors).
    words : the words of its errors (users and items for a recommender's tables).
    drop : the duplicate check: given which run queries are evaluated, it raises or
        gives the ranked positions to drop (None: no doc is ranked twice for a query).
    judgments : the judgments of the evaluated queries (:class:`Judgments`).
    source_rows : whether the ranked rows' documents are read through the run index
        (beyond-accuracy measures; a run read as tables).
    """

    judged_ids: list[str]
    query_array: np.ndarray
    index: RunIndex
    run_of: np.ndarray
    empty: np.ndarray
    ignored: list[str]
    score: np.ndarray
    sources: tuple[str, str]
    drop: Callable[[np.ndarray], np.ndarray | None] | None
    judgments: JudgmentsOf
    source_rows: bool
    words: Vocabulary = IR


def build(coded: Coded, pol: Policies, *, block: bool = False) -> tuple[Aligned, Diagnostics]:
    """The one builder of :class:`Aligned`: the run's ranked rows of ``coded`` mapped to
    the judged queries, with the coverage check, ``missing``, ``duplicates``, ``depth``,
    empty rankings and the judgments' matching applied (``block``: see :func:`align`).

    Returns
    -------
    aligned : Aligned
        The aligned arrays.
    diagnostics : Diagnostics
        As :func:`align` gives them.
    """
    judged_queries, run_of = coded.judged_ids, coded.run_of
    present = np.zeros(len(judged_queries), dtype=bool)
    present[run_of[run_of >= 0]] = True
    empty = coded.empty & ~present
    missing = [judged_queries[i] for i in np.flatnonzero(~present & ~empty)]
    empty_rankings = sorted(judged_queries[i] for i in np.flatnonzero(empty))
    ignored = coded.ignored
    if not block:  # checked here, before the run's own errors (duplicates), as trec_eval
        # an empty evaluation under missing="skip" goes on: the assembly gives its warning
        check_coverage(pol, judged=len(judged_queries),
                       retrieved=len(judged_queries) - len(missing),
                       missing=(len(missing), missing), ignored=ignored,
                       run_source=coded.sources[0], qrels_source=coded.sources[1],
                       words=coded.words)
    kept: np.ndarray | None = None  # the judged queries evaluated (None: all)
    query_array = coded.query_array
    block_j = run_of  # each run query's evaluated number (-1: none), after any skip
    if missing and pol.missing == "skip":
        kept = present | empty
        query_array = query_array[kept]
        empty = empty[kept]
        # skipped queries have no run rows, so only the numbering of the others shifts
        renumber = np.cumsum(kept) - 1
        block_j = np.where(run_of >= 0, renumber[np.maximum(run_of, 0)], -1)
    drop = None if coded.drop is None else coded.drop(block_j >= 0)
    judgments = coded.judgments(kept, run_of)
    aligned = _aligned(coded.index, block_j, query_array, judgments, coded.score,
                       coded.source_rows, pol, drop, empty)
    return aligned, Diagnostics.of(missing, ignored, empty_rankings)


def _align_subtopics(qrels: SubtopicQrels, run: Run, pol: Policies,
                     block: bool) -> tuple[Aligned, Diagnostics]:
    """The alignment to subtopic judgments: to their documents (graded by their highest
    grade), with the subtopics of each judged position attached. Judged-only is applied
    last, once the subtopics are attached, so the view keeps them."""
    table = doc_table(qrels, pol.duplicates)
    whole = replace(pol, judged_only=False)
    aligned, diagnostics = align(table.graded, run, whole, block=block)
    # the same documents matched again, graded by their row: which document each is
    coded, _ = align(table.coded, run, whole, block=True)
    subtopics = table.subtopics(aligned.query_ids, coded.judged_grade)
    out = replace(aligned, subtopics=subtopics, policies=pol)  # with nothing derived yet
    return (out.judged_only() if pol.judged_only else out), diagnostics


def _unretrieved(counts: pl.DataFrame, query_ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Grade and count of the counted relevant items of each of ``query_ids``."""
    at = pl.DataFrame({"query_id": pl.Series(query_ids.tolist(), dtype=pl.String)}).join(
        counts, on="query_id", how="left", maintain_order="left")
    grade = at["relevance"].fill_null(0.0).to_numpy().astype(np.float64)
    count = at["count"].fill_null(0).to_numpy().astype(np.int64)
    return grade, count


def _distinct_judgments(qrels: Qrels, policy: str) -> Qrels:
    """``qrels`` itself, or, when a doc is judged twice for one query, an error
    (``policy="error"``) or the qrels with the first judgment of each pair only (kept on
    ``qrels`` for the next alignment)."""
    if not qrels_index(qrels).duplicated:
        return qrels
    if policy == "error":  # raised every time (the table kept is for "first")
        _first_judgments(qrels, policy)
    return qrels._derived.get(FIRST_JUDGMENTS, lambda: _first_judgments(qrels, policy))


def _first_judgments(qrels: Qrels, policy: str) -> Qrels:
    """:func:`_distinct_judgments` of a qrels table that judges a document twice."""
    qf = qrels.frame
    pair = pl.struct("query_id", "doc_id")
    dup = qf.select(pair.is_duplicated()).to_series()
    if policy == "error":
        rows = qf.with_row_index("at").filter(dup)
        # the first query's (byte-wise), as every engine names it (DuplicateError.combine)
        row = rows.sort("query_id", maintain_order=True).row(0, named=True)
        pairs = rows.unique(subset=["query_id", "doc_id"]).height
        raise DuplicateError(row["query_id"], row["doc_id"], pairs, "qrels",
                             source=qrels.source, first=row["at"], users=qrels.hints.users)
    return Qrels(qf.unique(subset=["query_id", "doc_id"], keep="first", maintain_order=True),
                 qrels.source, unretrieved=qrels.unretrieved)


def run_duplicates(index: RunIndex, run: Run, evaluated: np.ndarray, policy: str,
                   depth: int | None = None) -> np.ndarray | None:
    """Raise on a doc ranked twice for one evaluated query (``evaluated`` marks the run's
    queries by code), or the ranked positions to drop: every occurrence but the highest
    ranked (None: nothing to drop). With ``depth``, only the top ``depth`` ranked rows
    of each query count (trec_eval's preference measures check after the cut)."""
    pos, later = index.duplicate_positions(run)
    code = index.code_at(pos)
    inside = evaluated[code]
    if depth is not None:
        # a pair's later occurrence within the cut has its first occurrence there too
        inside &= later & (pos - index.offsets[code] < depth)
    pos, later = pos[inside], later[inside]
    if not pos.size:
        return None
    if policy == "error":
        # the first query's (byte-wise) at its first input row, as every engine names it
        codes = np.unique(code[inside])
        named = int(codes[index.query_ids.gather(codes).arg_sort()[0]])
        first = int(index.src_at(pos[code[inside] == named]).min())
        raise DuplicateError(index.query_ids[named], run.doc_id[first],
                             np.unique(index.pair_keys(run)[pos]).size, "run",
                             source=run.source, first=first, users=run.hints.users)
    return pos[later]


#: the positions (ascending) among the aligned rows of those with a judgment, and its
#: grade, given the aligned rows' run query codes and index positions (None: all rows)
Match = Callable[[np.ndarray | None, np.ndarray | None], tuple[np.ndarray, np.ndarray]]


@dataclass(frozen=True, eq=False)
class Judgments:
    """The judgments of the evaluated queries, as an input form gives them to
    :func:`build`."""

    #: query then grade descending, their query numbers and grades (what kernels read)
    sorted: tuple[np.ndarray, np.ndarray]
    #: how the aligned rows are matched to them
    match: Match


def evaluated_judgments(sorted_code: np.ndarray, sorted_grade: np.ndarray,
                        kept: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Judgments by query then grade descending (``sorted_code``, ``sorted_grade``) of
    the judged queries ``kept`` marks (None: all), renumbered among those."""
    if kept is None:
        return sorted_code, sorted_grade
    renumber = np.where(kept, np.cumsum(kept) - 1, -1)
    sorted_q = renumber[sorted_code]  # the renumbering keeps the order
    evaluated = sorted_q >= 0
    return sorted_q[evaluated], sorted_grade[evaluated]


def _judgments(qindex: QrelsIndex, qrels: Qrels, kept: np.ndarray | None,
               judged_of: np.ndarray, index: RunIndex, run: Run) -> Judgments:
    """The judgments of the evaluated queries, matched to the rows of ``run`` (its
    ``index``). ``kept`` marks the judged queries evaluated (None: all); ``judged_of``
    maps each run query to its judged number (-1: none), before any is skipped."""
    sorted_j = evaluated_judgments(qindex.sorted_code, qindex.sorted_grade, kept)

    def match(code: np.ndarray | None, at: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        # a skipped query has no run rows, so the judged numbers before the skip serve
        # (the grades as held: those matched are made float64)
        return _match(index, run, code, at, qindex.keys(qrels, not run.text_doc_ids),
                      judged_of, qrels.grades)

    return Judgments(sorted_j, match)


def _aligned(index: RunIndex, block_q: np.ndarray, query_ids: np.ndarray,
             judgments: Judgments, score: np.ndarray, source_rows: bool,
             pol: Policies, drop: np.ndarray | None, empty: np.ndarray) -> Aligned:
    """The alignment of ``run`` (its ``index``) to the evaluated ``query_ids``.

    ``block_q`` maps each of the run's queries (``index.query_ids``) to its evaluated
    index (trec_eval order), -1 for none; ``drop`` lists ranked positions to leave out
    (duplicates); ``empty`` marks the evaluated queries given with an empty ranking
    (without rows, like absent ones, but not ``missing``). The alignment numbers the
    evaluated queries in the run index's order, those absent from the run after them: the
    ranked rows are then used where they lie, and per-query values are put back in
    trec_eval order by ``Aligned.to_sorted``.
    Judgments are matched on the aligned rows (``judgments.match``) when ``pol.match``.
    """
    nq = query_ids.size
    at: np.ndarray | None = None  # positions in the index of the aligned rows (None: all)
    kept = block_q >= 0
    n_in = int(kept.sum())
    # the alignment index of each run query (-1: not evaluated) and of each evaluated query
    aligned_of_code = np.where(kept, np.cumsum(kept) - 1, -1)
    aligned_of = np.empty(nq, dtype=np.int64)
    aligned_of[block_q[kept]] = aligned_of_code[kept]
    absent = np.ones(nq, dtype=bool)
    absent[block_q[kept]] = False
    aligned_of[absent] = np.arange(n_in, nq)
    qidx: np.ndarray | None
    code: np.ndarray | None
    if n_in == block_q.size and drop is None:  # the run's numbering holds
        qidx, code = None, None  # both derived from the offsets where asked for
        offsets = np.concatenate((index.offsets, np.full(nq - n_in, index.offsets[-1])))
    else:
        keep = kept[index.code]
        if drop is not None:
            keep[drop] = False
        at = np.flatnonzero(keep)
        code = index.code[at]
        qidx = aligned_of_code[code]
        offsets = group_offsets(qidx, nq)
    if pol.depth is not None:
        if code is None:
            code = index.code
        if qidx is None:
            qidx = code
        keep = group_ranks(qidx, offsets) <= pol.depth
        at = np.flatnonzero(keep) if at is None else at[keep]
        code, qidx = code[keep], qidx[keep]
        offsets = group_offsets(qidx, nq)
    judged_at, judged_grade = judgments.match(code, at) if pol.match else (
        np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64))
    j_sorted = judgments.sorted
    to_sorted: np.ndarray | None = None
    if not bool((aligned_of == np.arange(nq)).all()):
        to_sorted = aligned_of
        j_sorted = _renumbered(j_sorted, aligned_of)
        evaluated_of = np.empty(nq, dtype=np.int64)
        evaluated_of[aligned_of] = np.arange(nq)
        query_ids = query_ids[evaluated_of]
    missing = np.zeros(nq, dtype=bool)
    missing[aligned_of[absent & ~empty]] = True
    # a run row's score is its ranked row's when only tied rows moved
    score_rows = at if index.ties_only else index.src if at is None else index.src[at]
    # ... but not its document: the beyond-accuracy measures read the run rows themselves
    source_from = None if not source_rows else (lambda values: index.ranked(values, at))
    return Aligned.of(
        query_ids=query_ids, offsets=offsets, judged=(judged_at, judged_grade),
        score=(score, score_rows), judgments=j_sorted, missing=missing, policies=pol,
        qidx=qidx,
        # without query numbers of its own, the alignment's are the run index's (built
        # there once, if a kernel asks)
        qidx_from=(lambda: index.code) if qidx is None else None,
        to_sorted=to_sorted,
        source_from=source_from,
    )


def _match(index: RunIndex, run: Run, code: np.ndarray | None, at: np.ndarray | None,
           judged: JudgedPairs | JudgedNumbers, judged_of: np.ndarray,
           relevance: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positions and grades of the aligned rows (``code``: their run query codes, ``at``:
    their index positions, None for all) that have a judgment: each row's (judged query
    number, doc) pair found among the ``judged`` ones, exactly. A doc id is first looked
    up in the judgments' dictionary (a row whose doc no judgment has is none); a doc held
    as a number is its own key."""
    doc = index.ranked(judged.codes_of(run.doc_id) if isinstance(judged, JudgedPairs) else
                       run.held_doc_id.to_numpy(), at)  # from the run's row order
    found: list[np.ndarray] = [np.zeros(0, dtype=np.int64)]
    grade: list[np.ndarray] = [np.zeros(0, dtype=np.float64)]
    step = 1 << 18  # rows at a time: small temporaries
    for i in range(0, doc.size, step):
        part = doc[i:i + step]
        at_part = np.flatnonzero(judged.maybe(part))
        # the slice's query codes at once: most rows may be judged (a recommender's)
        query = judged_of[(codes(index.offsets, i, i + part.size) if code is None else
                           code[i:i + part.size])[at_part]]
        pos = at_part + i
        if (query < 0).any():  # rows of queries without judgments
            inside = query >= 0
            pos, query = pos[inside], query[inside]
        hit, rows = judged.find(query, doc[pos])
        pos = pos[hit]
        if isinstance(judged, JudgedPairs):  # found through a hash: the ids compared
            same = judged.confirmed(doc[pos], run.doc_ids_at(
                index.src_at(pos if at is None else at[pos])))
            pos, rows = pos[same], rows[same]
        found.append(pos)
        grade.append(relevance[rows])
    return np.concatenate(found), np.concatenate(grade).astype(np.float64, copy=False)


def _renumbered(j_sorted: tuple[np.ndarray, np.ndarray],
                new: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Judgments ordered by query then grade descending (``j_sorted``), with query ``q``
    renumbered ``new[q]``: each query's run of judgments moves whole to its new place."""
    j_q, j_grade = j_sorted
    nq = new.size
    counts = np.bincount(j_q, minlength=nq)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    old = np.empty(nq, dtype=np.int64)
    old[new] = np.arange(nq)  # the old number of each new query, in new order
    lengths = counts[old]
    new_starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    take = np.arange(j_q.size) + np.repeat(starts[old] - new_starts, lengths)
    return np.repeat(np.arange(nq), lengths), j_grade[take]

