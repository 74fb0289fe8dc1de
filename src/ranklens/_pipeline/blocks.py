"""The block driver: an evaluation computed as blocks of whole queries, merged, checked once.

Every engine that cuts an evaluation into blocks goes through here: the query subsets of a
large run (:mod:`ranklens._pipeline.subsets`), the chunks of an evaluation larger than
memory (:mod:`ranklens._surfaces.chunked`), the buckets of a Spark DataFrame
(:mod:`ranklens.spark`) and the accumulator's updates. A block is computed with
:func:`compute_block` (here or in a worker, from a :class:`BlockSpec`); its
:class:`Outcome` is its :class:`~ranklens._pipeline.partials.Partial` or the error it
raised, which travels as itself (:meth:`~ranklens._base.errors.RanklensError.to_dict`).
:func:`settle` merges the outcomes and raises the error the whole evaluation would raise
first: the judgments' own, then the policies on every query, then the run's.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .._base.errors import DuplicateError, InputError, RanklensError
from .._ingest.tables import Qrels, Run
from .._model.items import ItemContext
from .assemble import check_policies
from .compute import compute
from .partials import Ids, Partial, merge, partial_of
from .plan import Plan, make_plan

__all__ = ["BlockSpec", "Outcome", "compute_block", "ids_outcome", "settle"]


@dataclass(frozen=True)
class BlockSpec:
    """What a worker needs to compute a block besides its rows: small and picklable (a
    Plan holds a mapping proxy, so the worker makes its own from the names and options)."""

    measures: tuple[str, ...]
    options: tuple[tuple[str, Any], ...]
    qrels_source: str
    run_source: str
    run_name: str
    #: the run's rows carry a rank column (a Spark bucket: no row order survives a shuffle)
    has_rank: bool = False
    #: the pickled :class:`~ranklens._model.items.ItemContext` of the beyond-accuracy
    #: measures (None: no item tables given)
    context: bytes | None = None
    #: a digest of ``context``: a worker unpickles each context once
    context_key: str = ""

    @classmethod
    def of(cls, plan: Plan, qrels_source: str, run_source: str, run_name: str,
           **extra: Any) -> BlockSpec:
        """The spec of ``plan``'s blocks."""
        return cls(plan.names, tuple(plan.options.as_kwargs().items()), qrels_source,
                   run_source, run_name, **extra)

    @property
    def plan(self) -> Plan:
        """The plan the blocks run: the driver's own."""
        return _plan(self.measures, self.options)


@functools.lru_cache(maxsize=4)
def _plan(measures: tuple[str, ...], options: tuple[tuple[str, Any], ...]) -> Plan:
    return make_plan(list(measures), **dict(options))


@dataclass(frozen=True)
class Outcome:
    """A block's :class:`Partial`, or the error it raised with the counts of its ids (what
    the policies on every query read before a run's error is raised)."""

    partial: Partial
    error: RanklensError | None = None


def ids_outcome(judged: Iterable[str], ranked: Iterable[str],
                error: RanklensError | None = None) -> Outcome:
    """The outcome of a block that raised ``error`` (or has no judgments): its counts from
    its judged and its ranked query ids alone."""
    judged, ranked = set(judged), set(ranked)
    return Outcome(Partial(judged=len(judged), missing=Ids.of(judged - ranked),
                           ignored=Ids.of(ranked - judged), tallies={}), error)


def compute_block(plan: Plan, qrels: Qrels, run: Run, *,
                  context: ItemContext | None = None) -> Outcome:
    """One block of whole queries computed (``compute(..., block=True)``), its values
    kept; an error becomes the outcome."""
    try:
        return Outcome(partial_of(plan, compute(plan, qrels, run, block=True,
                                                context=context)))
    except RanklensError as error:
        coded = qrels.coded
        judged = coded.block_ids if coded is not None else qrels.frame["query_id"]
        return ids_outcome(judged.unique().to_list(),
                           [*run.block_ids.unique().to_list(), *run.empty_queries], error)


def settle(plan: Plan, outcomes: Sequence[Outcome], *, qrels_source: str,
           run_source: str) -> Partial:
    """The blocks' partials merged, the policies on every query checked.

    Raises
    ------
    RanklensError
        The error the whole evaluation raises first: the judgments' own, the policies on
        every query (no judgments, no query in common, ``missing="error"``), then the
        run's; a duplicate found in several blocks of one table is raised as that table's.
    """
    errors = _ordered([o.error for o in outcomes if o.error is not None], qrels_source)
    if errors and _source(errors[0]) == qrels_source:
        raise errors[0]
    parts = [o.partial for o in outcomes]
    merged = merge(plan, parts) if parts else Partial(tallies={})
    check_policies(plan, merged, run_source=run_source, qrels_source=qrels_source)
    if errors:
        raise errors[0]
    return merged


def _source(error: RanklensError) -> str | None:
    return error.source if isinstance(error, InputError) else None


def _ordered(errors: list[RanklensError], qrels_source: str) -> list[RanklensError]:
    """The blocks' errors, the judgments' first (then by message); the duplicates of one
    table as one error."""
    duplicates: dict[tuple[str | None, str], list[DuplicateError]] = {}
    others = []
    for error in errors:
        if isinstance(error, DuplicateError):
            duplicates.setdefault((error.source, error.what), []).append(error)
        else:
            others.append(error)
    others += [DuplicateError.combine(found) for found in duplicates.values()]
    return sorted(others, key=lambda e: (_source(e) != qrels_source, e.message))
