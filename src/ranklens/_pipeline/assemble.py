"""Assemble: per-query values -> the empty-query policy, aggregates and a :class:`Result`."""

from __future__ import annotations

import math

import numpy as np

from .._errors import InputError
from .._result import Result
from .compute import PerQuery, relevance_level
from .plan import Plan

__all__ = ["GEO_FLOOR", "JUDGED_FLOOR", "aggregate", "assemble", "notices"]

GEO_FLOOR = 1e-5  # trec_eval's MIN_GEO_MEAN

#: Below this share of queries with a judged document retrieved, the run is said to
#: retrieve "almost no" judged document (a mismatch of id formats is the usual cause).
JUDGED_FLOOR = 0.05

# what each empty-query policy puts in place of a query without a relevant judgment
_EMPTY_VALUE = {"skip": math.nan, "nan": math.nan, "one": 1.0}


def aggregate(values: np.ndarray, how: str, keep: np.ndarray | None = None,
              weights: np.ndarray | None = None) -> float:
    """Aggregate per-query values as trec_eval does (sequential double sums, then divide).

    ``keep`` selects the queries that count (the others were left out by a policy such as
    ``empty='skip'``). A NaN among the kept values is not dropped: it makes the aggregate
    NaN, as trec_eval prints ``-nan``, rather than silently shrinking the average.
    ``weights`` (one per query) make the mean ``sum(w v) / sum(w)``, 0 when every weight is
    0; a query of weight 0 does not count, whatever its value.
    """
    v = np.asarray(values, dtype=np.float64)
    if how == "none":
        return math.nan
    if keep is not None:
        v = v[keep]
        weights = None if weights is None else weights[keep]
    if weights is not None and how == "mean":
        counted = weights != 0
        total = float(np.cumsum(weights[counted])[-1]) if counted.any() else 0.0
        if total == 0:
            return 0.0
        return float(np.cumsum(v[counted] * weights[counted])[-1]) / total
    if how == "sum":
        return float(np.cumsum(v)[-1]) if v.size else 0.0
    if v.size == 0:
        return 0.0
    if how == "gmean":
        logs = np.log(np.maximum(v, GEO_FLOOR))
        return float(math.exp(float(np.cumsum(logs)[-1]) / v.size))
    # np.cumsum is a plain left-to-right loop, so this equals trec_eval's summation order
    return float(np.cumsum(v)[-1]) / v.size


def notices(plan: Plan, per_query: PerQuery, source: str) -> list[str]:
    """What the caller should be warned of: missing queries (when ``missing`` was left
    unset) and run queries without judgments. ``source`` names the run."""
    out = []
    missing = per_query.diagnostics.get("missing_queries", [])
    if missing and plan.policies.warn_missing:
        pol = plan.policies.missing
        verb = "scored 0" if pol == "zero" else "left out of the averages"
        out.append(
            f"{len(missing)} judged queries are absent from the run ({source}) and "
            f"were {verb} (missing={pol!r}): {missing[:5]}"
            + (" ..." if len(missing) > 5 else "")
        )
    ranked = per_query.diagnostics.get("queries_ranked", 0)
    judged = per_query.diagnostics.get("queries_judged_ranked", 0)
    if ranked and judged < JUDGED_FLOOR * ranked:
        share = (f"no judged document for any of its {ranked} queries" if judged == 0 else
                 f"a judged document for only {judged} of its {ranked} queries")
        out.append(
            f"the run ({source}) retrieved {share}: do its doc ids match the judgments' "
            "(passage ids scored against document judgments, another id format)?"
        )
    ignored = per_query.diagnostics.get("ignored_queries", [])
    if ignored:
        out.append(
            f"{len(ignored)} run queries have no judgments and were ignored: {ignored[:5]}"
            + (" ..." if len(ignored) > 5 else "")
        )
    return out


def assemble(plan: Plan, per_query: PerQuery, run_name: str) -> Result:
    """The :class:`Result` of ``per_query``: the empty-query policy, then the aggregates.

    Raises
    ------
    InputError
        ``empty="error"`` and a query has no relevant judgment for an averaged measure.
    """
    empty = plan.empty
    query_ids = per_query.query_ids
    values: dict[str, np.ndarray] = {}
    aggregates: dict[str, float] = {}
    text_values: dict[str, list[str]] = {}
    for name, measure in zip(plan.names, plan.measures, strict=True):
        defn = measure.definition
        v = per_query.values[measure]
        level = relevance_level(measure, plan.policies.rel)
        mask = per_query.num_rel[level] == 0
        averaged = defn.aggregate in ("mean", "gmean")
        if empty == "error" and averaged and mask.any():
            bad = query_ids[mask][:5].tolist()
            raise InputError(
                f"{int(mask.sum())} queries have no relevant judgment (rel >= {level}) for "
                f"{measure}, e.g. {bad}; pass empty='zero', 'skip', 'one' or 'nan' to handle "
                "them"
            )
        keep = None
        if defn.text:
            text_values[name] = list(v)
            v = np.full(len(query_ids), np.nan)
        elif averaged and empty != "zero" and mask.any():
            v = v.copy()
            v[mask] = _EMPTY_VALUE[empty]
            if empty in ("skip", "nan"):
                keep = ~mask
        values[name] = v
        aggregates[name] = aggregate(v, "none" if defn.text else defn.aggregate, keep,
                                     per_query.weights.get(measure))
    return Result(
        names=plan.names,
        measures=plan.measure_of(),
        query_ids=query_ids,
        query_values=values,
        aggregates=aggregates,
        conventions=dict(plan.conventions),
        run_name=run_name,
        diagnostics=dict(per_query.diagnostics),
        text_values=text_values,
    )
