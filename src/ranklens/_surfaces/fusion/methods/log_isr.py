"""Logarithmic inverse square rank (log-ISR).

``score(d) = log(n(d)) * sum over runs r retrieving d of 1 / rank_r(d)^2``: a document one
run alone retrieves scores 0.

Mourão, Martins & Magalhães, "Multimodal medical information retrieval with unsupervised
rank fusion", Computerized Medical Imaging and Graphics 39, 2015.
"""

from __future__ import annotations

import numpy as np

from ..registry import Inputs, register
from ._common import count, over_runs


@register("log_isr", __doc__, aliases=("logisr",))
def log_isr(inputs: Inputs) -> np.ndarray:
    with np.errstate(divide="ignore"):
        return over_runs(inputs, 1.0 / inputs.rank.astype(np.float64) ** 2) \
            * np.log(count(inputs))
