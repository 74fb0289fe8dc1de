"""Gini@k: how unequally the top k of all users spread over the catalogue.

``Gini@k = sum_j (2j - n - 1) c_j / (n sum_j c_j)`` over the n catalogue items sorted by
their number of recommendations c_j in the top k, ascending (items never recommended
count 0): 0 when every item is recommended equally often, near 1 when one item takes every
recommendation. Catalogue-level (the counts are merged over every query, then finished
once). Recommended items outside the catalogue are counted in a warning and left out.
Smaller is more equal. Conventions:

* ``recbole``: ``GiniIndex``, the same formula with n the number of items plus one
  (RecBole counts its padding item id 0 among its items);
* ``elliot``: ``Gini``, ``1 - sum_j (2j - n - 1) p_j / (n - 1)`` with p_j the item's share
  of the recommendations: larger is more equal.
"""

from __future__ import annotations

import numpy as np

from .._model.items import ItemContext, ItemCounts
from ._beyond import catalogue_size, convention, in_catalogue, register_beyond, top_counts
from ._registry import Measure


def _gini(counts: ItemCounts, m: Measure, context: ItemContext) -> float:
    style = m.get("convention")
    n = catalogue_size(context, m) + (1 if style == "recbole" else 0)
    c = np.sort(counts.counts[in_catalogue(counts, context)]).astype(np.float64)
    total = float(c.sum())
    if total == 0:
        return 0.0 if style != "elliot" else 1.0
    j = np.arange(n - c.size + 1, n + 1, dtype=np.float64)  # the unrecommended come first
    weighted = float(((2 * j - n - 1) * c).sum())
    if style == "elliot":
        return 1.0 - weighted / total / (n - 1) if n > 1 else 1.0
    return weighted / total / n


register_beyond("Gini", "Gini index of the recommendations of the catalogue items in the top k "
                "over all users (catalogue-level; RecBole GiniIndex, Elliot Gini)",
                params=(convention(("ranklens", "recbole", "elliot"), "ranklens, recbole (n + 1 "
                                   "items), elliot (1 - Gini over n - 1)"),),
                aggregate="catalogue", aliases=("gini_index",),
                variants=(("giniindex", (("convention", "recbole"),)),), lower_is_better=True,
                needs=("catalogue",), item_tally=top_counts, finish_items=_gini)
