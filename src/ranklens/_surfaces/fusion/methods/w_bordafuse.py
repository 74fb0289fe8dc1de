"""Weighted Borda fuse.

``score(d) = sum over runs r of w_r * points_r(d)`` with the Borda points of
:mod:`bordafuse` (``c - rank + 1`` for a ranked document, ``(c - n_r + 1) / 2`` otherwise).

Aslam & Montague, "Models for metasearch", SIGIR 2001.
"""

from __future__ import annotations

import numpy as np

from ..registry import Inputs, register
from ._common import over_runs
from .bordafuse import _all, borda_points


@register("w_bordafuse", __doc__, aliases=("weighted_bordafuse", "wbordafuse"),
          weights=True)
def w_bordafuse(inputs: Inputs) -> np.ndarray:
    return over_runs(_all(inputs), inputs.weights * borda_points(inputs))
