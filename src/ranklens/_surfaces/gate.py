"""A regression gate for CI: is a candidate significantly worse than a baseline by more
than a margin, and can the test set tell?"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .power import detectable_difference

if TYPE_CHECKING:
    from .compare.result import Comparison

__all__ = ["FAIL", "PASS", "TOO_SMALL", "gate"]

#: Exit statuses: 2 is the command line's usage error.
PASS, FAIL, TOO_SMALL = 0, 1, 3

#: Power at which a test set must detect a margin-sized regression to decide.
GATE_POWER = 0.8


def gate(comparison: Comparison, baseline: str, margin: float) -> tuple[int, list[str]]:
    """The gate's status and one line per failure (or per pair too small to decide).

    A pair fails when the candidate is significantly worse than ``baseline`` (adjusted p
    below alpha) and its mean difference is worse than ``-margin``. A pair that does not
    fail is too small to decide when its queries cannot detect a ``margin``-sized
    difference with power 0.8 (paired t-test design on its differences' sd); ``margin`` 0
    skips that check. Status: :data:`FAIL` if any pair fails, else :data:`TOO_SMALL` if any
    is too small, else :data:`PASS`.
    """
    fails, small = [], []
    for p in comparison.pairs:
        if p.baseline != baseline:
            continue
        sign = -1 if p.measure in comparison.lower_is_better else 1
        worse = -sign * p.difference
        if p.significant and sign * p.direction < 0 and worse > margin:
            fails.append(f"FAIL {p.measure}: {p.system} is {worse:.4f} worse than "
                         f"{baseline} (margin {margin:g}, adjusted p {p.p_adjusted:.3g}, "
                         f"{p.n} queries)")
            continue
        d = np.array(list(p.per_query().values())) if p.source is not None else np.array([])
        d = d[~np.isnan(d)]
        sd = float(np.std(d, ddof=1)) if d.size > 1 else float("inf")
        needs = detectable_difference(d.size, comparison.alpha, GATE_POWER) * sd
        if margin > 0 and not needs <= margin:
            small.append(f"TOO SMALL {p.measure}: {p.system} against {baseline}: "
                         f"{d.size} queries detect {needs:.4f} at power {GATE_POWER:g}, "
                         f"not the margin {margin:g}; add queries or widen --margin")
    return (FAIL if fails else TOO_SMALL if small else PASS), fails + small
