"""The probability of relevance at each position of each run, as PosFuse and SlideFuse learn it.

:math:`P_m(p)` is the share of run ``m``'s training lists at least ``p + 1`` long whose
document at 0-based position ``p`` is relevant (an unjudged one is not): Lillis et al.
(SIGIR 2010), and SlideFuse's per-position estimate (ECIR 2008). A run's table ends at its
longest training list; past it the probability is 0.
"""

from __future__ import annotations

import numpy as np

from ._common import Training

__all__ = ["position_probs"]


def position_probs(t: Training) -> np.ndarray:
    """(R, M) table, M the longest training list of any run; zeros past a run's own longest.

    Examples
    --------
    >>> import numpy as np
    >>> from ranklens._surfaces.fusion.supervised._common import REL
    >>> t = Training.of("posfuse", (REL,), {}, np.array([0, 0, 1]), np.array([[1], [2], [1]]),
    ...                 np.array([[2], [2], [1]]), np.array([1.0, 1.0, 0.0]))
    >>> position_probs(t).tolist()
    [[0.5, 1.0]]
    """
    rank, length = t.rank, t.length
    depth = int(length.max(initial=0))
    probs = np.zeros((t.n_runs, depth))
    for r in range(t.n_runs):
        lists = length[t.starts, r][t.has[:, r]]
        if len(lists) == 0:
            continue
        longest = int(lists.max())
        # lists reaching position p: those at least p + 1 long
        reaching = np.cumsum(np.bincount(lists, minlength=longest + 1)[::-1])[::-1][1:]
        found = np.bincount(rank[t.hit[:, r], r] - 1, minlength=longest)
        probs[r, :longest] = found / reaching
    return probs
