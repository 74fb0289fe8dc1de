"""Risk-sensitive measures of a comparison: URisk and TRisk against a baseline (Dinçer,
Macdonald & Ounis, SIGIR 2014), ZRisk and GeoRisk over every run (SIGIR 2016)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .._base.errors import ParameterError
from .._base.lazy import polars as pl
from .._base.validate import Choice, check
from .render.frames import rows_frame

if TYPE_CHECKING:
    from .compare.result import Comparison

__all__ = ["RISK_NOTE", "georisk", "risk", "trisk", "urisk", "zrisk"]


def _weighted(d: np.ndarray, alpha: float) -> np.ndarray:
    """Each difference, a loss weighted by ``1 + alpha``."""
    d = np.asarray(d, dtype=np.float64)
    return np.where(d < 0, (1.0 + alpha) * d, d)


def urisk(d: np.ndarray, alpha: float = 1.0) -> float:
    """URisk: the mean of the differences ``d`` (system - baseline), losses times 1 + alpha.

    Examples
    --------
    >>> round(urisk([0.1, 0.05, -0.1], alpha=1.0), 6)
    -0.016667
    """
    return float(np.mean(_weighted(d, alpha))) if len(d) else math.nan


def trisk(d: np.ndarray, alpha: float = 1.0, ddof: int = 1) -> float:
    """TRisk: URisk over its standard error, a one-sample t (> 2: a significant gain).

    ``ddof=1`` is the sample standard deviation (scipy's ``ttest_1samp``); ``ddof=0`` the
    population one some scripts use. NaN when undefined (fewer than two queries, every
    weighted difference equal).

    Examples
    --------
    >>> round(trisk([0.1, 0.05, -0.1], alpha=1.0), 6)
    -0.179605
    """
    w = _weighted(d, alpha)
    if w.size < 2 or bool(np.all(w == w[0])):
        return math.nan
    return float(np.mean(w)) / (float(np.std(w, ddof=ddof)) / math.sqrt(w.size))


def zrisk(x: np.ndarray, alpha: float = 1.0) -> np.ndarray:
    """ZRisk of each column (system) of ``x`` (queries x systems, values >= 0).

    z = (x - e) / sqrt(e) with e the expected value under independence (row total times
    column total over the whole); negative z count 1 + alpha times; z = 0 where e = 0.
    """
    x = np.asarray(x, dtype=np.float64)
    if (x < 0).any():
        raise ParameterError("ZRisk and GeoRisk need values >= 0; the measure has a "
                             "negative one (use URisk and TRisk for it)")
    total = x.sum()
    e = np.outer(x.sum(axis=1), x.sum(axis=0)) / total if total > 0 else np.zeros_like(x)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(e > 0, (x - e) / np.sqrt(e), 0.0)
    return _weighted(z, alpha).sum(axis=0)


def georisk(x: np.ndarray, alpha: float = 1.0) -> np.ndarray:
    """GeoRisk of each column: sqrt(mean of the column * Phi(ZRisk / queries)).

    Examples
    --------
    >>> x = np.array([[0.5, 0.4], [0.2, 0.35], [0.8, 0.6]])
    >>> [round(float(v), 4) for v in georisk(x)]
    [0.4851, 0.4705]
    """
    from scipy.special import ndtr

    x = np.asarray(x, dtype=np.float64)
    c = x.shape[0]
    return np.sqrt(x.mean(axis=0) * ndtr(zrisk(x, alpha) / c))


def risk(comparison: Comparison, alpha: float = 1.0, ddof: int = 1) -> pl.DataFrame:
    """Risk-sensitive measures of each pair of a :class:`Comparison`.

    Parameters
    ----------
    comparison : Comparison
        From :func:`ranklens.compare` (its per-query values are read).
    alpha : float, default 1.0
        Extra weight of a loss: a query below the baseline counts ``1 + alpha`` times.
    ddof : {1, 0}
        TRisk's standard deviation: 1 the sample one (default, a t statistic), 0 the
        population one.

    Returns
    -------
    polars.DataFrame
        One row per pair: ``measure, system, baseline, n, urisk, trisk, zrisk, georisk``.
        URisk and TRisk are on the pair's differences. ZRisk and GeoRisk are the system's
        among every compared run, on the queries all of them have a value for.

    Examples
    --------
    >>> import ranklens
    >>> qrels = {f"q{i}": {"a": 1, "b": 1} for i in range(4)}
    >>> runs = {"x": {f"q{i}": {"a": 2.0, "z": 1.0} for i in range(4)},
    ...         "y": {f"q{i}": {"a": 2.0, "b": 1.0} for i in range(4)}}
    >>> cmp = ranklens.compare(qrels, runs, ["P@2"], baseline="x")
    >>> ranklens.risk(cmp)["urisk"].to_list()
    [0.5]
    """
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not alpha >= 0:
        raise ParameterError(f"the 'alpha' option of risk must be a number >= 0; got {alpha!r}")
    check("ddof", ddof, Choice((0, 1)))
    if comparison.results is None:
        raise ParameterError("this Comparison was made without its per-query values")
    runs = list(comparison.run_names)
    rows = []
    for measure in comparison.measures:
        x = np.asarray(comparison.results.values(measure))
        x = x[~np.isnan(x).any(axis=1)]
        signed = -x if measure in comparison.lower_is_better else x
        z = zrisk(signed, alpha) if (signed >= 0).all() else np.full(len(runs), np.nan)
        geo = georisk(signed, alpha) if (signed >= 0).all() else z
        for p in comparison.pairs:
            if p.measure != measure:
                continue
            d = np.array(list(p.per_query().values()))
            d = d[~np.isnan(d)] * (-1 if measure in comparison.lower_is_better else 1)
            at = runs.index(p.system)
            rows.append({"measure": measure, "system": p.system, "baseline": p.baseline,
                         "n": int(d.size), "urisk": urisk(d, alpha),
                         "trisk": trisk(d, alpha, ddof), "zrisk": float(z[at]),
                         "georisk": float(geo[at])})
    return rows_frame(rows, "measure system baseline", "n", "urisk trisk zrisk georisk")


#: The note under the risk rows.
RISK_NOTE = "Losses count 1 + {alpha:g} times; TRisk > 2 reads as a significant gain, < -2 " \
            "as a loss."
