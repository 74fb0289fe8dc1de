"""ROC AUC of each ranking: the share of (relevant, non-relevant) pairs ranked in order.

For a query whose top k holds r relevant documents and N others (unjudged ones count as
non-relevant, as a recommender's unobserved items do),

    AUC@k = 1 - (sum over the relevant documents of the non-relevant ones above them) / (N r),

the Mann-Whitney statistic of the ranking. It is

- scikit-learn's ``roc_auc_score`` of the query's labels and scores, and RecBole's per-user
  AUC, under ``ties="average"`` (a tied pair counts one half: the mean over the orders of
  each tied group);
- ir_measures' ``Accuracy@k`` (its ``accuracy`` provider: "the probability that a relevant
  document is ranked before a non relevant one", over the retrieved documents), hence the
  alias ``Accuracy``.

AUC is undefined when the top k holds no relevant or no non-relevant document. Here it is 0
with no relevant document (nothing ranked well) and 1 with no non-relevant one (nothing
misordered); scikit-learn raises, ir_measures leaves a query without a relevant retrieved
document out (and divides by zero without a non-relevant one), RecBole's GAUC leaves such
users out: GAUC, below, weights them 0.

GAUC (RecBole; Zhou et al., KDD 2018) is the mean of the per-query AUC weighted by each
query's relevant documents (RecBole's ``pos_len``), over the queries where AUC is defined:
its per-query values are AUC's, its weights (the registry's ``weight``) make the mean.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._model.aligned import Aligned
from ._common import data, divide, rel_level
from ._registry import JUDGED_ONLY, REL, Measure, register
from ._ties import NoBound, NoClosedForm, TiedGroups

__all__ = ["auc_parts", "pair_auc"]


def pair_auc(misordered: np.ndarray, rel: np.ndarray, nonrel: np.ndarray) -> np.ndarray:
    """``1 - misordered / (rel * nonrel)``, with 0 where ``rel`` is 0 and 1 where ``nonrel``
    is 0 (the undefined cases, see the module docstring)."""
    pairs = rel * nonrel
    undefined = np.where(rel > 0, 1.0, 0.0)
    return np.where(pairs > 0, 1.0 - divide(misordered, pairs), undefined)


def auc_parts(a: Aligned, m: Measure) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per query: misordered pairs, relevant and non-relevant documents in the top k."""
    d = data(a, m)
    idx = d.within(d.relevant_positions(rel_level(d, m)), m.cutoff)
    q = d.qidx_at(idx)
    running = np.arange(1, idx.size + 1) - np.searchsorted(q, q, side="left")
    # the non-relevant documents above a relevant one: its rank less the relevant ones above
    above = (d.rank_at(idx) - running).astype(np.float64)
    misordered = np.bincount(q, weights=above, minlength=d.nq)
    rel = np.bincount(q, minlength=d.nq).astype(np.float64)
    depth = d.n_ret if m.cutoff is None else np.minimum(d.n_ret, int(m.cutoff))
    return misordered, rel, depth - rel


def roc_auc(a: Aligned, m: Measure) -> np.ndarray:
    return pair_auc(*auc_parts(a, m))


def _auc_tied(d: Aligned, m: Measure, g: TiedGroups) -> np.ndarray:
    if m.cutoff is not None:
        raise NoClosedForm  # which documents make the top k varies with the order
    relevant = d.relevant(rel_level(d, m))
    r = g.count(relevant)
    n = g.size - r
    # a relevant document has the non-relevant ones of earlier groups above it, and half
    # of those of its own group on average
    misordered = g.per_query(r * (g.before(n) + n / 2.0))
    rel = g.per_query(r)
    return pair_auc(misordered, rel, g.per_query(n.astype(np.float64)))


def _auc_bound(d: Aligned, m: Measure, g: TiedGroups, optimistic: bool) -> np.ndarray:
    if m.cutoff is not None:
        raise NoBound("with a cutoff, which tied documents make the top k is not defined; "
                      "use AUC without a cutoff, or ties='worst' / 'best'")
    relevant = d.relevant(rel_level(d, m))
    r = g.count(relevant)
    n = g.size - r
    # a tied pair is misordered under "pessimistic" (scikit-learn's label_ranking_loss
    # counts it so), in order under "optimistic"
    misordered = g.per_query(r * (g.before(n) + (0.0 if optimistic else n)))
    rel = g.per_query(r)
    return pair_auc(misordered, rel, g.per_query(n.astype(np.float64)))


#: what AUC and GAUC (one kernel, two aggregates) declare alike
_AUC: dict[str, Any] = {"params": (REL, JUDGED_ONLY), "cutoff": "int", "family": "auc",
                        "closed_form": _auc_tied, "tie_bound": _auc_bound,
                        "needs_unretrieved": False}
register("AUC", "ROC AUC of the ranking: share of (relevant, non-relevant) pairs in the top k "
         "ranked in order (unjudged = non-relevant); 0 without a relevant document, 1 "
         "without a non-relevant one (sklearn roc_auc_score under ties=average, "
         "ir_measures Accuracy)", aliases=("auc", "roc_auc", "accuracy"), **_AUC)(roc_auc)


def _defined_weight(a: Aligned, m: Measure) -> np.ndarray:
    """RecBole's GAUC weight: the query's relevant documents, 0 where AUC is undefined."""
    _, rel, nonrel = auc_parts(a, m)
    return np.where(nonrel > 0, rel, 0.0)


register("GAUC", "group AUC (RecBole): the mean of each query's AUC weighted by its relevant "
         "documents in the top k, over the queries with both relevant and non-relevant ones",
         aliases=("gauc",), weight=_defined_weight, **_AUC)(roc_auc)
