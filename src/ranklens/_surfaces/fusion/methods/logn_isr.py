"""Log-normalised inverse square rank (logN-ISR).

``score(d) = log(n(d) + sigma) * sum over runs r retrieving d of 1 / rank_r(d)^2``,
``sigma = 0.01`` by default, so a document one run alone retrieves keeps a small score.

Mourão, Martins & Magalhães, "Multimodal medical information retrieval with unsupervised
rank fusion", Computerized Medical Imaging and Graphics 39, 2015.
"""

from __future__ import annotations

import numpy as np

from ..registry import Inputs, Number, Param, register
from ._common import count, over_runs

SIGMA = Param("sigma", Number(0.0, 1.0), 0.01, "added to the count of runs in the logarithm")


@register("logn_isr", __doc__, aliases=("lognisr",), params=(SIGMA,))
def logn_isr(inputs: Inputs, sigma: float) -> np.ndarray:
    with np.errstate(divide="ignore"):
        return over_runs(inputs, 1.0 / inputs.rank.astype(np.float64) ** 2) \
            * np.log(count(inputs) + sigma)
