"""Compute: loaded tables -> per-query values of every measure of a plan.

:func:`compute` is a pure function of its arguments: it reads no file, warns about
nothing and keeps no state, and each query's values depend on that query's judgments and
ranking alone. Restricting the judgments and the run to some queries therefore gives
exactly those queries' rows of the whole, bit for bit, so one partition of a large data
set (a Spark task, a chunk of queries) computes what the whole would for its queries, and
:meth:`PerQuery.concat` puts the parts back together for :func:`assemble`.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import cast

import numpy as np

from .._base.errors import MeasureError, ParameterError
from .._base.lazy import polars as pl
from .._base.threads import jobs
from .._base.tuning import THREADED_ROWS
from .._ingest.tables import Qrels, Run, SubtopicQrels
from .._measures import Measure, _ties
from .._model.align import align
from .._model.aligned import Aligned
from .._model.diagnostics import Diagnostics
from .._model.items import ItemContext, ItemCounts, RankedItems
from .._model.policies import Policies, Ties
from .context import (
    add_unknown,
    check_context,
    context_alignment,
    ranked_items,
    reads_context,
    unknown_items,
)
from .plan import Plan

__all__ = ["PerQuery", "compute", "relevance_level"]


def relevance_level(measure: Measure, rel: int) -> int:
    """The judged level ``measure`` counts as relevant: its own ``rel=``, else the option."""
    if any(p.name == "rel" for p in measure.definition.params):
        return int(measure.get("rel", rel))
    return rel


def _trec_order(query_ids: np.ndarray) -> np.ndarray:
    """The positions of ``query_ids`` (unique) in trec_eval order: str order, which is code
    point order, which is UTF-8 byte order, polars' order of its strings. Many ids are
    sorted by polars, faster than Python's ``sorted`` (a step the chunked engine runs
    alone after its workers are done); ids that are not all text keep Python's order."""
    if len(query_ids) > 1 << 12:
        try:
            series = pl.Series(query_ids.tolist(), dtype=pl.String, strict=True)
        except (TypeError, ValueError, pl.exceptions.PolarsError):
            pass  # not all str (or a str polars cannot hold, e.g. a lone surrogate)
        else:
            return series.arg_sort().to_numpy().astype(np.int64, copy=False)
    return np.array(sorted(range(len(query_ids)), key=query_ids.__getitem__),
                    dtype=np.int64)


@dataclass(frozen=True)
class PerQuery:
    """Per-query values of the distinct measures of a plan, before any empty-query policy.

    Attributes
    ----------
    query_ids : the evaluated queries, in trec_eval order (byte-wise ascending ids).
    values : each distinct measure's values, aligned with ``query_ids`` (an object array
        of strings for a text measure such as ``relstring``).
    num_rel : the number of relevant judgments of each query at each relevance level the
        plan's measures use (what the empty-query policy reads).
    diagnostics : the missing, ignored and empty-ranking queries, and how many queries
        retrieved anything and a judged document (:class:`Diagnostics`).
    weights : each query's weight in the mean, for the measures that declare one (GAUC).
    items : each catalogue-level measure's count of recommended items over these queries
        (what its value is finished from; its per-query values are NaN).
    unknown : the recommendations naming items a table lacks, per table (as notices name
        it): how many, and some of the items.
    """

    query_ids: np.ndarray
    values: Mapping[Measure, np.ndarray]
    num_rel: Mapping[int, np.ndarray]
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    weights: Mapping[Measure, np.ndarray] = field(default_factory=dict)
    items: Mapping[Measure, ItemCounts] = field(default_factory=dict)
    unknown: Mapping[str, tuple[int, tuple[str, ...]]] = field(default_factory=dict)

    @classmethod
    def concat(cls, parts: Sequence[PerQuery]) -> PerQuery:
        """The parts computed on disjoint sets of queries, as one, in trec_eval order.

        Raises
        ------
        ParameterError
            No parts, parts of different measures or levels, or a query in two parts.
        """
        if not parts:
            raise ParameterError("nothing to concatenate: no parts were given")
        first = parts[0]
        for p in parts[1:]:
            if list(p.values) != list(first.values) or list(p.num_rel) != list(first.num_rel):
                raise ParameterError(
                    "parts to concatenate must hold the same measures; got "
                    f"{', '.join(map(str, first.values))} and {', '.join(map(str, p.values))}"
                )
        query_ids = np.concatenate([p.query_ids for p in parts])
        order = _trec_order(query_ids)
        ordered = query_ids[order]
        if len(ordered) > 1 and (ordered[1:] == ordered[:-1]).any():
            twice = ordered[1:][ordered[1:] == ordered[:-1]][:5].tolist()
            raise ParameterError(f"parts to concatenate must not share queries; got {twice} "
                                 "in two parts")

        def joined(arrays: list[np.ndarray]) -> np.ndarray:
            return np.concatenate(arrays)[order]

        values = {m: joined([p.values[m] for p in parts]) for m in first.values}
        num_rel = {lvl: joined([p.num_rel[lvl] for p in parts]) for lvl in first.num_rel}
        diagnostics = Diagnostics.concat([p.diagnostics for p in parts])
        weights = {m: joined([p.weights[m] for p in parts]) for m in first.weights}
        items = {m: sum((p.items[m] for p in parts), ItemCounts()) for m in first.items}
        return cls(ordered, values, num_rel, diagnostics, weights, items,
                   add_unknown(p.unknown for p in parts))


def _values(measure: Measure, aligned: Aligned, policies: Policies,
            realigned: dict[str, Aligned], realign: Callable[[Ties], Aligned],
            unjudged: bool = False,
            realigning: threading.Lock | None = None) -> np.ndarray:
    """Per-query values of ``measure`` in trec_eval order, under its own tie policy: float64
    (a kernel may hand back integers, e.g. a bincount with nothing in it), text as given.
    ``unjudged``: a document scored <= 0 is never a hit (:meth:`Aligned.positive_judged`).
    ``realign(ties)``: the alignment under another tie order, kept in ``realigned``;
    ``realigning``: held while ``realigned`` is read or added to (measures on threads)."""
    def view(a: Aligned) -> Aligned:
        return a.positive_judged() if unjudged else a

    order = _ties.effective_ties(measure, policies.ties)
    if order == "average":
        values = aligned.in_trec_order(_ties.compute(view(aligned), measure))
    elif order in _ties.BOUNDS:  # scikit-learn's: each document after / before its ties
        values = aligned.in_trec_order(_ties.bound(view(aligned), measure,
                                                   order == "optimistic"))
    elif order in _ties.PERMUTATIONS:  # each tied group by grade, from the doc id order
        values = aligned.in_trec_order(_ties.permuted(view(aligned), measure,
                                                      order == "best"))
    # under ties="average" (or a bound) the alignment is sorted by doc id, which a docid
    # measure reads
    elif order == policies.ties or (order == "docid" and policies.ties in ("average",
                                                                          *_ties.REORDERED)):
        values = aligned.in_trec_order(measure.definition.kernel(view(aligned), measure))
    else:
        with realigning or contextlib.nullcontext():  # built once, whichever asks first
            if order not in realigned:  # a measure asks for another tie-break than the option
                realigned[order] = realign(cast(Ties, order))
            other = realigned[order]
        values = other.in_trec_order(measure.definition.kernel(view(other), measure))
    return values if measure.definition.text else values.astype(np.float64, copy=False)


def _check_judgments(plan: Plan, qrels: Qrels | SubtopicQrels) -> None:
    """MeasureError for measures that cannot read this kind of judgments: a diversity
    measure needs subtopic judgments, every other measure plain ones."""
    subtopic = isinstance(qrels, SubtopicQrels)
    wrong = [str(m) for m in plan.canonical if m.definition.subtopics != subtopic]
    if not wrong:
        return
    if subtopic:
        raise MeasureError(
            f"{', '.join(wrong)} need plain relevance judgments, and these are subtopic "
            f"judgments ({qrels.source}); evaluate them against qrels.documents() (each "
            "document graded by its highest subtopic grade) or load plain qrels")
    raise MeasureError(
        f"{', '.join(wrong)} need subtopic judgments (topic subtopic doc grade, the ndeval "
        f"format) and these are plain judgments ({qrels.source}); load them with "
        "ranklens.load_qrels(path, kind='subtopic') (on the command line: --subtopics)")


def compute(plan: Plan, qrels: Qrels | SubtopicQrels, run: Run, *,
            block: bool = False, context: ItemContext | None = None) -> PerQuery:
    """Per-query values of every distinct measure of ``plan`` for ``run`` against ``qrels``.

    Parameters
    ----------
    plan : Plan
        The measures and the options (see :func:`make_plan`).
    qrels : Qrels or SubtopicQrels
        Loaded judgments (all of them, or those of some queries).
    run : Run
        A loaded run (all of it, or the rows of the same queries).
    block : bool, default False
        The tables are one block of a larger evaluation (a chunk of queries, a Spark
        bucket): the policies that read every query are checked when the blocks' partials
        are merged (:func:`~ranklens._pipeline.assemble.finish`), not here.
    context : ItemContext, optional
        The beyond-accuracy tables (popularity, catalogue, features, groups) the plan's
        measures of recommended items read.

    Returns
    -------
    PerQuery
        Values before the empty-query policy, which :func:`assemble` applies.

    Raises
    ------
    InputError
        A duplicate under ``duplicates="error"``; unless ``block``, the run and the
        judgments share no query or a missing query under ``missing="error"``.
    MeasureError
        A measure needs a table the context lacks.
    """
    _check_judgments(plan, qrels)
    check_context(plan.canonical, context)
    policies = alignment_policies(plan)
    aligned, diagnostics = align(qrels, run, policies, block=block)

    def realign(order: Ties) -> Aligned:
        # the coverage was checked by the first alignment
        return align(qrels, run, replace(policies, ties=order), block=True)[0]

    return measured(plan, aligned, diagnostics, realign, (qrels, run), context)


def alignment_policies(plan: Plan) -> Policies:
    """The policies a plan's alignment is made under: the plan's, without its warning
    (the caller decides what to tell), and the doc id order under the tie policies that
    reorder its tied groups by grade, measure by measure (the bounds, worst and best)."""
    policies = replace(plan.policies, warn_missing=False)
    return replace(policies, ties="docid") if policies.ties in _ties.REORDERED else policies


def measured(plan: Plan, aligned: Aligned, diagnostics: Diagnostics,
             realign: Callable[[Ties], Aligned],
             tables: tuple[Qrels | SubtopicQrels, Run] | None,
             context: ItemContext | None = None) -> PerQuery:
    """The per-query values of ``plan``'s measures on ``aligned`` (made under
    :func:`alignment_policies`, with its ``diagnostics``); ``realign(ties)`` aligns the same
    tables under another tie order, for a measure that asks for one. ``tables`` (the
    judgments and the run) are read by the measures of recommended items only (None: the
    plan has none)."""
    policies = replace(plan.policies, warn_missing=False)
    realigned: dict[str, Aligned] = {}
    realigning = threading.Lock()
    unjudged = plan.nonpositive == "unjudged"
    values: dict[Measure, np.ndarray] = {}
    items: dict[Measure, ItemCounts] = {}
    ranked: dict[int, RankedItems] = {}

    def plain(m: Measure) -> np.ndarray:
        return _values(m, aligned, policies, realigned, realign,
                       unjudged and m.definition.facts.nonpositive_not_hit, realigning)

    with _measures_on_threads(plan, aligned, plain) as computed:
        for m in plan.canonical:
            if not reads_context(m):
                values[m] = computed(m)  # raises its error here, in the plan's order
                continue
            # plain judgments: _check_judgments refused subtopic ones for these measures
            assert tables is not None, "the measures of recommended items read the tables"
            qrels, run = tables
            with realigning:
                a = context_alignment(m, aligned, policies, realigned, cast(Qrels, qrels),
                                      run)
            if id(a) not in ranked:
                ranked[id(a)] = ranked_items(a, run, context or ItemContext(),
                                             cast(Qrels, qrels))
            defn = m.definition
            if defn.items.tally is not None:
                items[m] = defn.items.tally(a, m, ranked[id(a)])
                values[m] = np.full(aligned.nq, np.nan)
            elif defn.items.context is not None:
                values[m] = a.in_trec_order(defn.items.context(a, m, ranked[id(a)])).astype(
                    np.float64, copy=False)
    unknown = {} if not ranked else unknown_items(
        [m for m in plan.canonical if reads_context(m)], aligned,
        ranked.get(id(aligned)) or ranked_items(aligned, run, context or ItemContext()))
    levels = sorted({relevance_level(m, policies.rel) for m in plan.canonical})
    num_rel = {lvl: aligned.in_trec_order(aligned.num_rel(lvl)) for lvl in levels}
    weights = {m: aligned.in_trec_order(m.definition.weight(aligned, m)).astype(np.float64)
               for m in plan.canonical if m.definition.weight is not None}
    return PerQuery(aligned.in_trec_order(aligned.query_ids), values, num_rel,
                    diagnostics.counted(*_judged_counts(aligned, policies.match)), weights,
                    items, unknown)


@contextlib.contextmanager
def _measures_on_threads(plan: Plan, aligned: Aligned,
                         plain: Callable[[Measure], np.ndarray]
                         ) -> Iterator[Callable[[Measure], np.ndarray]]:
    """``computed(m)``: ``plain(m)``, the values of a measure that reads no context.

    With :func:`~ranklens._base.threads.jobs` > 1 and enough ranked rows, every such measure is
    submitted at once to a pool of ``jobs`` threads (NumPy releases the GIL over large
    arrays; the alignment's derived arrays are built once, whichever kernel asks first),
    and ``computed(m)`` waits for its own: values, and the first error, come in the plan's
    order, as on one thread. Kernels are pure, so one computed after an error changes
    nothing; leaving the block waits for (or cancels) the rest. Otherwise ``computed`` is
    ``plain``, on the calling thread.
    """
    measures = [m for m in plan.canonical if not reads_context(m)]
    n = min(jobs(), len(measures))
    if n < 2 or aligned.n_ranked < THREADED_ROWS:
        yield plain
        return
    pool = ThreadPoolExecutor(n, thread_name_prefix="ranklens-measures")
    try:
        futures: dict[Measure, Future[np.ndarray]] = {m: pool.submit(plain, m)
                                                      for m in measures}
        yield lambda m: futures[m].result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _judged_counts(aligned: Aligned, matched: bool) -> tuple[int, int | None]:
    """How many queries retrieved anything, and how many retrieved a judged document (doc
    ids that never match the judgments leave every measure 0 without an error; None: the
    documents were not ``matched``)."""
    ranked = int((np.diff(aligned.offsets) > 0).sum())
    if not matched:
        return ranked, None
    owners = np.searchsorted(aligned.offsets, aligned.judged_at, side="right") - 1
    # marked rather than np.unique: no sort of the judged rows
    judged = np.zeros(aligned.offsets.size - 1, dtype=bool)
    judged[owners] = True
    return ranked, int(np.count_nonzero(judged))
