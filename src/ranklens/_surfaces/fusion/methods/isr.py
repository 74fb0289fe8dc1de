"""Inverse square rank (ISR).

``score(d) = n(d) * sum over runs r retrieving d of 1 / rank_r(d)^2``, ``n(d)`` the number of
runs retrieving ``d`` (CombMNZ of ``1 / rank^2``).

Mourão, Martins & Magalhães, "Inverse square rank fusion for multimodal search", CBMI 2014.
"""

from __future__ import annotations

import numpy as np

from ..registry import Inputs, register
from ._common import count, over_runs


@register("isr", __doc__, aliases=("inverse_square_rank",))
def isr(inputs: Inputs) -> np.ndarray:
    with np.errstate(divide="ignore"):
        return over_runs(inputs, 1.0 / inputs.rank.astype(np.float64) ** 2) * count(inputs)
