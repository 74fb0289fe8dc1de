"""Weighted CombMNZ (WMNZ).

``score(d) = (sum over runs r retrieving d of s_r(d)) * (sum over runs r retrieving d of
w_r)``: the count of CombMNZ replaced by the weights of the runs that retrieve ``d``.

Wu, Bi & McClean, "Methods for ranking information retrieval systems without relevance
judgments", SAC 2007 (as ranx implements it).
"""

from __future__ import annotations

import numpy as np

from ..registry import Inputs, register
from ._common import over_runs


@register("wmnz", __doc__, aliases=("weighted_mnz",), weights=True)
def wmnz(inputs: Inputs) -> np.ndarray:
    weights = np.broadcast_to(inputs.weights, inputs.score.shape)
    return over_runs(inputs, inputs.score) * over_runs(inputs, weights)
