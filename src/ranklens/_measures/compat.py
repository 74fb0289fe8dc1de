"""Compatibility, Compat (Clarke, Vtyurina and Smucker, TOIS 2021), as ir_measures computes it.

Compat is the rank-biased overlap (RBO, Webber et al. 2010) of the ranking with an ideal
ranking of the relevant documents, with persistence ``p``::

    RBO = sum_{i=1}^{D} p^(i-1) |I_i ∩ R_i| / i  /  sum_{i=1}^{D} p^(i-1)

``R_i`` the top i of the ranking, ``I_i`` of the ideal ranking, ``D`` the longer of the
two. The ideal ranking holds the relevant judged documents (grade >= ``rel``) by grade,
descending; within a grade, retrieved ones first in the run's order, then the others.
With ``normalize`` (the default) the value is divided by the RBO of the ideal ranking with
itself, so a ranking that is ideal scores 1.

Values follow ir_measures' ``compat`` provider, except where it orders the ideal ranking's
equal grades by score with unretrieved documents at score 0 (which puts them before
retrieved ones with a negative score); the ranking itself follows the ``ties`` option
(ir_measures breaks equal scores by doc id ascending).

A document in both rankings counts in every overlap from ``t = max(its rank, its ideal
rank)`` on, so the sum is ``sum over such documents of F(D) - F(t - 1)``, ``F(n) =
sum_{i<=n} p^(i-1) / i``. Under ``ties="average"`` the tied orders are enumerated.
"""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from ._common import data, divide, rel_level
from ._ideal import sequential_prefix
from ._registry import JUDGED_ONLY, REL, Measure, Param, Spelled, register

_P = Param("p", Spelled("float", minimum=0), 0.95,
           "persistence of the rank-biased overlap (above 1 counts as 1)")
_NORMALIZE = Param("normalize", Spelled("bool"), True, "divide by the value of the ideal ranking")


def _ideal_ranks(d: Aligned, rel: int, idx: np.ndarray, grade: np.ndarray) -> np.ndarray:
    """The place in the ideal ranking of each relevant retrieved document (``idx``,
    ascending, with ``grade``)."""
    q = d.qidx_at(idx)
    _, j_qidx, j_grade = d.judgment_rows()
    levels = np.unique(np.concatenate((grade, j_grade)))
    # judgments of a query at a higher grade come first: count them with one search on
    # (query, -grade) codes, ascending in the judgments' order (query, then grade down)
    n_levels = levels.size
    j_key = j_qidx * n_levels + (n_levels - 1 - np.searchsorted(levels, j_grade))
    key = q * n_levels + (n_levels - 1 - np.searchsorted(levels, grade))
    higher = np.searchsorted(j_key, key, side="left") - np.searchsorted(
        j_key, q * n_levels, side="left")
    counted = d.counted_judgments()
    if counted is not None:  # relevant items judged by count, at their grade
        higher = higher + np.where(counted[0][q] > grade, counted[1][q], 0)
    # within a grade, retrieved documents first, in rank order
    order = np.lexsort((idx, grade, q))
    group = np.concatenate(([True], (q[order][1:] != q[order][:-1])
                            | (grade[order][1:] != grade[order][:-1])))
    starts = np.maximum.accumulate(np.where(group, np.arange(order.size), 0))
    same = np.empty(order.size, dtype=np.int64)
    same[order] = np.arange(order.size) - starts
    return higher + same + 1


def _weight(p: float, first: int, stop: int) -> np.ndarray:
    """``p^(i-1)`` for ranks i from ``first`` to ``stop - 1``."""
    return p ** np.arange(first - 1, stop - 1, dtype=np.float64)


def compat(a: Aligned, m: Measure) -> np.ndarray:
    d = data(a, m)
    rel = rel_level(d, m)
    p = min(float(m.get("p")), 1.0)
    idx, grade = d.judged_within(None)
    keep = grade >= rel
    idx, grade = idx[keep], grade[keep]
    big_r = d.num_rel(rel)
    depth = np.maximum(d.n_ret, big_r)
    q = d.qidx_at(idx)
    both = np.maximum(d.rank_at(idx), _ideal_ranks(d, rel, idx, grade))
    # f(n) = sum of p^(i-1) / i and mass(n) = sum of p^(i-1), i <= n, added one by one:
    # read at the few n needed, not tabulated up to the deepest R (10^8 counted items)
    f_at = np.concatenate((depth[q], both - 1, depth, big_r))
    f_values = sequential_prefix(
        lambda first, stop: _weight(p, first, stop) / np.arange(first, stop), f_at,
        vanishing=p < 1.0)
    f_depth_q, f_both, f_depth, f_big_r = np.split(f_values, np.cumsum(
        [q.size, both.size, depth.size]))
    mass_depth, mass_big_r = np.split(sequential_prefix(
        lambda first, stop: _weight(p, first, stop), np.concatenate((depth, big_r)),
        vanishing=p < 1.0), [depth.size])
    overlap = np.bincount(q, weights=f_depth_q - f_both, minlength=d.nq)
    score = divide(overlap, mass_depth)
    if not m.get("normalize"):
        return score
    # the ideal ranking against itself: overlap i up to R, then R
    best = mass_big_r + big_r * (f_depth - f_big_r)
    return np.where(best > 0, divide(overlap, best), score)


register("Compat", "compatibility (Clarke et al. 2021): rank-biased overlap, persistence p, of "
         "the ranking with the ideal ranking of the relevant judged documents, normalized by "
         "the ideal's own (ir_measures Compat)", params=(_P, _NORMALIZE, REL, JUDGED_ONLY),
         aliases=("compat",), family="compat")(compat)
