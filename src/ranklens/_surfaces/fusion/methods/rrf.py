"""Reciprocal rank fusion (RRF).

``score(d) = sum over runs r retrieving d of 1 / (k + rank_r(d))``, ``k = 60`` by default.

Cormack, Clarke & Buettcher, "Reciprocal rank fusion outperforms Condorcet and individual
rank learning methods", SIGIR 2009.
"""

from __future__ import annotations

import numpy as np

from ..registry import Inputs, register
from ._common import K, over_runs


@register("rrf", __doc__, aliases=("reciprocal_rank_fusion",), params=(K,))
def rrf(inputs: Inputs, k: float) -> np.ndarray:
    with np.errstate(divide="ignore"):  # k = 0 at an absent document's rank 0: masked
        return over_runs(inputs, 1.0 / (k + inputs.rank))
