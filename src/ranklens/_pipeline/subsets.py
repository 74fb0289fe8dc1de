"""A whole run's per-query values, computed one query subset at a time when it is large.

An evaluation is valid on any subset of queries, and the partials of disjoint subsets merge
(:mod:`ranklens._pipeline.partials`), as a chunked evaluation's blocks do: computed in
query subsets (:mod:`ranklens._model.subsets`; how many and when: the engine chooser,
:mod:`ranklens._surfaces.engine`) by the block driver
(:mod:`ranklens._pipeline.blocks`), a large run's ranking, judgment index, alignment and
measure arrays exist for one subset at a time rather than for every query at once.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .._base.errors import DuplicateError
from .._base.lazy import polars as pl
from .._ingest.tables import Qrels, Run, SubtopicQrels
from .._model.items import ItemContext
from .._model.subsets import split_qrels, split_run
from .blocks import compute_block, settle
from .compute import PerQuery, compute
from .plan import Plan

__all__ = ["compute_run"]


def compute_run(plan: Plan, qrels: Qrels | SubtopicQrels, run: Run, *,
                bounds: pl.Series | None = None,
                context: ItemContext | None = None) -> PerQuery:
    """:func:`~ranklens._pipeline.compute.compute` of a whole run: the same values, computed
    a query subset at a time given the subsets' ``bounds``
    (:func:`ranklens._surfaces.engine.query_subsets` decides)."""
    if bounds is not None:
        assert isinstance(qrels, Qrels) and context is None
        return _by_subsets(plan, qrels, bounds, run)
    return compute(plan, qrels, run, context=context)


def _by_subsets(plan: Plan, qrels: Qrels, bounds: pl.Series, run: Run) -> PerQuery:
    """The per-query values of ``run`` against ``qrels``, subset by subset (the subsets'
    tables made and dropped in turn: neither the judgments nor the run are ever held
    twice), merged by the block driver, which raises the error the whole run raises first
    (a duplicate's first row counted in the whole table)."""
    outcomes = []
    for (q, q_rows), (r, r_rows) in zip(split_qrels(qrels, bounds), split_run(run, bounds),
                                        strict=True):
        outcome = compute_block(plan, q, r)
        del q, r  # (before the next subset's are made)
        error = outcome.error
        if isinstance(error, DuplicateError):
            rows = q_rows if error.what == "qrels" else r_rows
            outcome = replace(outcome, error=error.at_row(int(np.flatnonzero(rows)[
                error.first])))
        outcomes.append(outcome)
    merged = settle(plan, outcomes, run_source=run.source, qrels_source=qrels.source)
    assert merged.values is not None
    return merged.values
