"""Assemble: merged partials -> the policies checked once, aggregates and a :class:`Result`.

Every engine ends here: the local one (one block, or several merged), a chunked
evaluation and Spark's buckets all hand :func:`finish` a :class:`Partial`; the checks of
the missing-query, no-common-query and empty-query policies, the aggregates and the
notices are this module's alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._base.errors import InputError
from .._measures._registry import Aggregate
from .._model.items import ItemContext, ItemCounts
from .._model.policies import check_coverage
from .._results.result import Result
from .compute import PerQuery, relevance_level
from .context import catalogue_value, unknown_notices
from .partials import (
    GEO_FLOOR,
    Ids,
    Partial,
    Tally,
    empty_rankings_left_out,
    partial_of,
    policy_values,
)
from .plan import Plan

__all__ = ["GEO_FLOOR", "JUDGED_FLOOR", "Totals", "aggregate", "assemble", "check_policies",
           "finish", "grade_notices", "notices", "users_summary"]

#: The diagnostics entry counting users without test items (user and item inputs only).
USERS_WITHOUT_TEST_ITEMS = "users_without_test_items"

#: Below this share of queries with a judged document retrieved, the run is said to
#: retrieve "almost no" judged document (a mismatch of id formats is the usual cause).
JUDGED_FLOOR = 0.05


def aggregate(values: np.ndarray, how: Aggregate, keep: np.ndarray | None = None,
              weights: np.ndarray | None = None) -> float:
    """Aggregate per-query values as trec_eval does (sequential double sums, then divide).

    ``keep`` selects the queries that count (the others were left out by a policy such as
    ``empty='skip'``). A NaN among the kept values is not dropped: it makes the aggregate
    NaN, as trec_eval prints ``-nan``, rather than silently shrinking the average.
    ``weights`` (one per query) make the mean ``sum(w v) / sum(w)``, 0 when every weight is
    0; a query of weight 0 does not count, whatever its value.
    """
    v = np.asarray(values, dtype=np.float64)
    if keep is not None:
        v = v[keep]
        weights = None if weights is None else weights[keep]
    weight = None
    if weights is not None and how == "mean":
        counted = weights != 0
        v, weight = v[counted] * weights[counted], _left_sum(weights[counted])
    elif how == "gmean":
        v = np.log(np.maximum(v, GEO_FLOOR))
    return _of_sums(how, _left_sum(v), v.size, weight)


def _left_sum(v: np.ndarray) -> float:
    # np.cumsum is a plain left-to-right loop, so this equals trec_eval's summation order
    return float(np.cumsum(v)[-1]) if v.size else 0.0


def _of_sums(how: Aggregate, total: float, counted: int, weight: float | None) -> float:
    """The aggregate of ``counted`` queries from the sum of their terms (a geometric mean's
    are logarithms, a weighted mean's ``w v``) and, for a weighted mean, of their weights:
    one division (0 when nothing counts)."""
    if how == "none":
        return math.nan
    if weight is not None and how == "mean":
        return total / weight if weight != 0 else 0.0
    if how == "sum":
        return total
    if counted == 0:
        return 0.0
    return math.exp(total / counted) if how == "gmean" else total / counted


def _from_tally(how: Aggregate, tally: Tally) -> float:
    """The aggregate of exact sums, rounded once (a weighted mean: two sums, one division)."""
    weight = None if tally.weight is None else tally.weight.to_float()
    return _of_sums(how, tally.total.to_float(), tally.counted, weight)


@dataclass(frozen=True)
class Totals:
    """What :func:`finish` gives: each written measure's aggregate, the diagnostics and
    the notices (warning texts) the caller should show."""

    aggregates: dict[str, float]
    diagnostics: dict[str, Any]
    notices: list[str]


def check_policies(plan: Plan, partial: Partial, *, run_source: str,
                   qrels_source: str) -> str | None:
    """The policies on every query of a merged evaluation: no judgments, no query in common,
    a missing query under ``missing="error"`` (see
    :func:`~ranklens._model.policies.check_coverage`, which a whole run's alignment calls
    with the same counts). Returns the warning of an empty evaluation under
    ``missing="skip"`` (None otherwise)."""
    return check_coverage(plan.policies, judged=partial.judged, retrieved=partial.retrieved,
                   missing=(partial.missing.count, list(partial.missing.examples)),
                   ignored=list(partial.ignored.examples), run_source=run_source,
                   qrels_source=qrels_source, words=plan.vocabulary)


def finish(plan: Plan, partial: Partial, *, run_source: str, qrels_source: str,
           context: ItemContext | None = None) -> Totals:
    """Check the policies on the whole evaluation, then aggregate.

    A catalogue-level measure (``aggregate="catalogue"``) is finished from the merged
    item counts and ``context`` (the item catalogue, the popularity).

    Raises
    ------
    InputError
        No judgments, a run that shares no query with them (unless ``missing="zero"`` was
        given; under ``missing="skip"`` both give an empty evaluation, every aggregate NaN,
        and a notice), a missing query under ``missing="error"``, or a query without a
        relevant judgment for an averaged measure under ``empty="error"``.
    """
    check_policies(plan, partial, run_source=run_source, qrels_source=qrels_source)
    skipped = _skipped_rankings(plan, partial)
    # each measure's values under the policies, once: they give the empties and the means
    applied = None if partial.values is None else [
        policy_values(plan, at, partial.values) for at in range(len(plan.names))]
    empties = _empties(plan, partial, applied)
    if plan.empty == "error":
        for name, measure in zip(plan.names, plan.measures, strict=True):
            count, examples = empties.get(name, (0, []))
            if count:
                raise InputError(
                    f"{count} {plan.vocabulary.queries} have no relevant judgment "
                    f"(rel >= {relevance_level(measure, plan.policies.rel)}) for {measure}, "
                    f"e.g. {examples[:5]}; pass empty='zero', 'skip', 'one' or 'nan' to "
                    "handle them")
    missing = partial.missing
    evaluated = partial.judged - (missing.count if plan.policies.missing == "skip" else 0) \
        - skipped
    aggregates = {}
    for at, (name, measure) in enumerate(zip(plan.names, plan.measures, strict=True)):
        how = "none" if measure.definition.text else measure.definition.aggregate
        if evaluated == 0:  # nothing evaluated (missing="skip", empty_ranking="skip")
            aggregates[name] = math.nan
        elif how == "catalogue":
            aggregates[name] = catalogue_value(measure, partial.items.get(name, ItemCounts()),
                                               context)
        elif partial.values is not None and applied is not None:
            values, keep, _ = applied[at]
            aggregates[name] = aggregate(values, how, keep,
                                         partial.values.weights.get(measure))
        else:
            assert partial.tallies is not None  # a Partial holds one or the other
            aggregates[name] = _from_tally(how, partial.tallies[name])
    diagnostics = {
        "missing_count": missing.count, "ignored_count": partial.ignored.count,
        "empty_queries": {name: count for name, (count, _) in empties.items() if count},
        "evaluated_queries": evaluated,
        "queries_ranked": partial.queries_ranked,
        "queries_judged_ranked": partial.queries_judged_ranked if plan.policies.match
        else None,
    }
    return Totals(aggregates, diagnostics,
                  notices(plan, partial, run_source, qrels_source=qrels_source))


def _skipped_rankings(plan: Plan, partial: Partial) -> int:
    """How many queries given with an empty ranking ``empty_ranking="skip"`` leaves out of
    the evaluation (blocks without values never hold one: only in-memory runs give one)."""
    if plan.options.empty_ranking != "skip" or partial.values is None:
        return 0
    left_out = empty_rankings_left_out(plan, partial.values)
    return 0 if left_out is None else int(left_out.sum())


def _empties(plan: Plan, partial: Partial,
             applied: list[tuple[np.ndarray, np.ndarray | None, np.ndarray]] | None
             ) -> dict[str, tuple[int, list[str]]]:
    """Per written averaged measure: how many queries have no relevant judgment, and some
    (from the tallies, or from the values under the policies, ``applied``)."""
    if partial.tallies is not None:
        return {name: (t.empty.count, list(t.empty.examples))
                for name, t in partial.tallies.items()}
    assert partial.values is not None and applied is not None
    query_ids = partial.values.query_ids
    return {name: (int(empty.sum()), query_ids[empty][:5].tolist())
            for name, (_, _, empty) in zip(plan.names, applied, strict=True)}


def grade_notices(plan: Plan, grades: Any, source: str) -> list[str]:
    """A warning per relevance level no judgment reaches: the measures counting relevant
    documents at that level (``rel``, or a measure's own ``rel=``) find none on any query.
    ``grades`` are the judgments' grades (any array-like; nothing is said when empty) and
    ``source`` names the judgments. Said once per evaluation, not per run.

    Examples
    --------
    >>> from ranklens._pipeline.plan import make_plan
    >>> for line in grade_notices(make_plan(["AP", "nDCG@10", "P@5"], rel=5), [0, 1, 3],
    ...                           "qrels.txt"):
    ...     print(line)  # doctest: +NORMALIZE_WHITESPACE
    no judged document reaches rel >= 5 (grades go up to 3) in the judgments (qrels.txt):
    nothing is relevant to AP, P@5 on any query
    """
    values = np.asarray(grades)
    if values.dtype.kind not in "iuf":
        values = values.astype(float)
    if not values.size or (values.dtype.kind == "f" and np.isnan(values).all()):
        return []
    top = float(np.nanmax(values))  # (no copy of a million judgments' grades)
    levels: dict[int, list[str]] = {}
    for name, measure in zip(plan.names, plan.measures, strict=True):
        if any(p.name == "rel" for p in measure.definition.params):
            level = relevance_level(measure, plan.policies.rel)
            if level > top:
                levels.setdefault(level, []).append(name)
    w = plan.vocabulary
    return [f"no {w.judged_doc} reaches rel >= {level} (grades go up to {top:g}) in the "
            f"{w.judgments} ({source}): nothing is relevant to {', '.join(names)} on any "
            f"{w.query}" for level, names in sorted(levels.items())]


def notices(plan: Plan, partial: Partial | PerQuery, source: str, *,
            qrels_source: str = "<qrels>") -> list[str]:
    """What the caller should be warned of: an empty evaluation under ``missing="skip"``
    (no judgments, no query in common), missing queries (when ``missing`` was left unset),
    a run that retrieved (almost) no judged document (when its documents were matched), and
    run queries without judgments.
    ``source`` names the run, ``qrels_source`` the judgments; the plan's vocabulary words
    them. For user and item inputs, run queries without judgments are users without test
    items, not warned of (:func:`users_summary` words their count)."""
    if isinstance(partial, PerQuery):
        partial = partial_of(plan, partial)
    out, words = [], plan.vocabulary
    if plan.policies.missing == "skip":
        nothing = check_policies(plan, partial, run_source=source, qrels_source=qrels_source)
        if nothing is not None:
            out.append(nothing)
    missing = partial.missing
    if missing.count and plan.policies.warn_missing:
        pol = plan.policies.missing
        verb = "scored 0" if pol == "zero" else "left out of the averages"
        out.append(f"{missing.count} {words.judged_queries} are absent from the {words.run} "
                   f"({source}) and were {verb} (missing={pol!r}): {_some(missing)}")
    ranked, judged = partial.queries_ranked, partial.queries_judged_ranked
    if ranked and plan.policies.match and judged < JUDGED_FLOOR * ranked:
        share = (f"no {words.judged_doc} for any of its {ranked} {words.queries}"
                 if judged == 0 else
                 f"a {words.judged_doc} for only {judged} of its {ranked} {words.queries}")
        out.append(f"the {words.run} ({source}) retrieved {share}: do its {words.doc_ids} "
                   f"match the {words.judgments}' ({words.id_hint})?")
    out += unknown_notices(partial.unknown, source)
    ignored = partial.ignored
    if ignored.count and not words.users:  # users without test items are normal: a summary
        out.append(f"{ignored.count} queries of the run ({source}) have no judgments and "
                   f"were ignored: {_some(ignored)}")
    return out


def _some(counted: Ids) -> str:
    """The first five examples of ``counted`` (its ``count`` and ``examples``), `` ...``
    after them when there are more."""
    return f"{list(counted.examples[:5])}" + (" ..." if counted.count > 5 else "")


def users_summary(result: Result) -> str | None:
    """The one line saying how many users without test items ``result`` left out of its
    means (None: none, or its inputs were not user and item tables)."""
    count = result.diagnostics.get(USERS_WITHOUT_TEST_ITEMS)
    if not count:
        return None
    return (f"{count} users of the {result.vocabulary.run} ({result.run_name}) have no test "
            "items and were left out of the means")


def assemble(plan: Plan, partial: Partial | PerQuery, run_name: str, *,
             run_source: str = "<run>", qrels_source: str = "<qrels>",
             context: ItemContext | None = None) -> Result:
    """The :class:`Result` of a Partial that kept its per-query values (or of the values
    themselves): the policies, the empty-query policy, then the aggregates. When the plan
    speaks of users (user and item tables), the diagnostics count the users without test
    items (``users_without_test_items``).

    Raises
    ------
    InputError
        As :func:`finish`.
    """
    if isinstance(partial, PerQuery):
        partial = partial_of(plan, partial)
    per_query = partial.values
    if per_query is None:
        raise ValueError("assemble needs per-query values: use finish() for tallies")
    totals = finish(plan, partial, run_source=run_source, qrels_source=qrels_source,
                    context=context)
    values: dict[str, np.ndarray] = {}
    text_values: dict[str, list[str]] = {}
    # empty_ranking="skip": those queries are left out of the result, not only the averages
    left_out = empty_rankings_left_out(plan, per_query) \
        if plan.options.empty_ranking == "skip" else None
    rows = slice(None) if left_out is None else ~left_out
    for at, (name, measure) in enumerate(zip(plan.names, plan.measures, strict=True)):
        if measure.definition.text:
            text_values[name] = list(per_query.values[measure][rows])
        values[name] = policy_values(plan, at, per_query)[0][rows]
    return Result(
        names=plan.names,
        measures=plan.measure_of(),
        query_ids=per_query.query_ids[rows],
        query_values=values,
        aggregates=totals.aggregates,
        conventions=dict(plan.conventions),
        run_name=run_name,
        diagnostics={**per_query.diagnostics.to_dict(),
                     **({USERS_WITHOUT_TEST_ITEMS: partial.ignored.count}
                        if plan.vocabulary.users else {})},
        text_values=text_values, vocabulary=plan.vocabulary,
    )
