"""Item context: the beyond-accuracy tables as arrays over one item numbering, and the items
a run ranks, as the measure kernels read them.

:class:`ItemContext` numbers every item the tables name (the catalogue, the training
interactions, the features, the groups): ``universe`` holds their ids sorted, and each
per-item array (popularity, catalogue membership, feature row, group) is indexed by that
number. :class:`RankedItems` gives the number of each ranked document of one alignment
(-1: an item no table names). :class:`ItemCounts` is a mergeable tally of how often each
item was recommended, which catalogue-level measures (coverage, Gini, entropy) finish from:
adding the counts of any split of the queries gives the counts of the whole.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from .._base.errors import ParameterError
from .._base.lazy import polars as pl
from .._ingest.item_tables import Interactions, ItemCatalogue, ItemFeatures, ItemGroups

__all__ = ["TABLES", "ItemContext", "ItemCounts", "RankedItems"]

#: the context tables a measure may need, and how the caller gives each
TABLES: Mapping[str, str] = {
    "train": "the training interactions (train=...; on the command line --train)",
    "catalogue": "the item catalogue (items=..., or train=... whose items are then the "
                 "catalogue; on the command line --items or --train)",
    "features": "item features (item_features=...; on the command line --item-features)",
    "groups": "item groups (item_groups=..., items=... with a group column, or train=... "
              "to derive short head and long tail)",
    "propensity": "item propensities (items=... with a propensity column; on the command "
                  "line --items)",
}


def _sorted_ids(*series: pl.Series | None) -> np.ndarray:
    parts = [s.cast(pl.String) for s in series if s is not None and len(s)]
    if not parts:
        return np.zeros(0, dtype=object)
    joined = pl.concat(parts).unique().sort()
    return joined.to_numpy().astype(object)


@dataclass(frozen=True, eq=False)
class ItemContext:
    """The beyond-accuracy tables of one evaluation over one item numbering.

    Attributes
    ----------
    train, items, features, groups : the tables given (None where not).
    universe : every item id the tables name, sorted; an item's number is its index.
    catalogue : whether each item is in the catalogue: ``items`` when given, else the
        items of ``train``.
    users, rows : each item's distinct training users and training rows (0: cold).
    n_users, n_rows : distinct users and rows of the training interactions.
    feature_row : each item's row of ``features.matrix`` (-1: none).
    group : each item's group number in ``group_names`` (-1: none).
    propensity : each item's given propensity (NaN: none given).
    """

    train: Interactions | None = None
    items: ItemCatalogue | None = None
    features: ItemFeatures | None = None
    groups: ItemGroups | None = None
    universe: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=object))
    catalogue: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    users: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    rows: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    n_users: int = 0
    n_rows: int = 0
    feature_row: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    group: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    group_names: tuple[str, ...] = ()
    propensity: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.float64))
    _cache: dict[Any, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, train: Interactions | None = None, items: ItemCatalogue | None = None,
           features: ItemFeatures | None = None,
           groups: ItemGroups | None = None) -> ItemContext:
        """The context of these tables (any may be None)."""
        pop = train.popularity() if train is not None else None
        group_frame = groups.frame if groups is not None else (
            items.frame if items is not None and "group" in items.frame.columns else None)
        universe = _sorted_ids(
            items.item_ids if items is not None else None,
            pop["item_id"] if pop is not None else None,
            pl.Series(features.item_ids.tolist(), dtype=pl.String)
            if features is not None else None,
            group_frame["item_id"] if group_frame is not None else None)
        lookup = _Lookup(universe)
        n = universe.size
        users = np.zeros(n, dtype=np.int64)
        rows = np.zeros(n, dtype=np.int64)
        catalogue = np.zeros(n, dtype=bool)
        if pop is not None:
            at = lookup.codes(pop["item_id"])
            users[at] = pop["users"].to_numpy()
            rows[at] = pop["rows"].to_numpy()
        if items is not None:
            catalogue[lookup.codes(items.item_ids)] = True
        elif pop is not None:
            catalogue[rows > 0] = True
        feature_row = np.full(n, -1, dtype=np.int64)
        if features is not None:
            feature_row[lookup.codes(pl.Series(features.item_ids.tolist(),
                                               dtype=pl.String))] = np.arange(len(features))
        group = np.full(n, -1, dtype=np.int64)
        names: tuple[str, ...] = ()
        if group_frame is not None:
            names = tuple(sorted(group_frame["group"].unique().to_list()))
            codes = np.searchsorted(np.array(names, dtype=object),
                                    group_frame["group"].to_numpy().astype(object))
            group[lookup.codes(group_frame["item_id"])] = codes
        propensity = np.full(n, np.nan)
        if items is not None and "propensity" in items.frame.columns:
            propensity[lookup.codes(items.item_ids)] = items.frame["propensity"].to_numpy()
        context = cls(train, items, features, groups, universe, catalogue, users, rows,
                      train.n_users if train is not None else 0,
                      len(train) if train is not None else 0, feature_row, group, names,
                      propensity)
        context._cache["lookup"] = lookup
        return context

    @property
    def groups_given(self) -> bool:
        """Whether item groups were given (``item_groups``, or a catalogue group column)."""
        return bool(self.group_names)

    def has(self, table: str) -> bool:
        """Whether the context holds ``table`` (a key of :data:`TABLES`)."""
        if table == "train":
            return self.train is not None
        if table == "catalogue":
            return self.items is not None or self.train is not None
        if table == "features":
            return self.features is not None
        if table == "groups":
            return self.groups_given or self.train is not None
        if table == "propensity":
            return self.items is not None and "propensity" in self.items.frame.columns
        raise ParameterError(f"unknown context table {table!r}")

    def describe(self, table: str) -> str:
        """The table as a notice names it: what it is and where it came from."""
        if table == "features" and self.features is not None:
            return f"the item features ({self.features.source})"
        if table == "catalogue" and self.items is not None:
            return f"the item catalogue ({self.items.source})"
        if table in ("catalogue", "train") and self.train is not None:
            return f"the training interactions ({self.train.source})"
        return TABLES[table]

    def codes(self, item_ids: pl.Series) -> np.ndarray:
        """Each id's item number (int64; -1 where no table names the item)."""
        return self._lookup().codes(item_ids)

    def number_table(self, item_ids: pl.Series) -> np.ndarray | None:
        """For numeric ids in a small range from 0, the item number of each number up to
        the largest (``table[ids]`` codes them); else None."""
        return self._lookup().number_table(item_ids.to_numpy())

    def _lookup(self) -> _Lookup:
        lookup: _Lookup = self._cache.setdefault("lookup", _Lookup(self.universe))
        return lookup

    def memo(self, key: Any, build: Any) -> Any:
        """A value derived from the context alone (a popularity rank, a tail set), built
        once by ``build()`` and kept under ``key``."""
        if key not in self._cache:
            self._cache[key] = build()
        return self._cache[key]


class _Lookup:
    """Item id -> number, through a polars join (hashing, no Python loop per id)."""

    def __init__(self, universe: np.ndarray) -> None:
        self.frame = pl.DataFrame({"item_id": pl.Series(universe.tolist(), dtype=pl.String),
                                   "code": np.arange(universe.size, dtype=np.int64)})

    def codes(self, item_ids: pl.Series) -> np.ndarray:
        if item_ids.dtype.is_integer() and item_ids.len():
            values = item_ids.to_numpy()
            table = self.number_table(values)
            if table is not None:
                out: np.ndarray = table[values]
                return out
            # numbers over a wide range: each distinct one written out and looked up once
            distinct = item_ids.unique().sort()
            code = self.codes(distinct.cast(pl.String))
            return code[np.searchsorted(distinct.to_numpy(), values)]
        found = pl.DataFrame({"item_id": item_ids.cast(pl.String)}).join(
            self.frame, on="item_id", how="left", maintain_order="left")
        return found["code"].fill_null(-1).to_numpy().astype(np.int64)

    def number_table(self, values: np.ndarray) -> np.ndarray | None:
        """:meth:`ItemContext.number_table` of the numbers ``values`` (not empty): each
        distinct number written out and looked up once (a run repeats its items over many
        users)."""
        low, high = int(values.min()), int(values.max())
        if low < 0 or high > max(values.size, 1 << 16):
            return None
        # the distinct numbers marked in a table, not hashed (every number of a range much
        # smaller than the run: no pass to mark them)
        known = np.arange(high + 1)
        if high >= values.size >> 5:
            seen = np.zeros(high + 1, dtype=bool)
            seen[values] = True
            known = np.flatnonzero(seen)
        table = np.full(high + 1, -1, dtype=np.int64)
        table[known] = self.codes(pl.Series(known).cast(pl.String))
        return table


@dataclass(frozen=True, eq=False)
class RankedItems:
    """The items of one alignment's ranked documents.

    Attributes
    ----------
    context : the evaluation's :class:`ItemContext`.
    codes : gives the item number of each ranked document (:attr:`code`).
    doc_ids : gives the run's id of each ranked document (:attr:`doc_id`).
    judgments : gives every judgment of the alignment's queries, retrieved or not
        (:attr:`judged`; None: not at hand).
    numbers : the ranked documents' ids held as numbers, and the item number of each
        number (:meth:`ItemContext.number_table`; None: not at hand). Items are then
        counted by number, without :attr:`code`.
    """

    context: ItemContext
    codes: Callable[[], np.ndarray]
    doc_ids: Callable[[], pl.Series]
    judgments: Callable[[], tuple[np.ndarray, np.ndarray, np.ndarray]] | None = None
    numbers: tuple[np.ndarray, np.ndarray] | None = None

    @cached_property
    def code(self) -> np.ndarray:
        """The item number of each ranked document, parallel to the alignment's ranked
        arrays (-1: an item no table names); built on first use."""
        return self.codes()

    def tally(self, top: np.ndarray | None = None) -> tuple[np.ndarray, int]:
        """How often each item number is among the ranked documents (``top``: those it
        marks; None: all), and how many of them name no item."""
        size = self.context.universe.size
        if self.numbers is not None:  # counted by number: each number is one item
            values, table = self.numbers
            values = values if top is None else values[top]
            per = np.zeros(table.size, dtype=np.int64)
            for i in range(0, values.size, 1 << 20):  # no full-length temporary (as intp)
                per += np.bincount(values[i:i + (1 << 20)], minlength=table.size)
            found = np.flatnonzero(per)
            item = table[found]
            named = item >= 0
            out = np.zeros(size, dtype=np.int64)
            out[item[named]] = per[found[named]]
            return out, int(per[found[~named]].sum())
        code = self.code if top is None else self.code[top]
        if code.size == 0 or code.min() >= 0:  # every item named: no mask, no copy
            return np.bincount(code, minlength=size), 0
        named_codes = code[code >= 0]
        return np.bincount(named_codes, minlength=size), code.size - named_codes.size

    @cached_property
    def judged(self) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """Every judgment of the alignment's queries as the query number, the item number
        (-1: unknown) and the grade (None: not at hand); built on first use (only the
        popularity-fairness measures read it)."""
        return None if self.judgments is None else self.judgments()

    @cached_property
    def doc_id(self) -> pl.Series:
        """The run's id of each ranked document, as text (written out on first use: only
        unknown items and notices read it)."""
        return self.doc_ids()


@dataclass(frozen=True, eq=False)
class ItemCounts:
    """How often each item was recommended, over some queries: ``item_ids`` (sorted str)
    and ``counts`` (int64), and ``lists``, the number of queries counted. Adding two gives
    the counts over both sets of queries, so any split of the queries into blocks adds up
    to the whole.

    Examples
    --------
    >>> a = ItemCounts.of(np.array(["x", "y", "x"], dtype=object), lists=2)
    >>> (a + ItemCounts.of(np.array(["y"], dtype=object), lists=1)).to_json()
    {'item_ids': ['x', 'y'], 'counts': [2, 2], 'lists': 3}
    """

    item_ids: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=object))
    counts: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    lists: int = 0

    @classmethod
    def of(cls, recommended: np.ndarray | pl.Series, lists: int) -> ItemCounts:
        """The counts of the recommended item ids (one per recommendation)."""
        series = recommended if isinstance(recommended, pl.Series) else pl.Series(
            np.asarray(recommended, dtype=object).astype(str).tolist(), dtype=pl.String)
        return cls.of_counts(series, np.ones(series.len(), dtype=np.int64), lists)

    def __add__(self, other: ItemCounts) -> ItemCounts:
        return self.of_counts(np.concatenate([self.item_ids, other.item_ids]).tolist(),
                              np.concatenate([self.counts, other.counts]),
                              self.lists + other.lists)

    @classmethod
    def of_counts(cls, keys: list[str] | pl.Series, counts: np.ndarray,
                  lists: int) -> ItemCounts:
        """Counts given per key (a measure's own counters, e.g. a group's numerator)."""
        summed = pl.DataFrame({"item_id": pl.Series(keys).cast(pl.String),
                               "count": np.asarray(counts, dtype=np.int64)}).group_by(
            "item_id").agg(pl.col("count").sum()).sort("item_id")
        return cls(summed["item_id"].to_numpy().astype(object),
                   summed["count"].to_numpy().astype(np.int64), int(lists))

    @property
    def total(self) -> int:
        """The number of recommendations counted."""
        return int(self.counts.sum())

    def to_json(self) -> dict[str, Any]:
        return {"item_ids": [str(x) for x in self.item_ids],
                "counts": [int(c) for c in self.counts], "lists": self.lists}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ItemCounts:
        return cls(np.array(data["item_ids"], dtype=object),
                   np.array(data["counts"], dtype=np.int64), int(data["lists"]))
