"""Does the leaderboard survive a change of judge? Orderings and significance decisions.

The runs are evaluated under each judge's labels. Orderings compare the systems' means over
the queries both evaluations hold: Kendall's tau-b, tau_AP (the reference as truth; NaN when
means tie), Spearman's rho (``ranklens.rank_correlation``'s kernels) and RBO (p = 0.9,
extrapolated; equal to the definition's sum for two orderings of the same systems).
Decisions: every pair of systems is significantly better (+1), not (0) or worse (-1) under
each judge, by ``compare_results`` with the same test, alpha and correction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..._base.errors import ParameterError
from ..correlation.coefficients import _kendall, _spearman, _tau_ap
from .labels import Statistic, pooled_resamples

__all__ = ["Leaderboard", "leaderboard", "rbo"]

#: persistence of the RBO of orderings: the top ten systems carry most of its weight
RBO_P = 0.9


@dataclass(frozen=True)
class Leaderboard:
    """The systems under the reference's labels and another judge's.

    Attributes
    ----------
    measure, reference, judge : what orders the systems, and under whose labels.
    systems : the runs, in the reference's order (best first).
    means_reference, means_judge : each system's mean over the ``queries`` both hold.
    correlations : kendall, tau_ap, spearman and rbo with bootstrap intervals over queries.
    largest_change : (system, rank under the reference, rank under the judge), 1 = best.
    decisions : 3 x 3 counts of system pairs, rows the reference's decision (+, 0, -),
        columns the judge's.
    agreement : share of pairs with the same decision.
    reversals : pairs significant in opposite directions, ``"a > b under R, a < b under J"``.
    power_reference, power_judge : discriminative power, the share of pairs significant.
    """

    measure: str
    reference: str
    judge: str
    systems: tuple[str, ...]
    means_reference: tuple[float, ...]
    means_judge: tuple[float, ...]
    queries: int
    correlations: tuple[Statistic, ...]
    largest_change: tuple[str, int, int]
    decisions: np.ndarray
    agreement: float
    reversals: tuple[str, ...]
    power_reference: float
    power_judge: float


def rbo(x: np.ndarray, y: np.ndarray, p: float = RBO_P) -> float:
    """Extrapolated RBO of the orderings of the same systems by ``x`` and ``y``."""
    s = x.size
    rx, ry = (np.argsort(np.argsort(-v, kind="stable"), kind="stable") for v in (x, y))
    overlap = np.cumsum(np.bincount(np.maximum(rx, ry), minlength=s))
    depth = np.arange(1, s + 1)
    return float((1 - p) / p * np.sum(p ** depth * overlap / depth) + p ** s)


def _tau_ap_untied(x: np.ndarray, y: np.ndarray) -> float:
    untied = np.unique(x).size == x.size and np.unique(y).size == y.size
    return _tau_ap(x, y) if untied else float("nan")


CORRELATIONS = {"kendall": _kendall, "tau_ap": _tau_ap_untied, "spearman": _spearman,
                "rbo": rbo}


def _decisions(results: Any, measure: str, compare: dict[str, Any]) -> dict[tuple[str, str], int]:
    from ..compare.api import compare_results

    got = compare_results(results, measure, **compare)
    return {(p.system, p.baseline): p.direction for p in got.pairs}


def leaderboard(ref: Any, other: Any, measure: str, names: tuple[str, str], *,
                compare: dict[str, Any], resamples: int, seed: int,
                confidence: float) -> Leaderboard:
    """The orderings and decisions of the runs evaluated in ``ref`` and ``other``
    (``Results`` of the same runs under two judges)."""
    sign = -1.0 if ref.measures[ref._name(measure)].definition.lower_is_better else 1.0
    runs = ref.run_names
    a, b = ref.values(measure), other.values(measure)
    both = np.intersect1d(ref.query_ids, other.query_ids)
    a = a[np.searchsorted(ref.query_ids, both)]
    b = b[np.searchsorted(other.query_ids, both)]
    keep = ~(np.isnan(a).any(axis=1) | np.isnan(b).any(axis=1))
    a, b = a[keep], b[keep]
    if not len(a):
        raise ParameterError(f"no query has every run's {measure} under both {names[0]!r} and "
                             f"{names[1]!r}; the orderings need queries both judged")
    x, y = sign * a.mean(axis=0), sign * b.mean(axis=0)
    drawn = pooled_resamples(np.concatenate([a, b], axis=1) * sign, resamples, seed) / len(a)
    tail = (1 - confidence) / 2
    correlations = []
    for name, f in CORRELATIONS.items():
        boot = [f(row[:len(runs)], row[len(runs):]) for row in drawn]
        low, high = np.quantile(boot, [tail, 1 - tail]) if resamples else (np.nan, np.nan)
        correlations.append(Statistic(name, f(x, y), float(low), float(high)))
    order = np.argsort(-x, kind="stable")
    rank_a = np.argsort(order, kind="stable") + 1
    rank_b = np.argsort(np.argsort(-y, kind="stable"), kind="stable") + 1
    moved = int(np.argmax(np.abs(rank_a - rank_b)))
    da, db = _decisions(ref, measure, compare), _decisions(other, measure, compare)
    table = np.zeros((3, 3), dtype=np.int64)
    reversals = []
    for pair, s in da.items():
        t = db[pair]
        table[1 - s, 1 - t] += 1
        if s * t < 0:
            word = {1: ">", -1: "<"}
            reversals.append(f"{pair[0]} {word[s]} {pair[1]} under {names[0]}, "
                             f"{word[t]} under {names[1]}")
    total = max(len(da), 1)
    return Leaderboard(
        measure, *names, tuple(runs[i] for i in order),
        tuple(float(sign * x[i]) for i in order), tuple(float(sign * y[i]) for i in order),
        len(a), tuple(correlations), (runs[moved], int(rank_a[moved]), int(rank_b[moved])),
        table, float(np.trace(table)) / total, tuple(reversals),
        sum(s != 0 for s in da.values()) / total, sum(t != 0 for t in db.values()) / total)
