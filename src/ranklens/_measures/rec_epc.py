"""EPC@k and EFD@k: the novelty of the relevant recommendations, discounted by rank
(Vargas and Castells 2011).

``EPC@k = sum_r disc(r) rel(i_r) (1 - users(i_r) / users) / sum_r disc(r)`` over the ranks
r of the top k, ``disc(r) = 1 / log2(r + 1)``, ``rel`` 1 for an item judged relevant,
users(i) the distinct training users of item i and users all distinct training users (an
item absent from the training interactions adds novelty 1): expected popularity
complement. ``EFD@k`` (expected free discovery) puts ``-log2(users(i) / sum_j users(j))``
in place of the complement (an item absent from the training interactions takes the
largest novelty of the training items). That is Elliot's ``EPC`` and ``EFD``; Elliot leaves
users without a relevant test item out of the mean (``empty="skip"`` here; by default
they score 0).
"""

from __future__ import annotations

import numpy as np

from .._base.errors import MeasureError
from .._model.aligned import Aligned
from .._model.items import RankedItems
from ._beyond import in_top, per_item, register_beyond
from ._common import divide, rel_level
from ._registry import REL, Measure


def _discounted(a: Aligned, m: Measure, novelty: np.ndarray) -> np.ndarray:
    top = in_top(a, m)
    disc = 1.0 / np.log2(a.rank + 1.0)
    gain = disc * a.relevant(rel_level(a, m)) * novelty
    return divide(a.seg_sum(gain, top), a.seg_sum(disc, top))


def popularity_complement(a: Aligned, m: Measure, ranked: RankedItems) -> np.ndarray:
    context = ranked.context
    if context.n_users == 0:
        raise MeasureError(f"{m} needs training interactions with at least one user")
    users = per_item(ranked, context.users.astype(np.float64), 0.0)
    return _discounted(a, m, 1.0 - users / float(context.n_users))


def free_discovery(a: Aligned, m: Measure, ranked: RankedItems) -> np.ndarray:
    context = ranked.context
    seen = context.users[context.users > 0].astype(np.float64)
    if seen.size == 0:
        raise MeasureError(f"{m} needs training interactions with at least one item")
    total = float(seen.sum())
    most = float(-np.log2(seen.min() / total))
    users = per_item(ranked, context.users.astype(np.float64), 0.0)
    novelty = np.full(users.size, most)
    known = users > 0
    novelty[known] = -np.log2(users[known] / total)
    return _discounted(a, m, novelty)


register_beyond("EPC", "expected popularity complement: rank-discounted mean of 1 - the item's "
                "share of training users over the relevant items of the top k (Elliot EPC)",
                params=(REL,), order_free="never", reads_judgments=True, needs=("train",),
                context_kernel=popularity_complement)

register_beyond("EFD", "expected free discovery: rank-discounted mean of -log2 of the item's "
                "share of training user-item pairs over the relevant items of the top k (Elliot "
                "EFD)",
                params=(REL,), order_free="never", reads_judgments=True, needs=("train",),
                context_kernel=free_discovery)
