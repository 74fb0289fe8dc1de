"""Weighted sum (weighted CombSUM, linear combination).

``score(d) = sum over runs r of w_r * s_r(d)``, a run without ``d`` adding 0.

Bartell, Cottrell & Belew, "Automatic combination of multiple ranked retrieval systems",
SIGIR 1994.
"""

from __future__ import annotations

import numpy as np

from ..registry import Inputs, register
from ._common import over_runs


@register("wsum", __doc__, aliases=("weighted_sum", "combwsum"), weights=True)
def wsum(inputs: Inputs) -> np.ndarray:
    return over_runs(inputs, inputs.weights * inputs.score)
