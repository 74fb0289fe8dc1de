"""Serendipity@k: relevant recommendations that a popularity ranking would not have made.

``Serendipity@k = mean over the top k of max(p(i) - pu(i), 0) rel(i)``, RecTools'
``Serendipity``: ``p(i) = (n + 1 - rank) / n`` the chance the recommender shows the item at
its rank, ``pu(i) = (n + 1 - poprank(i)) / n`` the chance a popularity ranking would
(poprank the dense rank of the item's training rows, most interacted first; 0 for an item
absent from the training interactions), n the catalogue size, and ``rel(i)`` 1 when the
item is judged relevant (the judgments are the test interactions). Conventions:

* ``rectools``: the ranklens definition;
* ``recommenders``: ``user_serendipity`` with ``item_sim_measure="item_feature_vector"``,
  the mean over the top k of ``(1 - mean cosine similarity of the item to the user's
  training items) rel(i)``; it needs item features.
"""

from __future__ import annotations

import numpy as np

from .._base.errors import MeasureError
from .._model.aligned import Aligned
from .._model.items import RankedItems
from ._beyond import (
    catalogue_size,
    convention,
    history_similarity,
    per_item,
    popularity_rank,
    query_mean,
    register_beyond,
)
from ._common import rel_level
from ._registry import REL, Measure


def serendipity(a: Aligned, m: Measure, ranked: RankedItems) -> np.ndarray:
    relevant = a.relevant(rel_level(a, m)).astype(np.float64)
    if m.get("convention") == "recommenders":
        return query_mean(a, m, (1.0 - history_similarity(a, m, ranked)) * relevant)
    context = ranked.context
    if context.train is None:
        raise MeasureError(f"{m} needs the training interactions (train=...)")
    n = float(catalogue_size(context, m))
    poprank = per_item(ranked, popularity_rank(context).astype(np.float64), 0.0)
    p = (n + 1 - a.rank) / n
    pu = np.where(poprank > 0, (n + 1 - poprank) / n, 0.0)
    return query_mean(a, m, np.maximum(p - pu, 0.0) * relevant)


register_beyond("Serendipity", "serendipity: mean over the top k of max(rank chance - "
                "popularity chance, 0) x relevance (RecTools Serendipity; Microsoft "
                "Recommenders user_serendipity with convention=recommenders)",
                params=(REL, convention(("ranklens", "rectools", "recommenders"),
                                        "ranklens and rectools (popularity ranks), recommenders "
                                        "(dissimilarity to the training items)")),
                order_free="never", reads_judgments=True, needs=("train", "catalogue"),
                context_kernel=serendipity)
