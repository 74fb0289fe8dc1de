"""Rank-biased centroids (RBC).

``score(d) = sum over runs r retrieving d of (1 - phi) * phi^(rank_r(d) - 1)`` (``phi``
required, as in ranx; Bailey et al. use 0.8 to 0.99).

Bailey, Moffat, Scholer & Thomas, "Retrieval consistency in the presence of query
variations", SIGIR 2017.
"""

from __future__ import annotations

import numpy as np

from ..registry import Inputs, register
from ._common import PHI, over_runs


@register("rbc", __doc__, aliases=("rank_biased_centroids",), params=(PHI,))
def rbc(inputs: Inputs, phi: float) -> np.ndarray:
    return over_runs(inputs, (1 - phi) * phi ** (inputs.rank - 1).astype(np.float64))
