"""Fall-out@k: the share of the ranking's non-relevant documents that the top k holds.

``FallOut@k = (non-relevant documents in the top k) / (non-relevant documents ranked)``, a
document being non-relevant when it is not judged relevant (unjudged included, as a
recommender's unobserved candidates). That is torchmetrics' ``RetrievalFallOut(top_k=k)``,
whose inputs score every candidate, so that the candidates are the ranking. (The fall-out
of IR textbooks divides by the collection's non-relevant documents, which a ranking does
not hold.) Smaller is better. A ranking without a non-relevant document scores 0
(torchmetrics' ``empty_target_action="pos"`` default gives it 1). The cutoff is required:
without one the value would be 1 for every ranking holding a non-relevant document. The
value depends on the ranking only through which documents make the top k, so under
``ties="average"`` the expected count is the relevant share of the tied group straddling k.
"""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from ._common import data, divide, rel_level
from ._registry import JUDGED_ONLY, REL, Measure, register
from ._ties import TiedGroups, expected_hits


def _depth(d: Aligned, m: Measure) -> np.ndarray:
    return d.n_ret if m.cutoff is None else np.minimum(d.n_ret, int(m.cutoff))


def _nonrelevant(d: Aligned, m: Measure) -> np.ndarray:
    relevant = np.bincount(d.qidx_at(d.relevant_positions(rel_level(d, m))), minlength=d.nq)
    return (d.n_ret - relevant).astype(np.float64)


def fall_out(a: Aligned, m: Measure) -> np.ndarray:
    d = data(a, m)
    hits = np.bincount(d.qidx_at(d.within(d.relevant_positions(rel_level(d, m)), m.cutoff)),
                       minlength=d.nq)
    return divide(_depth(d, m) - hits, _nonrelevant(d, m))


def _fall_out_tied(d: Aligned, m: Measure, g: TiedGroups) -> np.ndarray:
    return divide(_depth(d, m) - expected_hits(d, m, g), _nonrelevant(d, m))


register("FallOut", "fall-out: non-relevant documents in the top k over the non-relevant "
         "documents ranked (unjudged = non-relevant); torchmetrics RetrievalFallOut",
         params=(REL, JUDGED_ONLY), cutoff="int", cutoff_required=True,
         aliases=("fallout", "fall_out"), family="fallout", closed_form=_fall_out_tied,
         needs_unretrieved=False, lower_is_better=True)(fall_out)
