"""Precision at a multiple of R (trec_eval Rprec_mult)."""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from ._common import data, divide, rel_level
from ._registry import JUDGED_ONLY, REL, Measure, register

_MULTIPLES = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)


@register("RprecMult", "precision at c = (long)(x*R + 0.9) documents (x the cutoff): relevant "
          "in the top c / c, c fixed even when fewer are retrieved; 0 when c = 0",
          params=(REL, JUDGED_ONLY), cutoff="float", cutoff_required=True,
          trec_cut="Rprec_mult", trec_cutoffs=_MULTIPLES, aliases=("rprec_mult",),
          family="precision")
def rprec_mult(a: Aligned, m: Measure) -> np.ndarray:
    d = data(a, m)
    rel = rel_level(d, m)
    # trec_eval truncates x*R + 0.9 here (it switched only iprec_at_recall to lround)
    depth = np.trunc(float(m.cutoff or 0.0) * d.num_rel(rel).astype(np.float64) + 0.9)
    depth = depth.astype(np.int64)
    hits = d.seg_count(d.relevant(rel) & (d.rank <= depth[d.qidx]))
    return divide(hits, depth)
