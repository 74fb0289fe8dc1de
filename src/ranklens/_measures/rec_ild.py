"""ILD@k: intra-list diversity, the mean distance between the items of each top k.

``ILD@k = mean over the pairs of distinct positions i < j of the top k of d(i, j)``, with
``d = 1 - cosine`` of the item vectors (dense features, embeddings), ``1 - Jaccard`` of
their feature sets (binary features), or the Hamming distance (``metric=hamming``: the
number of features that differ, RecTools' ``PairwiseHammingDistanceCalculator``). Pairs
holding an item without features are left out (and counted in a warning), as RecTools
leaves out the pairs its calculator gives NaN; a list with fewer than two items with
features scores 0, as in RecTools' ``IntraListDiversity``. A zero vector is refused under
cosine (undefined). Microsoft Recommenders' ``diversity`` with
``item_sim_measure="item_feature_vector"`` is ``1 - ILS@k``, which equals ILD@k per user
(it leaves users with fewer than two items out of the mean, where ranklens gives them 0).
"""

from __future__ import annotations

import numpy as np

from .._base.errors import MeasureError
from .._model.aligned import Aligned
from .._model.items import RankedItems
from ._beyond import pair_sums, register_beyond
from ._common import divide
from ._registry import Measure, Param, Spelled

METRIC = Param("metric", Spelled("choice", ("auto", "cosine", "jaccard", "hamming")), "auto", "how "
               "two items compare: auto (cosine for dense features, jaccard for binary ones), "
               "cosine, jaccard or hamming (distance only)")


def metric_of(ranked: RankedItems, m: Measure) -> str:
    """The comparison ``m`` asks for, resolved against the features given (ILS's parameter
    does not offer hamming, a distance)."""
    features = ranked.context.features
    if features is None:
        raise MeasureError(f"{m} needs item features (item_features=...)")
    metric = str(m.get("metric"))
    if metric == "auto":
        metric = "jaccard" if features.kind == "binary" else "cosine"
    return metric


def intra_list_distance(a: Aligned, m: Measure, ranked: RankedItems) -> np.ndarray:
    metric = metric_of(ranked, m)
    total, pairs = pair_sums(a, m, ranked, metric)
    if metric == "hamming":
        return divide(total, pairs)
    return np.where(pairs > 0, 1.0 - divide(total, pairs), 0.0)


register_beyond("ILD", "intra-list diversity: mean pairwise distance (1 - cosine, 1 - Jaccard "
                "or Hamming) between the items of the top k (RecTools IntraListDiversity)",
                params=(METRIC,), aliases=("intralistdiversity", "intra_list_diversity"),
                needs=("features",), context_kernel=intra_list_distance)
