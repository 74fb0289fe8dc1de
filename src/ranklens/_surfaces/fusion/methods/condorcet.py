"""Condorcet fuse.

Documents are ordered by pairwise majority: ``x`` above ``y`` when more runs rank ``x``
above ``y`` than ``y`` above ``x`` (see :mod:`._pairwise` for unranked documents). ranklens
scores each document by its Copeland score (wins + draws / 2), so documents the majority
cannot separate (draws, cycles) tie; under ``convention="ranx"`` the scores are
``c - position`` (``c`` candidates), ranx's form, with the order by Copeland score and
ties in arrival order.

Montague & Aslam, "Condorcet fusion for improved retrieval", CIKM 2002.
"""

from __future__ import annotations

import numpy as np

from ..registry import Inputs, register
from ._pairwise import copeland


@register("condorcet", __doc__, aliases=("condorcet_fuse", "condorcetfuse"), pairwise=True)
def condorcet(inputs: Inputs) -> np.ndarray:
    return copeland(_unweighted(inputs))


def _unweighted(inputs: Inputs) -> Inputs:
    return Inputs(inputs.candidates, inputs.score, inputs.rank, inputs.length,
                  np.ones_like(inputs.weights), inputs.train)
