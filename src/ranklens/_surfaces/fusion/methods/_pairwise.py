"""Pairwise majority votes of the runs, for the Condorcet methods, vectorized over queries.

For two candidates ``x`` and ``y`` of a query, run ``r`` votes for ``x`` when it ranks ``x``
above ``y`` (a ranked document is above an unranked one); a run that ranks neither does not
vote. ``x`` beats ``y`` when its votes (weighted) outnumber ``y``'s. A candidate's Copeland
score is its number of wins plus half its draws. When the majority relation is a strict
order (no cycle, no draw), sorting by Copeland score gives that order.

Queries are padded to the longest one and processed in blocks, so the work is
``sum over queries of n^2 * R`` array cells with no loop over queries.
"""

from __future__ import annotations

import numpy as np

from ..registry import Inputs

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
