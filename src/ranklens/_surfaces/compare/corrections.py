"""Multiple-testing corrections of one family of p-values; NaN p-values stay out of it.

A NaN (a comparison with too few queries) is neither counted in m nor changed, so it does
not weaken the others' adjustment (statsmodels counts it in m for Holm and returns all-NaN
for Benjamini-Hochberg). Otherwise equal to ``statsmodels.stats.multitest.multipletests``
with ``method="holm"``, ``"bonferroni"`` and ``"fdr_bh"``.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

__all__ = ["Correction", "adjust"]

Correction = Literal["holm", "bonferroni", "fdr_bh", "none"]


def adjust(p: np.ndarray, method: Correction) -> np.ndarray:
    """Adjusted p-values (same order as ``p``).

    Holm: ``min(1, max_{j<=i} (m - j + 1) p_(j))``; Bonferroni: ``min(1, m p)``;
    Benjamini-Hochberg: ``min(1, min_{j>=i} m p_(j) / j)``, on ``p`` sorted ascending.

    Examples
    --------
    >>> import numpy as np
    >>> adjust(np.array([0.01, np.nan, 0.04]), "holm").tolist()
    [0.02, nan, 0.04]
    >>> adjust(np.array([0.01, 0.04, 0.03]), "fdr_bh").tolist()
    [0.03, 0.04, 0.04]
    """
    p = np.asarray(p, dtype=np.float64)
    out = p.copy()
    real = np.flatnonzero(~np.isnan(p))
    m = real.size
    if method == "none" or m == 0:
        return out
    values = p[real]
    if method == "bonferroni":
        out[real] = np.minimum(1.0, m * values)
        return out
    order = np.argsort(values, kind="mergesort")
    ordered = values[order]
    rank = np.arange(1, m + 1)
    if method == "holm":
        adjusted = np.minimum(1.0, np.maximum.accumulate((m - rank + 1) * ordered))
    else:
        adjusted = np.minimum(1.0, np.minimum.accumulate((m * ordered / rank)[::-1])[::-1])
    back = np.empty(m)
    back[order] = adjusted
    out[real] = back
    return out
