"""Which value is the best of a column: compared to 12 significant digits.

Two runs with 348 of 430 relevant in the top 10 have the same P@10, yet their means may
differ in the last bit (the sums run over different values). Every table that bolds the
best value (results on a terminal, comparisons, the report) decides ties with :func:`tie_key`
so that such runs are both bold.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

__all__ = ["TIE_DIGITS", "best_key", "tie_key"]

#: Values equal to this many significant digits are the same value.
TIE_DIGITS = 12


def tie_key(value: float) -> float:
    """``value`` rounded to :data:`TIE_DIGITS` significant digits (NaN stays NaN).

    Examples
    --------
    >>> tie_key(348 / 430) == tie_key(sum([0.8] * 3 + [0.8093023255813953]) - 2.4)
    True
    """
    return value if math.isnan(value) else float(f"{value:.{TIE_DIGITS}g}")


def best_key(values: Iterable[float], lower_is_better: bool = False) -> float | None:
    """The best :func:`tie_key` of the values that are not NaN (None if there is none); a
    value is the best when its ``tie_key`` equals it.

    Examples
    --------
    >>> best = best_key([0.5, 0.1 + 0.2, 0.3])
    >>> best, tie_key(0.1 + 0.2) == best_key([0.3, 0.1 + 0.2])
    (0.5, True)
    """
    keys = [tie_key(v) for v in values if not math.isnan(v)]
    if not keys:
        return None
    return min(keys) if lower_is_better else max(keys)
