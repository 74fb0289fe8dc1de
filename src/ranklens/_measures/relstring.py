"""The judgments of the top k as a string, one character per document (trec_eval relstring)."""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from ._registry import Measure, register

DEFAULT_DEPTH = 10


def relevance_chars(d: Aligned) -> np.ndarray:
    """One character per ranked document: its level 0-9, '>' above 9, '-' when not in the
    qrels, '.' when judged with a negative value."""
    level = np.floor(d.grade).astype(np.int64)
    digits = np.array(list("0123456789"), dtype=object)
    out = np.full(d.grade.shape, "-", dtype=object)
    judged = d.judged
    out[judged & (level < 0)] = "."
    out[judged & (level > 9)] = ">"
    ok = judged & (level >= 0) & (level <= 9)
    out[ok] = digits[level[ok]]
    return out


@register("RelString", "the judgments of the top k (default 10) as text: level 0-9, '>' above 9, "
          "'-' not in the qrels, '.' judged negative; per query only", cutoff="int",
          aggregate="none", text=True, trec="relstring", trec_cut="relstring",
          trec_cutoffs=(float(DEFAULT_DEPTH),), aliases=("relstring",), family="judged",
          needs_unretrieved=False, trec_reset=True)
def relstring(a: Aligned, m: Measure) -> np.ndarray:
    k = int(m.cutoff) if m.cutoff is not None else DEFAULT_DEPTH
    chars = relevance_chars(a)
    out = np.empty(a.nq, dtype=object)
    for q in range(a.nq):
        lo = a.offsets[q]
        hi = min(a.offsets[q + 1], lo + k)
        out[q] = "".join(chars[lo:hi])
    return out
