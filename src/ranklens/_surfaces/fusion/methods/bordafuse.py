"""Borda fuse (Borda count).

With ``c`` the query's candidates (documents any run retrieves), run ``r`` of length ``n_r``
gives ``c - rank_r(d) + 1`` points to a document it ranks and ``(c - n_r + 1) / 2`` to one it
does not; ``score(d)`` is the sum of the points.

Aslam & Montague, "Models for metasearch", SIGIR 2001.
"""

from __future__ import annotations

import numpy as np

from ..registry import Inputs, register
from ._common import over_runs


def borda_points(inputs: Inputs) -> np.ndarray:
    """Each run's Borda points for each candidate, shape (U, R), every cell filled."""
    size = inputs.candidates.size[:, None].astype(np.float64)
    return np.where(inputs.present, size - inputs.rank + 1, (size - inputs.length + 1) / 2)


@register("bordafuse", __doc__, aliases=("borda", "borda_fuse", "borda_count"))
def bordafuse(inputs: Inputs) -> np.ndarray:
    return over_runs(_all(inputs), borda_points(inputs))


def _all(inputs: Inputs) -> Inputs:
    # every run gives points to every candidate: sum them all
    return Inputs(inputs.candidates, inputs.score, np.ones_like(inputs.rank), inputs.length,
                  inputs.weights, inputs.train)
