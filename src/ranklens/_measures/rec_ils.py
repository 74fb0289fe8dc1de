"""ILS@k: intra-list similarity, the mean similarity between the items of each top k.

``ILS@k = mean over the pairs of distinct positions i < j of the top k of s(i, j)``, the
cosine of the item vectors (dense features) or the Jaccard index of their feature sets
(binary features); Ziegler et al. (2005). Microsoft Recommenders' ``user_diversity`` is
``1 - ILS@k`` (``item_sim_measure="item_feature_vector"``). Pairs holding an item without
features are left out; a list with fewer than two items with features scores 0.
"""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from .._model.items import RankedItems
from ._beyond import pair_sums, register_beyond
from ._common import divide
from ._registry import Measure, Param, Spelled
from .rec_ild import metric_of


def intra_list_similarity(a: Aligned, m: Measure, ranked: RankedItems) -> np.ndarray:
    total, pairs = pair_sums(a, m, ranked, metric_of(ranked, m))
    return divide(total, pairs)


register_beyond("ILS", "intra-list similarity: mean pairwise cosine or Jaccard similarity "
                "between the items of the top k (1 - Microsoft Recommenders user_diversity)",
                params=(Param("metric", Spelled("choice", ("auto", "cosine", "jaccard")), "auto",
                              "how two items compare: auto (cosine for dense features, jaccard "
                              "for binary ones), cosine or jaccard"),),
                aliases=("intralistsimilarity", "intra_list_similarity"), lower_is_better=True,
                needs=("features",), context_kernel=intra_list_similarity)
