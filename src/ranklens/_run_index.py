"""Run-only alignment work, done once per :class:`Run` and kept on it.

Ranking a run (query blocks, sorting by score, breaking ties), hashing its doc ids and
checking it for duplicates depend on the run alone, not on the judgments or on most
options. :func:`run_index` does that work on the first evaluation and caches the result on
the ``Run``, so evaluating the same run again (other measures, other judgments) only maps
queries and matches judgments.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import polars as pl
else:  # imported on first use (see ranklens._lazy)
    from ._lazy import polars as pl

from ._groups import group_offsets, group_ranks, maybe_duplicated
from ._tables import Run

__all__ = ["RunIndex", "run_index"]


@dataclass(frozen=True, eq=False)
class RunIndex:
    """Every row of a run, ranked: query ids byte-wise ascending, score descending, ties.

    Attributes
    ----------
    query_ids : the run's distinct query ids, byte-wise ascending (a String series).
    code : index into ``query_ids`` of each ranked row (int64).
    src : row of the run frame each ranked row comes from.
    rank : 1-based rank of each ranked row within its query.
    score : the score of each ranked row.
    keys : 64-bit hash of (``code``, doc id) of each ranked row (see ``_align._pair_keys``).
    offsets : ``offsets[c]:offsets[c+1]`` are the ranked rows of ``query_ids[c]``.
    duplicated : whether some doc id occurs twice for one query (then alignment takes the
        general path, which reports or removes them).

    Every array is read-only: alignments hand them out without copying.
    """

    query_ids: pl.Series
    code: np.ndarray
    src: np.ndarray
    rank: np.ndarray
    score: np.ndarray
    keys: np.ndarray
    offsets: np.ndarray
    duplicated: bool


def run_index(run: Run, ties: str) -> RunIndex:
    """The cached :class:`RunIndex` of ``run`` for tie order ``ties`` (built on first use).

    ``ties="input"`` breaks score ties by the run's ``order`` column; every other value by
    doc id descending (byte-wise), as trec_eval does.
    """
    tiebreak = "input" if ties == "input" else "docid"
    cache = run._cache
    if tiebreak not in cache:
        cache[tiebreak] = _build(run, tiebreak)
    index: RunIndex = cache[tiebreak]
    return index


def _build(run: Run, tiebreak: str) -> RunIndex:
    # deferred: _align imports this module's users
    from ._align import _pair_keys, _query_index, _ranked_order

    rf = run.frame
    qids = rf["query_id"]
    starts = (qids != qids.shift(1)).fill_null(True).arg_true()
    query_ids = qids.gather(starts).unique().sort()
    queries = pl.DataFrame(
        {"query_id": query_ids, "qidx": np.arange(len(query_ids), dtype=np.int64)},
        schema={"query_id": pl.String, "qidx": pl.Int64},
    )
    row_code, _, _ = _query_index(qids, queries)
    score_all = rf["score"].to_numpy()
    if tiebreak == "input":
        tb, tb_desc = rf["order"], False
    else:
        tb, tb_desc = rf["doc_id"], True
    src, code = _ranked_order(row_code, score_all, tb, tb_desc)
    del row_code
    keys = rf["doc_id"].hash(0).to_numpy()[src]
    keys = _pair_keys(code, keys)
    offsets = group_offsets(code, len(query_ids))
    duplicated = maybe_duplicated(keys)
    if duplicated:  # equal keys: equal pairs, or (rarely) a hash collision
        pos = np.flatnonzero(pl.Series(keys).is_duplicated().to_numpy())
        sub = pl.DataFrame({"q": code[pos], "doc_id": rf["doc_id"].gather(src[pos])})
        duplicated = bool(sub.select(pl.struct("q", "doc_id").is_duplicated()).to_series().any())
    index = RunIndex(
        query_ids=query_ids,
        code=code,
        src=src,
        rank=group_ranks(code, offsets),
        score=score_all[src],
        keys=keys,
        offsets=offsets,
        duplicated=duplicated,
    )
    for arr in (index.code, index.src, index.rank, index.score, index.keys, index.offsets):
        arr.flags.writeable = False
    return index
