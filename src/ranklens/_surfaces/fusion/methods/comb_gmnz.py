"""CombGMNZ.

``score(d) = n(d)^gamma * sum over runs r retrieving d of s_r(d)``: CombSUM at
``gamma = 0``, CombMNZ at ``gamma = 1`` (``gamma`` is required, as in ranx).

Joon Ho Lee, "Analyses of multiple evidence combination", SIGIR 1997.
"""

from __future__ import annotations

import numpy as np

from ..registry import Inputs, Number, Param, register
from ._common import count, over_runs

GAMMA = Param("gamma", Number(), None, "the exponent of the number of runs")


@register("gmnz", __doc__, aliases=("combgmnz", "comb_gmnz"), params=(GAMMA,))
def comb_gmnz(inputs: Inputs, gamma: float) -> np.ndarray:
    return over_runs(inputs, inputs.score) * count(inputs) ** gamma
