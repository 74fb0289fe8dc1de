"""Run-only alignment work, done once per :class:`Run` and kept on it.

Ranking a run (query blocks, sorting by score, breaking ties), hashing its doc ids and
checking it for duplicates depend on the run alone, not on the judgments or on most
options. :func:`run_index` does that work once (``load_run`` asks for it, or the first
evaluation) and caches the result on the ``Run``, so every evaluation of the run (other
measures, other judgments) only maps queries and matches judgments.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import polars as pl
else:  # imported on first use (see ranklens._lazy)
    from ._lazy import polars as pl

from ._groups import group_at, group_offsets, locate, maybe_duplicated, steps_within
from ._tables import Run

__all__ = ["Moves", "RunIndex", "full_src", "run_index", "tiebreak_at", "tiebreak_of"]

#: which run row each ranked row comes from: every row's (an array), or only those of the
#: ranked rows that come from another row (positions ascending, rows); see RunIndex.moves
Moves = np.ndarray | tuple[np.ndarray, np.ndarray]


def full_src(n: int, moves: Moves) -> np.ndarray:
    """The run row of each of the ``n`` ranked rows, from ``moves``."""
    if isinstance(moves, np.ndarray):
        return moves
    src = np.arange(n, dtype=_index_dtype(n))
    src[moves[0]] = moves[1]
    return src


@dataclass(frozen=True, eq=False)
class RunIndex:
    """Every row of a run, ranked: query by query, score descending, ties broken.

    Attributes
    ----------
    query_ids : the run's distinct query ids (a String series), in the run's order when
        each query is one block of adjacent rows, else byte-wise ascending.
    code : index into ``query_ids`` of each ranked row (built from ``offsets`` on first
        use; :meth:`code_at` gives it at a few positions).
    src : row of the run frame each ranked row comes from (built from ``moves`` on
        first use; :meth:`src_at` gives it at a few positions).
    moves : ``src`` itself, or, when only rows with equal scores moved (ranked in the
        run's order, ties re-sorted), the pair (positions, rows) of the ranked rows that
        come from another row: at MS MARCO scale, a few thousand instead of seven million.
    keys : 64-bit hash of (``code``, doc id) of each ranked row (see ``_align._pair_keys``).
    offsets : ``offsets[c]:offsets[c+1]`` are the ranked rows of ``query_ids[c]``.
    duplicated : whether some doc id occurs twice for one query (then alignment takes the
        general path, which reports or removes them).

    Every array is read-only: alignments hand them out without copying.
    """

    query_ids: pl.Series
    moves: Moves
    keys: np.ndarray
    offsets: np.ndarray
    duplicated: bool
    _cache: dict = field(default_factory=dict, repr=False)

    @property
    def src(self) -> np.ndarray:
        if isinstance(self.moves, np.ndarray):
            return self.moves
        if "src" not in self._cache:
            src = full_src(self.keys.size, self.moves)
            src.flags.writeable = False
            self._cache["src"] = src
        src_: np.ndarray = self._cache["src"]
        return src_

    def src_at(self, pos: np.ndarray) -> np.ndarray:
        """:attr:`src` of the ranked rows at positions ``pos``."""
        if isinstance(self.moves, np.ndarray) or "src" in self._cache:
            return self.src[pos]
        moved, rows = self.moves
        out = pos.astype(_index_dtype(self.keys.size))
        if moved.size:
            at, hit = locate(moved, pos)
            out[hit] = rows[at[hit]]
        return out

    @property
    def ties_only(self) -> bool:
        """Whether only rows with equal scores moved: a run row's score is then also its
        ranked row's (no need to gather scores through :attr:`src`)."""
        return not isinstance(self.moves, np.ndarray)

    @property
    def code(self) -> np.ndarray:
        if "code" not in self._cache:
            self._cache["code"] = _codes(self.offsets, 0, int(self.offsets[-1]))
        code: np.ndarray = self._cache["code"]
        return code

    def code_at(self, pos: np.ndarray) -> np.ndarray:
        """:attr:`code` of the ranked rows at positions ``pos``."""
        if "code" in self._cache:
            return self.code[pos]
        return group_at(self.offsets, pos)


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
    from ._align import _block_index, _sorted_order, numbered

    nb = run.block_ids.len()
    if run.block_ids.n_unique() == nb:
        # each query is one block of rows (how run files are written): queries keep the
        # run's order, so blocks stay where they are and only tied rows move
        query_ids = run.block_ids
        block_code = np.arange(nb, dtype=np.int64)
    else:
        query_ids = run.block_ids.unique().sort()
        block_code = _block_index(run.block_ids, numbered(query_ids))
    tb_desc = tiebreak != "input"
    ranked = _block_order(block_code, run.block_lengths, run.score,
                          lambda rows: tiebreak_at(run, tiebreak, rows), tb_desc)
    moves: Moves
    if ranked is not None:
        offsets, moves = ranked
    else:
        moves, code = _sorted_order(np.repeat(block_code, run.block_lengths), run.score,
                                    tiebreak_of(run, tiebreak)[0], tb_desc)
        offsets = group_offsets(code, len(query_ids))
        del code
    # the reader may have hashed the doc ids already (a one-off: the index keeps keys
    # instead), or an index in another tie order holds them
    doc_hash = run._cache.pop("doc_hash", None)
    if doc_hash is None:
        doc_hash = next((_row_hashes(other) for other in run._cache.values()
                         if isinstance(other, RunIndex)), None)
    keys = _ranked_keys(doc_hash, run, moves, offsets)
    index = RunIndex(query_ids=query_ids, moves=moves, keys=keys, offsets=offsets,
                     duplicated=False)
    if _maybe_duplicated(keys, offsets):  # equal keys: equal pairs, or (rarely) a collision
        pos = np.flatnonzero(pl.Series(keys).is_duplicated().to_numpy())
        sub = pl.DataFrame({"q": group_at(offsets, pos),
                            "doc_id": run.doc_ids_at(index.src_at(pos))})
        if sub.select(pl.struct("q", "doc_id").is_duplicated()).to_series().any():
            index = replace(index, duplicated=True)
    for arr in (keys, offsets, *(moves if isinstance(moves, tuple) else (moves,))):
        arr.flags.writeable = False
    return index


def _index_dtype(n: int) -> type[np.signedinteger]:
    """The narrowest of int32/int64 that indexes ``n`` rows (half the memory, and at this
    scale fresh memory costs as much as the arithmetic)."""
    return np.int32 if n < 2**31 else np.int64


def _maybe_duplicated(keys: np.ndarray, offsets: np.ndarray) -> bool:
    """Whether two rows of one query share a key (equal pairs, or a hash collision).

    Runs usually list about the same number of documents for every query; then each query's
    32-bit key halves are sorted as one row of a matrix, a slice of queries at a time
    (small, cache-resident sorts; short rows padded with values distinct from each other),
    and only a query whose row holds two equal values is checked on its full keys.
    Otherwise one hash-based count over all keys.
    """
    lengths = np.diff(offsets)
    nq = lengths.size
    width = int(lengths.max()) if nq else 0
    if keys.size == 0 or width < 2 or width * nq > keys.size + keys.size // 2:
        return maybe_duplicated(keys)
    halves = keys.view(np.uint32)[1::2] if sys.byteorder == "little" else keys >> 32
    pad = np.uint32(0xFFFFFFFF) - np.arange(width, dtype=np.uint32)
    per = max(1, (1 << 20) // width)  # queries a slice: the matrix stays cache-sized
    for a in range(0, nq, per):
        b = min(a + per, nq)
        part = halves[offsets[a]:offsets[b]]
        if lengths[a:b].min() == width:
            rows = part.astype(np.uint32).reshape(b - a, width)
        else:
            rows = np.empty((b - a, width), dtype=np.uint32)
            rows[:] = pad
            rows[np.arange(width) < lengths[a:b, None]] = part
        rows.sort(axis=1)
        for q in np.flatnonzero((rows[:, 1:] == rows[:, :-1]).any(axis=1)) + a:
            if np.unique(keys[offsets[q]:offsets[q + 1]]).size < lengths[q]:
                return True
    return False


def _ranked_keys(doc_hash: np.ndarray | None, run: Run, moves: Moves,
                 offsets: np.ndarray) -> np.ndarray:
    """:func:`ranklens._align._pair_keys` of each ranked row of ``run``.

    ``doc_hash`` (the doc ids' hashes in input order, if known) is consumed: when few
    rows moved (queries kept in the run's order, only tied rows re-sorted) the keys are
    made in its place, so the index does not hold a second full-length array.
    """
    if doc_hash is None or not doc_hash.flags.writeable:
        doc_hash = np.array(run.doc_id.hash(0).to_numpy() if doc_hash is None else doc_hash)
    if isinstance(moves, tuple):
        keys = doc_hash
        keys[moves[0]] = doc_hash[moves[1]]  # the right side is gathered before the write
    else:
        keys = doc_hash[moves]
    _mix_queries(keys, offsets)
    return keys


def _mix_queries(keys: np.ndarray, offsets: np.ndarray) -> None:
    """Mix each ranked row's query number (rows grouped by ``offsets``) into ``keys`` in
    place (``_align.mix_query_into``), a slice at a time: no full-length query numbers.
    Mixing is an XOR, so mixing keys again gives back the doc hashes."""
    from ._align import mix_query_into

    step = 1 << 20
    for i in range(0, keys.size, step):
        j = min(i + step, keys.size)
        mix_query_into(keys[i:j], _codes(offsets, i, j))


def _row_hashes(index: RunIndex) -> np.ndarray:
    """The doc id hash of every run row, from ``index``'s keys (mixing the query in again
    takes it out, see ``_align._pair_keys``): the doc ids need not be hashed (or read)
    again."""
    ranked = np.array(index.keys)
    _mix_queries(ranked, index.offsets)
    if isinstance(index.moves, tuple):
        at, rows = index.moves
        ranked[rows] = ranked[at]  # the right side is gathered before the write
        return ranked
    by_row = np.empty_like(ranked)
    by_row[index.moves] = ranked
    return by_row


def _codes(offsets: np.ndarray, start: int, stop: int) -> np.ndarray:
    """The group number of each row in ``start:stop`` of rows grouped by ``offsets``."""
    first = int(np.searchsorted(offsets, start, side="right")) - 1
    last = int(np.searchsorted(offsets, stop, side="left"))
    lengths = np.diff(np.clip(offsets[first:last + 1], start, stop))
    dtype = _index_dtype(int(offsets[-1]))
    code = np.repeat(np.arange(first, first + lengths.size, dtype=dtype), lengths)
    code.flags.writeable = False
    return code


def tiebreak_of(run: Run, ties: str) -> tuple[pl.Series, bool]:
    """What breaks score ties and whether descending: input order for ``ties="input"``,
    else the doc id descending (byte-wise), as trec_eval."""
    if ties == "input":
        return pl.Series(np.arange(len(run), dtype=np.int64)), False
    return run.doc_id, True


def tiebreak_at(run: Run, ties: str, rows: np.ndarray) -> pl.Series:
    """:func:`tiebreak_of` at the rows ``rows`` only."""
    if ties == "input":
        return pl.Series(rows.astype(np.int64))
    return run.doc_ids_at(rows)


def _block_order(block_code: np.ndarray, lengths: np.ndarray, score: np.ndarray,
                 tiebreak_at: Callable[[np.ndarray], pl.Series], tiebreak_descending: bool,
                 ) -> tuple[np.ndarray, Moves] | None:
    """``offsets, moves`` of the ranked order without sorting, when each query is one
    block of rows with scores non-increasing (how run files are written); else None.
    ``block_code`` numbers each block's query (ascending numbers rank first); ``offsets``
    delimit each query's ranked rows in that order; ``moves`` (see :attr:`RunIndex.moves`)
    is sparse when no block moves.

    Whole blocks move to their query's place; rows tied on score, contiguous within their
    block, are then re-sorted among themselves by ``tiebreak_at(rows)`` (the tie breaks of
    those rows). Neighbours are compared a slice at a time and only the few positions
    found are kept: at this scale, fresh memory costs as much as the arithmetic.
    """
    n, nb = score.size, block_code.size
    if n == 0 or np.unique(block_code).size != nb:
        return None  # a query split over several blocks
    ends = np.cumsum(lengths)
    starts = ends - lengths
    if steps_within(score, ends, "rise").size:  # within a block: not written best first
        return None
    tie = steps_within(score, ends, "tie")
    # blocks move to ascending query number; place[k] is block k's position in that order
    by_query = np.argsort(block_code)
    place = np.empty(nb, dtype=np.int64)
    place[by_query] = np.arange(nb)
    q_lengths = lengths[by_query]
    offsets = np.zeros(nb + 1, dtype=np.int64)
    np.cumsum(q_lengths, out=offsets[1:])
    shift = offsets[:-1] - starts[by_query]  # ranked position - input row, per query
    index = _index_dtype(n)
    pos = np.union1d(tie, tie + 1).astype(index)  # the rows in a tie
    rows = pos
    if pos.size:
        from ._align import tie_order  # deferred: _align imports this module

        block = np.searchsorted(ends, pos, side="right")
        rows = pos[tie_order(block, score[pos], tiebreak_at(pos), tiebreak_descending)]
    if not shift.any():
        return offsets, (pos, rows)
    src = np.ones(n, dtype=index)
    src[0] = -shift[0]
    src[offsets[1:-1]] = 1 - np.diff(shift)
    np.cumsum(src, dtype=index, out=src)
    # a block moves whole, so a tied row's ranked position is its row plus the shift
    src[pos + shift[place[np.searchsorted(ends, pos, side="right")]]] = rows
    return offsets, src
