"""APLT@k and ACLT@k: how much of the top k is long-tail items.

``APLT@k`` (average percentage of long tail) is the share of each user's top k that is in
the long tail, averaged over users; ``ACLT@k`` (average coverage of long tail) their number.
The long tail is the group ``tail`` of the item groups when given (``item_groups=``, or the
catalogue's group column), else derived from the training interactions: every item outside
the short head, the fewest most popular items (by distinct users) holding ``head`` (0.8) of
all user-item pairs. That is Elliot's ``APLT`` / ``ACLT`` with its ``Popularity``
(``pop_ratio`` 0.8; Elliot breaks popularity ties by its internal item order, ranklens by
item id). An item absent from the training interactions is long tail (Elliot recommends
training items only). Convention:

* ``recbole`` (APLT only): ``TailPercentage``, the tail by RecBole's ``tail_ratio`` (the
  ``tail`` parameter, 0.1: above 1, the items with at most that many training rows; else
  that share of the training items, the least interacted, ties by item id), the count
  divided by k. An item absent from the training interactions is not in that tail.
"""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from .._model.items import RankedItems
from ._beyond import (
    convention,
    in_top,
    long_tail,
    per_item,
    query_mean,
    register_beyond,
)
from ._registry import Measure, Param, Spelled

HEAD = Param("head", Spelled("float", minimum=0.0, maximum=1.0), 0.8,
             "the share of user-item pairs the short head holds (Elliot's pop_ratio)")
TAIL = Param("tail", Spelled("float", minimum=0.0), 0.1, "RecBole's tail_ratio (convention=recbole "
             "only): above 1 a number of training rows, else a share of the training items")


def _style(m: Measure) -> str:
    return str(m.get("convention")) if m.name == "APLT" else "ranklens"


def _in_tail(ranked: RankedItems, m: Measure) -> np.ndarray:
    # an item no table names is unseen: long tail, unless groups were given or RecBole's
    unseen = not ranked.context.groups_given and _style(m) != "recbole"
    return per_item(ranked, long_tail(ranked, m).astype(np.float64), float(unseen))


def long_tail_share(a: Aligned, m: Measure, ranked: RankedItems) -> np.ndarray:
    return query_mean(a, m, _in_tail(ranked, m), "k" if _style(m) == "recbole" else "list")


def long_tail_count(a: Aligned, m: Measure, ranked: RankedItems) -> np.ndarray:
    return a.seg_sum(_in_tail(ranked, m), in_top(a, m))


register_beyond("APLT", "average percentage of long tail: the share of the top k in the long "
                "tail (Elliot APLT, RecBole TailPercentage)",
                params=(convention(("ranklens", "recbole"),
                                   "ranklens (Elliot's rule), recbole (tail_ratio, over k)"),
                        HEAD, TAIL),
                variants=(("tailpercentage", (("convention", "recbole"),)),),
                unit_range=True, needs=("groups",), context_kernel=long_tail_share)

register_beyond("ACLT", "average coverage of long tail: the number of long-tail items in the "
                "top k (Elliot ACLT)",
                params=(HEAD,), needs=("groups",), context_kernel=long_tail_count)
