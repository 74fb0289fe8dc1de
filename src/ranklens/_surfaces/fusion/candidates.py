"""Several runs on one id dictionary: one row per (query, document) in the union of the
runs, with each run's rank, list length and score of the document side by side.

Everything the fusion methods read is here as arrays (``U`` candidate rows, ``R`` runs):
the rows are grouped by query (ascending query id), and within a query in no particular
order. A run that does not retrieve a document has rank 0 and score NaN in that row; a run
with no list for a query has length 0 in that query's rows.

Documents are matched by a 64-bit hash of their id within the query, and every match is
then checked on the ids themselves: should two ids of one query share a hash, the exact
(slower) coding of every id is used instead. Nothing is matched by hash alone.

Each run's ranks are read in the convention's order: ranklens's is the order ``evaluate``
reads (score descending, ties by doc id descending); ranx's is numba's quicksort over the
order the documents were given in (see :mod:`ranklens._surfaces.fusion.order`).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from ..._base.errors import InputError
from ..._ingest.tables import Run
from ..._model.keys import PairKeys, sorted_blocks
from .order import group_positions, ranked, starts_of

__all__ = ["Candidates", "align_runs", "run_ranks"]


@dataclass(frozen=True, eq=False)
class Candidates:
    """The union of several runs' (query, document) pairs, one row each.

    Attributes
    ----------
    query : ndarray of int64, shape (U,)
        Codes into :attr:`query_ids` (sorted, so code order is id order); rows grouped by
        query.
    doc : ndarray of int64, shape (U,)
        Codes into :attr:`doc_ids`. One code per candidate row (a document retrieved for
        two queries has two codes): codes compare documents within a query.
    rank : ndarray of int64, shape (U, R)
        1-based rank of the document in run ``r``'s list for the query; 0 when absent.
    length : ndarray of int64, shape (U, R)
        Length of run ``r``'s list for the row's query; 0 when run ``r`` has none.
    score : ndarray of float64, shape (U, R)
        Run ``r``'s score of the document; NaN when absent.
    starts : ndarray of int64
        Offsets of each query's rows, with the end (``Q + 1`` values).
    query_ids, doc_ids : polars.Series
        The ids the codes stand for (``doc_ids[doc]`` is each row's doc id).
    names : tuple of str
        The runs' names, in ``R``'s order.
    empty_queries : tuple of str
        Queries some run gave with an explicitly empty list and no run ranks anything for.
    ranx : bool
        Whether the ranks follow ranx's tie order (``convention="ranx"``).
    """

    query: np.ndarray
    doc: np.ndarray
    rank: np.ndarray
    length: np.ndarray
    score: np.ndarray
    starts: np.ndarray
    query_ids: pl.Series
    doc_ids: pl.Series
    names: tuple[str, ...]
    empty_queries: tuple[str, ...]
    ranx: bool

    @property
    def runs(self) -> int:
        """The number of runs ``R``."""
        return int(self.rank.shape[1])

    @property
    def size(self) -> np.ndarray:
        """The number of candidates of each row's query, shape (U,)."""
        return np.repeat(np.diff(self.starts), np.diff(self.starts))


def run_ranks(run: Run, query: np.ndarray, *, ranx: bool) -> np.ndarray:
    """1-based rank of each row of ``run`` within its query (``query``: each row's query
    code), in the convention's order (blocks already ranked, as TREC files mostly are, are
    not sorted again).
    """
    order = ranked(query, run.score, ranx=ranx, docs=None if ranx else run.doc_id)
    rank = np.empty(query.size, dtype=np.int64)
    rank[order] = group_positions(query[order]) + 1
    return rank


def _query_codes(runs: Sequence[Run]) -> tuple[list[np.ndarray], pl.Series]:
    """Each run's row query codes, and the sorted distinct query ids."""
    query_ids, codes = sorted_blocks(pl.concat([r.block_ids for r in runs]))
    bounds = np.cumsum([0, *(r.block_lengths.size for r in runs)])
    return [np.repeat(codes[a:b], r.block_lengths)
            for r, a, b in zip(runs, bounds[:-1], bounds[1:], strict=True)], query_ids


def _hash_keys(runs: Sequence[Run], queries: list[np.ndarray],
               n_queries: int) -> list[np.ndarray]:
    """Each row's pair key from its doc id's hash (sorted keys are grouped by query)."""
    scheme = PairKeys.hashed(n_queries)
    return [scheme.of(q, run.doc_id.hash(seed=0).to_numpy())
            for run, q in zip(runs, queries, strict=True)]


def _exact_keys(runs: Sequence[Run], queries: list[np.ndarray],
                n_queries: int) -> list[np.ndarray]:
    """Each row's key from exact doc codes (the doc ids' dense ranks)."""
    docs = pl.concat([r.doc_id for r in runs])
    codes = docs.rank("dense").to_numpy().astype(np.int64) - 1
    scheme = PairKeys.exact(n_queries, int(codes.max()) + 1 if codes.size else 1)
    bounds = np.cumsum([0, *map(len, runs)])
    return [scheme.of(q, codes[a:b])
            for q, a, b in zip(queries, bounds[:-1], bounds[1:], strict=True)]


def align_runs(runs: Sequence[Run], names: Sequence[str], *, ranx: bool = False,
               depth: int | None = None) -> Candidates:
    """The candidates of ``runs`` (loaded), each cut to its top ``depth`` when given.

    Raises
    ------
    InputError
        A run lists one document twice for a query (fusion needs one score per document).
    """
    queries, query_ids = _query_codes(runs)
    n_queries = query_ids.len()
    ranks = [run_ranks(run, q, ranx=ranx) for run, q in zip(runs, queries, strict=True)]
    # None: every row kept (no copy of the columns)
    keep: list[np.ndarray | None] = [None if depth is None else np.flatnonzero(rank <= depth)
                                     for rank in ranks]
    union, at, doc_ids = _match(runs, _hash_keys(runs, queries, n_queries), keep)
    if doc_ids is None:  # two ids of one query share a hash: code them exactly
        union, at, doc_ids = _match(runs, _exact_keys(runs, queries, n_queries), keep)
    if doc_ids is None:  # pragma: no cover - exact codes cannot collide
        raise AssertionError("exact doc codes collided")
    query = np.zeros(union.size, dtype=np.int64)
    for q, rows, positions in zip(queries, keep, at, strict=True):
        query[positions] = q if rows is None else q[rows]
    starts = starts_of(query)
    n_rows, n_runs = union.size, len(runs)
    rank_m = np.zeros((n_rows, n_runs), dtype=np.int64)
    score_m = np.full((n_rows, n_runs), np.nan)
    length_m = np.zeros((n_rows, n_runs), dtype=np.int64)
    for r, run in enumerate(runs):
        _refuse_duplicates(run, at[r], union.size, query_ids, doc_ids, query)
        rows = keep[r]
        rank_m[at[r], r] = ranks[r] if rows is None else ranks[r][rows]
        score_m[at[r], r] = run.score if rows is None else run.score[rows]
        length_m[:, r] = np.bincount(query[at[r]], minlength=n_queries)[query]
    with_rows = set(query_ids.gather(query[starts[:-1]]).to_list()) if n_rows else set()
    empty = tuple(dict.fromkeys(q for r in runs for q in r.empty_queries if q not in with_rows))
    return Candidates(query=query, doc=np.arange(n_rows, dtype=np.int64), rank=rank_m,
                      length=length_m, score=score_m, starts=starts, query_ids=query_ids,
                      doc_ids=doc_ids, names=tuple(names), empty_queries=empty, ranx=ranx)


def _match(runs: Sequence[Run], keys: list[np.ndarray], keep: list[np.ndarray | None]
           ) -> tuple[np.ndarray, list[np.ndarray], pl.Series | None]:
    """The sorted distinct keys of the kept rows, each run's rows' places among them, and
    each place's doc id (None when two different ids share a key).

    One dense rank of all the kept rows' keys (polars's) gives every row's place among the
    distinct keys; each key's first row stands for it.
    """
    kept = [k if rows is None else k[rows] for k, rows in zip(keys, keep, strict=True)]
    every = np.concatenate(kept) if kept else np.empty(0, dtype=np.int64)
    docs = pl.concat([run.doc_id if rows is None else run.doc_id.gather(rows)
                      for run, rows in zip(runs, keep, strict=True)])
    if every.size == 0:
        return every, [k[:0] for k in kept], docs
    place = pl.Series(every).rank("dense").to_numpy().astype(np.int64) - 1
    representative = np.empty(int(place.max()) + 1, dtype=np.int64)
    representative[place[::-1]] = np.arange(every.size - 1, -1, -1)  # the last write wins
    # every other row's id against its key's first row's: the match is exact, whatever the keys
    others = np.flatnonzero(representative[place] != np.arange(every.size))
    if others.size and not (docs.gather(others)
                            == docs.gather(representative[place[others]])).all():
        return every[representative], [], None
    bounds = np.cumsum([0, *(k.size for k in kept)])
    at = [place[a:b] for a, b in itertools.pairwise(bounds)]
    return every[representative], at, docs.gather(representative).alias("doc_id")


def _refuse_duplicates(run: Run, at: np.ndarray, n_rows: int, query_ids: pl.Series,
                       doc_ids: pl.Series, query: np.ndarray) -> None:
    """InputError when two rows of ``run`` land on one candidate row (``at``)."""
    if at.size == 0:
        return
    counts = np.bincount(at, minlength=n_rows)
    twice = np.flatnonzero(counts > 1)
    if twice.size:
        u = int(twice[0])
        raise InputError(
            f"the run {run.name!r} lists the document {doc_ids[u]!r} more than once "
            f"for the query {query_ids[int(query[u])]!r}; fusion needs one score per document "
            f"and query ({twice.size} repeated pair{'s' if twice.size > 1 else ''})",
            source=run.source)
