"""Paired differences with float noise snapped away, and win/tie/loss counts.

Per-query values such as P@10 = hits/10 are not exact in binary, so 0.3 - 0.2 and
0.2 - 0.1 differ in the last bit: tied differences would count as distinct, and a mean
that is exactly 0 would not be. :func:`snap` restores the ties every test assumes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Concatenate, ParamSpec, TypeVar

import numpy as np

__all__ = ["RELATIVE_TIE", "compared", "degenerate", "snap", "wins_ties_losses"]

_P = ParamSpec("_P")
_R = TypeVar("_R")
# a test or interval: a function of the differences (and options)
_OnDifferences = Callable[Concatenate[np.ndarray, _P], _R]

#: Differences closer than this times the largest |value| of either system are equal.
RELATIVE_TIE = 1e-12


def snap(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``x - y`` with magnitudes within ``1e-12 * max(|x|, |y|)`` of each other made equal.

    The magnitudes are sorted; one whose gap to the previous is at most the tolerance joins
    that run, and every member of a run takes the run's first (smallest) magnitude. A run
    starting within the tolerance of 0 becomes 0. Signs are kept. On data without near
    ties the result is ``x - y`` bit for bit.

    Examples
    --------
    >>> import numpy as np
    >>> d = snap(np.array([0.3, 0.2, 0.4, 0.5]), np.array([0.2, 0.1, 0.3, 0.5]))
    >>> d.tolist()
    [0.09999999999999998, 0.09999999999999998, 0.09999999999999998, 0.0]
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    d = x - y
    if d.size == 0:
        return d
    scale = max(float(np.max(np.abs(x))), float(np.max(np.abs(y))))
    tau = RELATIVE_TIE * scale
    magnitude = np.abs(d)
    order = np.argsort(magnitude, kind="mergesort")
    ordered = magnitude[order]
    starts = np.empty(ordered.size, dtype=bool)
    starts[0] = True
    starts[1:] = np.diff(ordered) > tau
    heads = ordered[starts]
    heads[heads <= tau] = 0.0
    snapped = np.empty_like(d)
    snapped[order] = heads[np.cumsum(starts) - 1]
    # -0.0 + 0.0 is +0.0: a zero difference has no sign
    return np.where(d < 0, -snapped, snapped) + 0.0


def compared(values: np.ndarray, pairs: list[tuple[int, int]], together: bool
             ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The queries each pair compares and their snapped differences, system - baseline.

    ``values`` is ``(queries, runs)`` (NaN: no value), each pair the columns ``(system,
    baseline)``. A pair compares the queries both runs have a value for; ``together`` (a
    Tukey test: one test over all systems) those every run has a value for.

    Examples
    --------
    >>> import numpy as np
    >>> kept, d = compared(np.array([[0.5, 0.25], [np.nan, 1.0], [1.0, 1.0]]), [(0, 1)], False)
    >>> kept[0].tolist(), d[0].tolist()
    ([True, False, True], [0.25, 0.0])
    """
    complete = ~np.isnan(values).any(axis=1) if together else None
    kept = [complete if complete is not None
            else ~np.isnan(values[:, s]) & ~np.isnan(values[:, b]) for s, b in pairs]
    return kept, [snap(values[k, s], values[k, b]) for (s, b), k in zip(pairs, kept, strict=True)]


def degenerate(identical: _R, too_few: _R,
               ) -> Callable[[_OnDifferences[_P, _R]], _OnDifferences[_P, _R]]:
    """Decorator of a test or interval on the differences ``d`` (its first argument): it
    gives ``identical`` when every difference is 0 (the systems agree on every query) and
    ``too_few`` (NaN) with fewer than two differences, without computing anything.

    Examples
    --------
    >>> import numpy as np
    >>> @degenerate(identical=0.0, too_few=float("nan"))
    ... def mean(d):
    ...     return float(np.mean(d))
    >>> mean(np.zeros(3)), mean(np.array([0.5])), mean(np.array([0.5, 0.25]))
    (0.0, nan, 0.375)
    """

    def deco(f: _OnDifferences[_P, _R]) -> _OnDifferences[_P, _R]:
        @functools.wraps(f)
        def settled(d: np.ndarray, *args: _P.args, **kwargs: _P.kwargs) -> _R:
            if d.size and not d.any():
                return identical
            return too_few if d.size < 2 else f(d, *args, **kwargs)

        return settled

    return deco


def wins_ties_losses(d: np.ndarray) -> tuple[int, int, int]:
    """Queries where the system is above, equal to and below the baseline (snapped ``d``).

    Examples
    --------
    >>> import numpy as np
    >>> wins_ties_losses(np.array([0.1, 0.0, -0.2, 0.3]))
    (2, 1, 1)
    """
    return int(np.count_nonzero(d > 0)), int(np.count_nonzero(d == 0)), \
        int(np.count_nonzero(d < 0))
