"""The aligned container: a run's ranked documents, their judgments, as flat arrays.

Everything a measure needs is a flat array over the ranked documents of all evaluated
queries, with per-query offsets, plus the judgments of each query sorted by grade.
Measures never look at ids again. :meth:`Aligned.of` is the one constructor.

Query numbering
---------------
One numbering, the run's: evaluated queries present in the run come first, in the run
index's order (the run's own order when each query's rows are one block, as run files
are written; else byte-wise ascending), then the evaluated queries absent from the run,
in trec_eval order. Ranked rows then stay where the run index put them (no regrouping of
seven million rows), and ``to_sorted`` says where each query of trec_eval order (byte-wise
ascending ids) is numbered here (None when both orders agree): :meth:`Aligned.in_trec_order`
puts per-query values in trec_eval order with one gather of ``nq`` values.

Kernel contract
---------------
A kernel is a pure function ``kernel(a: Aligned, measure) -> per-query values`` (length
``nq``, this alignment's numbering). It may use only the accessors below
(:data:`KERNEL_ACCESSORS`, checked by a test over the measure modules); it must not write to
any array it is given (they are shared, and read-only where cached).

Sparse (judged or relevant positions; what kernels should prefer): judged documents are
few next to ranked ones (MS MARCO: one in a thousand), so these cost memory and time in
proportion to the judgments.
  ``judged_at``, ``judged_grade``, :meth:`judged_within`, :meth:`relevant_positions`,
  :meth:`within`, :meth:`qidx_at`, :meth:`rank_at`, :meth:`first_rank_at`.

Per query (length ``nq``): ``nq``, ``offsets`` (``nq + 1``), :attr:`n_ret`, ``missing``,
:meth:`num_rel`, :meth:`num_judged_nonrel`, ``query_ids``.

Judgments (every judgment of the evaluated queries, query then grade descending):
``j_offsets``, ``j_qidx``, ``j_grade``; :meth:`judgments_upto` (those an ideal ranking cut at
k can hold). Relevant items given as a count (``evaluate_arrays(n_relevant=...)``) are held
per query (``unretrieved``): :meth:`num_rel` and :meth:`num_judged_nonrel` add them without
rows; ``j_*`` show them as rows, built on first use (memory in proportion to the counts), and
``judgments_upto(k)`` as at most k rows per query. Prefer those two methods to ``j_*``;
a full ideal ranking (uncut nDCG and IdealDCG, nDCGRel, RnDCG, G, Compat) reads
:meth:`judgment_rows` and :meth:`counted_judgments`, the counts as counts.

Dense (one value per ranked document, built on first use and kept read-only): for kernels
whose arithmetic runs over every ranked position anyway (counting retrieved documents,
tie-aware measures, interpolation).
  :attr:`qidx`, :attr:`rank`, :attr:`grade`, :attr:`judged`, :attr:`score`,
  :meth:`relevant` (a mask), :meth:`seg_sum`, :meth:`seg_count`, :meth:`seg_cumcount`,
  :meth:`first_rank`.

Policies and views: ``policies`` (the options the alignment was made under),
:meth:`for_measure` (the judged-only view a measure asks for), :meth:`regrouped` (virtual
queries made of some ranked documents, for averaging over tied orders).

Subtopic judgments (diversity measures): ``subtopics``, a
:class:`~ranklens._model.subtopics.Subtopics` whose ``judged_doc`` runs parallel to
``judged_at``; None for plain judgments.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypeVar

import numpy as np

from .._base.groups import group_at, group_offsets, group_ranks
from .policies import Policies
from .subtopics import Subtopics

__all__ = ["KERNEL_ACCESSORS", "Aligned"]

#: what a kernel may read of an :class:`Aligned` (the contract in the module docstring)
KERNEL_ACCESSORS: frozenset[str] = frozenset({
    # sparse: judged / relevant positions
    "judged_at", "judged_grade", "judged_within", "relevant_positions", "within", "qidx_at",
    "rank_at", "first_rank_at",
    # per query
    "nq", "offsets", "n_ret", "missing", "num_rel", "num_judged_nonrel", "query_ids",
    # judgments
    "j_offsets", "j_qidx", "j_grade", "judgments_upto", "judgment_rows", "counted_judgments",
    # dense: one value per ranked document, built on first use
    "qidx", "rank", "grade", "judged", "score", "relevant", "seg_sum", "seg_count",
    "seg_cumcount", "first_rank",
    # policies and views
    "policies", "for_measure", "regrouped",
    # subtopic judgments (None for plain ones)
    "subtopics",
})


#: a position array an alignment hands out, by what it is: its ``judged_at``, or its
#: ``relevant_positions(rel)``
HandedOut = Literal["judged_at"] | tuple[Literal["relevant_positions"], int]

T = TypeVar("T")


class _Derived:
    """What an :class:`Aligned` builds on first use and keeps (every array read-only, but
    the ``relevant`` masks and ``num_rel`` counts): one alignment's work that every kernel
    shares, by key: ``"qidx"``, ``"rank"``, ``"grade"``, ``"judged"``, ``"score"``,
    ``"judged_only"``, ``"positive_judged"``, and by relevance level ``("relevant", rel)``
    (:meth:`Aligned.relevant`), ``("relevant_positions", rel)``, ``("num_rel", rel)``; by
    most rows per counted query ``("judgments", most)`` (``Aligned._judgments``); query
    index and rank at the positions of each array handed out ``("at", what)``
    (``Aligned._at``).

    Kernels of one alignment may run on several threads (``jobs`` > 1): a value is
    published only once built in full, and one lock per key makes a second thread asking
    for it wait for the first's instead of building it again. A build may ask for other
    keys (never, through them, for its own), so the locks cannot deadlock."""

    __slots__ = ("_guard", "_locks", "kept")

    def __init__(self) -> None:
        self.kept: dict[Hashable, Any] = {}
        self._locks: dict[Hashable, threading.Lock] = {}
        self._guard = threading.Lock()

    def get(self, key: Hashable, build: Callable[[], T]) -> T:
        """The value kept under ``key``, built by ``build()`` on first use (a ``build`` that
        raises keeps nothing)."""
        value = self.kept.get(key, _ABSENT)
        if value is _ABSENT:
            with self._guard:
                lock = self._locks.setdefault(key, threading.Lock())
            with lock:
                value = self.kept.get(key, _ABSENT)
                if value is _ABSENT:
                    value = build()
                    self.kept[key] = value  # published whole: other threads read it as is
        out: T = value
        return out

    def peek(self, key: Hashable) -> Any:
        """The value kept under ``key`` if it was built, else None (nothing is built)."""
        return self.kept.get(key)


_ABSENT = object()


def _read_only(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


@dataclass(frozen=True, eq=False)
class Aligned:
    """Ranked documents of every evaluated query as flat arrays. The module docstring
    gives the kernel contract (which accessors a kernel may use; dense or sparse, and why)
    and the one query numbering; :meth:`of` is the one constructor.

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
    row_j_offsets: np.ndarray
    row_j_qidx: np.ndarray
    row_j_grade: np.ndarray
    missing: np.ndarray
    to_sorted: np.ndarray | None = None
    qidx_from: Callable[[], np.ndarray] | None = field(default=None, repr=False)
    policies: Policies = field(default_factory=Policies)
    subtopics: Subtopics | None = None
    #: per query, the grade and number of relevant items judged by count only (no rows;
    #: ``evaluate_arrays(n_relevant=...)``); None: none
    unretrieved: tuple[np.ndarray, np.ndarray] | None = None
    #: the values of the ranked documents from values of the run's rows, where
    #: ``score_rows`` does not say which row each comes from (only tied rows moved:
    #: ``score_rows`` then points at equal scores, not the same documents); see
    #: :meth:`from_source`
    source_from: Callable[[np.ndarray], np.ndarray] | None = field(default=None, repr=False)
    #: work built on first use and kept; not an init field, so an alignment made with
    #: ``dataclasses.replace`` starts with nothing derived
    _derived: _Derived = field(default_factory=_Derived, init=False, repr=False)

    @classmethod
    def of(cls, *, query_ids: np.ndarray, offsets: np.ndarray,
           judged: tuple[np.ndarray, np.ndarray], score: tuple[np.ndarray, np.ndarray | None],
           judgments: tuple[np.ndarray, np.ndarray], missing: np.ndarray,
           policies: Policies, qidx: np.ndarray | None = None,
           qidx_from: Callable[[], np.ndarray] | None = None,
           to_sorted: np.ndarray | None = None, whole: bool = False,
           subtopics: Subtopics | None = None,
           unretrieved: tuple[np.ndarray, np.ndarray] | None = None,
           source_from: Callable[[np.ndarray], np.ndarray] | None = None) -> Aligned:
        """The one constructor: an alignment from its parts.

        Parameters
        ----------
        query_ids : np.ndarray
            Evaluated query ids (object array), in this alignment's numbering.
        offsets : np.ndarray
            ``offsets[i]:offsets[i+1]`` are query i's ranked rows (int64, ``nq + 1``).
        judged : tuple of np.ndarray
            Positions (ascending) of the ranked rows with a judgment, and its grade.
        score : tuple
            Score values and the row of them of each ranked row (None: in place).
        judgments : tuple of np.ndarray
            Query number and grade of every judgment, query then grade descending.
        missing : np.ndarray
            Whether each query is absent from the run.
        policies : Policies
            The options of this alignment; ``judged_only`` gives the judged-only view.
        qidx : np.ndarray, optional
            The query number of each ranked row, if at hand (else derived on demand).
        qidx_from : callable, optional
            Where to get ``qidx`` if a kernel asks (a run index's, shared).
        to_sorted : np.ndarray, optional
            Where each query of trec_eval order is numbered here (None: the same order).
        whole : bool
            Keep every ranked row even under ``policies.judged_only`` (the judged-only
            view itself is made that way).
        subtopics : Subtopics, optional
            Subtopic judgments (``judged_doc`` parallel to ``judged[0]``), if any.
        unretrieved : tuple of np.ndarray, optional
            Per query, the grade and number of relevant items judged by count only.
        source_from : callable, optional
            The ranked rows' values from the run rows' values, where the score rows do
            not say it (see :meth:`from_source`).

        Returns
        -------
        Aligned
        """
        j_qidx, j_grade = judgments
        j_counts = np.bincount(j_qidx, minlength=query_ids.size)
        aligned = cls(
            query_ids=query_ids,
            offsets=offsets,
            given_qidx=qidx,
            judged_at=judged[0],
            judged_grade=judged[1],
            score_values=score[0],
            score_rows=score[1],
            row_j_offsets=np.concatenate(([0], np.cumsum(j_counts))).astype(np.int64),
            row_j_qidx=j_qidx,
            row_j_grade=j_grade.astype(np.float64, copy=False),
            missing=missing,
            to_sorted=to_sorted,
            qidx_from=qidx_from,
            policies=policies,
            subtopics=subtopics,
            unretrieved=unretrieved if unretrieved is not None and unretrieved[1].any()
            else None,
            source_from=source_from,
        )
        return aligned.judged_only() if policies.judged_only and not whole else aligned

    @property
    def nq(self) -> int:
        return len(self.query_ids)

    def with_unretrieved(self, grade: np.ndarray, count: np.ndarray) -> Aligned:
        """This alignment with ``count[q]`` more relevant items of grade ``grade[q]`` judged
        for query q, none retrieved, held as counts (see :attr:`j_grade`)."""
        if not count.any():
            return self
        return replace(self, unretrieved=(grade, count))  # with nothing derived yet

    def _judgments(self, most: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Offsets, query numbers and grades of every judgment, counted ones as rows (at
        most ``most`` of them per query; None: all)."""
        if self.unretrieved is None:
            return self.row_j_offsets, self.row_j_qidx, self.row_j_grade
        unretrieved = self.unretrieved

        def build() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            # only kernels that read the judgments one by one (ideal rankings) get here:
            # they see exactly the rows the counts stand for
            grade, count = unretrieved
            if most is not None:
                count = np.minimum(count, most)
            q = np.concatenate((self.row_j_qidx,
                                np.repeat(np.arange(self.nq, dtype=np.int64), count)))
            g = np.concatenate((self.row_j_grade, np.repeat(grade, count)))
            order = np.lexsort((-g, q))
            q, g = q[order], g[order]
            offsets = np.concatenate(([0], np.cumsum(np.bincount(q, minlength=self.nq))))
            return offsets.astype(np.int64), q, g

        return self._derived.get(("judgments", most), build)

    def judgment_rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Offsets, query numbers and grades of the judgments given as rows (query then
        grade descending), without the counted ones (:meth:`counted_judgments`)."""
        return self.row_j_offsets, self.row_j_qidx, self.row_j_grade

    def counted_judgments(self) -> tuple[np.ndarray, np.ndarray] | None:
        """Per query, the grade and number of the relevant items judged by count only
        (``evaluate_arrays(n_relevant=...)``), or None when there are none."""
        return self.unretrieved

    def judgments_upto(self, k: float | None) -> tuple[np.ndarray, np.ndarray]:
        """Query number and grade of the judgments an ideal ranking cut at ``k`` can hold:
        ``j_qidx``, ``j_grade`` but with at most ``k`` of a query's counted relevant items
        (all with ``k=None``). Equal grades are interchangeable, so the top ``k`` of each
        query's judgments by grade are those of ``j_grade``, while memory stays in
        proportion to ``k`` when ``n_relevant`` counts are large."""
        _, q, g = self._judgments(None if k is None else int(k))
        return q, g

    @property
    def j_offsets(self) -> np.ndarray:
        """``j_offsets[q]:j_offsets[q+1]`` are query q's judgments in ``j_qidx``, ``j_grade``."""
        return self._judgments()[0]

    @property
    def j_qidx(self) -> np.ndarray:
        """The query number of every judgment, query then grade descending."""
        return self._judgments()[1]

    @property
    def j_grade(self) -> np.ndarray:
        """The grade of every judgment, query then grade descending. Relevant items judged
        by count (``unretrieved``) appear as rows here, built on first use: kernels that
        need only how many judgments a query has read :meth:`num_rel` instead."""
        return self._judgments()[2]

    def _counted(self, select: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
        """Per query, the counted judgments whose grade ``select`` keeps (0 if none)."""
        if self.unretrieved is None:
            return np.zeros(self.nq, dtype=np.int64)
        grade, count = self.unretrieved
        return np.where(select(grade), count, 0).astype(np.int64)

    def in_trec_order(self, values: np.ndarray) -> np.ndarray:
        """Per-query ``values`` of this alignment's queries, put in trec_eval order."""
        return values if self.to_sorted is None else values[self.to_sorted]

    @property
    def n_ranked(self) -> int:
        """The number of ranked documents, all queries together."""
        return int(self.offsets[-1])

    @property
    def qidx(self) -> np.ndarray:
        """The query index of each ranked document."""
        if self.given_qidx is not None:
            return self.given_qidx
        # the run index's (qidx_from) is built there once and shared between calls
        return self._derived.get("qidx", lambda: _read_only(
            self.qidx_from() if self.qidx_from is not None
            else np.repeat(np.arange(self.nq, dtype=np.int64), np.diff(self.offsets))))

    def qidx_at(self, idx: np.ndarray) -> np.ndarray:
        """The query index of the ranked documents at positions ``idx``."""
        return self._at(idx)[0]

    def _handed_out(self, idx: np.ndarray) -> HandedOut | None:
        """What ``idx`` is, if it is (``is``) a position array this alignment handed out."""
        if idx is self.judged_at:
            return "judged_at"
        for key, positions in list(self._derived.kept.items()):
            if positions is idx and isinstance(key, tuple) and key[0] == "relevant_positions":
                return ("relevant_positions", key[1])
        return None

    def _at(self, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Query index and rank at positions ``idx``; kept for the position arrays this
        alignment hands out (judged, relevant), which every kernel asks about again."""
        handed_out = self._handed_out(idx)
        if handed_out is None:
            return self._find(idx)

        def build() -> tuple[np.ndarray, np.ndarray]:
            q, rank = self._find(idx)
            q.flags.writeable = rank.flags.writeable = False  # shared by every kernel
            return q, rank

        return self._derived.get(("at", handed_out), build)

    def _find(self, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Query index and rank at positions ``idx``, built anew."""
        derived = self._derived
        # a search per position beats building the full array only for few positions
        if self.given_qidx is None and derived.peek("qidx") is None and idx.size * 64 < max(
                self.n_ranked, 1):
            q = group_at(self.offsets, idx)
        else:
            q = self.qidx[idx]
        ranks = derived.peek("rank")
        rank = ranks[idx] if ranks is not None else idx - self.offsets[q] + 1
        return q, rank

    @property
    def rank(self) -> np.ndarray:
        """The 1-based rank of each ranked document within its query."""
        return self._derived.get("rank", lambda: _read_only(
            group_ranks(self.qidx, self.offsets)))

    def rank_at(self, idx: np.ndarray) -> np.ndarray:
        """The rank of the ranked documents at positions ``idx``."""
        return self._at(idx)[1]

    @property
    def grade(self) -> np.ndarray:
        """The grade of each ranked document (0 where unjudged)."""
        return self._derived.get("grade", lambda: _read_only(
            self._spread(self.judged_grade, 0.0)))

    @property
    def judged(self) -> np.ndarray:
        """Whether each ranked document has a judgment."""
        return self._derived.get("judged", lambda: _read_only(self._spread(True, False)))

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
        return self._derived.get("score", lambda: _read_only(self.score_values[rows]))

    def regrouped(self, pieces: list[np.ndarray], owners: np.ndarray) -> Aligned:
        """An alignment of virtual queries: query ``i`` ranks this alignment's documents at
        positions ``pieces[i]``, in that order, against the judgments of query ``owners[i]``.

        Averaging a measure over the orders of tied documents evaluates it once per
        arrangement this way (see ``_measures._ties``).
        """
        flat = np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.int64)
        lengths = np.array([p.size for p in pieces], dtype=np.int64)
        nv = len(pieces)
        owner = np.asarray(owners, dtype=np.int64)
        j_counts = np.diff(self.row_j_offsets)[owner]
        j_index = (np.concatenate([np.arange(self.row_j_offsets[q], self.row_j_offsets[q + 1])
                                   for q in owner.tolist()]).astype(np.int64)
                   if nv else np.zeros(0, dtype=np.int64))
        judged = self.judged[flat]
        subtopics = None
        if self.subtopics is not None:
            flat_judged = flat[judged]
            subtopics = self.subtopics.regrouped(
                owner, np.repeat(np.arange(nv, dtype=np.int64), lengths)[judged],
                np.searchsorted(self.judged_at, flat_judged))
        return Aligned.of(
            query_ids=self.query_ids[owner],
            offsets=np.concatenate(([0], np.cumsum(lengths))).astype(np.int64),
            judged=(np.flatnonzero(judged), self.grade[flat][judged]),
            score=(self.score_values, self.score_rows_at(flat)),
            judgments=(np.repeat(np.arange(nv, dtype=np.int64), j_counts),
                       self.row_j_grade[j_index]),
            missing=self.missing[owner],
            policies=self.policies,
            qidx=np.repeat(np.arange(nv, dtype=np.int64), lengths),
            whole=True,  # this alignment is already the view the measure reads
            subtopics=subtopics,
            unretrieved=None if self.unretrieved is None
            else (self.unretrieved[0][owner], self.unretrieved[1][owner]),
        )

    def from_source(self, values: np.ndarray) -> np.ndarray:
        """The values of the ranked documents, from ``values`` of the run's rows (which
        may be written in place), for the pipeline to read the run's doc ids (the item of
        each recommendation); not a kernel accessor."""
        if self.source_from is not None:
            return self.source_from(values)
        return values[:self.n_ranked] if self.score_rows is None else values[self.score_rows]

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
        def build() -> np.ndarray:
            mask = np.zeros(self.n_ranked, dtype=bool)
            mask[self.relevant_positions(rel)] = True
            return mask

        return self._derived.get(("relevant", rel), build)

    def relevant_positions(self, rel: int) -> np.ndarray:
        """Positions (ascending) of the ranked docs judged at level >= rel."""
        # handed out: _at keeps its query index and rank
        return self._derived.get(("relevant_positions", rel), lambda: _read_only(
            self.judged_at[self.judged_grade >= rel]))

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
        return self._derived.get(("num_rel", rel), lambda: np.bincount(
            self.row_j_qidx[self.row_j_grade >= rel], minlength=self.nq
        ).astype(np.int64) + self._counted(lambda g: g >= rel))

    def num_judged_nonrel(self, rel: int) -> np.ndarray:
        """Per-query number of judgments at a level in [0, rel)."""
        mask = (self.row_j_grade >= 0) & (self.row_j_grade < rel)
        return (np.bincount(self.row_j_qidx[mask], minlength=self.nq).astype(np.int64)
                + self._counted(lambda g: (g >= 0) & (g < rel)))

    def judged_only(self) -> Aligned:
        """This alignment with every document not judged >= 0 removed (trec_eval -J)."""
        def build() -> Aligned:
            keep = np.zeros(self.n_ranked, dtype=bool)
            keep[self.judged_at[self.judged_grade >= 0]] = True
            return self._subset(keep)

        return self._derived.get("judged_only", build)

    def positive_judged(self) -> Aligned:
        """This alignment with the judgments of the documents scored <= 0 not read in the
        ranking: those documents keep their ranks and stay ranked, unjudged, while the
        query's judgments (what recall and the ideal rankings count) are unchanged. That
        is torchmetrics >= 1.7.4's rule for AP, RR, P and R (the ``nonpositive`` option)."""
        def build() -> Aligned:
            keep = self.score_values[self.score_rows_at(self.judged_at)] > 0
            if keep.all() or self.subtopics is not None:  # diversity measures read all
                return self
            return replace(self, judged_at=self.judged_at[keep],
                           judged_grade=self.judged_grade[keep])

        return self._derived.get("positive_judged", build)

    def _subset(self, keep: np.ndarray) -> Aligned:
        qidx = self.qidx[keep]
        kept = keep[self.judged_at]
        position = np.cumsum(keep) - 1  # each kept row's position in the subset
        return Aligned.of(
            query_ids=self.query_ids,
            offsets=group_offsets(qidx, self.nq),
            judged=(position[self.judged_at[kept]], self.judged_grade[kept]),
            score=(self.score_values, self.score_rows_at(np.flatnonzero(keep))),
            judgments=(self.row_j_qidx, self.row_j_grade),
            missing=self.missing,
            policies=self.policies,
            qidx=qidx,
            to_sorted=self.to_sorted,
            whole=True,
            subtopics=None if self.subtopics is None else self.subtopics.taking(kept),
            unretrieved=self.unretrieved,
            source_from=lambda values: self.from_source(values)[keep],
        )

    def for_measure(self, judged_only: bool | None) -> Aligned:
        if judged_only and not self.policies.judged_only:
            return self.judged_only()
        return self
