"""Mergeable evaluation state: a :class:`Partial` per block of queries.

One query block of the local engine, one chunk of a larger-than-memory evaluation, one
Spark bucket or one accumulator update each yield a Partial; :func:`merge` combines any
number of them (associative, commutative) and :func:`~ranklens._pipeline.assemble.finish`
turns the merged one into aggregates and diagnostics, checking the policies once.

A Partial holds counts (judged, missing, ignored queries and examples of each), and for
each measure a :class:`Tally`: how many queries count, the exact sum of their terms
(:class:`~ranklens._pipeline.exact.ExactSum`), the sum of weights of a weighted mean, and
the queries without a relevant judgment. Where the blocks keep their per-query values
(``values``: the local engine, chunks), the merged values give trec_eval's own aggregate,
a left-to-right sum in query order, bit for bit; where they do not (Spark buckets), the
aggregate is the exact sum rounded once, the same for any split into blocks.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from .._base.errors import ParameterError
from .._model.items import ItemCounts
from .compute import PerQuery, relevance_level
from .context import add_unknown
from .exact import ExactSum, exact_sum
from .plan import Plan

__all__ = ["EXAMPLES", "GEO_FLOOR", "Ids", "Partial", "Tally", "empty_rankings_left_out",
           "merge", "partial_of", "policy_values"]

#: Query ids a Partial keeps of each kind it counts (the counts are always exact).
EXAMPLES = 100

GEO_FLOOR = 1e-5  # trec_eval's MIN_GEO_MEAN

# what each empty-query policy puts in place of a query without a relevant judgment
_EMPTY_VALUE = {"skip": math.nan, "nan": math.nan, "one": 1.0}


@dataclass(frozen=True)
class Ids:
    """A count of queries and the first :data:`EXAMPLES` of their ids (sorted)."""

    count: int = 0
    examples: tuple[str, ...] = ()

    @classmethod
    def of(cls, ids: Iterable[str]) -> Ids:
        listed = sorted(ids)
        return cls(len(listed), tuple(listed[:EXAMPLES]))

    def __add__(self, other: Ids) -> Ids:
        return Ids(self.count + other.count,
                   tuple(sorted(self.examples + other.examples)[:EXAMPLES]))

    def to_json(self) -> list[Any]:
        return [self.count, list(self.examples)]

    @classmethod
    def from_json(cls, data: list[Any]) -> Ids:
        return cls(int(data[0]), tuple(data[1]))


@dataclass(frozen=True)
class Tally:
    """One measure's aggregation state over a block: the queries that count, the exact sum
    of their terms (a geometric mean's are logarithms, a weighted mean's ``w v``), the sum
    of the weights (a weighted mean only) and the queries without a relevant judgment."""

    counted: int = 0
    total: ExactSum = field(default_factory=ExactSum)
    weight: ExactSum | None = None
    empty: Ids = field(default_factory=Ids)

    def __add__(self, other: Tally) -> Tally:
        weight = None if self.weight is None and other.weight is None else (
            (self.weight or ExactSum()) + (other.weight or ExactSum()))
        return Tally(self.counted + other.counted, self.total + other.total, weight,
                     self.empty + other.empty)

    def to_json(self) -> dict[str, Any]:
        return {"counted": self.counted, "total": self.total.to_json(),
                "weight": None if self.weight is None else self.weight.to_json(),
                "empty": self.empty.to_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tally:
        return cls(int(data["counted"]), ExactSum.from_json(data["total"]),
                   None if data["weight"] is None else ExactSum.from_json(data["weight"]),
                   Ids.from_json(data["empty"]))


@dataclass(frozen=True)
class Partial:
    """What a block of queries contributes to an evaluation.

    Attributes
    ----------
    judged : judged queries in the block.
    missing : judged queries absent from the run (scored or skipped by ``missing``).
    ignored : run queries without judgments.
    queries_ranked, queries_judged_ranked : queries that retrieved anything, and that
        retrieved a judged document (the "do the ids match?" notice reads them).
    tallies : each written measure's :class:`Tally` (None while ``values`` stands for
        them: they are derived only when a block without values is merged in).
    values : the block's per-query values, when it keeps them (see the module docstring).
    items : each written catalogue-level measure's count of recommended items (merged by
        addition, whether or not the block keeps its values).
    unknown : the recommendations naming items a table lacks, per table: how many, and
        some of the items.
    """

    judged: int = 0
    missing: Ids = field(default_factory=Ids)
    ignored: Ids = field(default_factory=Ids)
    queries_ranked: int = 0
    queries_judged_ranked: int = 0
    tallies: Mapping[str, Tally] | None = None
    values: PerQuery | None = None
    items: Mapping[str, ItemCounts] = field(default_factory=dict)
    unknown: Mapping[str, tuple[int, tuple[str, ...]]] = field(default_factory=dict)

    @property
    def retrieved(self) -> int:
        """Judged queries the run has (a ranking, possibly empty)."""
        return self.judged - self.missing.count

    def to_json(self) -> dict[str, Any]:
        """A JSON-safe form without ``values`` (what a Spark bucket sends the driver)."""
        if self.tallies is None:
            raise ParameterError("a Partial holding values is sent as its tallies: "
                                 "make it with partial_of(..., keep_values=False)")
        return {"judged": self.judged, "missing": self.missing.to_json(),
                "ignored": self.ignored.to_json(), "queries_ranked": self.queries_ranked,
                "queries_judged_ranked": self.queries_judged_ranked,
                "tallies": {name: t.to_json() for name, t in self.tallies.items()},
                "items": {name: c.to_json() for name, c in self.items.items()},
                "unknown": {table: [count, list(examples)]
                            for table, (count, examples) in self.unknown.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Partial:
        return cls(int(data["judged"]), Ids.from_json(data["missing"]),
                   Ids.from_json(data["ignored"]), int(data["queries_ranked"]),
                   int(data["queries_judged_ranked"]),
                   {name: Tally.from_json(t) for name, t in data["tallies"].items()},
                   items={name: ItemCounts.from_json(c)
                          for name, c in data.get("items", {}).items()},
                   unknown={table: (int(c), tuple(e))
                            for table, (c, e) in data.get("unknown", {}).items()})


def policy_values(plan: Plan, measure_index: int, per_query: PerQuery
                  ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
    """The values of the plan's ``measure_index``-th measure after the empty-query policy
    and the empty-ranking policy.

    Returns
    -------
    values : float64 per query (NaN for a text measure), the policy's value in place of a
        query without a relevant judgment (``empty`` "one", "skip" and "nan"), and NaN in
        place of a query given with an empty ranking under ``empty_ranking`` "nan" and
        "skip" (which wins over ``empty``).
    keep : the queries that count in the aggregate (None: all).
    empty : the queries without a relevant judgment at the measure's level (an averaged
        measure's; all False for the others).
    """
    measure = plan.measures[measure_index]
    defn = measure.definition
    v = per_query.values[measure]
    n = len(per_query.query_ids)
    averaged = defn.aggregate in ("mean", "gmean") and defn.facts.reads_judgments
    level = relevance_level(measure, plan.policies.rel)
    empty = (per_query.num_rel[level] == 0) if averaged else np.zeros(n, dtype=bool)
    if defn.text:
        return np.full(n, np.nan), None, empty
    keep = None
    if plan.empty not in ("zero", "error") and empty.any():
        v = v.copy()
        v[empty] = _EMPTY_VALUE[plan.empty]
        if plan.empty in ("skip", "nan"):
            keep = ~empty
    left_out = empty_rankings_left_out(plan, per_query)
    if left_out is not None:
        v = v.copy()
        v[left_out] = math.nan
        keep = ~left_out if keep is None else keep & ~left_out
    return v, keep, empty


def empty_rankings_left_out(plan: Plan, per_query: PerQuery) -> np.ndarray | None:
    """The queries given with an empty ranking that ``empty_ranking`` ("nan", "skip") leaves
    out of the aggregates, as a mask over ``per_query``'s queries (None: none)."""
    rankings = per_query.diagnostics.empty_rankings
    if plan.options.empty_ranking == "zero" or not rankings:
        return None
    return np.isin(per_query.query_ids, np.asarray(rankings, dtype=per_query.query_ids.dtype))


def _tally(plan: Plan, at: int, per_query: PerQuery) -> Tally:
    measure = plan.measures[at]
    defn = measure.definition
    values, keep, empty = policy_values(plan, at, per_query)
    query_ids = per_query.query_ids
    empties = Ids(int(empty.sum()), tuple(query_ids[empty][:EXAMPLES].tolist()))
    if defn.text or defn.aggregate in ("none", "catalogue"):
        return Tally(empty=empties)
    kept = values if keep is None else values[keep]
    weights = per_query.weights.get(measure)
    if weights is not None and defn.aggregate == "mean":
        w = weights if keep is None else weights[keep]
        nonzero = w != 0
        return Tally(int(nonzero.sum()), exact_sum(kept[nonzero] * w[nonzero]),
                     exact_sum(w[nonzero]), empties)
    if defn.aggregate == "gmean":
        kept = np.log(np.maximum(kept, GEO_FLOOR))
    return Tally(int(kept.size), exact_sum(kept), None, empties)


def tallies_of(plan: Plan, per_query: PerQuery) -> dict[str, Tally]:
    """Each written measure's :class:`Tally` over ``per_query``."""
    return {name: _tally(plan, at, per_query) for at, name in enumerate(plan.names)}


def partial_of(plan: Plan, per_query: PerQuery, *, keep_values: bool = True) -> Partial:
    """The :class:`Partial` of one computed block.

    ``keep_values``: keep the per-query values (the aggregates are then trec_eval's
    left-to-right sums); otherwise only the tallies (exact sums), as a Spark bucket sends.
    """
    d = per_query.diagnostics
    missing = d.missing_queries
    partial = Partial(
        judged=len(per_query.query_ids) + (len(missing) if plan.policies.missing == "skip"
                                           else 0),
        missing=Ids.of(missing), ignored=Ids.of(d.ignored_queries),
        queries_ranked=d.queries_ranked or 0,
        queries_judged_ranked=d.queries_judged_ranked or 0,
        items={name: per_query.items[m] for name, m in zip(plan.names, plan.measures,
                                                            strict=True)
               if m in per_query.items},
        unknown=dict(per_query.unknown))
    if keep_values:
        return replace(partial, values=per_query)
    return replace(partial, tallies=tallies_of(plan, per_query))


def merge(plan: Plan, parts: Sequence[Partial]) -> Partial:
    """One Partial of ``parts`` (blocks of disjoint queries), in any order.

    The merged Partial keeps per-query values when every part does; otherwise it holds
    tallies, derived from the values of the parts that kept them.

    Raises
    ------
    ParameterError
        No parts, or two parts holding values of one query.
    """
    if not parts:
        raise ParameterError("nothing to merge: no partials were given")
    if len(parts) == 1:
        return parts[0]
    counts = Partial(
        judged=sum(p.judged for p in parts),
        missing=sum((p.missing for p in parts), Ids()),
        ignored=sum((p.ignored for p in parts), Ids()),
        queries_ranked=sum(p.queries_ranked for p in parts),
        queries_judged_ranked=sum(p.queries_judged_ranked for p in parts),
        items={name: sum((p.items.get(name, ItemCounts()) for p in parts), ItemCounts())
               for name in dict.fromkeys(n for p in parts for n in p.items)},
        unknown=add_unknown(p.unknown for p in parts))
    if all(p.values is not None for p in parts):
        return replace(counts, values=PerQuery.concat([p.values for p in parts
                                                       if p.values is not None]))
    tallies: dict[str, Tally] = {name: Tally() for name in plan.names}
    for p in parts:
        own = p.tallies if p.tallies is not None else tallies_of(
            plan, p.values)  # type: ignore[arg-type]
        for name in plan.names:  # a block without judgments may hold no tally at all
            tallies[name] = tallies[name] + own.get(name, Tally())
    return replace(counts, tallies=tallies)
