"""Align a run to its judgments once: integer query index, ranked order, judgments attached.

Everything a measure needs is a flat array over the ranked documents of all evaluated
queries, with per-query offsets, plus the judgments of each query sorted by grade. Measures
never look at ids again.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import polars as pl
else:  # imported on first use (see ranklens._lazy)
    from ._lazy import polars as pl

from ._engine.policies import Policies
from ._errors import InputError, RanklensWarning
from ._groups import group_at, group_offsets, group_ranks, maybe_duplicated
from ._keyset import KeySet
from ._qrels_index import QrelsIndex, qrels_index
from ._run_index import RunIndex, _block_order, full_src, run_index, tiebreak_of
from ._tables import Qrels, Run, query_blocks

__all__ = ["Aligned", "Policies", "align"]

@dataclass(frozen=True, eq=False)
class Aligned:
    """Ranked documents of every evaluated query as flat arrays (see module docstring).

    Attributes
    ----------
    query_ids : evaluated query ids, in this alignment's numbering (``to_sorted``).
    offsets : ``offsets[i]:offsets[i+1]`` is query i's slice of the ranked arrays.
    qidx : query index of each ranked document (``given_qidx``, else from ``qidx_from``
        or the offsets when a kernel asks; :meth:`qidx_at` gives it at a few positions).
    rank : 1-based rank of each ranked document within its query (derived from
        ``offsets`` when a kernel asks; :meth:`rank_at` gives it at a few positions).
    judged_at, judged_grade : the positions (ascending) of the ranked documents that have a
        judgment, and its grade. Judged documents are few next to ranked ones, so the
        full-length ``grade`` and ``judged`` arrays are only built for a kernel that asks.
    score : the run's score of each ranked document (used by tie-aware measures; drawn
        from ``score_values`` at ``score_rows`` on first use).
    j_offsets, j_qidx, j_grade : all judgments of each query, grade descending.
    missing : queries absent from the run (scored on an empty ranking).
    to_sorted : where each query of trec_eval order (byte-wise ascending ids) is numbered
        here (None: numbered in that order); see :meth:`in_trec_order`.
    """

    query_ids: np.ndarray
    offsets: np.ndarray
    given_qidx: np.ndarray | None
    judged_at: np.ndarray
    judged_grade: np.ndarray
    score_values: np.ndarray
    score_rows: np.ndarray | None
    j_offsets: np.ndarray
    j_qidx: np.ndarray
    j_grade: np.ndarray
    missing: np.ndarray
    to_sorted: np.ndarray | None = None
    qidx_from: Callable[[], np.ndarray] | None = field(default=None, repr=False)
    policies: Policies = field(default_factory=Policies)
    _cache: dict = field(default_factory=dict, repr=False)

    @property
    def nq(self) -> int:
        return len(self.query_ids)

    def in_trec_order(self, values: np.ndarray) -> np.ndarray:
        """Per-query ``values`` of this alignment's queries, put in trec_eval order."""
        return values if self.to_sorted is None else values[self.to_sorted]

    @property
    def n_ranked(self) -> int:
        """The number of ranked documents, all queries together."""
        return int(self.offsets[-1])

    def _kept(self, key: object, build: Callable[[], np.ndarray]) -> np.ndarray:
        """The array cached under ``key``, built (read-only: kernels share it) on first use."""
        if key not in self._cache:
            value = build()
            value.flags.writeable = False
            self._cache[key] = value
        out: np.ndarray = self._cache[key]
        return out

    @property
    def qidx(self) -> np.ndarray:
        """The query index of each ranked document."""
        if self.given_qidx is not None:
            return self.given_qidx
        # the run index's (qidx_from) is built there once and shared between calls
        return self._kept("qidx", self.qidx_from or (lambda: np.repeat(
            np.arange(self.nq, dtype=np.int64), np.diff(self.offsets))))

    def qidx_at(self, idx: np.ndarray) -> np.ndarray:
        """The query index of the ranked documents at positions ``idx``."""
        return self._at(idx)[0]

    def _at(self, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Query index and rank at positions ``idx``; kept for the position arrays this
        alignment hands out (judged, relevant), which every kernel asks about again."""
        kept = self._cache.get(("at", id(idx)))
        if kept is not None and kept[0] is idx:  # the array itself, not a reused id
            return kept[1], kept[2]
        # a search per position beats building the full array only for few positions
        if self.given_qidx is None and "qidx" not in self._cache and idx.size * 64 < max(
                self.n_ranked, 1):
            q = group_at(self.offsets, idx)
        else:
            q = self.qidx[idx]
        rank = self._cache["rank"][idx] if "rank" in self._cache else idx - self.offsets[q] + 1
        if idx is self.judged_at or self._cache.get(("handed_out", id(idx))) is idx:
            q.flags.writeable = rank.flags.writeable = False  # shared by every kernel
            self._cache[("at", id(idx))] = (idx, q, rank)
        return q, rank

    @property
    def rank(self) -> np.ndarray:
        """The 1-based rank of each ranked document within its query."""
        return self._kept("rank", lambda: group_ranks(self.qidx, self.offsets))

    def rank_at(self, idx: np.ndarray) -> np.ndarray:
        """The rank of the ranked documents at positions ``idx``."""
        return self._at(idx)[1]

    @property
    def grade(self) -> np.ndarray:
        """The grade of each ranked document (0 where unjudged)."""
        return self._kept("grade", lambda: self._spread(self.judged_grade, 0.0))

    @property
    def judged(self) -> np.ndarray:
        """Whether each ranked document has a judgment."""
        return self._kept("judged", lambda: self._spread(True, False))

    def _spread(self, at_judged: object, elsewhere: object) -> np.ndarray:
        """A full-length array: ``at_judged`` at the judged positions, else ``elsewhere``."""
        out = np.full(self.n_ranked, elsewhere)
        out[self.judged_at] = at_judged
        return out

    @property
    def score(self) -> np.ndarray:
        if self.score_rows is None:
            return self.score_values
        rows = self.score_rows
        return self._kept("score", lambda: self.score_values[rows])

    def score_rows_at(self, rows: np.ndarray) -> np.ndarray:
        """``score_rows`` of an alignment made of the ranked documents at ``rows``."""
        return rows if self.score_rows is None else self.score_rows[rows]

    @property
    def n_ret(self) -> np.ndarray:
        return np.diff(self.offsets)

    # -- segment helpers -------------------------------------------------------------
    def seg_sum(self, weights: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
        """Per-query sum of ``weights`` (in rank order, like trec_eval's loops)."""
        if mask is None:
            return np.bincount(self.qidx, weights=weights, minlength=self.nq)
        return np.bincount(self.qidx[mask], weights=weights[mask], minlength=self.nq)

    def seg_count(self, mask: np.ndarray) -> np.ndarray:
        """Per-query number of True entries (int64)."""
        return np.bincount(self.qidx[mask], minlength=self.nq).astype(np.int64)

    def seg_cumcount(self, mask: np.ndarray) -> np.ndarray:
        """For each ranked doc, the number of True entries at or above it in its query."""
        c = np.cumsum(mask, dtype=np.int64)
        before = np.concatenate(([0], c))[self.offsets[:-1]]
        return c - before[self.qidx]

    def first_rank(self, mask: np.ndarray) -> np.ndarray:
        """Per-query rank of the first True entry; 0 where there is none."""
        return self.first_rank_at(np.flatnonzero(mask))

    def first_rank_at(self, idx: np.ndarray) -> np.ndarray:
        """:meth:`first_rank` of the mask that is True at positions ``idx`` (ascending)."""
        out = np.zeros(self.nq, dtype=np.int64)
        if idx.size:
            q = self.qidx_at(idx)
            first = np.concatenate(([True], q[1:] != q[:-1]))
            out[q[first]] = self.rank_at(idx[first])
        return out

    # -- judgments ----------------------------------------------------------------------
    def relevant(self, rel: int) -> np.ndarray:
        """Mask of ranked docs judged at level >= rel."""
        key = ("relevant", rel)
        if key not in self._cache:
            mask = np.zeros(self.n_ranked, dtype=bool)
            mask[self.relevant_positions(rel)] = True
            self._cache[key] = mask
        return self._cache[key]

    def relevant_positions(self, rel: int) -> np.ndarray:
        """Positions (ascending) of the ranked docs judged at level >= rel."""
        key = ("relevant_positions", rel)
        fresh = key not in self._cache
        idx = self._kept(key, lambda: self.judged_at[self.judged_grade >= rel])
        if fresh:
            self._cache[("handed_out", id(idx))] = idx  # see _at
        return idx

    def within(self, idx: np.ndarray, cutoff: float | None) -> np.ndarray:
        """The positions ``idx`` ranked at ``cutoff`` or above (all of them for None)."""
        return idx if cutoff is None else idx[self.rank_at(idx) <= cutoff]

    def judged_within(self, cutoff: float | None) -> tuple[np.ndarray, np.ndarray]:
        """Positions (ascending) and grades of the judged docs ranked at ``cutoff`` or
        above (all of them for None)."""
        if cutoff is None:
            return self.judged_at, self.judged_grade
        inside = self.rank_at(self.judged_at) <= cutoff
        return self.judged_at[inside], self.judged_grade[inside]

    def num_rel(self, rel: int) -> np.ndarray:
        """Per-query number of judgments at level >= rel, retrieved or not (trec_eval R)."""
        key = ("num_rel", rel)
        if key not in self._cache:
            self._cache[key] = np.bincount(
                self.j_qidx[self.j_grade >= rel], minlength=self.nq
            ).astype(np.int64)
        return self._cache[key]

    def num_judged_nonrel(self, rel: int) -> np.ndarray:
        """Per-query number of judgments at a level in [0, rel)."""
        mask = (self.j_grade >= 0) & (self.j_grade < rel)
        return np.bincount(self.j_qidx[mask], minlength=self.nq).astype(np.int64)

    def judged_only(self) -> Aligned:
        """This alignment with every document not judged >= 0 removed (trec_eval -J)."""
        if "judged_only" not in self._cache:
            keep = np.zeros(self.n_ranked, dtype=bool)
            keep[self.judged_at[self.judged_grade >= 0]] = True
            self._cache["judged_only"] = self._subset(keep)
        return self._cache["judged_only"]

    def _subset(self, keep: np.ndarray) -> Aligned:
        qidx = self.qidx[keep]
        offsets = group_offsets(qidx, self.nq)
        kept = keep[self.judged_at]
        position = np.cumsum(keep) - 1  # each kept row's position in the subset
        return replace(
            self,
            offsets=offsets,
            given_qidx=qidx,
            judged_at=position[self.judged_at[kept]],
            judged_grade=self.judged_grade[kept],
            score_rows=self.score_rows_at(np.flatnonzero(keep)),
            _cache={},
        )

    def for_measure(self, judged_only: bool | None) -> Aligned:
        if judged_only and not self.policies.judged_only:
            return self.judged_only()
        return self


def _sorted_unique(series: pl.Series) -> list[str]:
    return series.unique().sort().to_list()


# Ids are compared through 64-bit hashes first: equal (query, doc) pairs always have equal
# keys, so a key test can only over-select; every candidate it finds is re-checked on the
# strings themselves. This keeps string work proportional to judgments, not to run rows.
_MIX = np.uint64(0x9E3779B97F4A7C15)


def _pair_keys(query_hash: np.ndarray, doc_hash: np.ndarray) -> np.ndarray:
    """The 64-bit key of each (query, doc) pair: ``doc_hash ^ query_hash * _MIX``."""
    keys = np.array(doc_hash, dtype=np.uint64)  # a copy, mixed in place
    mix_query_into(keys, query_hash)
    return keys


def mix_query_into(keys: np.ndarray, query_hash: np.ndarray) -> None:
    """Turn doc hashes ``keys`` into :func:`_pair_keys` in place, a slice at a time (no
    full-length temporary)."""
    step = 1 << 20
    for i in range(0, keys.size, step):
        mix = query_hash[i:i + step].astype(np.uint64)
        mix *= _MIX  # wraps around mod 2**64, as intended
        keys[i:i + step] ^= mix


def _duplicates(frame: pl.DataFrame, what: str, source: str, policy: str) -> pl.DataFrame:
    keys = _pair_keys(frame["query_id"].hash(1).to_numpy(), frame["doc_id"].hash(0).to_numpy())
    if not maybe_duplicated(keys):
        return frame
    dup = frame.select(pl.struct("query_id", "doc_id").is_duplicated()).to_series()
    if not dup.any():
        return frame
    if policy == "error":
        row = frame.filter(dup).row(0, named=True)
        _raise_duplicate(row["query_id"], row["doc_id"], int(dup.sum()), what, source)
    return frame


def _raise_duplicate(query_id: str, doc_id: str, n: int, what: str, source: str) -> None:
    raise InputError(
        f"document {doc_id!r} appears more than once for query {query_id!r} in the {what} "
        f"({n} rows are involved); pass duplicates='first' to keep only the first "
        "(highest-ranked) occurrence",
        source=source,
    )


def _block_index(block_ids: pl.Series, queries: pl.DataFrame) -> np.ndarray:
    """Index in ``queries`` of each of a run's query blocks (-1 where absent)."""
    return (pl.DataFrame({"query_id": block_ids})
            .join(queries, on="query_id", how="left", maintain_order="left")["qidx"]
            .fill_null(-1).to_numpy().astype(np.int64, copy=False))


def _query_index(qids: pl.Series, queries: pl.DataFrame) -> np.ndarray:
    """Index of each row's query in ``queries`` (-1 where absent).

    Runs keep each query's rows together, so ids are looked up once per block of equal
    adjacent ids, not once per row.
    """
    block_ids, lengths = query_blocks(qids)
    return np.repeat(_block_index(block_ids, queries), lengths)


def _ranked_order(q: np.ndarray, score: np.ndarray, tiebreak: pl.Series,
                  tiebreak_descending: bool) -> tuple[np.ndarray, np.ndarray]:
    """Permutation to query ascending, score descending, then ``tiebreak``; and ``q[perm]``.

    Rows written query by query with scores descending (how run files are written) are
    ranked without sorting (:func:`ranklens._run_index._block_order`); others are sorted.
    """
    n = q.size
    starts = np.flatnonzero(np.concatenate(([True], q[1:] != q[:-1]))) if n else q[:0]
    lengths = np.diff(np.append(starts, n))
    grouped = _block_order(q[starts], lengths, score, tiebreak.gather, tiebreak_descending)
    if grouped is None:
        return _sorted_order(q, score, tiebreak, tiebreak_descending)
    perm = full_src(n, grouped[1]).astype(np.int64)
    return perm, q[perm]


def _sorted_order(q: np.ndarray, score: np.ndarray, tiebreak: pl.Series,
                  tiebreak_descending: bool) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_ranked_order` by sorting.

    Only numeric keys are sorted; the (few) rows tied on query and score are then re-sorted
    among themselves by ``tiebreak`` (doc id or input order). Tied rows form contiguous
    groups in the same relative order in both sorts, so writing the re-sorted rows back
    into the positions the tied rows occupy is exact.
    """
    # NumPy comparisons already treat -0.0 and 0.0 as equal (a tie, as in trec_eval); the
    # polars sorts get them normalised
    s = score
    perm = (pl.DataFrame({"q": q, "s": s + 0.0})
            .select(pl.arg_sort_by(["q", "s"], descending=[False, True], maintain_order=True))
            .to_series().to_numpy().astype(np.int64))
    sq, ss = q[perm], s[perm]
    tie = (sq[1:] == sq[:-1]) & (ss[1:] == ss[:-1])
    del ss
    if tie.any():
        pos = tied_rows(tie)
        sub = perm[pos]
        perm[pos] = sub[tie_order(q[sub], s[sub], tiebreak.gather(sub), tiebreak_descending)]
    return perm, sq


def tied_rows(tie: np.ndarray) -> np.ndarray:
    """Positions of the rows in a tie, where ``tie[i]`` says rows i and i+1 are tied."""
    member = np.zeros(tie.size + 1, dtype=bool)
    member[:-1] |= tie
    member[1:] |= tie
    return np.flatnonzero(member)


def tie_order(group: np.ndarray, score: np.ndarray, tiebreak: pl.Series,
              tiebreak_descending: bool) -> np.ndarray:
    """The order of tied rows: by group, score descending, then ``tiebreak``."""
    # NumPy comparisons treat -0.0 and 0.0 as equal; the polars sort gets them normalised
    return (pl.DataFrame({"g": group, "s": score + 0.0, "t": tiebreak})
            .select(pl.arg_sort_by(["g", "s", "t"], descending=[False, True,
                                                              tiebreak_descending],
                                   maintain_order=True))
            .to_series().to_numpy())


def numbered(query_ids: list[str] | pl.Series) -> pl.DataFrame:
    """``query_id`` and its position ``qidx`` (the table query ids are looked up in)."""
    return pl.DataFrame(
        {"query_id": query_ids, "qidx": np.arange(len(query_ids), dtype=np.int64)},
        schema={"query_id": pl.String, "qidx": pl.Int64},
    )


def align(qrels: Qrels, run: Run, policies: Policies | None = None) -> tuple[Aligned, dict]:
    """Align ``run`` to ``qrels`` under ``policies``.

    Returns the aligned arrays and a diagnostics dict (``missing_queries``: judged queries
    absent from the run, ``ignored_queries``: run queries without judgments).
    """
    pol = policies or Policies()
    qf = qrels.frame
    if qf.height == 0:
        raise InputError("the qrels hold no judgments; nothing to evaluate", source=qrels.source)
    qindex: QrelsIndex | None = qrels_index(qrels)
    if qindex is not None and qindex.duplicated:  # the general path reports or removes them
        qindex = None
        qf = _duplicates(qf, "qrels", qrels.source, pol.duplicates)
        if pol.duplicates == "first":
            qf = qf.unique(subset=["query_id", "doc_id"], keep="first", maintain_order=True)
    judged_queries = qindex.query_ids if qindex is not None else _sorted_unique(qf["query_id"])
    judged_index = qindex.queries if qindex is not None else numbered(judged_queries)
    index = run_index(run, pol.ties)
    if index.duplicated:  # the general path reports or removes the duplicates
        block_ids = run.block_ids
        block_j = _block_index(block_ids, judged_index)
        row_j = np.repeat(block_j, run.block_lengths)
    else:
        block_ids = index.query_ids
        block_j = _block_index(block_ids, judged_index)
    present = np.zeros(len(judged_queries), dtype=bool)
    present[block_j[block_j >= 0]] = True
    missing = [judged_queries[i] for i in np.flatnonzero(~present)]
    ignored = sorted(set(block_ids.filter(pl.Series(block_j < 0)).to_list()))
    if len(missing) == len(judged_queries):
        raise InputError(
            f"the run ({run.source}) and the qrels ({qrels.source}) share no query "
            f"(run has e.g. {sorted(set(block_ids.to_list()))[:3]}, qrels "
            f"{judged_queries[:3]})"
        )
    if missing:
        if pol.missing == "error":
            raise InputError(
                f"{len(missing)} judged queries are absent from the run ({run.source}), e.g. "
                f"{missing[:5]}; pass missing='zero' to score them 0 or 'skip' to leave "
                "them out",
            )
        if pol.warn_missing:
            verb = "scored 0" if pol.missing == "zero" else "left out of the averages"
            warnings.warn(
                f"{len(missing)} judged queries are absent from the run ({run.source}) and "
                f"were {verb} (missing={pol.missing!r}): {missing[:5]}"
                + (" ..." if len(missing) > 5 else ""),
                RanklensWarning,
                stacklevel=3,
            )
    evaluated = judged_queries
    queries, query_array = judged_index, qindex.query_array if qindex is not None else None
    if missing and pol.missing == "skip":
        evaluated = [judged_queries[i] for i in np.flatnonzero(present)]
        queries, query_array = numbered(evaluated), None
        # skipped queries have no run rows, so only the numbering of the others shifts
        renumber = np.cumsum(present) - 1
        block_j = np.where(block_j >= 0, renumber[np.maximum(block_j, 0)], -1)
        if index.duplicated:
            row_j = np.where(row_j >= 0, renumber[np.maximum(row_j, 0)], -1)
    nq = len(evaluated)
    if query_array is None:
        query_array = np.array(queries["query_id"].to_list(), dtype=object)
    if not index.duplicated:
        judgments = (_indexed_judgments(qindex, qf, present if len(evaluated) < len(present)
                                        else None)
                     if qindex is not None else _judgments(qf, queries))
        aligned = _align_indexed(index, block_j, nq, judgments, query_array, run, pol)
        return aligned, {"missing_queries": missing, "ignored_queries": ignored}
    row_q = row_j

    # rows of evaluated queries, in ranked order, as indices into the run frame
    rows = np.flatnonzero(row_q >= 0) if (row_q < 0).any() else None
    q_sel = row_q if rows is None else row_q[rows]
    score_all = run.score
    s_sel = score_all if rows is None else score_all[rows]
    tiebreak, tb_desc = tiebreak_of(run, pol.ties)
    if rows is not None:
        tiebreak = tiebreak.gather(rows)
    perm, qidx = _ranked_order(q_sel, s_sel, tiebreak, tb_desc)
    src = perm if rows is None else rows[perm]
    del q_sel, s_sel, perm

    doc_hash = run.doc_id.hash(0).to_numpy()[src]
    keys = _pair_keys(qidx, doc_hash)
    del doc_hash
    if maybe_duplicated(keys):
        keys, qidx, src = _run_duplicates(keys, qidx, src, run, pol.duplicates)

    # a query is missing when absent from the run, not when -M0 empties its ranking
    counts = np.bincount(qidx, minlength=nq)
    in_run = counts > 0
    offsets = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    if pol.depth is not None:
        keep = group_ranks(qidx, offsets) <= pol.depth
        keys, qidx, src = keys[keep], qidx[keep], src[keep]
        offsets = group_offsets(qidx, nq)

    j = _judgments(qf, queries)
    judged_at, judged_grade = _grades(keys, qidx.__getitem__, src.__getitem__,
                                      run.doc_ids_at, j)
    del keys
    aligned = _assemble(query_array, offsets, qidx, judged_at, judged_grade,
                        (score_all, src),
                        _by_grade(j), ~in_run, pol)
    return aligned, {"missing_queries": missing, "ignored_queries": ignored}


def _by_grade(j: pl.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Query index and grade of the judgments ``j``, by query then grade descending
    (every kernel reads a query's judgments in that order)."""
    j_order = (pl.DataFrame({"q": j["qidx"], "g": j["relevance"]})
               .select(pl.arg_sort_by(["q", "g"], descending=[False, True]))
               .to_series().to_numpy())
    return j["qidx"].to_numpy()[j_order], j["relevance"].to_numpy()[j_order]


def _assemble(query_ids: np.ndarray, offsets: np.ndarray, qidx: np.ndarray | None,
              judged_at: np.ndarray, judged_grade: np.ndarray,
              score: tuple[np.ndarray, np.ndarray | None],
              j_sorted: tuple[np.ndarray, np.ndarray], missing: np.ndarray,
              pol: Policies, to_sorted: np.ndarray | None = None,
              qidx_from: Callable[[], np.ndarray] | None = None) -> Aligned:
    nq = query_ids.size
    j_qidx, j_grade = j_sorted
    j_counts = np.bincount(j_qidx, minlength=nq)
    aligned = Aligned(
        query_ids=query_ids,
        offsets=offsets,
        given_qidx=qidx,
        judged_at=judged_at,
        judged_grade=judged_grade,
        score_values=score[0],
        score_rows=score[1],
        j_offsets=np.concatenate(([0], np.cumsum(j_counts))).astype(np.int64),
        j_qidx=j_qidx,
        j_grade=j_grade.astype(np.float64, copy=False),
        missing=missing,
        to_sorted=to_sorted,
        qidx_from=qidx_from,
        policies=pol,
    )
    if pol.judged_only:
        aligned = aligned.judged_only()
    return aligned


def _indexed_judgments(qindex: QrelsIndex, qf: pl.DataFrame,
                       kept: np.ndarray | None) -> tuple[pl.DataFrame, np.ndarray, np.ndarray]:
    """The judgments of the evaluated queries from a cached :class:`QrelsIndex`: a frame
    (``qidx``, ``doc_id``, ``relevance``, ``hash``) and the by-grade arrays of
    :func:`_by_grade`. ``kept`` marks the judged queries evaluated (None: all)."""
    code, doc_hash = qindex.code, qindex.doc_hash
    relevance = qf["relevance"].to_numpy()
    if kept is None:
        frame = pl.DataFrame({"qidx": code, "doc_id": qf["doc_id"], "relevance": relevance,
                              "hash": doc_hash})
        return frame, qindex.sorted_code, qindex.sorted_grade
    renumber = np.where(kept, np.cumsum(kept) - 1, -1)
    jq = renumber[code]
    rows = np.flatnonzero(jq >= 0)
    frame = pl.DataFrame({"qidx": jq[rows], "doc_id": qf["doc_id"].gather(rows),
                          "relevance": relevance[rows], "hash": doc_hash[rows]})
    sorted_q = renumber[qindex.sorted_code]  # the renumbering keeps the order
    evaluated = sorted_q >= 0
    return frame, sorted_q[evaluated], qindex.sorted_grade[evaluated]


def _align_indexed(index: RunIndex, block_q: np.ndarray, nq: int,
                   judgments: pl.DataFrame | tuple[pl.DataFrame, np.ndarray, np.ndarray],
                   query_ids: np.ndarray, run: Run, pol: Policies) -> Aligned:
    """:func:`align` from a run's cached :class:`RunIndex` (a run without duplicates).

    ``block_q`` maps each of the run's queries (``index.query_ids``) to its evaluated
    index (trec_eval order), -1 for none. The alignment numbers the evaluated queries in
    the run index's order, those absent from the run after them: the ranked rows are then
    used where they lie (a run file's queries are ranked in the order it lists them), and
    per-query values are put back in trec_eval order by ``Aligned.to_sorted``.
    Judgments are matched on keys built from the run's own query numbering.
    """
    keys = index.keys
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
    if n_in == block_q.size:  # every run query is evaluated: the run's numbering holds
        qidx, code = None, None  # both derived from the offsets where asked for
        offsets = np.concatenate((index.offsets, np.full(nq - n_in, index.offsets[-1])))
    else:
        at = np.flatnonzero(kept[index.code])
        code, keys = index.code[at], keys[at]
        qidx = aligned_of_code[code]
        offsets = group_offsets(qidx, nq)
    if pol.depth is not None:
        if code is None:
            code = index.code
        if qidx is None:
            qidx = code
        keep = group_ranks(qidx, offsets) <= pol.depth
        at = np.flatnonzero(keep) if at is None else at[keep]
        code, keys, qidx = code[keep], keys[keep], qidx[keep]
        offsets = group_offsets(qidx, nq)
    # the judgments, numbered by the run's query codes for matching (-1: not in the run)
    code_of = np.full(nq, -1, dtype=np.int64)
    code_of[block_q[kept]] = np.flatnonzero(kept)
    if isinstance(judgments, tuple):
        j, j_sorted = judgments[0], (judgments[1], judgments[2])
        doc_hash = j["hash"].to_numpy()
    else:
        j, j_sorted = judgments, _by_grade(judgments)
        doc_hash = j["doc_id"].hash(0).to_numpy()
    jc = code_of[j["qidx"].to_numpy()]
    sel = np.flatnonzero(jc >= 0) if (jc < 0).any() else None
    if sel is not None:
        jc, doc_hash = jc[sel], doc_hash[sel]
    jm = pl.DataFrame({
        "qidx": jc,
        "doc_id": j["doc_id"] if sel is None else j["doc_id"].gather(sel),
        "relevance": j["relevance"] if sel is None else j["relevance"].gather(sel),
        "key": _pair_keys(jc, doc_hash),
    })
    run_code = index.code_at if code is None else code.__getitem__
    judged_at, judged_grade = _grades(keys, run_code,
                                      index.src_at if at is None
                                      else index.src_at(at).__getitem__,
                                      run.doc_ids_at, jm)
    in_order = bool((aligned_of == np.arange(nq)).all())
    if not in_order:
        j_sorted = _renumbered(j_sorted, aligned_of)
        evaluated_of = np.empty(nq, dtype=np.int64)
        evaluated_of[aligned_of] = np.arange(nq)
        query_ids = query_ids[evaluated_of]
    missing = np.zeros(nq, dtype=bool)
    missing[n_in:] = True
    # a run row's score is its ranked row's when only tied rows moved
    score_rows = at if index.ties_only else index.src if at is None else index.src[at]
    # without query numbers of its own, the alignment's are the run index's (built there
    # once, if a kernel asks)
    qidx_from = (lambda: index.code) if qidx is None else None
    return _assemble(query_ids, offsets, qidx, judged_at, judged_grade,
                     (run.score, score_rows), j_sorted, missing, pol,
                     None if in_order else aligned_of, qidx_from)


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


def _run_duplicates(keys: np.ndarray, qidx: np.ndarray, src: np.ndarray, run: Run,
                    policy: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Raise on (or drop all but the highest-ranked of) a doc listed twice for one query."""
    pos = np.flatnonzero(pl.Series(keys).is_duplicated().to_numpy())
    sub = pl.DataFrame({"q": qidx[pos], "doc_id": run.doc_id.gather(src[pos])})
    exact = sub.select(pl.struct("q", "doc_id").is_duplicated()).to_series().to_numpy()
    if not exact.any():
        return keys, qidx, src
    if policy == "error":
        first = int(src[pos[exact]].min())  # report the first such row of the input
        block = int(np.searchsorted(np.cumsum(run.block_lengths), first, side="right"))
        _raise_duplicate(run.block_ids[block], run.doc_id[first], int(exact.sum()),
                         "run", run.source)
    later = ~sub.select(pl.struct("q", "doc_id").is_first_distinct()).to_series().to_numpy()
    keep = np.ones(qidx.size, dtype=bool)
    keep[pos[later]] = False
    return keys[keep], qidx[keep], src[keep]


def _match_keys(keys: np.ndarray, jkeys: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """Positions (ascending) in ``keys`` whose key is in ``jkeys``, and the index into
    ``jkeys`` of each; the index is None when some position matches two entries of
    ``jkeys`` (a key repeated there): then the positions are those of every match.

    With few judgments next to the ranked rows (MS MARCO: one per thousand), the rows are
    looked up in a :class:`~ranklens._keyset.KeySet` of the judgments; otherwise one hash
    join does it.
    """
    m = jkeys.size
    if m == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if m * 256 > keys.size:
        # lazily: the planned join is faster than the eager one (~15% at 10M x 1M keys)
        pairs = (pl.LazyFrame({"key": jkeys}).with_row_index("row")
                 .join(pl.LazyFrame({"key": keys}).with_row_index("pos"), on="key",
                       how="inner")
                 .sort("pos")
                 .collect())
        pos = pairs["pos"].to_numpy().astype(np.int64)
        if pos.size > 1 and (pos[1:] == pos[:-1]).any():
            return np.unique(pos), None
        return pos, pairs["row"].to_numpy().astype(np.int64)
    ks = KeySet(jkeys)
    pos, at = ks.find(keys)
    return (pos, None) if ks.repeated else (pos, ks.order[at])


def _judgments(qf: pl.DataFrame, queries: pl.DataFrame) -> pl.DataFrame:
    """Judgments of the evaluated queries: ``qidx``, ``doc_id``, ``relevance``, ``key``."""
    j_idx = _query_index(qf["query_id"], queries)
    j = pl.DataFrame({"qidx": j_idx, "doc_id": qf["doc_id"], "relevance": qf["relevance"]})
    if (j_idx < 0).any():
        j = j.filter(pl.col("qidx") >= 0)
    key = _pair_keys(j["qidx"].to_numpy(), j["doc_id"].hash(0).to_numpy())
    return j.with_columns(key=pl.Series(key))


def _grades(keys: np.ndarray, query_at: Callable[[np.ndarray], np.ndarray],
            src_at: Callable[[np.ndarray], np.ndarray],
            doc_ids_at: Callable[[np.ndarray], pl.Series],
            judgments: pl.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """The positions (ascending) of the ranked rows that have a judgment, and its grade.

    ``query_at`` gives the query number (the judgments' ``qidx``) of ranked rows,
    ``doc_ids_at`` the doc ids of the run's rows (``src_at`` maps ranked rows to them).

    Rows are matched to judgments on the 64-bit keys, then every match is confirmed on the
    query index and the doc id string; any unconfirmed or ambiguous match (a hash
    collision) sends the candidates through an exact join on the strings instead.
    """
    jkeys = judgments["key"].to_numpy()
    pos, rows = _match_keys(keys, jkeys)
    doc_ids = doc_ids_at(src_at(pos))
    exact = (
        rows is not None  # each row matched at most one judgment
        and bool((judgments["qidx"].to_numpy()[rows] == query_at(pos)).all())
        and bool((judgments["doc_id"].gather(rows) == doc_ids).all())
    )
    if exact:
        return pos, judgments["relevance"].to_numpy()[rows].astype(np.float64, copy=False)
    by_string = (
        pl.DataFrame({"qidx": query_at(pos), "doc_id": doc_ids, "pos": pos})
        .join(judgments.select("qidx", "doc_id", "relevance"), on=["qidx", "doc_id"],
              how="inner")
        .sort("pos")
    )
    return (by_string["pos"].to_numpy().astype(np.int64),
            by_string["relevance"].to_numpy().astype(np.float64))
