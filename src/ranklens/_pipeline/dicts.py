"""Compute for nested dicts aligned without tables (:mod:`ranklens._model.dicts`).

The same kernels and the same :class:`~ranklens._pipeline.compute.PerQuery` as every
other engine; only the alignment differs. :func:`fits` says which plans take this path:
the others (and inputs the data model does not read) take the general one.
"""

from __future__ import annotations

from typing import NoReturn

from .._measures import _ties
from .._model.dicts import DictJudgments, DictRun, align_dicts
from .compute import PerQuery, alignment_policies, measured
from .context import reads_context
from .plan import Plan

__all__ = ["compute_dicts", "fits"]


def fits(plan: Plan) -> bool:
    """Whether ``plan`` can be computed on dicts aligned without tables.

    Every option of :class:`~ranklens.EvaluateOptions` is applied here as on any
    alignment: ``ties`` (the doc id order, or the dict's own item order for ``"input"``;
    the other policies are computed from the doc id order) and ``missing``, ``depth`` by
    the alignment; ``rel``, ``judged_only``, ``collection_size``, ``empty``,
    ``empty_ranking``, ``nonpositive``, ``convention`` on the aligned arrays or after them,
    whichever path aligned them (and ``duplicates`` has nothing to do: the keys of a dict
    are distinct). A plan takes the general path when a measure's own tie order (its
    ``ties=`` parameter) calls for another alignment (compute makes it from the tables),
    or a measure reads subtopic judgments (diversity) or an item context (the
    beyond-accuracy measures read the run's doc ids).
    """
    ties = plan.policies.ties
    for m in plan.canonical:
        if m.definition.subtopics or reads_context(m):
            return False
        # compute reads a measure's values from the alignment, but for a measure whose
        # own tie order is the doc id or the input order where the option's is another
        order = _ties.effective_ties(m, ties)
        if order in ("docid", "input") and order != ties and not (
                order == "docid" and ties in ("average", *_ties.REORDERED)):
            return False
    return True


def compute_dicts(plan: Plan, judgments: DictJudgments, run: DictRun) -> PerQuery:
    """What :func:`~ranklens._pipeline.compute.compute` gives for the same dicts loaded
    as tables, for a plan that :func:`fits`.

    Raises
    ------
    InputError
        The run and the judgments share no query, or a missing query under
        ``missing="error"`` (the coverage check of every path).
    """
    aligned, diagnostics = align_dicts(judgments, run, alignment_policies(plan))
    return measured(plan, aligned, diagnostics, _no_realignment, None)


def _no_realignment(order: str) -> NoReturn:
    raise AssertionError(f"a plan that fits needs no other tie order; asked for {order!r}")

