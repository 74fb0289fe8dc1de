"""Confidence intervals of one system's mean score over queries: t and percentile bootstrap.

The values are a run's per-query values of one measure, NaN marking a query a policy left
out (``empty="skip"``/``"nan"``, or a query a run lacks in a :class:`~ranklens.Results`):
those are dropped, as the aggregate drops them, so the interval is around the aggregate.

- ``t``: mean ± t(n-1, (1+level)/2) · s/sqrt(n), ``s`` with ddof=1: what
  ``scipy.stats.t.interval(level, n - 1, loc=mean, scale=sem)`` gives.
- ``bootstrap``: the percentile interval of ``n_resamples`` bootstrap means.
  ``rng = numpy.random.default_rng(seed)``; each block of rows is
  ``rng.integers(0, n, (rows, n))`` (the same numbers whatever the block size), the
  quantiles ``numpy.quantile(..., method="linear")``: what
  ``scipy.stats.bootstrap((v,), np.mean, method="percentile", rng=default_rng(seed))``
  draws and returns.

Fewer than two values give a NaN interval (no spread to estimate); every value equal gives
the zero-width interval at that value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np

from .._base.draws import MAX_DRAWS
from .._base.validate import Choice, Integer, Interval, check

__all__ = ["INTERVAL_METHODS", "IntervalMethod", "IntervalRequest", "ScoreInterval",
           "bootstrap_means", "score_interval"]

IntervalMethod = Literal["t", "bootstrap"]
INTERVAL_METHODS: tuple[str, ...] = get_args(IntervalMethod)
#: numpy's generators take any seed >= 0
_SEED_MAX = 2 ** 63 - 1


@dataclass(frozen=True)
class ScoreInterval:
    """A confidence interval of one system's mean score over queries.

    Attributes
    ----------
    mean : the mean over the ``n`` queries counted (the measure's aggregate when it is a
        mean).
    low, high : the interval's bounds (NaN when ``n < 2``).
    method : ``"t"`` or ``"bootstrap"`` (percentile).
    level : the confidence level, e.g. 0.95.
    n : the number of queries counted (those with a value; NaN ones are left out).
    clipped : a bound was moved onto the measure's range ([0, 1]): a t interval of a mean
        near 0 or 1 may reach past it.
    """

    mean: float
    low: float
    high: float
    method: str
    level: float
    n: int
    clipped: bool = False

    @property
    def half_width(self) -> float:
        """``(high - low) / 2``: the ``±`` of a t interval."""
        return (self.high - self.low) / 2


def bootstrap_means(values: np.ndarray, resamples: int, seed: int,
                    block_size: int = 512) -> np.ndarray:
    """The ``resamples`` bootstrap means of ``values``, in stream order (2-D ``values``:
    rows resampled together, a mean per column).

    Examples
    --------
    >>> import numpy as np
    >>> v = np.array([0.1, 0.2, 0.3, -0.1])
    >>> a = bootstrap_means(v, 100, seed=1)
    >>> bool((a == bootstrap_means(v, 100, seed=1, block_size=7)).all())
    True
    """
    n = len(values)
    rng = np.random.default_rng(seed)
    out = np.empty((resamples, *values.shape[1:]))
    done = 0
    while done < resamples:
        rows = min(block_size, resamples - done)
        out[done:done + rows] = np.mean(values[rng.integers(0, n, (rows, n))], axis=1)
        done += rows
    return out


def score_interval(values: np.ndarray, method: str = "t", level: float = 0.95,
                   seed: int = 0, n_resamples: int = 9999,
                   within: tuple[float, float] | None = None) -> ScoreInterval:
    """The confidence interval of the mean of ``values`` (NaN values left out), its bounds
    clipped to ``within`` when given.

    Parameters
    ----------
    values : array of float
        One value per query; NaN marks a query left out.
    method : {"t", "bootstrap"}, default "t"
    level : float, default 0.95
        Strictly between 0 and 1.
    seed : int, default 0
        The bootstrap's seed (``numpy.random.default_rng(seed)``).
    n_resamples : int, default 9999
        The bootstrap's resamples, at most 1,000,000.
    within : (float, float), optional
        The range of the measure: bounds past it are moved onto it (``clipped``).

    Examples
    --------
    >>> import numpy as np
    >>> ci = score_interval(np.array([0.2, 0.4, 0.6, np.nan]))
    >>> ci.n, round(ci.mean, 4), round(ci.low, 4), round(ci.high, 4)
    (3, 0.4, -0.0968, 0.8968)
    """
    IntervalRequest(level, method, seed, n_resamples)  # checks the options
    v = np.asarray(values, dtype=np.float64)
    v = v[~np.isnan(v)]
    n = int(v.size)
    mean = float(np.mean(v)) if n else math.nan
    if n < 2:
        return ScoreInterval(mean, math.nan, math.nan, method, float(level), n)
    if bool((v == v[0]).all()):
        # exactly that value: the float mean of n equal values may be off in its last bit
        same = float(v[0])
        return ScoreInterval(same, same, same, method, float(level), n)
    if method == "t":
        from scipy.special import stdtrit

        half = float(stdtrit(n - 1, (1 + level) / 2)) * float(np.std(v, ddof=1)) / math.sqrt(n)
        low, high = mean - half, mean + half
    else:
        alpha = (1 - level) / 2
        low, high = (float(b) for b in
                     np.quantile(bootstrap_means(v, n_resamples, seed), [alpha, 1 - alpha]))
    clipped = False
    if within is not None and (low < within[0] or high > within[1]):
        low, high, clipped = max(low, within[0]), min(high, within[1]), True
    return ScoreInterval(mean, low, high, method, float(level), n, clipped)


@dataclass(frozen=True)
class IntervalRequest:
    """Which interval to show beside each mean (``evaluate --ci``, the report): checked
    when made."""

    level: float = 0.95
    method: str = "t"
    seed: int = 0
    n_resamples: int = 9999

    def __post_init__(self) -> None:
        check("method", self.method, Choice(INTERVAL_METHODS))
        check("level", self.level, Interval(0, 1))
        check("seed", self.seed, Integer(0, _SEED_MAX))
        check("n_resamples", self.n_resamples, Integer(1, MAX_DRAWS))

    def describe(self) -> str:
        """``95% t intervals of each mean over queries`` (with the bootstrap's settings)."""
        kind = "t" if self.method == "t" else \
            f"percentile bootstrap ({self.n_resamples} resamples, seed {self.seed})"
        return (f"{self.level * 100:g}% {kind} intervals of each mean over queries (bounds "
                "past 0 or 1 clipped for measures in [0, 1])")
