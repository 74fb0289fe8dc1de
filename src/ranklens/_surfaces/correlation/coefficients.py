"""Do two evaluations rank the same systems the same way? Kendall's tau, tau_AP, Spearman.

Each evaluation orders the systems by one measure's aggregate, best first (a
lower-is-better measure's smallest value first), so that two measures of opposite senses
are compared as orderings of systems. Systems are matched by run name.

- ``kendall``: Kendall's tau-b, ``(C - D) / sqrt((C + D + Tx)(C + D + Ty))`` over the
  pairs of systems (C concordant, D discordant, Tx tied in the first evaluation only, Ty
  in the second only): ``scipy.stats.kendalltau``'s default.
- ``spearman``: the Pearson correlation of the two rankings, ties given their average rank:
  ``scipy.stats.spearmanr``.
- ``tau_ap``: Yilmaz, Aslam & Robertson (SIGIR 2008), AP rank correlation. Evaluation A
  is the reference (the "true" ordering), evaluation B the one being judged: walking B's
  ordering from the top, ``C(i)`` is the number of the ``i - 1`` systems B puts above its
  ``i``-th that A also puts above it, and ``tau_AP = 2/(N-1) * sum_{i=2..N} C(i)/(i-1) - 1``.
  A swap near the top of B counts more than one near the bottom, and tau_AP(A, B) is not
  tau_AP(B, A); ``tau_ap_symmetric`` is their average. It is defined for orderings without
  ties: tied aggregates are an error naming them.

``swaps`` is the number of discordant pairs (ordered one way by A, the other by B; a pair
tied in either is no swap), whatever the method.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np

from ..._base.errors import MeasureError, ParameterError
from ..._base.lazy import polars as pl
from ..._base.validate import Choice, check
from ..._results.per_query import Frames
from ..._results.result import Result
from ..._results.results import Results, results_of

__all__ = ["CORRELATION_METHODS", "CorrelationMethod", "RankCorrelation", "rank_correlation"]

CorrelationMethod = Literal["kendall", "tau_ap", "tau_ap_symmetric", "spearman"]
CORRELATION_METHODS: tuple[str, ...] = get_args(CorrelationMethod)


@dataclass(frozen=True)
class RankCorrelation(Frames):
    """How alike two evaluations order the same systems.

    It correlates orderings of systems, not per-query values: it has no ``per_query``, and
    :meth:`to_polars` gives one row per system.

    Attributes
    ----------
    method : ``kendall``, ``tau_ap``, ``tau_ap_symmetric`` or ``spearman``.
    coefficient : in [-1, 1]; 1 is the same ordering (NaN when one evaluation ties every
        system, for kendall and spearman).
    swaps : discordant pairs of systems (ordered one way by A, the other by B).
    pairs : all pairs of systems, ``n (n - 1) / 2``.
    systems : the run names, in A's order (best first).
    order_b : the run names in B's order (best first).
    measure_a, measure_b : the measure each evaluation was ordered by.
    values_a, values_b : each system's aggregate in A and in B, in the order of ``systems``.
    """

    method: str
    coefficient: float
    swaps: int
    pairs: int
    systems: tuple[str, ...]
    order_b: tuple[str, ...]
    measure_a: str
    measure_b: str
    values_a: tuple[float, ...] = ()
    values_b: tuple[float, ...] = ()

    def __repr__(self) -> str:
        return (f"<RankCorrelation {self.method}={self.coefficient:.4f} of {len(self.systems)} "
                f"systems ({self.measure_a} against {self.measure_b}): {self.swaps} of "
                f"{self.pairs} pairs swapped>")

    def to_polars(self) -> pl.DataFrame:
        """One row per system, in A's order: ``run, rank_a, rank_b, value_a, value_b`` (the
        ranks 1 = best, the values the aggregates ordered).

        Examples
        --------
        >>> import ranklens
        >>> both = ranklens.evaluate({"q": {"a": 1}}, {"x": {"q": {"a": 2.0, "b": 1.0}},
        ...                                          "y": {"q": {"b": 2.0, "a": 1.0}}},
        ...                          ["RR", "P@2"])
        >>> ranklens.rank_correlation(both, both, "RR", measure_b="P@2").to_polars().rows()
        [('x', 1, 1, 1.0, 0.5), ('y', 2, 2, 0.5, 0.5)]
        """
        at_b = {run: i for i, run in enumerate(self.order_b, 1)}
        return pl.DataFrame({
            "run": pl.Series(self.systems, dtype=pl.String),
            "rank_a": pl.Series(range(1, len(self.systems) + 1), dtype=pl.Int64),
            "rank_b": pl.Series([at_b[r] for r in self.systems], dtype=pl.Int64),
            "value_a": pl.Series(self.values_a, dtype=pl.Float64),
            "value_b": pl.Series(self.values_b, dtype=pl.Float64)})


Evaluation = Results | Sequence[Result]


def _scores(results: Evaluation, measure: object, side: str
            ) -> tuple[dict[str, float], str, float]:
    """``{run: aggregate}`` oriented so that larger is better, the measure's name, and the
    sign that oriented it (its own inverse)."""
    known = isinstance(results, (Result, Results, list, tuple))
    runs = results_of(results) if known else []
    if not known or not all(isinstance(r, Result) for r in runs):
        raise ParameterError(f"the 'results_{side}' argument must be what ranklens.evaluate "
                             "returns for several runs (Results, or a list of Result); got a "
                             f"{type(results).__name__}")
    if not runs:
        raise ParameterError(f"the 'results_{side}' argument holds no runs")
    name = runs[0]._key(measure)
    definition = runs[0].measures[name].definition
    if name in runs[0].text_values or definition.aggregate == "none":
        raise MeasureError(f"{name} is a text measure; it orders no systems")
    sign = -1.0 if definition.lower_is_better else 1.0
    scores: dict[str, float] = {}
    for r in runs:
        if r.run_name in scores:
            raise ParameterError(f"the 'results_{side}' argument has two runs named "
                                 f"{r.run_name!r}")
        value = float(r[name])
        if math.isnan(value):
            raise ParameterError(f"run {r.run_name!r} has no {name} aggregate in results_{side} "
                                 "(NaN); it cannot be ordered")
        scores[r.run_name] = sign * value
    return scores, name, sign


def _pair_signs(x: np.ndarray) -> np.ndarray:
    """``sign(x_i - x_j)`` for every pair ``i < j`` (flattened)."""
    i, j = np.triu_indices(x.size, k=1)
    return np.sign(x[i] - x[j])


def _kendall(x: np.ndarray, y: np.ndarray) -> float:
    sx, sy = _pair_signs(x), _pair_signs(y)
    both = sx * sy
    con, dis = int(np.count_nonzero(both > 0)), int(np.count_nonzero(both < 0))
    tx = int(np.count_nonzero((sx == 0) & (sy != 0)))
    ty = int(np.count_nonzero((sy == 0) & (sx != 0)))
    denominator = math.sqrt((con + dis + tx) * (con + dis + ty))
    return (con - dis) / denominator if denominator else math.nan


def _average_ranks(x: np.ndarray) -> np.ndarray:
    """Ranks 1..n of ``x`` ascending, ties given their average."""
    less = (x[:, None] > x[None, :]).sum(axis=1)
    equal = (x[:, None] == x[None, :]).sum(axis=1)
    return less + (equal + 1) / 2


def _spearman(x: np.ndarray, y: np.ndarray) -> float:
    rx, ry = _average_ranks(x), _average_ranks(y)
    rx, ry = rx - rx.mean(), ry - ry.mean()
    denominator = math.sqrt(float(np.dot(rx, rx)) * float(np.dot(ry, ry)))
    return float(np.dot(rx, ry)) / denominator if denominator else math.nan


def _tau_ap(reference: np.ndarray, judged: np.ndarray) -> float:
    """tau_AP of ``judged`` against ``reference`` (larger is better in both, no ties)."""
    n = reference.size
    order = np.argsort(-judged, kind="stable")  # B's ordering, best first
    ref = reference[order]
    # above[i, j]: B puts j above i (j < i in B's order) and A agrees (ref[j] > ref[i])
    above = np.tril(ref[None, :] > ref[:, None], k=-1)
    correct = above.sum(axis=1)[1:]
    return float(2 / (n - 1) * np.sum(correct / np.arange(1, n)) - 1)


def _ties(scores: dict[str, float], side: str, measure: str) -> None:
    seen: dict[float, str] = {}
    for run, value in scores.items():
        if value in seen:
            raise ParameterError(
                f"tau_AP is defined for orderings without ties; runs {seen[value]!r} and "
                f"{run!r} tie on {measure} in results_{side} ({abs(value):g}); use "
                "method='kendall' (tau-b) or 'spearman', which count ties")
        seen[value] = run


def rank_correlation(results_a: Evaluation, results_b: Evaluation, measure: object,
                     method: str = "kendall", *, measure_b: object = None) -> RankCorrelation:
    """The correlation of two evaluations' orderings of the same systems.

    Two sets of judgments (the same runs evaluated against each), or two measures (pass
    the same results twice and ``measure_b``), or both.

    Parameters
    ----------
    results_a : Results or sequence of Result
        The reference evaluation (tau_AP's "true" ordering).
    results_b : Results or sequence of Result
        The other evaluation, of the same runs (matched by run name).
    measure : str or Measure
        The measure ordering A's systems (by aggregate), and B's unless ``measure_b``.
    method : {"kendall", "tau_ap", "tau_ap_symmetric", "spearman"}, default "kendall"
        Kendall's tau-b; tau_AP of B against A (Yilmaz et al. 2008); the average of
        tau_AP both ways; Spearman's rho.
    measure_b : str or Measure, optional
        The measure ordering B's systems.

    Returns
    -------
    RankCorrelation
        ``coefficient``, ``swaps`` (discordant pairs), ``pairs``, both orderings.

    Raises
    ------
    ParameterError
        The two evaluations hold different runs (both lists of extra names are given),
        fewer than two runs, an unknown method, a NaN aggregate, or (tau_AP) tied ones.
    MeasureError
        A measure that was not evaluated, or a text measure.

    Examples
    --------
    >>> import ranklens
    >>> runs = {"x": {"q": {"a": 3.0, "b": 2.0, "c": 1.0}},
    ...         "y": {"q": {"b": 3.0, "a": 2.0, "c": 1.0}},
    ...         "z": {"q": {"c": 3.0, "d": 2.0, "a": 1.5, "b": 1.0}}}
    >>> old = ranklens.evaluate({"q": {"a": 1}}, runs, ["RR"])
    >>> new = ranklens.evaluate({"q": {"b": 1}}, runs, ["RR"])
    >>> c = ranklens.rank_correlation(old, new, "RR")
    >>> round(c.coefficient, 4), c.swaps, c.pairs, c.systems, c.order_b
    (0.3333, 1, 3, ('x', 'y', 'z'), ('y', 'x', 'z'))
    >>> ranklens.rank_correlation(old, new, "RR", "tau_ap").coefficient
    0.0
    """
    check("method", method, Choice(CORRELATION_METHODS))
    a, name_a, sign_a = _scores(results_a, measure, "a")
    b, name_b, sign_b = _scores(results_b, measure if measure_b is None else measure_b, "b")
    if set(a) != set(b):
        only_a, only_b = sorted(set(a) - set(b)), sorted(set(b) - set(a))
        raise ParameterError(
            "both evaluations must hold the same runs; only in results_a: "
            f"{', '.join(only_a) or '(none)'}; only in results_b: {', '.join(only_b) or '(none)'}")
    if len(a) < 2:
        raise ParameterError(f"a correlation of orderings needs at least two runs; got {len(a)}")
    runs = sorted(a, key=lambda r: -a[r])  # A's order, best first (stable: ties keep order)
    x = np.array([a[r] for r in runs])
    y = np.array([b[r] for r in runs])
    if method == "kendall":
        value = _kendall(x, y)
    elif method == "spearman":
        value = _spearman(x, y)
    else:
        _ties(a, "a", name_a)
        _ties(b, "b", name_b)
        value = _tau_ap(x, y)
        if method == "tau_ap_symmetric":
            value = (value + _tau_ap(y, x)) / 2
    swaps = int(np.count_nonzero(_pair_signs(x) * _pair_signs(y) < 0))
    order_b = tuple(sorted(runs, key=lambda r: -b[r]))
    return RankCorrelation(method, value, swaps, len(runs) * (len(runs) - 1) // 2,
                           tuple(runs), order_b, name_a, name_b,
                           tuple(sign_a * a[r] for r in runs), tuple(sign_b * b[r] for r in runs))
