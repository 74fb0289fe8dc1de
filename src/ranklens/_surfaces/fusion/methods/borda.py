"""Borda fuse (Borda count) and its weighted form.

With ``c`` the query's candidates (documents any run retrieves), run ``r`` of length ``n_r``
gives ``c - rank_r(d) + 1`` points to a document it ranks and ``(c - n_r + 1) / 2`` to one it
does not; ``score(d)`` is the (weighted) sum of the points.

Aslam & Montague, "Models for metasearch", SIGIR 2001.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..registry import Inputs, register
from ._common import over_runs


def _points(inputs: Inputs) -> np.ndarray:
    """Each run's Borda points for each candidate, shape (U, R), every cell filled."""
    size = inputs.candidates.size[:, None].astype(np.float64)
    return np.where(inputs.present, size - inputs.rank + 1, (size - inputs.length + 1) / 2)


def _summed(inputs: Inputs, points: np.ndarray) -> np.ndarray:
    # every run gives points to every candidate: sum them all
    return over_runs(replace(inputs, rank=np.ones_like(inputs.rank)), points)


@register("bordafuse", aliases=("borda", "borda_fuse", "borda_count"))
def bordafuse(inputs: Inputs) -> np.ndarray:
    """Borda fuse: ``score(d) = sum over runs r of points_r(d)``."""
    return _summed(inputs, _points(inputs))


@register("w_bordafuse", aliases=("weighted_bordafuse", "wbordafuse"), weights=True)
def w_bordafuse(inputs: Inputs) -> np.ndarray:
    """Weighted Borda fuse: ``score(d) = sum over runs r of w_r * points_r(d)``."""
    return _summed(inputs, inputs.weights * _points(inputs))
