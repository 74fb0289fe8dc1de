"""AWRF@k: attention-weighted rank fairness of each list, as the TREC Fair Ranking 2021 code
computes it (``qr_awrf``), against every item group weighing the same.

Rank i (from 1) gets the attention ``1 / log2(max(i, 2))``; each group's attention is summed
over the top k; AWRF is ``1 - JS(attention, uniform)**2`` with scipy's Jensen-Shannon
distance (natural log), so it lies in ``[1 - ln 2, 1]``. An item without a group gets no
attention; a list without a grouped item counts every group equally (1.0). The groups are the
given ones, else short head and long tail from the training interactions (as PopRSP's).
:func:`ranklens.awrf` takes other target distributions and sampled rankings.
"""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from .._model.items import RankedItems
from ._beyond import in_top, per_item_codes, register_beyond
from ._registry import Measure
from .rec_pop_fairness import HEAD, _groups


def attention_fairness(a: Aligned, m: Measure, ranked: RankedItems) -> np.ndarray:
    from scipy.spatial.distance import jensenshannon

    by_item, names = _groups(ranked.context, m)
    group = per_item_codes(ranked.code, by_item)
    take = in_top(a, m) & (group >= 0)
    share = np.zeros((a.nq, len(names)))
    np.add.at(share, (a.qidx[take], group[take]), 1 / np.log2(np.maximum(a.rank[take], 2)))
    share[share.sum(axis=1) == 0] = 1.0
    out: np.ndarray = 1 - jensenshannon(share, np.ones_like(share), axis=1) ** 2
    return out


register_beyond("AWRF", "attention-weighted rank fairness: 1 - JS(group attention, uniform)^2, "
                "attention 1/log2(max(rank, 2)) (TREC Fair Ranking 2021)",
                params=(HEAD,), unit_range=True, needs=("groups",),
                context_kernel=attention_fairness)
