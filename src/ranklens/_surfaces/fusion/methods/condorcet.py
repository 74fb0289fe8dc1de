"""Condorcet fuse and its weighted form: pairwise majority votes, vectorized over queries.

For two candidates ``x`` and ``y`` of a query, run ``r`` votes for ``x`` when it ranks ``x``
above ``y`` (a ranked document is above an unranked one); a run that ranks neither does not
vote. ``x`` beats ``y`` when its votes (weighted) outnumber ``y``'s. A candidate's Copeland
score is its number of wins plus half its draws. When the majority relation is a strict
order (no cycle, no draw), sorting by Copeland score gives that order.

ranklens scores each document by its Copeland score, so documents the majority cannot
separate (draws, cycles) tie; under ``convention="ranx"`` the scores are ``c - position``
(``c`` candidates), ranx's form, with the order by Copeland score and ties in arrival order.

Queries are padded to the longest one and processed in blocks, so the work is
``sum over queries of n^2 * R`` array cells with no loop over queries.

Montague & Aslam, "Condorcet fusion for improved retrieval", CIKM 2002.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..registry import Inputs, register

__all__ = ["copeland"]

_CELLS = 4_000_000  # the array cells one block may hold (memory bound)


def copeland(inputs: Inputs) -> np.ndarray:
    """The Copeland score of each candidate row, shape (U,)."""
    c = inputs.candidates
    sizes = np.diff(c.starts)
    out = np.zeros(c.query.size)
    if out.size == 0:
        return out
    width = int(sizes.max())
    local = np.arange(c.query.size) - np.repeat(c.starts[:-1], sizes)
    block = max(1, _CELLS // max(width * width, 1))
    rank = np.where(inputs.present, inputs.rank, np.iinfo(np.int64).max)
    for q0 in range(0, sizes.size, block):
        q1 = min(q0 + block, sizes.size)
        lo, hi = c.starts[q0], c.starts[q1]
        slot_q = np.repeat(np.arange(q1 - q0), sizes[q0:q1])
        votes = np.zeros((q1 - q0, width, width))
        for r in range(rank.shape[1]):
            grid = np.full((q1 - q0, width), np.iinfo(np.int64).max)
            grid[slot_q, local[lo:hi]] = rank[lo:hi, r]
            votes += inputs.weights[r] * (grid[:, :, None] < grid[:, None, :])
        against = votes.transpose(0, 2, 1)
        valid = np.arange(width)[None, :] < sizes[q0:q1, None]
        pair = valid[:, :, None] & valid[:, None, :]
        pair &= ~np.eye(width, dtype=bool)[None]
        wins = ((votes > against) & pair).sum(axis=2)
        draws = ((votes == against) & pair).sum(axis=2)
        out[lo:hi] = (wins + 0.5 * draws)[slot_q, local[lo:hi]]
    return out


@register("condorcet", aliases=("condorcet_fuse", "condorcetfuse"), pairwise=True)
def condorcet(inputs: Inputs) -> np.ndarray:
    """Condorcet fuse: each run's vote counts 1."""
    return copeland(replace(inputs, weights=np.ones_like(inputs.weights)))


@register("w_condorcet", aliases=("weighted_condorcet", "wcondorcet"), weights=True,
          pairwise=True)
def w_condorcet(inputs: Inputs) -> np.ndarray:
    """Weighted Condorcet fuse: each run's vote counts ``w_r``."""
    return copeland(inputs)
