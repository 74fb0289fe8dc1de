"""Unexpectedness@k: how unlike the user's history the recommended items are.

``Unexpectedness@k = mean over the top k of (1 - mean cosine similarity of the item to the
user's training items)``: Microsoft Recommenders' ``user_serendipity`` without relevance
(its default, every recommendation relevant; Zhang et al. 2012, Auralist). A training row
whose item has no features adds similarity 0; a user without training rows scores 1 per
item (Microsoft Recommenders leaves such users out).
"""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from .._model.items import RankedItems
from ._beyond import history_similarity, query_mean, register_beyond
from ._registry import Measure


def unexpectedness(a: Aligned, m: Measure, ranked: RankedItems) -> np.ndarray:
    return query_mean(a, m, 1.0 - history_similarity(a, m, ranked))


register_beyond("Unexpectedness", "unexpectedness: mean over the top k of 1 - the item's "
                "mean cosine similarity to the user's training items (Microsoft Recommenders "
                "user_serendipity, every item relevant)",
                aliases=("user_serendipity",), needs=("train", "features"),
                context_kernel=unexpectedness)
