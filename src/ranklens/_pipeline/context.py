"""The beyond-accuracy seam of compute: the measures that read the item context.

A per-user measure (novelty, popularity, diversity) is an ordinary per-query value whose
kernel also reads the :class:`~ranklens._model.items.RankedItems` of the alignment; a
catalogue-level one (coverage, Gini, entropy) gives each block's
:class:`~ranklens._model.items.ItemCounts`, which merge by addition and are finished once
(:func:`finish_catalogue`). Nothing here reads a file: the caller loads the tables and
builds the :class:`~ranklens._model.items.ItemContext`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import cast

import numpy as np

from .._base.errors import MeasureError, ParameterError
from .._base.lazy import polars as pl
from .._ingest.io._items import load_interactions, load_item_features, load_item_groups, load_items
from .._ingest.tables import Qrels, Run
from .._measures import Measure, _ties
from .._measures._registry import Table
from .._model.align import align
from .._model.aligned import Aligned
from .._model.items import TABLES, ItemContext, ItemCounts, RankedItems
from .._model.policies import Policies, Ties

__all__ = ["EXAMPLES", "catalogue_value", "check_context", "context_alignment",
           "load_context", "ranked_items", "reads_context", "unknown_items"]

#: item ids a notice of unknown items keeps as examples
EXAMPLES = 20


def load_context(train: object = None, items: object = None, item_features: object = None,
                 item_groups: object = None, measures: Iterable[Measure] | None = None
                 ) -> ItemContext | None:
    """The item context of the tables given, each in any form ranklens reads (None when
    none is given). Given the ``measures``, the training interactions are read only when
    one of them needs them (their popularity, the groups derived from it, or the
    catalogue when no ``items`` are given)."""
    if measures is not None and not any(
            t in ("train", "groups") or (t == "catalogue" and items is None)
            for m in measures for t in m.definition.items.tables(m)):
        train = None
    if train is None and items is None and item_features is None and item_groups is None:
        return None
    return ItemContext.of(
        None if train is None else load_interactions(train),
        None if items is None else load_items(items),
        None if item_features is None else load_item_features(item_features),
        None if item_groups is None else load_item_groups(item_groups))


def reads_context(measure: Measure) -> bool:
    """Whether ``measure`` reads the item context (its kernel or its item tally)."""
    defn = measure.definition
    return defn.items.context is not None or defn.items.tally is not None


def check_context(measures: Iterable[Measure], context: ItemContext | None) -> None:
    """MeasureError naming each measure whose tables are absent, and how to give them."""
    missing: dict[str, list[str]] = {}
    for m in measures:
        for table in m.definition.items.tables(m):
            if context is None or not context.has(table):
                missing.setdefault(table, []).append(str(m))
    if missing:
        raise MeasureError("; ".join(f"{', '.join(names)} need{'s' if len(names) == 1 else ''}"
                                     f" {TABLES[table]}" for table, names in missing.items()))
    train = None if context is None else context.train
    empty = [str(m) for m in measures if "train" in m.definition.items.tables(m)]
    if train is not None and not len(train) and empty:
        # a popularity over no interactions would give every item the same value, silently
        reads = "reads" if len(empty) == 1 else "read"
        raise MeasureError(f"{', '.join(empty)} {reads} the item popularity of the training "
                           f"interactions, and {train.source} holds none: give at least one "
                           "interaction (train=..., --train)")


def ranked_items(aligned: Aligned, run: Run, context: ItemContext,
                 qrels: Qrels | None = None) -> RankedItems:
    """The item number and run doc id of each ranked document of ``aligned`` (and, given
    ``qrels``, the item of every judgment of its queries)."""
    def rows() -> np.ndarray:
        return aligned.from_source(np.arange(len(run)))

    def judged() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        assert qrels is not None
        numbers = pl.DataFrame({"query_id": pl.Series(aligned.query_ids.tolist(),
                                                      dtype=pl.String),
                                "q": np.arange(aligned.nq, dtype=np.int64)})
        rows_of = qrels.frame.join(numbers, on="query_id", how="inner",
                                   maintain_order="left")
        return (rows_of["q"].to_numpy(), context.codes(rows_of["doc_id"]),
                rows_of["relevance"].to_numpy())
    held = run.held_doc_id
    table = context.number_table(held) if held.dtype.is_integer() and held.len() else None
    numbers = None if table is None else (aligned.from_source(held.to_numpy()), table)

    def codes() -> np.ndarray:
        # numbers in a small range: ranked, then coded by the table (or counted by number,
        # never coded); other numbers: coded in the run's order, then ranked
        if numbers is not None:
            out: np.ndarray = numbers[1][numbers[0]]
            return out
        if held.dtype.is_integer():
            return aligned.from_source(context.codes(held))
        return context.codes(run.doc_values_at(rows()))
    return RankedItems(context, codes, lambda: run.doc_ids_at(rows()),
                       None if qrels is None else judged, numbers)


def context_alignment(measure: Measure, aligned: Aligned, policies: Policies,
                      realigned: dict[str, Aligned], qrels: Qrels, run: Run) -> Aligned:
    """The alignment ``measure`` reads: one order of each ranking (doc id or input order;
    a measure of the recommended items has no average over tied orders).

    Raises
    ------
    ParameterError
        The measure's tie policy is not docid or input.
    """
    order = _ties.effective_ties(measure, policies.ties)
    if order not in ("docid", "input"):
        raise ParameterError(
            f"the 'ties' option must be docid or input for {measure}, which reads the items "
            f"of one order of each ranking; got {order!r} (write {measure.name}(ties=docid)"
            f"{'' if measure.cutoff is None else '@' + format(measure.cutoff)} to keep the "
            "option for the others)")
    base = "input" if policies.ties == "input" else "docid"
    if order == base:
        return aligned
    if order not in realigned:
        realigned[order] = align(qrels, run, replace(policies, ties=cast(Ties, order)),
                                 block=True)[0]
    return realigned[order]


def unknown_items(measures: Iterable[Measure], aligned: Aligned,
                  ranked: RankedItems) -> dict[str, tuple[int, tuple[str, ...]]]:
    """The recommendations the measures read whose item a table they need lacks: for each
    such table (described as notices name it), how many (within each measure's cutoff)
    and some of the items (sorted)."""
    context = ranked.context
    deepest: dict[Table, float] = {}
    for m in measures:
        for table in m.definition.items.tables(m):
            if table in ("catalogue", "features"):
                depth = math.inf if m.cutoff is None else float(m.cutoff)
                deepest[table] = max(deepest.get(table, 0.0), depth)
    out: dict[str, tuple[int, tuple[str, ...]]] = {}
    if not deepest:
        return out
    longest = int(aligned.n_ret.max(initial=0))
    for table, depth in deepest.items():
        has = context.catalogue if table == "catalogue" else context.feature_row >= 0
        # the extra last slot answers for code -1 (an item no table names)
        lacking = np.append(~has, True)
        if ranked.numbers is not None and not lacking[ranked.numbers[1]].any():
            continue  # no number names an item the table lacks
        absent = lacking[ranked.code]  # one gather
        if depth < longest:
            absent &= aligned.rank <= depth
        count = int(absent.sum())
        if count:
            examples = ranked.doc_id.filter(pl.Series(absent)).unique().sort().head(EXAMPLES)
            out[context.describe(table)] = (count, tuple(examples.to_list()))
    return out


def add_unknown(parts: Iterable[Mapping[str, tuple[int, tuple[str, ...]]]]
                ) -> dict[str, tuple[int, tuple[str, ...]]]:
    """The unknown-item counts of several blocks, added (examples: the first, sorted)."""
    out: dict[str, tuple[int, tuple[str, ...]]] = {}
    for part in parts:
        for table, (count, examples) in part.items():
            before = out.get(table, (0, ()))
            merged = tuple(sorted(set(before[1]) | set(examples))[:EXAMPLES])
            out[table] = (before[0] + count, merged)
    return out


def unknown_notices(unknown: Mapping[str, tuple[int, tuple[str, ...]]], source: str
                    ) -> list[str]:
    """A warning per table some recommended items are absent from."""
    out = []
    for table, (count, examples) in sorted(unknown.items()):
        what = ("they have no features: the pairs holding them are left out of the "
                "similarities" if "features" in table else
                "they count as never interacted with (popularity 0) and outside the "
                "catalogue")
        out.append(f"{count} recommendations of the run ({source}) name items absent from "
                   f"{table}, e.g. {list(examples[:5])}: {what}")
    return out


def catalogue_value(measure: Measure, counts: ItemCounts, context: ItemContext | None
                    ) -> float:
    """The catalogue-level value of ``measure`` from the merged counts."""
    finish = measure.definition.items.finish
    if finish is None:
        raise ParameterError(f"{measure} is not finished from item counts")
    return float(finish(counts, measure, context or ItemContext()))
