"""A judgments table and a run cut into the same query subsets, each a table of its own.

An evaluation is valid on any subset of queries (its partials merge), so a large one can be
computed a subset at a time: the ranking, the judgment index, the alignment and the measures'
arrays then exist for one subset at a time, not for every query at once. The subsets are
contiguous ranges of the judged query ids in byte order, of about equal numbers of queries;
a run query nobody judged goes with the range it falls in, as its missing and ignored
counts then merge to the whole run's.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from .._base.lazy import polars as pl
from .._ingest.tables import CodedJudgments, Qrels, ReaderHints, Run

__all__ = ["judged_query_ids", "split_qrels", "split_run", "subset_bounds"]


def judged_query_ids(qrels: Qrels) -> pl.Series:
    """The distinct query ids of ``qrels``, sorted byte-wise."""
    coded = qrels.coded
    ids = coded.block_ids if coded is not None else qrels.frame["query_id"]
    return ids.unique().sort()


def subset_bounds(judged: pl.Series, parts: int) -> pl.Series:
    """The first query id of every subset but the first: ``parts`` (at most 256) ranges
    of ``judged`` (sorted, distinct) with about as many queries each."""
    n = judged.len()
    starts = [n * i // parts for i in range(1, parts)]
    return judged.gather(starts)


def _subset_of(ids: pl.Series, bounds: pl.Series) -> np.ndarray:
    """The subset (0 .. len(bounds)) each of ``ids`` falls in."""
    if not ids.len():
        return np.zeros(0, dtype=np.int64)
    return bounds.search_sorted(ids, side="right").to_numpy().astype(np.int64, copy=False)


def split_qrels(qrels: Qrels, bounds: pl.Series) -> Iterator[tuple[Qrels, np.ndarray]]:
    """``qrels``'s judgments in ``len(bounds) + 1`` tables, by the query subsets of
    ``bounds`` (:func:`subset_bounds`), made one at a time, each with the mask of its rows
    in ``qrels``; judgments held as codes stay codes into the same dictionary (and share
    its hash table)."""
    parts = bounds.len() + 1
    coded = qrels.coded
    if coded is not None:
        of_block = _subset_of(coded.block_ids, bounds)
        of_row = np.repeat(of_block.astype(np.uint8), coded.block_lengths)
        for at in range(parts):
            blocks = of_block == at
            rows = of_row == at
            yield Qrels.from_codes(CodedJudgments(
                block_ids=coded.block_ids.filter(pl.Series(blocks)),
                block_lengths=coded.block_lengths[blocks],
                doc_code=coded.doc_code[rows],
                dictionary=coded.dictionary,
                relevance=coded.relevance[rows],
                lookup=coded.lookup,
            ), qrels.source), rows
        return
    frame = qrels.frame
    of_frame = _subset_of(frame["query_id"], bounds).astype(np.uint8)
    for at in range(parts):
        rows = of_frame == at
        yield Qrels(frame.filter(pl.Series(rows)), qrels.source,
                    qrels.integer_query_ids), rows


def split_run(run: Run, bounds: pl.Series) -> Iterator[tuple[Run, np.ndarray]]:
    """``run``'s rows in ``len(bounds) + 1`` runs, by the query subsets of ``bounds``,
    made one at a time (one subset's copy of the rows at a time), each with the mask of
    its rows in ``run``; each keeps its rows' order (ties broken by input order compare
    rows of one query)."""
    parts = bounds.len() + 1
    of_block = _subset_of(run.block_ids, bounds)
    of_row = np.repeat(of_block.astype(np.uint8), run.block_lengths)
    # the doc hashes a reader hands the whole run's first index are dropped: each subset
    # hashes its own doc ids as it is indexed
    run.hints.take_doc_hashes()
    empty = run.empty_queries
    of_empty = _subset_of(pl.Series(empty, dtype=pl.String), bounds) if empty else None
    for at in range(parts):
        blocks = of_block == at
        rows = of_row == at
        part = Run.from_blocks(
            run.block_ids.filter(pl.Series(blocks)), run.block_lengths[blocks],
            run.held_doc_id.filter(pl.Series(rows)), run.score[rows], run.source, run.name,
            () if of_empty is None else tuple(q for q, s in zip(empty, of_empty, strict=True)
                                               if s == at),
            # a fact of the whole run's structure holds for each of its parts
            hints=ReaderHints(distinct_docs=run.hints.distinct_docs))
        made = [part]
        del part  # held by the caller alone, which drops it before asking for the next
        yield made.pop(), rows
