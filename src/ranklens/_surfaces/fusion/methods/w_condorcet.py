"""Weighted Condorcet fuse.

As :mod:`condorcet`, each run's vote counting ``w_r``.

Montague & Aslam, "Condorcet fusion for improved retrieval", CIKM 2002.
"""

from __future__ import annotations

import numpy as np

from ..registry import Inputs, register
from ._pairwise import copeland


@register("w_condorcet", __doc__, aliases=("weighted_condorcet", "wcondorcet"),
          weights=True, pairwise=True)
def w_condorcet(inputs: Inputs) -> np.ndarray:
    return copeland(inputs)
