"""UserCoverage@k: the share of users whose ranking holds at least k items.

A recommender that returns fewer than k items to some users (cold users, strict filters)
covers fewer users. Per user 1 or 0, averaged over the evaluated users; Elliot's
``UserCoverageAtN`` is the count (this share times the number of users). Needs no item
context.
"""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from ._registry import Measure, register


@register("UserCoverage", "user coverage: 1 when the ranking holds at least k items, else 0 "
          "(averaged: the share of users served a full top k; Elliot UserCoverageAtN counts "
          "them)",
          cutoff="int", cutoff_required=True, aliases=("user_coverage", "usercoverageatn"),
          family="beyond", order_free="always", needs_unretrieved=False, unit_range=True,
          reads_judgments=False)
def user_coverage(a: Aligned, m: Measure) -> np.ndarray:
    return (a.n_ret >= int(m.cutoff or 0)).astype(np.float64)
