"""Linear set utility (trec_eval utility, the TREC filtering track's measure)."""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from ._common import data, rel_level
from ._registry import JUDGED_ONLY, REL, Measure, Param, Spelled, register

_COEFFS = (
    Param("a", Spelled("float"), 1.0, "credit per relevant retrieved document"),
    Param("b", Spelled("float"), -1.0, "credit per non-relevant retrieved document"),
    Param("c", Spelled("float"), 0.0, "credit per relevant document not retrieved"),
    Param("d", Spelled("float"), 0.0, "credit per non-relevant document not retrieved (needs the "
          "collection_size option)"),
)


def _reads_relevant_count(m: Measure) -> bool:
    # R enters only through the c and d credits
    return float(m.get("c")) != 0.0 or float(m.get("d")) != 0.0


@register("Utility", "a*RR + b*(n-RR) + c*(R-RR) + d*(N+RR-n-R), RR relevant retrieved, n "
          "retrieved, R relevant, N the collection_size option; 0 for queries absent from the "
          "run", params=(*_COEFFS, REL, JUDGED_ONLY), trec="utility", aliases=("utility",),
          family="utility", order_free="always", needs_unretrieved=_reads_relevant_count,
          trec_reset=True)
def utility(a: Aligned, m: Measure) -> np.ndarray:
    d = data(a, m)
    rel = rel_level(d, m)
    hits = d.seg_count(d.relevant(rel)).astype(np.float64)
    n = d.n_ret.astype(np.float64)
    big_r = d.num_rel(rel).astype(np.float64)
    coll = float(d.policies.collection_size)
    value = (
        float(m.get("a")) * hits
        + float(m.get("b")) * (n - hits)
        + float(m.get("c")) * (big_r - hits)
        + float(m.get("d")) * (coll + hits - n - big_r)
    )
    # trec_eval -c resets utility of a query absent from the run to 0
    return np.where(d.missing, 0.0, value)
