"""Novelty@k: the mean self-information of the recommended items (mean inverse user
frequency).

``Novelty@k = mean over the top k of -log2(users(i) / users)``, with users(i) the distinct
training users who interacted with item i and users all distinct training users: an item
everyone knows adds 0, an item one user in 1024 knows adds 10. An item absent from the
training interactions counts as known to one user. That is RecTools' ``MeanInvUserFreq``
(per user, averaged over users). Conventions:

* ``rectools``: the ranklens definition;
* ``recommenders``: ``novelty``, ``-log2(rows(i) / rows)`` from training rows rather than
  users, an item absent from the training interactions adding 0; Microsoft Recommenders
  averages over all recommendations at once, which equals the mean over users when every
  list holds k items.
"""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from .._model.items import RankedItems
from ._beyond import convention, per_item, query_mean, register_beyond
from ._registry import Measure


def novelty(a: Aligned, m: Measure, ranked: RankedItems) -> np.ndarray:
    context = ranked.context
    # each item's information once, then looked up by item number at each recommendation
    if m.get("convention") == "recommenders":
        rows = context.rows.astype(np.float64)
        info = np.zeros(rows.size, dtype=np.float64)
        seen = rows > 0
        info[seen] = -np.log2(rows[seen] / float(max(context.n_rows, 1)))
        return query_mean(a, m, per_item(ranked, info, 0.0))
    n_users = float(max(context.n_users, 1))
    users = np.maximum(context.users.astype(np.float64), 1.0)
    return query_mean(a, m, per_item(ranked, -np.log2(users / n_users), -np.log2(1.0 / n_users)))


register_beyond("Novelty", "novelty: mean over the top k of -log2(training users of the "
                "item / training users), 1 user for an unseen item (RecTools MeanInvUserFreq)",
                params=(convention(("ranklens", "rectools", "recommenders"),
                                   "ranklens and rectools (users), recommenders (training rows)"),),
                aliases=("mean_inv_user_freq",),
                variants=(("meaninvuserfreq", (("convention", "rectools"),)),
                          ("miuf", (("convention", "rectools"),))),
                needs=("train",), context_kernel=novelty)
