"""The tables beyond-accuracy measures read beside the judgments and the run.

* :class:`Interactions`: the training interactions, ``user_id, item_id, weight``. They give
  each item's popularity (distinct users and rows: RecTools counts users for novelty and
  rows for its average recommendation popularity) and each user's history.
* :class:`ItemCatalogue`: the items that could be recommended, ``item_id`` and an optional
  ``group`` and ``propensity``.
* :class:`ItemFeatures`: one vector per item, dense (embeddings, compared by cosine) or
  binary (sets of categorical features, compared by Jaccard).
* :class:`ItemGroups`: a group per item (short head / long tail, or any column), given or
  derived from popularity by a stated rule.

Ids are strings, as in :class:`~ranklens.Qrels` and :class:`~ranklens.Run`; numbers are
float64. Every table is checked where it is made; ``ranklens.load_interactions`` and its
siblings read every input form into them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from .._base.errors import InputError, ParameterError
from .._base.lazy import polars as pl
from .._base.validate import Choice, Number, check
from .columns import _at, ids, no_nulls, numeric
from .tables import Derived, Slot

__all__ = ["POPULARITY", "Interactions", "ItemCatalogue", "ItemFeatures", "ItemGroups",
           "head_by_share"]

#: where an :class:`Interactions` table keeps its item popularity (:meth:`popularity`)
POPULARITY: Slot[pl.DataFrame] = Slot("item popularity")


#: where an :class:`Interactions` table keeps its number of distinct users
USERS: Slot[int] = Slot("distinct users")


def _popularity(frame: pl.DataFrame) -> pl.DataFrame:
    """Each item's distinct users, rows and summed weight."""
    return frame.group_by("item_id").agg(pl.col("user_id").n_unique().cast(pl.Int64).alias(
        "users"), pl.len().cast(pl.Int64).alias("rows"), pl.col("weight").sum().alias("weight"))


def _frame(frame: object, what: str, source: str, names: tuple[str, ...],
           table: str) -> pl.DataFrame:
    """``frame`` itself, once known to be a polars DataFrame holding the columns ``names``."""
    if not isinstance(frame, pl.DataFrame):
        raise ParameterError(f"{what} needs a polars DataFrame; got {type(frame).__name__}")
    absent = [n for n in names if n not in frame.columns]
    if absent:
        raise InputError(f"{table} needs the column(s) {', '.join(map(repr, absent))}; found "
                         f"columns {frame.columns}", source=source)
    return frame


def _item_ids(frame: object, what: str, source: str, names: tuple[str, ...],
              table: str) -> pl.DataFrame:
    """The id columns ``names`` (and a ``group`` column, if any) of an item table: ids,
    none missing, each item once."""
    frame = _frame(frame, what, source, names, table)
    out = pl.DataFrame([ids(frame[c], source) for c in dict.fromkeys((*names, "group"))
                        if c in frame.columns])
    no_nulls(out, source)
    _unique(out["item_id"], table, source)
    return out


def _unique(item_ids: pl.Series, what: str, source: str) -> None:
    """InputError naming the first repeated item id (its second row)."""
    repeated = item_ids.is_duplicated()
    if repeated.any():
        first = item_ids.filter(repeated)[0]
        row = int((item_ids == first).arg_true()[1])
        raise _at(row, f"item {first!r} is listed twice in {what}; expected each item once",
                  source)


@dataclass(frozen=True, eq=False)
class Interactions:
    """Training interactions: columns ``user_id``, ``item_id`` (str) and ``weight`` (f64).

    A user may interact with an item on several rows (plays, clicks): popularity counts
    both the distinct users and the rows. Build one with ``ranklens.load_interactions``
    (any input form), or from a polars frame with those columns (``weight`` optional, 1 by
    default).

    Examples
    --------
    >>> import polars as pl
    >>> train = Interactions(pl.DataFrame({"user_id": ["u1", "u1", "u2"],
    ...                                    "item_id": ["a", "a", "b"]}))
    >>> train.popularity().sort("item_id").rows()
    [('a', 1, 2, 2.0), ('b', 1, 1, 1.0)]
    >>> train.n_users
    2
    """

    frame: pl.DataFrame
    source: str = "<train>"
    _derived: Derived = field(default_factory=Derived, init=False, repr=False,
                              compare=False)

    def __post_init__(self) -> None:
        frame = _frame(self.frame, "Interactions", self.source, ("user_id", "item_id"),
                       "the training interactions")
        if "weight" not in frame.columns:
            frame = frame.with_columns(pl.lit(1.0, dtype=pl.Float64).alias("weight"))
        given = frame
        frame = pl.DataFrame([ids(frame["user_id"], self.source),
                              ids(frame["item_id"], self.source),
                              numeric(frame["weight"], "weight", self.source)])
        no_nulls(frame, self.source)
        bad = ~frame["weight"].is_finite()
        if bad.any():
            row = int(bad.arg_true()[0])
            raise _at(row, f"expected a finite weight, got {frame['weight'][row]}", self.source)
        object.__setattr__(self, "frame", frame)
        if given["user_id"].dtype.is_integer() and given["item_id"].dtype.is_integer():
            # integers group and count faster than their text: only the per-item result is cast
            numbers = frame.with_columns(given["user_id"], given["item_id"])
            self._derived.get(USERS, lambda: int(numbers["user_id"].n_unique()))
            self._derived.get(POPULARITY, lambda: _popularity(numbers).with_columns(
                pl.col("item_id").cast(pl.String)))

    def __len__(self) -> int:
        return self.frame.height

    @property
    def n_users(self) -> int:
        """The number of distinct users (RecTools' ``n_users`` of novelty)."""
        return self._derived.get(USERS, lambda: int(self.frame["user_id"].n_unique()))

    def popularity(self) -> pl.DataFrame:
        """Each item's popularity: columns ``item_id``, ``users`` (distinct users),
        ``rows`` (interactions) and ``weight`` (their summed weight), built once."""
        return self._derived.get(POPULARITY, lambda: _popularity(self.frame))

    def __repr__(self) -> str:
        return (f"Interactions({self.source!r}, {self.n_users} users, "
                f"{self.frame['item_id'].n_unique()} items, {self.frame.height} rows)")


@dataclass(frozen=True, eq=False)
class ItemCatalogue:
    """The items that could be recommended: column ``item_id`` (str, each once), an
    optional ``group`` (str) and an optional ``propensity`` (float64 in (0, 1]: the given
    propensities PSP@k and its siblings read with ``propensity=given``).

    Examples
    --------
    >>> import polars as pl
    >>> ItemCatalogue(pl.DataFrame({"item_id": [1, 2, 3]})).item_ids.to_list()
    ['1', '2', '3']
    """

    frame: pl.DataFrame
    source: str = "<items>"

    def __post_init__(self) -> None:
        out = _item_ids(self.frame, "ItemCatalogue", self.source, ("item_id",),
                        "the item catalogue")
        if "propensity" in self.frame.columns:
            p = numeric(self.frame["propensity"], "propensity", self.source)
            bad = (p.is_null() | p.is_nan() | (p <= 0) | (p > 1)).arg_true()
            if len(bad):
                row = int(bad[0])
                raise _at(row, f"item {out['item_id'][row]!r} has propensity {p[row]!r}; "
                          "expected a number in (0, 1]", self.source)
            out = out.with_columns(p)
        object.__setattr__(self, "frame", out)

    @property
    def item_ids(self) -> pl.Series:
        return self.frame["item_id"]

    def __len__(self) -> int:
        return self.frame.height

    def __repr__(self) -> str:
        return f"ItemCatalogue({self.source!r}, {self.frame.height} items)"


@dataclass(frozen=True, eq=False)
class ItemFeatures:
    """One feature vector per item: ``item_ids`` (str, each once) and ``matrix``
    (float64, one row per item).

    ``kind`` says how two items compare: ``"dense"`` vectors (embeddings) by cosine,
    ``"binary"`` ones (a set of categorical features, one column per feature value) by
    Jaccard. ``names`` names the binary columns (the feature values), when known.

    Examples
    --------
    >>> import numpy as np
    >>> f = ItemFeatures(np.array(["a", "b"], dtype=object), np.eye(2))
    >>> f.kind, f.matrix.shape
    ('dense', (2, 2))
    """

    item_ids: np.ndarray
    matrix: np.ndarray
    kind: Literal["dense", "binary"] = "dense"
    source: str = "<item features>"
    names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        check("kind", self.kind, Choice(("dense", "binary")))
        item_ids = np.asarray(self.item_ids)
        matrix = np.asarray(self.matrix, dtype=np.float64)
        if matrix.ndim != 2:
            raise InputError(f"expected one feature vector per item (a 2-d matrix), got "
                             f"{matrix.ndim} dimension(s)", source=self.source)
        if item_ids.ndim != 1 or item_ids.size != matrix.shape[0]:
            raise InputError(f"expected one item id per feature row: {item_ids.size} ids for "
                             f"{matrix.shape[0]} rows", source=self.source)
        if matrix.shape[1] == 0 and matrix.shape[0]:
            raise InputError("expected at least one feature per item, got vectors of length "
                             "0: give each item a nonempty vector, or leave item_features "
                             "out", source=self.source)
        as_ids = ids(pl.Series("item_id", item_ids.tolist()), self.source)
        no_nulls(pl.DataFrame([as_ids]), self.source)
        _unique(as_ids, "the item features", self.source)
        bad = ~np.isfinite(matrix)
        if bad.any():
            row, col = (int(x) for x in np.argwhere(bad)[0])
            raise _at(row, f"expected finite features, got {matrix[row, col]} in column {col} "
                      f"(item {as_ids[row]!r})", self.source)
        if self.kind == "binary" and not np.isin(matrix, (0.0, 1.0)).all():
            row = int(np.argwhere(~np.isin(matrix, (0.0, 1.0)))[0][0])
            raise _at(row, f"binary features must be 0 or 1 (item {as_ids[row]!r})", self.source)
        object.__setattr__(self, "item_ids", as_ids.to_numpy().astype(object))
        matrix = np.ascontiguousarray(matrix)
        matrix.flags.writeable = False
        object.__setattr__(self, "matrix", matrix)

    def __len__(self) -> int:
        return int(self.matrix.shape[0])

    def __repr__(self) -> str:
        return (f"ItemFeatures({self.source!r}, {self.matrix.shape[0]} items, "
                f"{self.matrix.shape[1]} {self.kind} features)")


@dataclass(frozen=True, eq=False)
class ItemGroups:
    """A group per item: columns ``item_id`` (str, each once) and ``group`` (str), and
    ``rule``, how the groups were made (``"given"``, or the popularity rule).

    Items without a group belong to none: a measure of one group does not count them.
    :meth:`from_popularity` derives short head and long tail from training interactions.

    Examples
    --------
    >>> import polars as pl
    >>> g = ItemGroups(pl.DataFrame({"item_id": ["a", "b"], "group": ["head", "tail"]}))
    >>> g.groups
    ('head', 'tail')
    """

    frame: pl.DataFrame
    source: str = "<item groups>"
    rule: str = "given"

    def __post_init__(self) -> None:
        object.__setattr__(self, "frame", _item_ids(self.frame, "ItemGroups", self.source,
                                                    ("item_id", "group"), "the item groups"))

    @property
    def groups(self) -> tuple[str, ...]:
        """The distinct groups, sorted."""
        return tuple(sorted(self.frame["group"].unique().to_list()))

    @classmethod
    def from_popularity(cls, train: Interactions, *, head_share: float = 0.2,
                        by: Literal["rows", "users"] = "rows") -> ItemGroups:
        """Short head and long tail from training interactions.

        The short head is the fewest most popular items that together hold at least
        ``head_share`` of the interactions (counted by ``by``: rows or distinct users);
        every other item of the interactions is the long tail (popularity ties broken by
        item id, ascending, so the split is deterministic). This is the rule of
        Abdollahpouri et al. (2019), which Elliot's APLT / ACLT follow with 0.2.

        Examples
        --------
        >>> import polars as pl
        >>> train = Interactions(pl.DataFrame({"user_id": list("uuuuvw"),
        ...                                    "item_id": list("aaabbc")}))
        >>> g = ItemGroups.from_popularity(train, head_share=0.5)
        >>> sorted(g.frame.rows())
        [('a', 'head'), ('b', 'tail'), ('c', 'tail')]
        """
        check("head_share", head_share, Number(0, 1, open_low=True))
        check("by", by, Choice(("rows", "users")))
        pop = train.popularity()
        head = head_by_share(pop["item_id"].to_numpy().astype(object),
                             pop[by].to_numpy().astype(np.float64), float(head_share))
        frame = pl.DataFrame({"item_id": pop["item_id"],
                              "group": np.where(head, "head", "tail")})
        return cls(frame, train.source,
                   rule=f"short head: most popular items holding {head_share:g} of the "
                        f"training {by}")

    def __len__(self) -> int:
        return self.frame.height

    def __repr__(self) -> str:
        return f"ItemGroups({self.source!r}, {self.frame.height} items, {self.groups})"


def head_by_share(item_ids: np.ndarray, popularity: np.ndarray, share: float) -> np.ndarray:
    """Whether each item is in the short head: the fewest most popular items (ties by item
    id ascending) whose popularity sums to at least ``share`` of the total."""
    order = np.lexsort((item_ids.astype(str), -popularity))
    total = float(popularity.sum())
    before = np.concatenate(([0.0], np.cumsum(popularity[order])[:-1]))
    head = np.zeros(item_ids.size, dtype=bool)
    # an item is in the head while the items before it hold less than the share
    head[order] = before < share * total
    return head
