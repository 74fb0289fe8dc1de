"""Mixed.

``score(d) = sqrt(n(d)) * sum over runs r retrieving d of w_r * s_r(d)``.

Wu, "Applying statistical principles to data fusion in information retrieval", Expert
Systems with Applications 36, 2009.
"""

from __future__ import annotations

import numpy as np

from ..registry import Inputs, register
from ._common import count, over_runs


@register("mixed", __doc__, weights=True)
def mixed(inputs: Inputs) -> np.ndarray:
    return over_runs(inputs, inputs.score * inputs.weights) * np.sqrt(count(inputs))
