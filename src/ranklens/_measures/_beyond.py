"""Helpers of the beyond-accuracy measures: the recommended items of each query's top k,
their popularity, their features, and the per-query means over them.

Every helper is vectorized over all ranked documents at once: a measure never loops over
users in Python. The item context's arrays are indexed by item number; an item no table
names (number -1) takes the value each helper states.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._base.errors import MeasureError
from .._base.lazy import polars as pl
from .._ingest.item_tables import head_by_share
from .._model.aligned import Aligned
from .._model.items import ItemContext, ItemCounts, RankedItems
from ._registry import Measure, Param, Spelled, register

__all__ = ["BEYOND", "CHUNK", "CONVENTION", "catalogue_size", "convention", "feature_rows",
           "group_sums", "history_similarity", "in_catalogue", "in_top", "list_lengths",
           "long_tail", "needs_context", "normalize", "pair_sums", "per_item", "per_item_codes",
           "popularity_rank", "query_mean", "register_beyond", "row_dots", "top_counts",
           "unit_rows"]

#: the definitions a beyond-accuracy measure may follow (each measure lists its own)
CONVENTION = ("ranklens", "rectools", "recbole", "elliot", "recommenders")


#: what every beyond-accuracy registration shares (each adds its own facts): a depth k to
#: give, and the item context read instead of the judgments
BEYOND: dict[str, Any] = {"cutoff": "int", "cutoff_required": True, "family": "beyond",
                          "order_free": "without_cutoff", "needs_unretrieved": False,
                          "reads_judgments": False}


def register_beyond(name: str, doc: str, **facts: Any) -> None:
    """Register a measure read from the item context (its plain kernel
    :func:`needs_context`): :data:`BEYOND`, with ``facts`` added or overriding."""
    register(name, doc, **{**BEYOND, **facts})(needs_context)


def convention(choices: Sequence[str], doc: str) -> Param:
    """The ``convention`` parameter of a measure defined differently by its peers."""
    return Param("convention", Spelled("choice", tuple(choices)), "ranklens",
                 "whose definition: " + doc + " (docs/beyond-accuracy.md)")


def normalize(default: bool, doc: str) -> Param:
    """The ``normalize`` parameter of a measure its peers give as a count or as a share."""
    return Param("normalize", Spelled("bool"), default, doc)


def _uncut(a: Aligned, m: Measure) -> bool:
    """Whether no list is cut by the measure's cutoff (then no ranks are computed)."""
    return m.cutoff is None or m.cutoff >= int(a.n_ret.max(initial=0))


def in_top(a: Aligned, m: Measure) -> np.ndarray:
    """Whether each ranked document is within the measure's cutoff (all without one)."""
    return np.ones(int(a.offsets[-1]), dtype=bool) if _uncut(a, m) else a.rank <= m.cutoff


def list_lengths(a: Aligned, m: Measure) -> np.ndarray:
    """Each query's number of recommendations in its top k (its whole list without k)."""
    return a.n_ret if m.cutoff is None else np.minimum(a.n_ret, int(m.cutoff))


def per_item(ranked: RankedItems, values: np.ndarray, absent: float) -> np.ndarray:
    """``values`` (one per item number) at each ranked document; ``absent`` for an item no
    table names."""
    # one gather: the appended last value answers for code -1
    out: np.ndarray = np.append(values.astype(np.float64), absent)[ranked.code]
    return out


def query_mean(a: Aligned, m: Measure, values: np.ndarray,
               denominator: str = "list") -> np.ndarray:
    """Each query's mean of ``values`` over its top k: divided by its list length in the
    top k (``"list"``), or by k itself (``"k"``: RecBole's lists always hold k items).
    An empty list gives 0."""
    mask = in_top(a, m)
    total = a.seg_sum(values, None if mask.all() else mask)
    if denominator == "k" and m.cutoff is not None:
        return total / float(m.cutoff)
    length = list_lengths(a, m).astype(np.float64)
    out = np.zeros(a.nq, dtype=np.float64)
    np.divide(total, length, out=out, where=length > 0)
    return out


def popularity_rank(context: ItemContext) -> np.ndarray:
    """Each item's dense rank by training rows, 1 for the most interacted (RecTools'
    serendipity); 0 for an item without training rows."""
    def build() -> np.ndarray:
        rows = context.rows
        rank = np.zeros(rows.size, dtype=np.int64)
        seen = rows > 0
        distinct = np.unique(rows[seen])[::-1]  # descending counts
        rank[seen] = np.searchsorted(-distinct, -rows[seen]) + 1
        return rank
    rank: np.ndarray = context.memo("popularity rank", build)
    return rank


def feature_rows(ranked: RankedItems, m: Measure) -> np.ndarray:
    """The feature matrix row of each ranked document (-1: the item has no features)."""
    context = ranked.context
    if context.features is None:
        raise MeasureError(f"{m} needs item features (item_features=...)")
    return per_item_codes(ranked.code, context.feature_row)


def unit_rows(context: ItemContext, m: Measure) -> np.ndarray:
    """The feature vectors scaled to length 1; MeasureError naming the first zero vector
    (its cosine with any item is undefined)."""
    features = context.features
    assert features is not None
    norms = context.memo("feature norms", lambda: np.linalg.norm(features.matrix, axis=1,
                                                                 keepdims=True))
    if norms.size and not norms.all():
        item = features.item_ids[int(np.argmin(norms[:, 0]))]
        raise MeasureError(f"{m} compares items by cosine, and item {item!r} of "
                           f"{features.source} has a zero vector (cosine undefined): give it "
                           "a nonzero vector, or drop its row to leave its pairs out")
    unit: np.ndarray = context.memo("unit features", lambda: features.matrix / norms)
    return unit


def top_counts(a: Aligned, m: Measure, ranked: RankedItems) -> ItemCounts:
    """How often each item is recommended in the queries' top k (the tally a
    catalogue-level measure finishes from; ``lists``: the queries counted).

    Items the tables name are counted by number; only the others are counted by id.
    """
    top = None if _uncut(a, m) else a.rank <= m.cutoff
    tally, unnamed = ranked.tally(top)
    universe = ranked.context.universe
    seen = np.flatnonzero(tally)
    counts = ItemCounts(universe[seen], tally[seen].astype(np.int64), a.nq)
    if not unnamed:
        return counts
    unknown = ranked.code < 0 if top is None else top & (ranked.code < 0)
    return counts + ItemCounts.of(ranked.doc_id.filter(pl.Series(unknown)), 0)


def in_catalogue(counts: ItemCounts, context: ItemContext) -> np.ndarray:
    """Whether each counted item is in the catalogue."""
    out: np.ndarray = np.append(context.catalogue, False)[
        context.codes(pl.Series(counts.item_ids.tolist(), dtype=pl.String))]
    return out


def catalogue_size(context: ItemContext, m: Measure) -> int:
    """The number of items in the catalogue; MeasureError when it is empty."""
    n = int(context.catalogue.sum())
    if n == 0:
        raise MeasureError(f"{m} divides by the size of the item catalogue, which is empty")
    return n


def needs_context(a: Aligned, m: Measure) -> np.ndarray:
    """The plain kernel of a measure that reads the item context: compute calls its
    context kernel or item tally instead, so this only refuses a caller that has none."""
    raise MeasureError(f"{m} reads the recommended items and their context (popularity, "
                       "catalogue, features): evaluate it with ranklens.evaluate")


def long_tail(ranked: RankedItems, m: Measure) -> np.ndarray:
    """Whether each item (by number) is in the long tail, for ``m`` (APLT, ACLT).

    Given groups win: the items of the group ``tail`` (``item_groups``, or the catalogue's
    group column). Otherwise from the training interactions: under APLT's
    ``convention=recbole``, RecBole's ``tail_ratio`` rule (the ``tail`` parameter: above 1,
    the items with at most that many training rows; else that share of the training items,
    the least interacted, ties by item id); otherwise Elliot's rule, every item outside the
    short head (the fewest most popular items, by distinct users, holding the ``head``
    share of all user-item pairs).
    """
    context = ranked.context
    style = m.get("convention") if m.name == "APLT" else "ranklens"
    if context.groups_given:
        if "tail" not in context.group_names:
            raise MeasureError(f"{m} counts the items of the group 'tail', and the item groups "
                               f"hold {list(context.group_names)}")
        return context.group == context.group_names.index("tail")
    if context.train is None:
        raise MeasureError(f"{m} needs item groups with a 'tail' group, or the training "
                           "interactions (train=...) to derive them")
    seen = context.rows > 0
    if style == "recbole":
        ratio = float(m.get("tail"))
        if ratio > 1:
            return seen & (context.rows <= ratio)
        ids = context.universe[seen].astype(str)
        order = np.lexsort((ids, context.rows[seen]))
        cut = max(int(ids.size * ratio), 1)
        tail = np.zeros(context.universe.size, dtype=bool)
        tail[np.flatnonzero(seen)[order[:cut]]] = True
        return tail
    head = np.zeros(context.universe.size, dtype=bool)
    head[seen] = head_by_share(context.universe[seen], context.users[seen].astype(np.float64),
                               float(m.get("head")))
    return ~head


def pair_sums(a: Aligned, m: Measure, ranked: RankedItems, metric: str,
              chunk: int = 4096) -> tuple[np.ndarray, np.ndarray]:
    """Per query, the sum over the pairs of distinct positions of its top k whose items
    both have features of ``metric`` (``cosine`` or ``jaccard`` similarity, ``hamming``
    distance), and the number of such pairs.

    Cosine sums come from the sum of unit vectors (the sum over pairs is half the squared
    norm of the sum less the squared norms), in one pass; Jaccard and Hamming from each
    list's Gram matrix, the lists of one length batched ``chunk`` at a time.
    """
    context = ranked.context
    assert context.features is not None
    rows = feature_rows(ranked, m)
    take = in_top(a, m) & (rows >= 0)
    qidx = a.qidx[take]
    n = np.bincount(qidx, minlength=a.nq).astype(np.float64)
    pairs = n * (n - 1) / 2
    if metric == "cosine":
        unit = unit_rows(context, m)
        summed = group_sums(unit, rows[take], qidx, a.nq)
        squares = (unit * unit).sum(axis=1)  # each vector's own term, 1 up to rounding
        total = ((summed * summed).sum(axis=1) - np.bincount(
            qidx, weights=squares[rows[take]], minlength=a.nq)) / 2
        return total, pairs
    matrix = context.features.matrix
    total = np.zeros(a.nq, dtype=np.float64)
    feats = rows[take]
    starts = np.concatenate(([0], np.cumsum(n.astype(np.int64))))
    for length in np.unique(n.astype(np.int64)):
        if length < 2:
            continue
        queries = np.flatnonzero(n == length)
        upper = np.triu_indices(int(length), 1)
        for at in range(0, queries.size, chunk):
            part = queries[at:at + chunk]
            index = starts[part][:, None] + np.arange(length)[None, :]
            x = matrix[feats[index]]  # (lists, length, features)
            if metric == "hamming":  # the features that differ, whatever their values
                values = (x[:, upper[0]] != x[:, upper[1]]).sum(axis=2).astype(np.float64)
            else:  # jaccard; two empty feature sets are identical
                inter = np.einsum("qif,qjf->qij", x, x)[:, upper[0], upper[1]]
                size = x.sum(axis=2)
                either = size[:, upper[0]] + size[:, upper[1]]
                union = either - inter
                values = np.ones_like(inter)
                np.divide(inter, union, out=values, where=union > 0)
            total[part] = values.sum(axis=1)
    return total, pairs


def history_similarity(a: Aligned, m: Measure, ranked: RankedItems) -> np.ndarray:
    """At each ranked document, the mean cosine similarity of its item to the items of the
    user's training interactions (one term per training row; a row whose item has no
    features adds 0, as Microsoft Recommenders fills a missing similarity with 0); 0 for
    a user without training rows."""
    context = ranked.context
    if context.train is None or context.features is None:
        raise MeasureError(f"{m} compares the recommended items with each user's training "
                           "items: it needs train=... and item_features=...")
    unit = unit_rows(context, m)
    users = pl.DataFrame({"user_id": pl.Series(a.query_ids.tolist(), dtype=pl.String),
                          "q": np.arange(a.nq, dtype=np.int64)})
    train = context.train.frame
    q = pl.DataFrame({"user_id": train["user_id"]}).join(
        users, on="user_id", how="left", maintain_order="left")["q"].fill_null(-1).to_numpy()
    rows = per_item_codes(context.codes(train["item_id"]), context.feature_row)
    mine = q >= 0
    count = np.bincount(q[mine], minlength=a.nq).astype(np.float64)
    with_features = mine & (rows >= 0)
    order = np.argsort(q[with_features], kind="stable")
    history = group_sums(unit, rows[with_features][order], q[with_features][order], a.nq)
    at = feature_rows(ranked, m)
    qidx = a.qidx
    has = at >= 0
    dots = np.zeros(at.size, dtype=np.float64)
    dots[has] = row_dots(unit, at[has], history, qidx[has])
    out = np.zeros(dots.size, dtype=np.float64)
    np.divide(dots, count[qidx], out=out, where=count[qidx] > 0)
    return out


#: feature rows gathered at once (a bounded temporary instead of one row per recommendation)
CHUNK = 1 << 15


def group_sums(matrix: np.ndarray, rows: np.ndarray, group: np.ndarray, n: int) -> np.ndarray:
    """The sum of ``matrix[rows]`` over each of ``n`` groups, ``group`` ascending: one
    ``reduceat`` over the runs of equal groups per chunk of rows (``np.add.at`` is many
    times slower, and gathering every row at once costs a row per recommendation)."""
    out = np.zeros((n, matrix.shape[1]), dtype=np.float64)
    for start in range(0, rows.size, CHUNK):
        g = group[start:start + CHUNK]
        first = np.flatnonzero(np.concatenate(([True], g[1:] != g[:-1])))
        # a group may straddle two chunks: add to what the previous chunk left
        out[g[first]] += np.add.reduceat(matrix[rows[start:start + CHUNK]], first, axis=0)
    return out


def row_dots(left: np.ndarray, left_rows: np.ndarray, right: np.ndarray,
             right_rows: np.ndarray) -> np.ndarray:
    """``left[left_rows[i]] . right[right_rows[i]]`` for each i, a chunk of rows at a time."""
    out = np.empty(left_rows.size, dtype=np.float64)
    for start in range(0, left_rows.size, CHUNK):
        end = start + CHUNK
        out[start:end] = np.einsum("ij,ij->i", left[left_rows[start:end]],
                                   right[right_rows[start:end]])
    return out


def per_item_codes(codes: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``values[code]`` for each code, -1 where the code is -1."""
    out: np.ndarray = np.append(values.astype(np.int64), -1)[codes]
    return out
