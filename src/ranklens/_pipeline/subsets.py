"""A whole run's per-query values, computed one query subset at a time when it is large.

An evaluation is valid on any subset of queries, and the partials of disjoint subsets merge
(:mod:`ranklens._pipeline.partials`), as a chunked evaluation's blocks do: computed in
:data:`SUBSETS` query subsets (:mod:`ranklens._model.subsets`), a large run's ranking,
judgment index, alignment and measure arrays exist for one subset at a time rather than for
every query at once (Robust x13 concatenated: ~85 MB of them at the peak, ~15 MB so).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._base.errors import RanklensError
from .._ingest.tables import Qrels, Run, SubtopicQrels
from .._model.items import ItemContext
from .._model.subsets import judged_query_ids, split_qrels, split_run, subset_bounds
from .assemble import check_policies
from .compute import PerQuery, compute
from .partials import merge, partial_of
from .plan import Plan

if TYPE_CHECKING:
    import polars as pl

__all__ = ["SUBSETS", "SUBSET_ROWS", "SUBSET_SHARE", "by_subsets", "compute_run"]

#: the fewest ranked rows computed a query subset at a time: below it the subsets' own
#: costs (a few ms each) outweigh the memory spared
SUBSET_ROWS = 1 << 19

#: judgments at least this share of the ranked rows are computed by subsets (deep pools,
#: as TREC's): their index and matching arrays then weigh on the peak as much as the
#: run's. Shallow judgments (MS MARCO's one a query, a recommender's held-out items)
#: are not: the subsets would only lose what the reader hands a whole run's first index
#: (the msmarco preset: 0.37 s more, and 70 MB more at the peak)
SUBSET_SHARE = 0.25

#: the query subsets of a large evaluation: each holds its own ranking, judgment index and
#: alignment while it is computed, and leaves memory its allocators keep (Robust x13
#: concatenated, two jobs: the computation peaks at ~228 MB in 4 subsets, ~217 in 8, ~209
#: in 16 and 32; 0.19, 0.19, 0.20 and 0.23 s)
SUBSETS = 16


def by_subsets(judgments: int, rows: int) -> bool:
    """Whether a run of ``rows`` ranked rows against ``judgments`` is computed by query
    subsets (when the judgments have enough queries)."""
    return rows >= SUBSET_ROWS and judgments >= SUBSET_SHARE * rows


def compute_run(plan: Plan, qrels: Qrels | SubtopicQrels, run: Run, *,
                context: ItemContext | None = None) -> PerQuery:
    """:func:`~ranklens._pipeline.compute.compute` of a whole run: the same values, computed
    a query subset at a time when :func:`by_subsets` says so (plain judgments, no item
    tables)."""
    if context is None and isinstance(qrels, Qrels) and qrels.unretrieved is None \
            and by_subsets(len(qrels), len(run)):
        judged = judged_query_ids(qrels)
        if judged.len() >= 2 * SUBSETS:
            values = _by_subsets(plan, qrels, subset_bounds(judged, SUBSETS), run)
            if values is not None:
                return values
    return compute(plan, qrels, run, context=context)


def _by_subsets(plan: Plan, qrels: Qrels, bounds: pl.Series, run: Run) -> PerQuery | None:
    """The per-query values of ``run`` against ``qrels``, subset by subset (the subsets'
    tables made and dropped in turn: neither the judgments nor the run are ever held
    twice), merged; None when a subset raised an error or a policy on every query did (the
    whole run, computed at once, then raises the error it raises: the first of several,
    with its line)."""
    parts = []
    try:
        for q, r in zip(split_qrels(qrels, bounds), split_run(run, bounds), strict=True):
            parts.append(partial_of(plan, compute(plan, q, r, block=True)))
            del q, r  # (before the next subset's are made)
        merged = merge(plan, parts)
        check_policies(plan, merged, run_source=run.source, qrels_source=qrels.source)
    except RanklensError:
        return None
    assert merged.values is not None
    return merged.values
