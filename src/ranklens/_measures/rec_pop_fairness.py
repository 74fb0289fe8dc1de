"""PopREO@k and PopRSP@k: do popular and unpopular items get the same chance?

Elliot's popularity-based ranking-based equal opportunity and statistical parity (Zhu et
al. 2020), over item groups: the given ones (``item_groups=``, or the catalogue's group
column), else the short head and the long tail of the catalogue (``head``: the fewest most
popular items, by distinct training users, holding that share of the user-item pairs; the
tail: every other catalogue item). For each group g, summed over users:

* PopRSP: ``P(g) = (recommended top-k items in g) / (items of g the user has not
  interacted with in training)``;
* PopREO: the same over the user's relevant items only, ``(relevant top-k items in g) /
  (relevant items of g not in the user's training history)``, users with a relevant
  judgment only.

The value is the relative standard deviation of ``P`` over the groups,
``std(P) / mean(P)`` (population standard deviation): 0 when every group has the same
chance. Catalogue-level (the per-group sums are merged over every query, then finished
once); NaN when a group has no item a user could be shown. Elliot averages over the users of
its recommendations; ranklens over the users of the judgments (a judged user absent from
the run counts with an empty list under ``missing="zero"``).
"""

from __future__ import annotations

import numpy as np

from .._base.errors import MeasureError
from .._base.lazy import polars as pl
from .._ingest.item_tables import head_by_share
from .._model.aligned import Aligned
from .._model.items import ItemContext, ItemCounts, RankedItems
from ._beyond import in_top, per_item_codes, register_beyond
from ._common import rel_level
from ._registry import REL, Measure, Param, Spelled

HEAD = Param("head", Spelled("float", minimum=0, maximum=1), 0.8, "the share of user-item "
             "pairs the short head holds when no groups are given (Elliot's pop_ratio)")


def _groups(context: ItemContext, m: Measure) -> tuple[np.ndarray, tuple[str, ...]]:
    """Each item's group number (-1: none) and the group names."""
    if context.groups_given:
        return context.group, context.group_names
    if context.train is None:
        raise MeasureError(f"{m} needs item groups, or the training interactions (train=...) "
                           "to derive short head and long tail")
    group = np.full(context.universe.size, -1, dtype=np.int64)
    inside = np.flatnonzero(context.catalogue)
    head = head_by_share(context.universe[inside], context.users[inside].astype(np.float64),
                         float(m.get("head")))
    group[inside] = np.where(head, 0, 1)
    return group, ("head", "tail")


def _history(a: Aligned, ranked: RankedItems) -> tuple[np.ndarray, np.ndarray]:
    """The distinct (user, item number) pairs of the evaluated users' training rows."""
    context = ranked.context
    if context.train is None:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    users = pl.DataFrame({"user_id": pl.Series(a.query_ids.tolist(), dtype=pl.String),
                          "q": np.arange(a.nq, dtype=np.int64)})
    train = context.train.frame.select("user_id", "item_id").join(
        users, on="user_id", how="inner")
    pairs = np.unique(np.stack([train["q"].to_numpy(),
                                context.codes(train["item_id"])]), axis=1)
    return pairs[0], pairs[1]


def _tally(a: Aligned, m: Measure, ranked: RankedItems, relevant_only: bool) -> ItemCounts:
    context = ranked.context
    group, names = _groups(context, m)
    n_groups = len(names)
    top = in_top(a, m)
    users = np.ones(a.nq, dtype=bool)
    if relevant_only:
        if ranked.judged is None:
            raise MeasureError(f"{m} reads the judgments of every item")
        jq, jcode, jgrade = ranked.judged
        rel = jgrade >= rel_level(a, m)
        users = np.bincount(jq[rel], minlength=a.nq) > 0
        top = top & a.relevant(rel_level(a, m))
    shown = per_item_codes(ranked.code, group)
    take = top & (shown >= 0) & users[a.qidx]
    num = np.bincount(shown[take], minlength=n_groups)
    hq, hcode = _history(a, ranked)
    if relevant_only:
        # each user's relevant judged items of each group, less those of its history
        keep = rel & (jcode >= 0)
        width = np.int64(context.universe.size + 1)  # (user, item) as one key: user * width + item
        judged = np.unique(jq[keep] * width + jcode[keep])
        fresh = judged[~np.isin(judged, hq * width + hcode)]
        g = group[fresh % width]
        den = np.bincount(g[g >= 0], minlength=n_groups)
    else:
        size = np.bincount(group[group >= 0], minlength=n_groups)
        known = hcode >= 0
        g = group[hcode[known]]
        den = a.nq * size - np.bincount(g[g >= 0], minlength=n_groups)
    keys = [f"num\x1f{n}" for n in names] + [f"den\x1f{n}" for n in names]
    return ItemCounts.of_counts(keys, np.concatenate([num, den]), int(users.sum()))


def _relative_spread(counts: ItemCounts, m: Measure, context: ItemContext) -> float:
    by_key = dict(zip(counts.item_ids.tolist(), counts.counts.tolist(), strict=True))
    names = sorted({k.split("\x1f", 1)[1] for k in by_key})
    num = np.array([by_key.get(f"num\x1f{n}", 0) for n in names], dtype=np.float64)
    den = np.array([by_key.get(f"den\x1f{n}", 0) for n in names], dtype=np.float64)
    if not names or (den == 0).any():
        return float("nan")
    p = num / den
    mean = float(p.mean())
    return float(p.std() / mean) if mean > 0 else float("nan")


def parity_tally(a: Aligned, m: Measure, ranked: RankedItems) -> ItemCounts:
    return _tally(a, m, ranked, relevant_only=False)


def opportunity_tally(a: Aligned, m: Measure, ranked: RankedItems) -> ItemCounts:
    return _tally(a, m, ranked, relevant_only=True)


register_beyond("PopRSP", "popularity-based ranking statistical parity: relative standard "
                "deviation over item groups of (top-k items of the group) / (its items outside "
                "the user's history) (catalogue-level; Elliot PopRSP)",
                params=(HEAD,), aggregate="catalogue", lower_is_better=True, needs=("groups",),
                item_tally=parity_tally, finish_items=_relative_spread)

register_beyond("PopREO", "popularity-based ranking equal opportunity: relative standard "
                "deviation over item groups of (relevant top-k items of the group) / (the user's "
                "relevant items of the group outside its history) (catalogue-level; Elliot "
                "PopREO)",
                params=(REL, HEAD), aggregate="catalogue", needs_unretrieved=True,
                reads_judgments=True, lower_is_better=True, needs=("groups",),
                item_tally=opportunity_tally, finish_items=_relative_spread)
