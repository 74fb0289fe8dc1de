"""One comparison of two systems on one measure: :class:`PairComparison`."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..._base.errors import ParameterError
from ..._base.lazy import polars as pl
from ..._results.per_query import Frames, by_query
from ..._results.results import Results
from .differences import compared

__all__ = ["PairComparison"]


@dataclass(frozen=True)
class PairComparison(Frames):
    """One measure, one system against its baseline (or the other system of a pair).

    Differences are ``system - baseline``, paired by query id; :meth:`per_query` and
    :meth:`to_polars` give each query's, as every result type gives its per-query values.

    Attributes
    ----------
    measure : the measure's requested name.
    system, baseline : the two runs' names.
    n : queries compared (both systems have a value).
    excluded : queries left out because one of the two has no value (``missing="skip"``,
        ``empty="skip"``/``"nan"``); 0 under the default policies.
    mean_system, mean_baseline : means over the ``n`` queries.
    difference : ``mean_system - mean_baseline``.
    ci_low, ci_high : confidence interval of the difference (t or bootstrap).
    effect_size : d_z = mean(d) / sd(d) (for Tukey HSD, Sakai's ES_E = diff / sqrt(V_E)).
    wins, ties, losses : queries where the system is above, equal to (float noise snapped),
        below the baseline.
    p_value : the test's two-sided p-value (NaN when it cannot be computed).
    p_adjusted : after the correction (Tukey HSD's p is family-wise already).
    significant : ``p_adjusted < alpha``.
    direction : +1 (system significantly higher), -1 (significantly lower), 0 (not
        significant): the sign of ``difference`` (of wins - losses if that is 0).
    exact : False when the p-value was estimated by sampling (Monte Carlo randomization,
        randomised Tukey, the bootstrap test); True when every pattern was counted and for
        the tests with a formula (t, Wilcoxon, sign, Tukey HSD).
    """

    measure: str
    system: str
    baseline: str
    n: int
    excluded: int
    mean_system: float
    mean_baseline: float
    difference: float
    ci_low: float
    ci_high: float
    effect_size: float
    wins: int
    ties: int
    losses: int
    p_value: float
    p_adjusted: float
    significant: bool
    direction: int
    exact: bool = True
    #: the per-query values compared (None for a comparison made by hand); not a field of
    #: the records (:data:`RECORD`)
    source: Results | None = field(default=None, repr=False, compare=False)
    #: the queries compared are those every run has a value for (a Tukey test)
    together: bool = field(default=False, repr=False, compare=False)

    def per_query(self, measure: object = None) -> dict[str, float]:
        """``{query_id: difference}``, system - baseline as the test read it (float noise
        snapped), every query of the comparison's axis; NaN where a query was left out of
        this pair (``excluded``). ``measure``, if given, must be this pair's.

        Examples
        --------
        >>> import ranklens
        >>> qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
        >>> runs = {"x": {"q1": {"a": 1.0}, "q2": {"z": 1.0}},
        ...         "y": {"q1": {"z": 1.0}, "q2": {"b": 1.0}}}
        >>> ranklens.compare(qrels, runs, ["P@1"]).pair("P@1", "y", "x").per_query()
        {'q1': -1.0, 'q2': 1.0}
        """
        import numpy as np

        if self.source is None:
            raise ParameterError("this PairComparison was made without its per-query values")
        if measure is not None and self.source._name(measure) != self.measure:
            raise ParameterError(f"this comparison is on {self.measure}, not {measure!r}")
        values = self.source.values(self.measure)
        runs = self.source.run_names
        pair = (runs.index(self.system), runs.index(self.baseline))
        kept, d = compared(values, [pair], self.together)
        out = np.full(len(self.source.query_ids), np.nan)
        out[kept[0]] = d[0]
        return by_query(self.source.query_ids, out)

    def to_polars(self) -> pl.DataFrame:
        """One row per query: ``query_id, difference`` (:meth:`per_query`)."""
        values = self.per_query()
        return pl.DataFrame({"query_id": pl.Series(list(values), dtype=pl.String),
                             "difference": pl.Series(list(values.values()),
                                                     dtype=pl.Float64)})


#: the fields of a comparison's record (``Comparison.to_dicts``, its frame, csv, jsonl)
RECORD = tuple(name for name in PairComparison.__dataclass_fields__
               if name not in ("source", "together"))
