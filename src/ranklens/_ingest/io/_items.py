"""Readers of the beyond-accuracy tables: training interactions, the item catalogue, item
features and item groups, from every form ranklens reads.

Each ``load_*`` takes the table itself, a file (CSV, TSV, Parquet, Arrow, JSON Lines by
extension; any other name is whitespace-separated text, ``#`` comments allowed), a pandas,
polars or Arrow frame, a mapping, or arrays, and returns the checked table. A problem in a
file names its line; in a frame, its row.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, Literal, TypeVar

import numpy as np

from ..._base.errors import InputError
from ..._base.lazy import polars as pl
from ..._base.validate import Choice, check
from ..columns import _at, ids, no_nulls, numeric
from ..item_tables import Interactions, ItemCatalogue, ItemFeatures, ItemGroups
from ._frames import find_column, read_frame, require_column
from ._lines import at_lines, check_text, data_lines, located, strict_float
from ._load import _columnar, at_file_row
from .trec.files import read_bytes

__all__ = ["load_interactions", "load_item_features", "load_item_groups", "load_items"]

_T = TypeVar("_T")

#: accepted column names, canonical name first
COLUMNS: dict[str, tuple[str, ...]] = {
    "user_id": ("user_id", "user", "userid", "query_id", "qid"),
    "item_id": ("item_id", "item", "itemid", "doc_id", "docid", "id"),
    "weight": ("weight", "rating", "count", "value", "score"),
    "group": ("group", "item_group", "category", "segment"),
    "feature": ("feature", "feature_value", "tag", "genre"),
    "propensity": ("propensity", "p"),
}


def _rename(frame: pl.DataFrame, wanted: Sequence[str], optional: Sequence[str],
            what: str, source: str) -> pl.DataFrame:
    """``frame`` with the columns named by any alias renamed to their canonical names;
    InputError naming the columns found when a wanted one is absent."""
    renames: dict[str, str] = {}
    for key in (*wanted, *optional):
        found = (require_column(frame.columns, key, source, COLUMNS, f"{what} needs")
                 if key in wanted else find_column(frame.columns, COLUMNS[key]))
        if found is not None and found not in renames:
            renames[found] = key
    return frame.select([pl.col(old).alias(new) for old, new in renames.items()])


def _renamed(table: Callable[[pl.DataFrame, str], _T], wanted: Sequence[str],
             optional: Sequence[str], what: str) -> Callable[[pl.DataFrame, str], _T]:
    """How :func:`_read` builds a table whose columns are found by their aliases."""
    return lambda frame, source: table(_rename(frame, wanted, optional, what, source), source)


def _path(given: Any) -> str | None:
    return os.fspath(given) if isinstance(given, (str, os.PathLike)) else None


def _from_file(path: str, fields: tuple[int, int | None], layout: str,
               names: Sequence[str]) -> tuple[pl.DataFrame, list[int]]:
    """A whitespace-separated text file as a frame of text columns ``names`` (the later
    ones null where a line has fewer fields) and the line of each row; InputError naming a
    line with a wrong count."""
    data = read_bytes(path)
    check_text(data, path, f"lines of {layout}")
    numbered = list(data_lines(data, path, fields, layout))
    columns = {name: [r[i] if i < len(r) else None for _, r in numbered]
               for i, name in enumerate(names)}
    frame = pl.DataFrame(columns, schema=dict.fromkeys(names, pl.String))
    # optional trailing fields: a column no line gives is dropped; a line without a
    # weight weighs 1 (the layout "user item [weight]" says so)
    frame = frame.select([c for c in names if frame[c].null_count() < frame.height])
    if "weight" in frame.columns:
        frame = frame.with_columns(pl.col("weight").fill_null("1"))
    return frame, [n for n, _ in numbered]


def _read(given: Any, what: str, build: Callable[[pl.DataFrame, str], _T],
          text: tuple[tuple[int, int | None], str, Sequence[str]]) -> _T:
    """A table from a path or a frame: columnar files by extension, other files as
    whitespace-separated text (``text``: field counts, layout, column names); errors in a
    file's rows name its line."""
    path = _path(given)
    if path is not None:
        if not os.path.exists(path):
            raise InputError(f"no such file (expected {what})", source=path)
        frame = _columnar(path)
        if frame is not None:
            return located(partial(build, frame, path), partial(at_file_row, path))
        table, lines = _from_file(path, *text)
        return located(partial(build, table, path), at_lines(path, lines))
    return build(read_frame(given, what), f"<{type(given).__module__.split('.')[0]} frame>")


def load_interactions(train: Any) -> Interactions:
    """Training interactions from any input form.

    Parameters
    ----------
    train : Interactions, path, frame, mapping or arrays
        A file of ``user item [weight]`` lines (whitespace-separated text) or a CSV, TSV,
        Parquet, Arrow or JSON Lines file with ``user_id`` and ``item_id`` columns (or
        ``user``/``item``, ``query_id``/``doc_id``; ``weight`` or ``rating`` optional); a
        pandas, polars or Arrow frame with those columns; ``{user: [item, ...]}`` or
        ``{user: {item: weight}}``; or ``(users, items)`` / ``(users, items, weights)``
        arrays.

    Returns
    -------
    Interactions

    Raises
    ------
    InputError
        The input cannot be read, a column is absent, an id is missing, or a weight is not
        a finite number (naming the file and line, or the row).

    Examples
    --------
    >>> load_interactions({"u1": ["a", "b"], "u2": ["a"]}).popularity().sort(
    ...     "item_id")["users"].to_list()
    [2, 1]
    """
    if isinstance(train, Interactions):
        return train
    if isinstance(train, Mapping):
        return _interactions_from_mapping(train)
    if isinstance(train, tuple) and len(train) in (2, 3) and _path(train) is None:
        names = ("user_id", "item_id", "weight")[:len(train)]
        lengths = {len(np.asarray(a)) for a in train}
        if len(lengths) != 1:
            raise InputError(f"expected arrays of one length (users, items[, weights]); got "
                             f"lengths {[len(np.asarray(a)) for a in train]}",
                             source="<train arrays>")
        return Interactions(pl.DataFrame({n: np.asarray(a).tolist()
                                          for n, a in zip(names, train, strict=True)}),
                            "<train arrays>")

    return _read(train, "training interactions",
                 _renamed(Interactions, ("user_id", "item_id"), ("weight",), "the training "
                          "interactions"),
                 ((2, 3), "user item [weight]", ("user_id", "item_id", "weight")))


def _interactions_from_mapping(train: Mapping[Any, Any]) -> Interactions:
    users: list[Any] = []
    items: list[Any] = []
    weights: list[Any] = []
    for user, value in train.items():
        if isinstance(value, Mapping):
            users += [user] * len(value)
            items += list(value)
            weights += list(value.values())
        elif isinstance(value, (list, tuple, set, frozenset, np.ndarray)):
            listed = sorted(value) if isinstance(value, (set, frozenset)) else list(value)
            users += [user] * len(listed)
            items += listed
            weights += [1.0] * len(listed)
        else:
            raise InputError(f"user {user!r}: expected a list of items or an {{item: "
                             f"weight}} mapping, got {type(value).__name__}",
                             source="<train dict>")
    frame = pl.DataFrame({"user_id": pl.Series(users, dtype=None, strict=False),
                          "item_id": pl.Series(items, dtype=None, strict=False),
                          "weight": pl.Series(weights, dtype=None, strict=False)})
    return Interactions(frame, "<train dict>")


def _grouped_frame(groups: Mapping[Any, Any]) -> pl.DataFrame:
    """``{item: group}`` as a frame of ``item_id`` and ``group`` columns."""
    return pl.DataFrame({"item_id": pl.Series(list(groups), strict=False),
                         "group": pl.Series(list(groups.values()), strict=False)})


def load_items(items: Any) -> ItemCatalogue:
    """The item catalogue from any input form.

    Parameters
    ----------
    items : ItemCatalogue, path, frame, mapping or ids
        A file of ``item [group]`` lines or a columnar file with an ``item_id`` column (and
        optionally ``group`` and ``propensity``); a frame with those columns;
        ``{item: group}``; or a list or array of item ids.

    Returns
    -------
    ItemCatalogue

    Raises
    ------
    InputError
        The input cannot be read, an id is missing, or an item is listed twice.

    Examples
    --------
    >>> len(load_items(["a", "b", "c"]))
    3
    """
    if isinstance(items, ItemCatalogue):
        return items
    if isinstance(items, Mapping):
        return ItemCatalogue(_grouped_frame(items), "<items dict>")
    if isinstance(items, (list, np.ndarray, set, frozenset, pl.Series)):
        listed = sorted(items) if isinstance(items, (set, frozenset)) else list(items)
        return ItemCatalogue(pl.DataFrame({"item_id": pl.Series(listed, strict=False)}),
                             "<items list>")
    return _read(items, "an item catalogue",
                 _renamed(ItemCatalogue, ("item_id",), ("group", "propensity"),
                          "the item catalogue"), ((1, 2), "item [group]", ("item_id", "group")))


def load_item_groups(groups: Any) -> ItemGroups:
    """Item groups from any input form: an :class:`ItemGroups`, ``{item: group}``, a file
    of ``item group`` lines or a columnar file / frame with ``item_id`` and ``group``
    columns (an :class:`ItemCatalogue` with a group column gives its groups).

    Raises
    ------
    InputError
        The input cannot be read, a column is absent, or an item is listed twice.

    Examples
    --------
    >>> load_item_groups({"a": "head", "b": "tail"}).groups
    ('head', 'tail')
    """
    if isinstance(groups, ItemGroups):
        return groups
    if isinstance(groups, ItemCatalogue):
        if "group" not in groups.frame.columns:
            raise InputError("the item catalogue has no group column", source=groups.source)
        return ItemGroups(groups.frame, groups.source)
    if isinstance(groups, Mapping):
        return ItemGroups(_grouped_frame(groups), "<groups dict>")
    return _read(groups, "item groups", _renamed(ItemGroups, ("item_id", "group"), (),
                                                 "the item groups"),
                 ((2, 2), "item group", ("item_id", "group")))


def load_item_features(features: Any, *,
                       kind: Literal["auto", "dense", "binary"] = "auto") -> ItemFeatures:
    """Item features from any input form.

    Parameters
    ----------
    features : ItemFeatures, path, frame, mapping or (ids, matrix)
        Dense vectors (embeddings): ``(item_ids, matrix)``, ``{item: vector}``, or a file
        or frame with an ``item_id`` column and one numeric column per dimension (or one
        list column). Binary (categorical) features: ``{item: {feature, ...}}`` or a long
        file or frame of ``item_id, feature`` pairs (text files: ``item feature`` lines),
        each distinct feature value one column.
    kind : {"auto", "dense", "binary"}
        How items compare: by cosine (dense) or Jaccard (binary). ``auto`` takes binary for
        sets and ``item_id, feature`` pairs, dense for numbers.

    Raises
    ------
    InputError
        The input cannot be read, rows of different lengths, a value that is not a finite
        number, or an item listed twice.

    Examples
    --------
    >>> f = load_item_features({"a": {"rock", "pop"}, "b": {"rock"}})
    >>> f.kind, f.names
    ('binary', ('pop', 'rock'))
    """
    check("kind", kind, Choice(("auto", "dense", "binary")))
    if isinstance(features, ItemFeatures):
        return features
    if isinstance(features, tuple) and len(features) == 2 and _path(features) is None:
        item_ids, matrix = features
        return ItemFeatures(np.asarray(item_ids, dtype=object), np.asarray(matrix),
                            "dense" if kind == "auto" else kind, "<features arrays>")
    if isinstance(features, Mapping):
        return _features_from_mapping(features, kind)

    def build(frame: pl.DataFrame, source: str) -> ItemFeatures:
        return _features_from_frame(frame, source, kind)

    path = _path(features)
    if path is not None and _columnar(path) is None:
        # a text file: "item feature" pairs, or "item x1 x2 ..." vectors
        data = read_bytes(path)
        check_text(data, path, "lines of item features")
        rows = list(data_lines(data, path, (2, None), "item feature(s)"))
        widths = {len(f) for _, f in rows}
        numeric_rows = all(_all_numbers(f[1:]) for _, f in rows)
        if kind == "binary" or (kind == "auto" and (widths == {2} and not numeric_rows)):
            bad = next((n for n, f in rows if len(f) != 2), None)
            if bad is not None:
                raise InputError("expected 2 fields (item feature)", source=path, line=bad)
            return _binary(pl.DataFrame({"item_id": [f[0] for _, f in rows],
                                         "feature": [f[1] for _, f in rows]}), path)
        first_width = len(rows[0][1])
        for lineno, found in rows:
            if len(found) != first_width:
                raise InputError(f"expected {first_width} fields (item and "
                                 f"{first_width - 1} numbers, as on line {rows[0][0]}), got "
                                 f"{len(found)}", source=path, line=lineno)
            if not _all_numbers(found[1:]):
                raise InputError(f"expected numbers after the item id, got "
                                 f"{' '.join(found[1:])[:60]!r}", source=path, line=lineno)
        return located(lambda: ItemFeatures(
            np.array([f[0] for _, f in rows], dtype=object),
            np.array([[float(x) for x in f[1:]] for _, f in rows]),
            "dense" if kind == "auto" else kind, path), at_lines(path, [n for n, _ in rows]))
    return _read(features, "item features", build, ((2, None), "item feature(s)", ()))


def _all_numbers(fields: Sequence[str]) -> bool:
    try:
        for x in fields:
            strict_float(x)
    except ValueError:
        return False
    return True


def _features_from_mapping(features: Mapping[Any, Any], kind: str) -> ItemFeatures:
    values = list(features.values())
    if (values and all(isinstance(v, (set, frozenset)) for v in values)) or kind == "binary":
        items, feats = [], []
        for item, value in features.items():
            for f in sorted(value, key=str) if isinstance(value, (set, frozenset)) else value:
                items.append(item)
                feats.append(f)
        return _binary(pl.DataFrame({"item_id": pl.Series(items, strict=False),
                                     "feature": pl.Series([str(f) for f in feats])}),
                       "<features dict>")
    lengths = {np.asarray(v).shape for v in values}
    if len(lengths) > 1:
        raise InputError(f"expected vectors of one length; got shapes {sorted(lengths)}",
                         source="<features dict>")
    try:
        matrix = np.array([np.asarray(v, dtype=np.float64) for v in values]).reshape(
            len(values), -1)
    except (TypeError, ValueError) as exc:
        raise InputError(f"expected numeric feature vectors: {exc}",
                         source="<features dict>") from None
    return ItemFeatures(np.array(list(features), dtype=object), matrix,
                        "dense" if kind == "auto" else kind, "<features dict>")  # type: ignore[arg-type]


def _features_from_frame(frame: pl.DataFrame, source: str, kind: str) -> ItemFeatures:
    item = require_column(frame.columns, "item_id", source, COLUMNS, "item features need")
    rest = [c for c in frame.columns if c != item]
    feature = find_column(frame.columns, COLUMNS["feature"])
    if feature is not None and len(rest) == 1 and kind in ("auto", "binary") and \
            not frame[feature].dtype.is_numeric() and frame[feature].dtype != pl.List:
        return _binary(frame.select(pl.col(item).alias("item_id"),
                                    pl.col(feature).cast(pl.String).alias("feature")), source)
    if len(rest) == 1 and isinstance(frame[rest[0]].dtype, (pl.List, pl.Array)):
        vectors = frame[rest[0]].to_list()
        widths = {len(v) if v is not None else -1 for v in vectors}
        if len(widths) > 1:
            row = next(i for i, v in enumerate(vectors) if v is None or
                       len(v) != len(vectors[0] or ()))
            raise _at(row, "expected vectors of one length", source)
        matrix = np.array(vectors, dtype=np.float64)
    else:
        if not rest:
            raise InputError("item features need at least one feature column besides the "
                             "item id", source=source)
        no_nulls(frame.select(rest), source)
        # a CSV/TSV's columns arrive as text: numbers written in them are parsed here
        matrix = pl.DataFrame([numeric(frame[c], f"feature in column {c!r}", source)
                               for c in rest]).to_numpy()
    return ItemFeatures(frame[item].to_numpy().astype(object), matrix,
                        "dense" if kind == "auto" else kind, source)  # type: ignore[arg-type]


def _binary(pairs: pl.DataFrame, source: str) -> ItemFeatures:
    """One binary column per distinct feature value from ``item_id, feature`` pairs."""
    pairs = pl.DataFrame([ids(pairs["item_id"], source), pairs["feature"].cast(pl.String)])
    no_nulls(pairs, source)
    items, item_code = np.unique(pairs["item_id"].to_numpy().astype(str), return_inverse=True)
    names, feat_code = np.unique(pairs["feature"].to_numpy().astype(str), return_inverse=True)
    matrix = np.zeros((items.size, names.size), dtype=np.float64)
    matrix[item_code, feat_code] = 1.0
    return ItemFeatures(items.astype(object), matrix, "binary", source,
                        tuple(names.tolist()))
