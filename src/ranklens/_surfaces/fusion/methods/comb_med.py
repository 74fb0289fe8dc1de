"""CombMED.

``score(d) = median over runs r retrieving d of s_r(d)`` (the mean of the two middle
scores for an even number of runs).

Fox & Shaw, "Combination of multiple searches", TREC-2, 1993.
"""

from __future__ import annotations

import numpy as np

from ..registry import Inputs, register
from ._common import count


@register("med", __doc__, aliases=("combmed", "comb_med"))
def comb_med(inputs: Inputs) -> np.ndarray:
    # absent scores sort last (inf); the middle of the n present ones is then read by index
    s = np.sort(np.where(inputs.present, inputs.score, np.inf), axis=1)
    n = count(inputs).astype(np.int64)
    rows = np.arange(s.shape[0])
    low = s[rows, np.maximum((n - 1) // 2, 0)]
    high = s[rows, np.maximum(n // 2, 0)]
    return np.where(n % 2 == 1, low, (low + high) / 2)
