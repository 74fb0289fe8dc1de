"""CombMNZ.

``score(d) = n(d) * sum over runs r retrieving d of s_r(d)``, ``n(d)`` the number of runs
retrieving ``d``.

Fox & Shaw, "Combination of multiple searches", TREC-2, 1993; Lee, "Analyses of multiple
evidence combination", SIGIR 1997.
"""

from __future__ import annotations

import numpy as np

from ..registry import Inputs, register
from ._common import count, over_runs


@register("mnz", __doc__, aliases=("combmnz", "comb_mnz"))
def comb_mnz(inputs: Inputs) -> np.ndarray:
    return over_runs(inputs, inputs.score) * count(inputs)
