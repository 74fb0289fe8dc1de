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
    from ._align import _pair_keys, _ranked_order

    n = len(run)
    query_ids = run.block_ids.unique().sort()
    block_code = (pl.DataFrame({"query_id": run.block_ids})
                  .join(pl.DataFrame({"query_id": query_ids,
                                      "qidx": np.arange(len(query_ids), dtype=np.int64)}),
                        on="query_id", how="left", maintain_order="left")["qidx"]
                  .to_numpy().astype(np.int64, copy=False))
    if tiebreak == "input":
        tb, tb_desc = pl.Series(np.arange(n, dtype=np.int64)), False
    else:
        tb, tb_desc = run.doc_id, True
    ranked = _block_order(block_code, run.block_lengths, run.score, tb, tb_desc)
    if ranked is not None:
        src, code, rank, offsets = ranked
    else:
        src, code = _ranked_order(np.repeat(block_code, run.block_lengths), run.score, tb,
                                  tb_desc)
        offsets = group_offsets(code, len(query_ids))
        rank = group_ranks(code, offsets)
    keys = run.doc_id.hash(0).to_numpy()
    if src is None:
        src = np.arange(n, dtype=np.int64)
    else:
        keys = keys[src]
    keys = _pair_keys(code, keys)
    duplicated = maybe_duplicated(keys)
    if duplicated:  # equal keys: equal pairs, or (rarely) a hash collision
        pos = np.flatnonzero(pl.Series(keys).is_duplicated().to_numpy())
        sub = pl.DataFrame({"q": code[pos], "doc_id": run.doc_id.gather(src[pos])})
        duplicated = bool(sub.select(pl.struct("q", "doc_id").is_duplicated()).to_series().any())
    index = RunIndex(
        query_ids=query_ids,
        code=code,
        src=src,
        rank=rank,
        keys=keys,
        offsets=offsets,
        duplicated=duplicated,
    )
    for arr in (index.code, index.src, index.rank, index.keys, index.offsets):
        arr.flags.writeable = False
    return index


def _block_order(block_code: np.ndarray, lengths: np.ndarray, score: np.ndarray,
                 tiebreak: pl.Series, tiebreak_descending: bool,
                 ) -> tuple[np.ndarray | None, np.ndarray, np.ndarray, np.ndarray] | None:
    """``src, code, rank, offsets`` of the ranked order without sorting, when each query is
    one block of rows with scores non-increasing (how run files are written); else None.
    ``src`` is None when the ranked order is the input order.

    Rows tied on score are contiguous within their block: only they are re-sorted, by
    ``tiebreak``, in place. Then whole blocks move to their query's place.
    """
    n, nb = score.size, block_code.size
    if n == 0 or np.unique(block_code).size != nb:
        return None  # a query split over several blocks
    ends = np.cumsum(lengths)
    starts = ends - lengths
    inner = np.ones(n, dtype=bool)  # row i and row i-1 are in the same block
    inner[starts] = False
    inner = inner[1:]
    if not (~inner | (score[1:] <= score[:-1])).all():
        return None
    # NumPy comparisons treat -0.0 and 0.0 as equal (a tie, as in trec_eval)
    tie = inner & (score[1:] == score[:-1])
    src: np.ndarray | None = None
    if tie.any():
        member = np.zeros(n, dtype=bool)
        member[:-1] |= tie
        member[1:] |= tie
        pos = np.flatnonzero(member)
        block = np.searchsorted(ends, pos, side="right")
        order = (pl.DataFrame({"b": block, "s": score[pos] + 0.0, "t": tiebreak.gather(pos)})
                 .select(pl.arg_sort_by(["b", "s", "t"], descending=[False, True,
                                                                   tiebreak_descending],
                                        maintain_order=True))
                 .to_series().to_numpy())
        src = np.arange(n, dtype=np.int64)
        src[pos] = pos[order]
    # block_code is a permutation of the query numbers: block k goes to query code k's place
    by_query = np.argsort(block_code)
    q_lengths = lengths[by_query]
    offsets = np.zeros(nb + 1, dtype=np.int64)
    np.cumsum(q_lengths, out=offsets[1:])
    new_starts = np.repeat(offsets[:-1], q_lengths)
    if not (by_query == np.arange(nb)).all():
        moved = np.arange(n, dtype=np.int64)
        moved -= new_starts
        moved += np.repeat(starts[by_query], q_lengths)
        src = moved if src is None else src[moved]
    code = np.repeat(np.arange(nb, dtype=np.int64), q_lengths)
    rank = np.arange(1, n + 1, dtype=np.int64)
    rank -= new_starts
    return src, code, rank, offsets
