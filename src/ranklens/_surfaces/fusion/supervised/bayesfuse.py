r"""BayesFuse: each run's training log-odds of relevance at the document's rank band, summed
(naive Bayes over the runs).

Aslam & Montague, "Models for metasearch", SIGIR 2001, pp. 276-284,
doi:10.1145/383952.384007.

Bands (ranx's rule, which ranklens follows): the 0-based positions ``[0, 5), [5, 10),
[10, 15), [15, 20), [20, 30), [30, 100), [100, 200), [200, 500), [500, 1000)``.

Training (an unjudged document counts as not relevant). With :math:`|R_{k,q}|` the relevant
documents in band ``k`` of run ``m``'s list for training query ``q`` and :math:`|k|` the
band's nominal width (even where the list ends inside it),

.. math:: \bar p_{m,k} = \sum_q \frac{|R_{k,q}| / |k|}{Q_m}, \qquad
          O_{m,k} = \log \frac{\bar p_{m,k}}{1 - \bar p_{m,k}}

over the :math:`Q_m` training queries ``m`` has a list for; a mean of exactly 0 is raised
to 0.001, and a complement of exactly 0 too, so that every log-odds is finite.

Fusion:

.. math:: S_d = \sum_m O_{m, k(d, m)}

where a run without ``d`` contributes the floor :math:`\log(0.001/0.999)` (a band that
never held a relevant document gets the same value), as ranx does. A document at position
1000 or deeper also contributes the floor in ranklens: ranx's table ends at 1000 and reads
past it (an ``IndexError`` without numba's JIT; with it numba checks no bounds). Equal
sums are equal scores: ties are left to the caller. This is ranx's ``bayesfuse``.

Where ranx (and so ranklens) differs from the paper: the paper sums likelihood ratios
:math:`\log \Pr[r_m(d) \mid \mathrm{rel}] / \Pr[r_m(d) \mid \mathrm{irr}]`, estimated per
rank band; ranx sums each band's posterior log-odds :math:`O_{m,k}`, which is the likelihood
ratio plus run ``m``'s prior log-odds. The two rank documents alike when every run
retrieved them (the priors add the same constant); a run that lacks a document adds the
fixed floor here, not the paper's estimate for an unretrieved document.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._common import REL, Model, Training, band, band_counts, learner, padded, read_only, run_sum

__all__ = ["BOUNDS", "FLOOR", "PARAMS", "BayesFuseModel", "fuse", "learn"]

PARAMS = (REL,)

#: Band k holds the 0-based positions BOUNDS[k] <= p < BOUNDS[k + 1].
BOUNDS = np.array([0, 5, 10, 15, 20, 30, 100, 200, 500, 1000], dtype=np.int64)
_WIDTHS = np.diff(BOUNDS).astype(np.float64)

#: The log-odds of a run that lacks the document (and of a band without relevant ones).
FLOOR = math.log(0.001 / 0.999)


@dataclass(frozen=True, eq=False, repr=False)
class BayesFuseModel(Model):
    """``log_odds[r, k]``: run r's log-odds of relevance in band k (of :data:`BOUNDS`)."""

    log_odds: np.ndarray


def _fit(t: Training) -> BayesFuseModel:
    """Log-odds of relevance of each run's bands (see the module's formula)."""
    log_odds = np.full((t.n_runs, len(_WIDTHS)), FLOOR)
    for r in range(t.n_runs):
        n = int(t.has[:, r].sum())
        if n == 0:
            continue
        found = band_counts(t, r, BOUNDS)
        # each query's precision divided by the count, then summed: ranx's rounding
        mean = (found[t.has[:, r]] / _WIDTHS / n).sum(axis=0)
        mean[mean == 0] = 0.001
        rest = 1 - mean
        rest[rest == 0] = 0.001
        log_odds[r] = np.log(mean / rest)
    return BayesFuseModel(log_odds=read_only(log_odds))


learn = learner("bayesfuse", PARAMS, _fit)


def fuse(model: BayesFuseModel, query: np.ndarray, doc: np.ndarray, rank: np.ndarray,
         length: np.ndarray, score: np.ndarray) -> np.ndarray:
    """BayesFuse scores of the rows: higher is better; a run without the doc adds the floor.

    Examples
    --------
    >>> m = learn(np.zeros(5, dtype=np.int64), np.arange(5), np.arange(1, 6)[:, None],
    ...           np.full((5, 1), 5), np.full((5, 1), np.nan), np.array([1.0, 0, 0, 0, 0]))
    >>> round(float(m.log_odds[0, 0]), 6) == round(float(np.log(0.2 / 0.8)), 6)
    True
    >>> m = BayesFuseModel(log_odds=np.array([[1.0] + [FLOOR] * 8, [2.0] + [FLOOR] * 8]))
    >>> s = fuse(m, np.zeros(2), np.arange(2), np.array([[1, 1], [2, 0]]),
    ...          np.array([[2, 1], [2, 1]]), np.full((2, 2), np.nan))
    >>> s.tolist() == [3.0, 1.0 + FLOOR]
    True
    """
    table, rank = padded(model.log_odds, FLOOR), np.asarray(rank)
    return run_sum("bayesfuse", len(table), rank, FLOOR,
                   lambda r, rows: table[r, band(BOUNDS, rank[rows, r] - 1)])
