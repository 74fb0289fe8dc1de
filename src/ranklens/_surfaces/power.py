"""Power and test-set size of a paired comparison from pilot per-query scores (Sakai,
"Topic set size design", Information Retrieval Journal 19(3), 2016)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._base.draws import MAX_DRAWS
from .._base.errors import ParameterError
from .._base.validate import Integer, Interval, check
from .._results.per_query import Shown

__all__ = ["Power", "detectable_difference", "power", "queries_needed", "t_power"]

#: Most queries a design may ask for: beyond it the difference is too small to chase.
MAX_QUERIES = 10_000_000
#: Most signed differences a simulation sums (simulations x permutations x queries): its time.
MAX_SIMULATED = 10_000_000_000
#: Resampled differences held at once by a simulation.
_BLOCK = 1 << 20


def t_power(n: int, effect: float, alpha: float) -> float:
    """Exact power of the two-sided paired t-test on ``n`` queries at standardised
    difference ``effect`` (mean difference / sd of the differences): noncentral t."""
    from scipy.stats import nct, t

    w = float(t.isf(alpha / 2, n - 1))
    lam = math.sqrt(n) * effect
    value = float(nct.sf(w, n - 1, lam) + nct.cdf(-w, n - 1, lam))
    return 1.0 if math.isnan(value) else value  # scipy's NaN far out in the tail


def queries_needed(effect: float, alpha: float = 0.05, power: float = 0.8) -> int:
    """Queries a paired t-test needs to detect ``effect`` (Sakai's design from Nagata's
    start ``((z_a/2 + z_b) / effect)^2 + z_a/2^2 / 2``, raised until the power is reached).

    Examples
    --------
    >>> queries_needed(0.5), queries_needed(0.2)
    (34, 199)
    """
    from scipy.special import ndtri

    za, zb = float(ndtri(1 - alpha / 2)), float(ndtri(power))
    n = max(2, math.ceil(((za + zb) / effect) ** 2 + za ** 2 / 2))
    while t_power(n, effect, alpha) < power:
        n += 1
        if n > MAX_QUERIES:
            raise ParameterError(f"a difference this small needs more than {MAX_QUERIES} "
                                 "queries (MAX_QUERIES); ask for a larger min_diff")
    return n


def detectable_difference(n: int, alpha: float = 0.05, power: float = 0.8) -> float:
    """Smallest standardised difference ``n`` queries detect with ``power`` (root of the
    exact power).

    Examples
    --------
    >>> round(detectable_difference(25), 4), round(detectable_difference(100), 4)
    (0.584, 0.2829)
    """
    from scipy.optimize import brentq

    if n < 2:
        return math.inf
    return float(brentq(lambda e: t_power(n, e, alpha) - power, 1e-9, 100.0, xtol=1e-12))


@dataclass(frozen=True)
class Power(Shown):
    """What a pilot says about a paired comparison's test set.

    Attributes
    ----------
    n : pilot queries.
    sd : standard deviation of a per-query difference (``sd_source`` says how it was had).
    sd_source : ``"differences"`` (two or more runs: each against the first, pooled) or
        ``"within-system, variance doubled"`` (one run: ``sqrt(2)`` times its sd, Sakai's design).
    alpha, power : the two-sided level and the power asked for.
    min_diff : the difference to detect, in the measure's units (None if not given).
    queries_needed : queries a paired t-test needs to detect ``min_diff`` (None without it;
        2 when the pilot's differences have no spread).
    queries : queries the detectable difference and the simulation are for.
    detectable : smallest difference ``queries`` detect with ``power``.
    simulated : power of the randomization test at ``min_diff`` on ``queries`` queries,
        by resampling the pilot (NaN unless ``simulations`` were asked for).
    """

    n: int
    sd: float
    sd_source: str
    alpha: float
    power: float
    min_diff: float | None
    queries_needed: int | None
    queries: int
    detectable: float
    simulated: float


def _pool(scores: np.ndarray) -> tuple[np.ndarray, str]:
    """Centred per-query differences whose spread is the design's (see :class:`Power`)."""
    if scores.shape[1] == 1:
        x = scores[:, 0]
        return (x - x.mean()) * math.sqrt(2.0), "within-system, variance doubled"
    d = scores[:, 1:] - scores[:, :1]
    return (d - d.mean(axis=0)).ravel(order="F"), "differences"


def power(scores: object, *, min_diff: float | None = None, queries: int | None = None,
          alpha: float = 0.05, power: float = 0.8, simulations: int = 0,
          permutations: int = 999, seed: int = 0) -> Power:
    """Queries needed, smallest detectable difference and simulated power, from a pilot.

    Parameters
    ----------
    scores : array-like
        Pilot per-query scores of one measure: a vector (one run) or a ``(queries, runs)``
        matrix (``Results.values(measure)``); queries with a NaN are dropped.
    min_diff : float, optional
        Smallest true difference to detect, in the measure's units.
    queries : int, optional
        Test-set size to assess (default: the pilot's).
    alpha, power : float
        Two-sided significance level and power asked for.
    simulations : int, default 0
        Test sets resampled from the pilot (with ``min_diff`` added) to estimate the
        randomization test's power; 0 skips it. At most ``MAX_DRAWS``, and
        ``simulations x permutations x queries`` at most ``MAX_SIMULATED``.
    permutations : int, default 999
        Sign patterns per simulated test (at most ``MAX_DRAWS``).
    seed : int, default 0
        Seed of the resampling and of the tests.

    Examples
    --------
    >>> import numpy as np, ranklens
    >>> pilot = np.random.default_rng(0).normal(0.4, 0.2, size=(50, 2))
    >>> p = ranklens.power(pilot, min_diff=0.05)
    >>> p.queries_needed, round(p.detectable, 3)
    (197, 0.101)
    """
    from .compare.randomization import randomization_p

    check("alpha", alpha, Interval(0, 1))
    check("power", power, Interval(0, 1))
    check("simulations", simulations, Integer(0, MAX_DRAWS))
    check("permutations", permutations, Integer(1, MAX_DRAWS))
    check("queries", queries, Integer(2, MAX_QUERIES, none=True))
    if min_diff is not None:
        check("min_diff", min_diff, Interval(0, math.inf))
    if simulations and min_diff is None:
        raise ParameterError("the 'simulations' option needs 'min_diff' (--min-diff), the "
                             "difference simulated")
    x = np.asarray(scores, dtype=np.float64)
    x = x[:, None] if x.ndim == 1 else x
    if x.ndim != 2 or (x := x[~np.isnan(x).any(axis=1)]).shape[0] < 2:
        raise ParameterError("the pilot needs per-query scores of at least 2 queries (a "
                             f"vector or a queries x runs matrix); got shape {x.shape}")
    n = queries or x.shape[0]
    if simulations * permutations * n > MAX_SIMULATED:
        raise ParameterError(f"simulations x permutations x queries must be at most "
                             f"{MAX_SIMULATED:,} (MAX_SIMULATED); got "
                             f"{simulations * permutations * n:,}")
    pool, source = _pool(x)
    k = max(x.shape[1] - 1, 1)  # difference vectors pooled: their SS over their df
    sd = math.sqrt(float(np.sum(pool ** 2)) / (k * (x.shape[0] - 1)))
    needed = None
    if min_diff is not None:  # a pilot without spread: the smallest paired test detects it
        needed = queries_needed(min_diff / sd, alpha, power) if sd > 0 else 2
    simulated = math.nan
    if simulations and min_diff is not None:
        rng = np.random.default_rng(seed)
        hits, step = 0, max(1, _BLOCK // n)
        for start in range(0, simulations, step):  # memory: _BLOCK values at a time
            draws = pool[rng.integers(0, pool.size, size=(n, min(step, simulations - start)))]
            hits += int(np.count_nonzero(randomization_p(draws + min_diff, permutations,
                                                         seed)[0] < alpha))
        simulated = hits / simulations
    return Power(x.shape[0], sd, source, alpha, power, min_diff, needed, n,
                 detectable_difference(n, alpha, power) * sd, simulated)
