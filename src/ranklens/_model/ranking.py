"""Per-query order of a run's rows under each tie policy, done once per run and kept on it.

One ranker (:func:`rank_rows`): rows by query, score descending, score ties broken by doc id
descending (byte-wise, as trec_eval), by input (line) order for ``ties="input"``, or by doc
id ascending (``"docid_ascending"``: trec_eval's preference measures, whose
form_prefs_counts.c sorts ties the other way). Runs
written query by query with scores descending (how run files are written) are ranked
without sorting; others are sorted.

Ranking a run, hashing its doc ids and checking it for duplicates depend on the run alone,
not on the judgments or on most options: :func:`run_index` does that work once per tie
order (``load_run`` asks for it, or the first alignment) and caches the result on the
``Run``, so every alignment of the run (other measures, other judgments) only maps queries
and matches judgments.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, get_args

import numpy as np

from .._base.groups import group_at, group_offsets, locate, maybe_duplicated, steps_within
from .._base.lazy import polars as pl
from .._base.tuning import TIED_ROWS_FOR_KEYS
from .._ingest.hashcodes import doc_hashes
from .._ingest.tables import Run, Slot
from .bytekeys import group_byte_order
from .keys import PairKeys, codes, index_dtype, sorted_blocks, stable_order

__all__ = ["RUN_INDEX", "Moves", "RunIndex", "TieBreak", "full_src", "rank_rows",
           "ranked_order", "run_index", "tie_order", "tiebreak_of"]

#: which run row each ranked row comes from: every row's (an array), or only those of the
#: ranked rows that come from another row (positions ascending, rows); see RunIndex.moves
Moves = np.ndarray | tuple[np.ndarray, np.ndarray]

#: the tie breaks of rows (positions): a series, or doc ids (without NUL) as rows of
#: their UTF-8 bytes in big-endian words, NUL-padded (they compare as the bytes do)
TiebreakAt = Callable[[np.ndarray], "pl.Series | np.ndarray"]

#: what breaks score ties: the doc ids descending, the input (line) order, or the doc ids
#: ascending (trec_eval's preference measures)
TieBreak = Literal["docid", "input", "docid_ascending"]


def full_src(n: int, moves: Moves) -> np.ndarray:
    """The run row of each of the ``n`` ranked rows, from ``moves``."""
    if isinstance(moves, np.ndarray):
        return moves
    src = np.arange(n, dtype=index_dtype(n))
    src[moves[0]] = moves[1]
    return src


@dataclass(eq=False, slots=True)
class _Derived:
    """What a :class:`RunIndex` builds from its own fields on first use."""

    #: :attr:`RunIndex.src` (read-only), when ``moves`` is sparse
    src: np.ndarray | None = None
    #: :attr:`RunIndex.code`
    code: np.ndarray | None = None
    #: :meth:`RunIndex.pair_keys`, when not built with the index
    keys: np.ndarray | None = None


@dataclass(frozen=True, eq=False)
class RunIndex:
    """Every row of a run, ranked: query by query, score descending, ties broken.

    Attributes
    ----------
    query_ids : the run's distinct query ids (a String series), in the run's order when
        each query is one block of adjacent rows, else byte-wise ascending. This is the
        order alignments number queries in (see :class:`ranklens._model.aligned.Aligned`).
    code : index into ``query_ids`` of each ranked row (built from ``offsets`` on first
        use; :meth:`code_at` gives it at a few positions).
    src : row of the run each ranked row comes from (built from ``moves`` on first use;
        :meth:`src_at` gives it at a few positions).
    moves : ``src`` itself, or, when only rows with equal scores moved (ranked in the
        run's order, ties re-sorted), the pair (positions, rows) of the ranked rows that
        come from another row: at MS MARCO scale, a few thousand instead of seven million.
    keys : the pair key (:class:`~ranklens._model.keys.PairKeys`) of each ranked row:
        hashed, or the number itself for doc ids held as numbers (empty for a run whose
        rows are matched otherwise: nested dicts, on their own keys; None: built on first
        use by :meth:`pair_keys`, for doc ids held as numbers, which an evaluation
        reading no judgment never matches).
    offsets : ``offsets[c]:offsets[c+1]`` are the ranked rows of ``query_ids[c]``.
    duplicated : whether some doc id occurs twice for one query (alignment then applies
        the duplicates policy).

    Every array is read-only: alignments hand them out without copying.
    """

    query_ids: pl.Series
    moves: Moves
    keys: np.ndarray | None
    offsets: np.ndarray
    duplicated: bool
    _derived: _Derived = field(default_factory=_Derived, init=False, repr=False)

    @property
    def src(self) -> np.ndarray:
        if isinstance(self.moves, np.ndarray):
            return self.moves
        src = self._derived.src
        if src is None:
            src = full_src(int(self.offsets[-1]), self.moves)
            src.flags.writeable = False
            self._derived.src = src
        return src

    def pair_keys(self, run: Run) -> np.ndarray:
        """:attr:`keys`, built from ``run`` (this index's run) on first use."""
        if self.keys is not None:
            return self.keys
        if self._derived.keys is None:
            keys = _ranked_keys(None, run, self.moves, self.offsets)
            keys.flags.writeable = False
            self._derived.keys = keys
        return self._derived.keys

    def ranked(self, values: np.ndarray, at: np.ndarray | None = None) -> np.ndarray:
        """``values`` of the run's rows in ranked order (``at``: of the ranked rows at
        these positions only); ``values`` may be written in place."""
        if at is not None and not self.ties_only:
            return values[self.src[at]]
        out = ranked_order(values, self.moves)
        return out if at is None else out[at]

    def src_at(self, pos: np.ndarray) -> np.ndarray:
        """:attr:`src` of the ranked rows at positions ``pos``."""
        if isinstance(self.moves, np.ndarray) or self._derived.src is not None:
            return self.src[pos]
        moved, rows = self.moves
        out = pos.astype(index_dtype(int(self.offsets[-1])))
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
        code = self._derived.code
        if code is None:
            code = self._derived.code = codes(self.offsets, 0, int(self.offsets[-1]))
        return code

    def code_at(self, pos: np.ndarray) -> np.ndarray:
        """:attr:`code` of the ranked rows at positions ``pos``."""
        if self._derived.code is not None:
            return self._derived.code[pos]
        return group_at(self.offsets, pos)

    def duplicate_positions(self, run: Run) -> tuple[np.ndarray, np.ndarray]:
        """The ranked positions (ascending) of rows whose (query, doc id) pair occurs more
        than once, confirmed on the strings, and whether each is a later (lower-ranked)
        occurrence of its pair."""
        pos = np.flatnonzero(pl.Series(self.pair_keys(run)).is_duplicated().to_numpy())
        sub = pl.DataFrame({"q": self.code_at(pos), "doc_id": run.doc_ids_at(self.src_at(pos))})
        pair = pl.struct("q", "doc_id")
        exact = sub.select(pair.is_duplicated()).to_series().to_numpy()
        first = sub.filter(pl.Series(exact)).select(pair.is_first_distinct()).to_series()
        return pos[exact], ~first.to_numpy()


#: where a run keeps its :class:`RunIndex` of each tie order
RUN_INDEX: dict[TieBreak, Slot[RunIndex]] = {
    tiebreak: Slot(f"run index, ties by {tiebreak}") for tiebreak in get_args(TieBreak)}


def run_index(run: Run, ties: str) -> RunIndex:
    """The :class:`RunIndex` of ``run`` for tie policy ``ties``, kept on it (built on first
    use).

    ``ties="input"`` breaks score ties by input (line) order, ``"docid_ascending"`` by doc
    id ascending (trec_eval's preference measures); every other value by doc id
    descending (byte-wise), as trec_eval does.
    """
    tiebreak = tiebreak_of(ties)
    return run._derived.get(RUN_INDEX[tiebreak], lambda: _build(run, tiebreak))


def tiebreak_of(ties: str) -> TieBreak:
    """What breaks score ties under tie policy ``ties`` (see :func:`run_index`)."""
    return "input" if ties == "input" else \
        "docid_ascending" if ties == "docid_ascending" else "docid"


def tiebreak_at(run: Run, tiebreak: TieBreak, rows: np.ndarray) -> pl.Series:
    """What breaks score ties at the rows ``rows``: their input position for ``"input"``,
    else their doc id (sorted descending for ``"docid"``, as trec_eval)."""
    if tiebreak == "input":
        return pl.Series(rows.astype(np.int64))
    return run.doc_ids_at(rows)


def _build(run: Run, tiebreak: TieBreak) -> RunIndex:
    nb = run.block_ids.len()
    one_block = run.block_ids.n_unique() == nb
    if one_block:
        # each query is one block of rows (how run files are written): queries keep the
        # run's order, so blocks stay where they are and only tied rows move
        query_ids = run.block_ids
        block_code = np.arange(nb, dtype=np.int64)
    else:
        query_ids, block_code = sorted_blocks(run.block_ids)
    offsets, moves = rank_rows(block_code, run.block_lengths, len(query_ids), run.score,
                               lambda rows: tiebreak_at(run, tiebreak, rows),
                               tiebreak == "docid")
    # the reader may have hashed the doc ids already (a one-off: the index turns them into
    # its keys in place)
    doc_hash = run.hints.take_doc_hashes()
    # numbers are exact: they are checked for duplicates themselves, keyed when matched
    keys = _ranked_keys(doc_hash, run, moves, offsets) if run.text_doc_ids else None
    index = RunIndex(query_ids=query_ids, moves=moves, keys=keys, offsets=offsets,
                     duplicated=False)
    # a query's one block lists each doc once when its reader says so (a mapping's keys);
    # otherwise equal keys are equal pairs, or (rarely) a hash collision
    distinct = one_block and run.hints.distinct_docs
    # (when only tied rows moved, each query holds the same rows in the run's order)
    values = keys if keys is not None else run.held_doc_id.to_numpy() \
        if isinstance(moves, tuple) else ranked_order(run.held_doc_id.to_numpy(), moves)
    if not distinct and _maybe_duplicated(values, offsets, lambda: index.pair_keys(run)) \
            and index.duplicate_positions(run)[0].size:
        found = index._derived.keys  # (the pair keys the check built, if any)
        index = RunIndex(query_ids=query_ids, moves=moves, keys=keys, offsets=offsets,
                         duplicated=True)
        index._derived.keys = found
    for arr in (*(() if keys is None else (keys,)), offsets,
                *(moves if isinstance(moves, tuple) else (moves,))):
        arr.flags.writeable = False
    return index


def rank_rows(block_code: np.ndarray, block_lengths: np.ndarray, nq: int, score: np.ndarray,
              tiebreak_at: TiebreakAt, tiebreak_descending: bool,
              needed: np.ndarray | None = None) -> tuple[np.ndarray, Moves]:
    """The ranked order of rows given as blocks of adjacent rows of one query each.

    Parameters
    ----------
    block_code : np.ndarray
        The query number (0 to ``nq - 1``, ascending numbers rank first) of each block.
    block_lengths : np.ndarray
        The number of rows of each block.
    nq : int
        The number of queries.
    score : np.ndarray
        Each row's score (higher ranks first).
    tiebreak_at : callable
        The tie breaks of the rows given (an array of row positions; see
        :data:`TiebreakAt`).
    tiebreak_descending : bool
        Whether larger tie breaks rank first.
    needed : np.ndarray, optional
        Marks the rows whose group of equal scores is put in tie break order; the other
        groups keep the rows' order (None: every group). What a measure reads of a ranking
        (where judged documents stand, the score at each rank) is the same in any order of
        a group without a judged row.

    Returns
    -------
    offsets : np.ndarray
        ``offsets[q]:offsets[q+1]`` are the ranked rows of query ``q``.
    moves : Moves
        Which row each ranked row comes from (see :attr:`RunIndex.moves`).
    """
    ranked = _block_order(block_code, block_lengths, score, tiebreak_at, tiebreak_descending,
                          needed)
    if ranked is not None:
        return ranked
    perm, code = _sorted_order(np.repeat(block_code, block_lengths), score, tiebreak_at,
                               tiebreak_descending, needed)
    return group_offsets(code, nq), perm


def _sorted_order(q: np.ndarray, score: np.ndarray, tiebreak_at: TiebreakAt,
                  tiebreak_descending: bool,
                  needed: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Permutation to query ascending, score descending, then tie break; and ``q[perm]``.

    Only numeric keys are sorted; the (few) rows tied on query and score are then re-sorted
    among themselves by their tie breaks. Tied rows form contiguous groups in the same
    relative order in both sorts, so writing the re-sorted rows back into the positions the
    tied rows occupy is exact.
    """
    # NumPy comparisons already treat -0.0 and 0.0 as equal (a tie, as in trec_eval); the
    # polars sorts get them normalised
    perm = (pl.DataFrame({"q": q, "s": score + 0.0})
            .select(pl.arg_sort_by(["q", "s"], descending=[False, True], maintain_order=True))
            .to_series().to_numpy().astype(np.int64))
    sq, ss = q[perm], score[perm]
    tie = (sq[1:] == sq[:-1]) & (ss[1:] == ss[:-1])
    del ss
    if tie.any():
        pos = _tie_members(np.flatnonzero(tie), tie.size + 1) if needed is None else \
            _needed_ties(tie, needed[perm])[0]
        sub = perm[pos]
        perm[pos] = sub[tie_order(q[sub], score[sub], tiebreak_at(sub), tiebreak_descending)]
    return perm, sq


def tie_order(group: np.ndarray, score: np.ndarray, tiebreak: pl.Series | np.ndarray,
              tiebreak_descending: bool) -> np.ndarray:
    """The order of tied rows: by group, score descending, then ``tiebreak``.

    The rows come ordered by group, then score descending (as both rankers hand them
    over), so the rows of one (group, score) pair are adjacent: they are numbered once
    and sorted on that number and the tie break, two sort keys instead of three (less CPU
    time on runs where nearly every row ties).
    Many tied rows with short doc ids are sorted on integer keys packing the three
    (:func:`~ranklens._model.bytekeys.group_byte_order`), in the same order.
    """
    tied = np.empty(group.size, dtype=bool)
    tied[:1] = True
    np.not_equal(group[1:], group[:-1], out=tied[1:])
    # NumPy comparisons treat -0.0 and 0.0 as equal: one tie, as in trec_eval
    tied[1:] |= score[1:] != score[:-1]
    g = np.cumsum(tied, dtype=index_dtype(tied.size))  # a cast to int64 in the sum is slow
    if isinstance(tiebreak, np.ndarray):  # doc ids as words: NumPy sorts (none tie)
        order = group_byte_order(g, tiebreak, tiebreak_descending)
        if order is not None:
            return order
        words = [np.invert(w) if tiebreak_descending else w for w in tiebreak]
        if len(words) > 1:
            return np.lexsort((*reversed(words), g))
        first = np.argsort(words[0])
        return first[stable_order(g[first])]
    if tiebreak.dtype == pl.String and g.size >= TIED_ROWS_FOR_KEYS:
        # doc ids short enough: one integer sort instead of polars's string sort
        order = group_byte_order(g, tiebreak, tiebreak_descending)
        if order is not None:
            return order
    return (pl.DataFrame({"g": g, "t": tiebreak})
            .select(pl.arg_sort_by(["g", "t"], descending=[False, tiebreak_descending],
                                   maintain_order=True))
            .to_series().to_numpy())


def _block_order(block_code: np.ndarray, lengths: np.ndarray, score: np.ndarray,
                 tiebreak_at: TiebreakAt, tiebreak_descending: bool,
                 needed: np.ndarray | None) -> tuple[np.ndarray, Moves] | None:
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
    by_query = np.argsort(block_code, kind="stable")
    if n == 0 or (nb > 1 and not (block_code[by_query[1:]] != block_code[by_query[:-1]]).all()):
        return None  # a query split over several blocks (a sort, not np.unique's hashing)
    ends = np.cumsum(lengths)
    starts = ends - lengths
    if steps_within(score, ends, "rise").size:  # within a block: not written best first
        return None
    # blocks move to ascending query number; place[k] is block k's position in that order
    place = np.empty(nb, dtype=np.int64)
    place[by_query] = np.arange(nb)
    q_lengths = lengths[by_query]
    offsets = np.zeros(nb + 1, dtype=np.int64)
    np.cumsum(q_lengths, out=offsets[1:])
    shift = offsets[:-1] - starts[by_query]  # ranked position - input row, per query
    index = index_dtype(n)
    # the rows in a tie, and what tells their groups apart: their group or their block
    if needed is None:
        pos, group = _tie_members(steps_within(score, ends, "tie"), n), None
    else:  # NumPy treats -0.0 and 0.0 as equal, as trec_eval
        same = score[1:] == score[:-1]
        crossing = ends[:-1] - 1  # a block's last row and the next block's first: no tie
        same[crossing[(crossing >= 0) & (crossing < n - 1)]] = False
        pos, group = _needed_ties(same, needed)
    pos = pos.astype(index)
    rows = pos
    if pos.size:
        if group is None:
            group = np.searchsorted(ends, pos, side="right")
        rows = pos[tie_order(group, score[pos], tiebreak_at(pos), tiebreak_descending)]
    if not shift.any():
        return offsets, (pos, rows)
    src = np.ones(n, dtype=index)
    src[0] = -shift[0]
    src[offsets[1:-1]] = 1 - np.diff(shift)
    np.cumsum(src, dtype=index, out=src)
    # a block moves whole, so a tied row's ranked position is its row plus the shift
    src[pos + shift[place[np.searchsorted(ends, pos, side="right")]]] = rows
    return offsets, src


def _needed_ties(same: np.ndarray, needed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rows (ascending) of the groups of tied rows holding a ``needed`` one, and their
    groups numbered ascending; ``same[i]``: row ``i + 1`` ties with row ``i``. Masks over
    all rows: the callers marking rows rank small runs, where nearly every row may tie."""
    start = np.ones(same.size + 1, dtype=bool)
    np.logical_not(same, out=start[1:])
    group = np.cumsum(start, dtype=index_dtype(start.size))
    keep = np.zeros(int(group[-1]) + 1, dtype=bool)
    keep[group[needed]] = True
    tied = ~start  # tied with the row before, or (next) with the one after
    tied[:-1] |= same
    tied &= keep[group]
    pos = np.flatnonzero(tied)
    return pos, group[pos]


def _tie_members(tie: np.ndarray, n: int) -> np.ndarray:
    """The rows in a tie (ascending) of ``n`` rows, where ``tie`` lists each row tied with
    the next one: ``tie`` and ``tie + 1`` merged on a mask (no sort, no hash-based union)."""
    member = np.zeros(n, dtype=bool)
    member[tie] = True
    member[tie + 1] = True
    return np.flatnonzero(member)


def _maybe_duplicated(keys: np.ndarray, offsets: np.ndarray,
                      pair_keys: Callable[[], np.ndarray]) -> bool:
    """Whether two rows of one query share a key (equal pairs, or a hash collision):
    ``keys`` are the ranked rows' pair keys, or their doc ids held as UInt32 numbers
    (``pair_keys()`` gives the pair keys then).

    Runs usually list about the same number of documents for every query; then each query's
    low 32-bit key halves are sorted as one row of a matrix, a slice of queries at a time
    (small, cache-resident sorts; short rows padded with values distinct from each other),
    and only a query whose row holds two equal values is checked on its full keys.
    Otherwise one hash-based count over all keys.
    """
    lengths = np.diff(offsets)
    nq = lengths.size
    width = int(lengths.max()) if nq else 0
    if keys.size == 0 or width < 2 or width * nq > keys.size + keys.size // 2:
        return maybe_duplicated(pair_keys())
    # the low halves: hash bits alone (the high ones start with the query number)
    halves = keys if keys.dtype == np.uint32 else keys.view(np.uint32)[0::2] \
        if sys.byteorder == "little" else keys.astype(np.uint32)
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


def ranked_order(values: np.ndarray, moves: Moves) -> np.ndarray:
    """``values`` of a run's rows in the ranked order ``moves`` gives (``values`` itself
    when no row moved; written in place when a few did and ``values`` is writeable)."""
    if not isinstance(moves, tuple):
        return values[moves]
    if not moves[0].size:
        return values
    if not values.flags.writeable:
        values = values.copy()
    values[moves[0]] = values[moves[1]]  # the right side is gathered before the write
    return values


def _ranked_keys(doc_hash: np.ndarray | None, run: Run, moves: Moves,
                 offsets: np.ndarray) -> np.ndarray:
    """The :class:`~ranklens._model.keys.PairKeys` of each ranked row of ``run``.

    ``doc_hash`` (the doc ids' hashes in input order, if known) is consumed: when few
    rows moved (queries kept in the run's order, only tied rows re-sorted) the keys are
    made in its place, so the index does not hold a second full-length array. Doc ids held
    as numbers key themselves (:meth:`~ranklens._model.keys.PairKeys.numbers`): nothing is
    hashed.
    """
    if not run.text_doc_ids:
        keys = ranked_order(run.held_doc_id.to_numpy().astype(np.uint64), moves)
        PairKeys.numbers().grouped(keys, offsets)
        return keys
    if doc_hash is None or not doc_hash.flags.writeable:
        doc_hash = np.array(doc_hashes(run.held_doc_id) if doc_hash is None else doc_hash)
    keys = ranked_order(doc_hash, moves)
    PairKeys.hashed(offsets.size - 1).grouped(keys, offsets)
    return keys
