"""CombANZ.

``score(d) = (sum over runs r retrieving d of s_r(d)) / n(d)``: the mean over the runs that
retrieve ``d``.

Fox & Shaw, "Combination of multiple searches", TREC-2, 1993.
"""

from __future__ import annotations

import numpy as np

from ..registry import Inputs, register
from ._common import count, over_runs


@register("anz", __doc__, aliases=("combanz", "comb_anz"))
def comb_anz(inputs: Inputs) -> np.ndarray:
    return over_runs(inputs, inputs.score) / count(inputs)
