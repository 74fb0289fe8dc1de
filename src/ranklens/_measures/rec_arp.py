"""ARP@k: average recommendation popularity, the mean training popularity of the items
recommended in the top k.

``ARP@k = mean over the top k of rows(i)``, rows(i) the item's training interactions (0
for an item absent from them), per user and averaged over users: RecTools'
``AvgRecPopularity``; ``normalize=true`` divides by all training rows. Smaller means less
popularity bias. Conventions:

* ``rectools``: the ranklens definition;
* ``recbole``: ``AveragePopularity``, the sum divided by k whatever the list's length
  (RecBole's lists always hold k items);
* ``elliot``: ``ARP``, popularity as distinct training users rather than rows.
"""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from .._model.items import RankedItems
from ._beyond import convention, normalize, per_item, query_mean, register_beyond
from ._registry import Measure


def average_popularity(a: Aligned, m: Measure, ranked: RankedItems) -> np.ndarray:
    context = ranked.context
    style = m.get("convention")
    popularity = context.users if style == "elliot" else context.rows
    values = per_item(ranked, popularity.astype(np.float64), 0.0)
    if m.get("normalize"):
        values = values / float(max(context.n_users if style == "elliot" else context.n_rows,
                                    1))
    return query_mean(a, m, values, "k" if style == "recbole" else "list")


#: whose definition, and RecTools' normalize
_PARAMS = (convention(("ranklens", "rectools", "recbole", "elliot"),
                      "ranklens and rectools (rows, over the list), recbole (over k), "
                      "elliot (distinct users)"),
           normalize(False, "divide by all training interactions (RecTools normalize=True)"))

register_beyond("ARP", "average recommendation popularity: mean training interactions of the "
                "items in the top k, 0 for an unseen item (RecTools AvgRecPopularity, RecBole "
                "AveragePopularity, Elliot ARP)",
                params=_PARAMS, aliases=("average_recommendation_popularity",),
                variants=(("avgrecpopularity", (("convention", "rectools"),)),
                          ("averagepopularity", (("convention", "recbole"),))),
                lower_is_better=True, needs=("train",), context_kernel=average_popularity)
