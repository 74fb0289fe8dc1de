"""Small helpers shared by the measure kernels."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .._align import Aligned
    from ._registry import Measure

__all__ = ["cutoff_mask", "data", "divide", "rel_level"]


def rel_level(a: Aligned, m: Measure) -> int:
    """The relevance threshold in force for ``m``: its ``rel`` parameter or the option."""
    return int(m.get("rel", a.policies.rel))


def data(a: Aligned, m: Measure) -> Aligned:
    """The alignment ``m`` reads: judged-only when its ``judged_only`` parameter says so."""
    names = {p.name for p in m.definition.params}
    if "judged_only" in names:
        return a.for_measure(m.get("judged_only", False))
    return a


def cutoff_mask(a: Aligned, k: float | None) -> np.ndarray | None:
    """Mask of ranked docs within the top ``k`` (None when there is no cutoff)."""
    if k is None:
        return None
    return a.rank <= k


def divide(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num / den`` with 0 where ``den`` is 0 (trec_eval's convention)."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out = np.zeros(np.broadcast(num, den).shape, dtype=np.float64)
    np.divide(num, den, out=out, where=den != 0)
    return out
