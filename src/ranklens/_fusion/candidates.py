"""Several runs on one id dictionary: one row per (query, document) in the union of the
runs, with each run's rank, list length and score of the document side by side.

Everything the fusion methods read is here as arrays (``U`` candidate rows, ``R`` runs):
the rows are grouped by query (ascending query id), and within a query ordered by doc id.
A run that does not retrieve a document has rank 0 and score NaN in that row; a run with
no list for a query has length 0 in that query's rows.

Each run's ranks are read in the convention's order: ranklens's is the order ``evaluate``
reads (score descending, ties by doc id descending); ranx's is numba's quicksort over the
order the documents were given in (see :mod:`ranklens._fusion.order`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from .._errors import InputError
from .._tables import Run
from .order import group_positions, ranked, starts_of

__all__ = ["Candidates", "align_runs", "run_ranks"]


@dataclass(frozen=True, eq=False)
class Candidates:
    """The union of several runs' (query, document) pairs, one row each.

    Attributes
    ----------
    query, doc : ndarray of int64, shape (U,)
        Codes into :attr:`query_ids` and :attr:`doc_ids` (both sorted, so code order is
        id order); rows grouped by query.
    rank : ndarray of int64, shape (U, R)
        1-based rank of the document in run ``r``'s list for the query; 0 when absent.
    length : ndarray of int64, shape (U, R)
        Length of run ``r``'s list for the row's query; 0 when run ``r`` has none.
    score : ndarray of float64, shape (U, R)
        Run ``r``'s score of the document; NaN when absent.
    starts : ndarray of int64
        Offsets of each query's rows, with the end (``Q + 1`` values).
    query_ids, doc_ids : polars.Series
        The ids the codes stand for.
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


def run_ranks(query: np.ndarray, doc: np.ndarray, score: np.ndarray, *,
              ranx: bool) -> np.ndarray:
    """1-based rank of each row within its query (rows in any order, codes as given)."""
    arrival = np.arange(query.size, dtype=np.int64)
    order = ranked(query, score, arrival if ranx else doc, ranx=ranx)
    rank = np.empty(query.size, dtype=np.int64)
    rank[order] = group_positions(query[order]) + 1
    return rank


def _dense_codes(series: pl.Series) -> tuple[np.ndarray, pl.Series]:
    """Codes in id order (0-based) and the sorted distinct ids."""
    if series.len() == 0:
        return np.empty(0, dtype=np.int64), series.head(0)
    codes = series.rank("dense").to_numpy().astype(np.int64) - 1
    return codes, series.unique().sort()


def align_runs(runs: Sequence[Run], names: Sequence[str], *, ranx: bool = False,
               depth: int | None = None) -> Candidates:
    """The candidates of ``runs`` (loaded), each cut to its top ``depth`` when given.

    Raises
    ------
    InputError
        A run lists one document twice for a query (fusion needs one score per document).
    """
    blocks = pl.concat([r.block_ids for r in runs]) if runs else pl.Series([], dtype=pl.String)
    block_codes, query_ids = _dense_codes(blocks)
    docs = pl.concat([r.doc_id for r in runs])
    doc_codes, doc_ids = _dense_codes(docs)
    n_docs = max(doc_ids.len(), 1)
    keys, ranks, scores = [], [], []
    b0 = d0 = 0
    for run in runs:
        nb, n = run.block_lengths.size, len(run)
        q = np.repeat(block_codes[b0:b0 + nb], run.block_lengths)
        d = doc_codes[d0:d0 + n]
        b0, d0 = b0 + nb, d0 + n
        key = q * n_docs + d
        _refuse_duplicates(run, key, n_docs, query_ids, doc_ids)
        rank = run_ranks(q, d, run.score, ranx=ranx)
        keep = slice(None) if depth is None else rank <= depth
        keys.append(key[keep])
        ranks.append(rank[keep])
        scores.append(run.score[keep])
    union = np.unique(np.concatenate(keys)) if keys else np.empty(0, dtype=np.int64)
    query, doc = union // n_docs, union % n_docs
    starts = starts_of(query)
    n_rows, n_runs = union.size, len(runs)
    rank_m = np.zeros((n_rows, n_runs), dtype=np.int64)
    score_m = np.full((n_rows, n_runs), np.nan)
    length_m = np.zeros((n_rows, n_runs), dtype=np.int64)
    n_queries = query_ids.len()
    for r, (key, rank, score) in enumerate(zip(keys, ranks, scores, strict=True)):
        at = np.searchsorted(union, key)
        rank_m[at, r] = rank
        score_m[at, r] = score
        per_query = np.bincount(key // n_docs, minlength=n_queries)
        length_m[:, r] = per_query[query]
    with_rows = set(query_ids.gather(np.unique(query)).to_list()) if n_rows else set()
    empty = tuple(dict.fromkeys(q for r in runs for q in r.empty_queries if q not in with_rows))
    return Candidates(query=query, doc=doc, rank=rank_m, length=length_m, score=score_m,
                      starts=starts, query_ids=query_ids, doc_ids=doc_ids,
                      names=tuple(names), empty_queries=empty, ranx=ranx)


def _refuse_duplicates(run: Run, key: np.ndarray, n_docs: int, query_ids: pl.Series,
                       doc_ids: pl.Series) -> None:
    ordered = np.sort(key)
    same = np.flatnonzero(ordered[1:] == ordered[:-1])
    if same.size:
        k = int(ordered[same[0]])
        raise InputError(
            f"the run {run.name!r} lists the document {doc_ids[k % n_docs]!r} more than once "
            f"for the query {query_ids[k // n_docs]!r}; fusion needs one score per document "
            f"and query ({same.size} repeated pair{'s' if same.size > 1 else ''})",
            source=run.source)
