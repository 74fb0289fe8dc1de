"""Entropy@k and DistCoverage@k: how evenly the top k of all users spread over the items.

``Entropy@k = -sum_i p(i) log2 p(i)``, with ``p(i)`` item i's share of all recommendations
in the top k (catalogue-level: the counts are merged over every query, then finished
once). 0 when every list recommends the same single item; ``log2(n)`` when n items are
recommended equally often. ``DistCoverage@k`` is the same value under Microsoft
Recommenders' name (``distributional_coverage``). Conventions:

* ``recbole``: ``ShannonEntropy``, in nats (natural logarithm) and divided by the number of
  distinct recommended items;
* ``recommenders``: ``distributional_coverage``, the ranklens definition.
"""

from __future__ import annotations

import numpy as np

from .._model.items import ItemContext, ItemCounts
from ._beyond import convention, register_beyond, top_counts
from ._registry import Measure


def _entropy(counts: ItemCounts, m: Measure, context: ItemContext) -> float:
    total = counts.total
    if total == 0:
        return 0.0
    p = counts.counts / float(total)
    # max: a single item gives -0.0, printed "-0"
    if m.name == "Entropy" and m.get("convention") == "recbole":
        return max(0.0, float(-(p * np.log(p)).sum() / counts.item_ids.size))
    return max(0.0, float(-(p * np.log2(p)).sum()))


register_beyond("Entropy", "Shannon entropy (bits) of the items recommended in the top k over "
                "all users (catalogue-level; RecBole ShannonEntropy with convention=recbole)",
                params=(convention(("ranklens", "recbole", "recommenders"),
                                   "ranklens and recommenders (bits), recbole (nats over the "
                                   "distinct items)"),),
                aggregate="catalogue", aliases=("shannon_entropy",),
                variants=(("shannonentropy", (("convention", "recbole"),)),),
                item_tally=top_counts, finish_items=_entropy)

register_beyond("DistCoverage", "distributional coverage: Shannon entropy (bits) of the "
                "items recommended in the top k over all users (catalogue-level; Microsoft "
                "Recommenders distributional_coverage)",
                aggregate="catalogue", aliases=("distributional_coverage",),
                item_tally=top_counts, finish_items=_entropy)
