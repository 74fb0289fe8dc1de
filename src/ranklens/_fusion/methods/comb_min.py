"""CombMIN.

``score(d) = min over runs r retrieving d of s_r(d)``.

Fox & Shaw, "Combination of multiple searches", TREC-2, 1993.
"""

from __future__ import annotations

import numpy as np

from ..registry import Inputs, register


@register("min", __doc__, aliases=("combmin", "comb_min"))
def comb_min(inputs: Inputs) -> np.ndarray:
    return np.where(inputs.present, inputs.score, np.inf).min(axis=1)
