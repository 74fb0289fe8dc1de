"""NCRR@k, normalized cumulative reciprocal rank, as Cornac computes it.

``CRR@k`` sums ``1 / rank`` over the relevant documents in the top k; NCRR divides it by the
CRR of an ideal ranking, ``sum_{i=1}^{n} 1/i`` with ``n = min(R, k, length of the ranking)``
(Cornac's ``NCRR``: ``max_nb_pos = min(len(gt_pos_items), len(truncated_pd_rank))``), so
a ranking holding every relevant document it can at its head scores 1. A query without a
relevant document in the top k scores 0. It is linear in the ranking's relevant documents,
so under ``ties="average"`` each tied group contributes its mean reciprocal rank times its
relevant share.
"""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from ._common import data, divide, rel_level
from ._registry import JUDGED_ONLY, REL, Measure, register
from ._ties import TiedGroups, cutoff_per_group


def _ideal(d: Aligned, m: Measure) -> np.ndarray:
    """CRR of the ideal ranking: the harmonic number of min(R, k, ranking length)."""
    n = np.minimum(d.num_rel(rel_level(d, m)), d.n_ret)
    if m.cutoff is not None:
        n = np.minimum(n, int(m.cutoff))
    harmonic = np.concatenate(([0.0], np.cumsum(1.0 / np.arange(1, int(n.max(initial=0)) + 1))))
    return harmonic[n]


def ncrr(a: Aligned, m: Measure) -> np.ndarray:
    d = data(a, m)
    idx = d.within(d.relevant_positions(rel_level(d, m)), m.cutoff)
    crr = np.bincount(d.qidx_at(idx), weights=1.0 / d.rank_at(idx), minlength=d.nq)
    return divide(crr, _ideal(d, m))


def _ncrr_tied(d: Aligned, m: Measure, g: TiedGroups) -> np.ndarray:
    r = g.count(d.relevant(rel_level(d, m)))
    inside = g.inside(cutoff_per_group(g, m.cutoff))
    harmonic = np.concatenate(([0.0], np.cumsum(1.0 / np.arange(1, d.n_ret.max(initial=0) + 1))))
    first = g.first_rank
    # sum of 1/rank over the group's ranks within k, times the chance each holds a relevant doc
    reciprocal = harmonic[(first - 1 + inside).astype(np.int64)] - harmonic[first - 1]
    return divide(g.per_query(r / g.size * reciprocal), _ideal(d, m))


register("NCRR", "normalized cumulative reciprocal rank (Cornac): sum of 1/rank over the "
         "relevant documents in the top k, divided by that of an ideal ranking, "
         "sum_{i <= min(R, k, ranking length)} 1/i", params=(REL, JUDGED_ONLY), cutoff="int",
         aliases=("ncrr",), family="ncrr", closed_form=_ncrr_tied)(ncrr)
