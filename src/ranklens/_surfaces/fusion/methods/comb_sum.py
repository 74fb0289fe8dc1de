"""CombSUM.

``score(d) = sum over runs r retrieving d of s_r(d)`` (a run without ``d`` adds 0).

Fox & Shaw, "Combination of multiple searches", TREC-2, 1993.
"""

from __future__ import annotations

import numpy as np

from ..registry import Inputs, register
from ._common import over_runs


@register("sum", __doc__, aliases=("combsum", "comb_sum"))
def comb_sum(inputs: Inputs) -> np.ndarray:
    return over_runs(inputs, inputs.score)
