"""CombMAX.

``score(d) = max over runs r retrieving d of s_r(d)``.

Fox & Shaw, "Combination of multiple searches", TREC-2, 1993.
"""

from __future__ import annotations

import numpy as np

from ..registry import Inputs, register


@register("max", __doc__, aliases=("combmax", "comb_max"))
def comb_max(inputs: Inputs) -> np.ndarray:
    return np.where(inputs.present, inputs.score, -np.inf).max(axis=1)
