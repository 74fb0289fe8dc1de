"""APLT@k and ACLT@k: how much of the top k is long-tail items.

``APLT@k`` (average percentage of long tail) is the share of each user's top k that is in
the long tail, averaged over users; ``ACLT@k`` (average coverage of long tail) their number.
The long tail is the group ``tail`` of the item groups when given (``item_groups=``, or the
catalogue's group column), else derived from the training interactions: the items outside
the short head, the fewest most popular items (by distinct users) holding ``head`` (0.8)
of all user-item pairs (Elliot's ``pop_ratio``); an item absent from the training
interactions is long tail. Conventions:

* ``elliot``: ``APLT`` / ``ACLT``, the same rule, where an item absent from the training
  interactions is in neither group;
* ``recbole`` (APLT only): ``TailPercentage``, the tail by RecBole's ``tail_ratio`` (the
  ``tail`` parameter, 0.1: above 1, the items with at most that many training rows; else
  that share of the training items, the least interacted), the count divided by k.
"""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from .._model.items import RankedItems
from ._beyond import convention, in_top, long_tail, needs_context, per_item, query_mean
from ._registry import Measure, Param, register

HEAD = Param("head", "float", 0.8, "the share of user-item pairs the short head holds "
             "(Elliot's pop_ratio)", minimum=0.0, maximum=1.0)
TAIL = Param("tail", "float", 0.1, "RecBole's tail_ratio (convention=recbole only): above 1 "
             "a number of training rows, else a share of the training items", minimum=0.0)


def _in_tail(ranked: RankedItems, m: Measure) -> np.ndarray:
    # an item no table names is unseen: long tail for ranklens, unless groups were given
    unseen = m.get("convention") == "ranklens" and not ranked.context.groups_given
    return per_item(ranked, long_tail(ranked, m).astype(np.float64), float(unseen))


def long_tail_share(a: Aligned, m: Measure, ranked: RankedItems) -> np.ndarray:
    return query_mean(a, m, _in_tail(ranked, m),
                      "k" if m.get("convention") == "recbole" else "list")


def long_tail_count(a: Aligned, m: Measure, ranked: RankedItems) -> np.ndarray:
    return a.seg_sum(_in_tail(ranked, m), in_top(a, m))


register("APLT", "average percentage of long tail: the share of the top k in the long tail "
         "(Elliot APLT, RecBole TailPercentage)",
         params=(convention(("ranklens", "elliot", "recbole"),
                            "ranklens, elliot (an unseen item is not long tail), recbole "
                            "(tail_ratio, over k)"), HEAD, TAIL),
         cutoff="int", cutoff_required=True,
         variants=(("tailpercentage", (("convention", "recbole"),)),),
         family="beyond", order_free="without_cutoff", needs_unretrieved=False,
         unit_range=True, needs=("groups",), context_kernel=long_tail_share,
         reads_judgments=False)(needs_context)

register("ACLT", "average coverage of long tail: the number of long-tail items in the top k "
         "(Elliot ACLT)",
         params=(convention(("ranklens", "elliot"),
                            "ranklens, elliot (an unseen item is not long tail)"), HEAD),
         cutoff="int", cutoff_required=True, family="beyond", order_free="without_cutoff",
         needs_unretrieved=False, needs=("groups",), context_kernel=long_tail_count,
         reads_judgments=False)(needs_context)
