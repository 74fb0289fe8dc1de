r"""MAPFuse: each run's training MAP over the document's rank, summed.

Lillis, Zhang, Toolan, Collier, Leonard & Dunnion, "Estimating probabilities for effective
data fusion", SIGIR 2010, pp. 347-354, doi:10.1145/1835449.1835508.

Training: run ``m``'s mean average precision over the :math:`Q_m` training queries it has a
list for,

.. math:: \mathrm{MAP}_m = \frac{1}{Q_m} \sum_q \frac{1}{|\mathrm{Rel}_q|}
          \sum_{p:\ d_p \in \mathrm{Rel}_q} \frac{|\{i \le p : d_i \in \mathrm{Rel}_q\}|}{p}

with :math:`\mathrm{Rel}_q` the documents judged ``rel`` or above for ``q`` (retrieved by a
run or not: the caller passes their number per row as ``relevant``), ranked positions ``p``
1-based; a query without relevant judgments has AP 0 and still counts (as in ranx, whose
``evaluate(qrels, run, "map")`` this is, with the full list: no cutoff).

Fusion:

.. math:: S_d = \sum_m \frac{\mathrm{MAP}_m}{\mathrm{rank}_m(d)}

over the runs that retrieved ``d``; a run without it adds 0. Equal sums are equal scores:
ties are left to the caller. This is ranx's ``mapfuse``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..order import group_positions
from ._common import REL, Model, Training, read_only, run_sum

__all__ = ["PARAMS", "MAPFuseModel", "fuse", "learn"]

PARAMS = (REL,)


@dataclass(frozen=True, eq=False, repr=False)
class MAPFuseModel(Model):
    """``map[r]``: run r's MAP over its training queries."""

    map: np.ndarray


def learn(query: np.ndarray, doc: np.ndarray, rank: np.ndarray, length: np.ndarray,
          score: np.ndarray, grade: np.ndarray, *, relevant: np.ndarray,
          **params: object) -> MAPFuseModel:
    """Each run's MAP on the training rows.

    ``relevant`` (int64, one per row) is the number of documents of the row's query judged
    ``rel`` or above in the training judgments, including those no run retrieved.

    Examples
    --------
    >>> m = learn(np.zeros(2, dtype=np.int64), np.arange(2), np.array([[1], [2]]),
    ...           np.array([[2], [2]]), np.full((2, 1), np.nan), np.array([0.0, 1.0]),
    ...           relevant=np.array([2, 2]))
    >>> m.map.tolist()
    [0.25]
    """
    t = Training.of("mapfuse", PARAMS, params, query, rank, length, grade)
    n_relevant = np.asarray(relevant)[t.starts].astype(np.float64)
    maps = np.zeros(t.n_runs)
    for r in range(t.n_runs):
        n = int(t.has[:, r].sum())
        if n == 0:
            continue
        rows = np.flatnonzero(t.hit[:, r])
        position = t.rank[rows, r]
        order = np.lexsort((position, t.group[rows]))
        g, position = t.group[rows][order], position[order]
        # the hit's number among its query's hits, in rank order
        seen = group_positions(g) + 1
        total = np.bincount(g, seen / position, minlength=t.n_queries)
        ap = np.divide(total, n_relevant, out=np.zeros(t.n_queries), where=n_relevant > 0)
        maps[r] = ap[t.has[:, r]].mean()
    return MAPFuseModel(map=read_only(maps))


def fuse(model: MAPFuseModel, query: np.ndarray, doc: np.ndarray, rank: np.ndarray,
         length: np.ndarray, score: np.ndarray) -> np.ndarray:
    """MAPFuse scores of the rows: higher is better, a run without the doc adds 0.

    Examples
    --------
    >>> m = MAPFuseModel(map=np.array([0.5, 0.25]))
    >>> fuse(m, np.zeros(2), np.arange(2), np.array([[1, 2], [2, 0]]),
    ...      np.array([[2, 2], [2, 2]]), np.full((2, 2), np.nan)).tolist()
    [0.625, 0.25]
    """
    rank = np.asarray(rank)
    return run_sum("mapfuse", len(model.map), rank, 0.0,
                   lambda r, rows: model.map[r] / rank[rows, r])
