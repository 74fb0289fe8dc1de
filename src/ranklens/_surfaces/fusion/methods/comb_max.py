"""CombMAX.

``score(d) = max over runs r retrieving d of s_r(d)``.

Under ``convention="ranx"`` a run without ``d`` counts as the score ``-1e9`` (ranx's
placeholder), which only matters when every present score is beyond it.

Fox & Shaw, "Combination of multiple searches", TREC-2, 1993.
"""

from __future__ import annotations

import numpy as np

from ..registry import Inputs, register


@register("max", __doc__, aliases=("combmax", "comb_max"))
def comb_max(inputs: Inputs) -> np.ndarray:
    absent = -1e9 if inputs.candidates.ranx else -np.inf
    return np.where(inputs.present, inputs.score, absent).max(axis=1)
