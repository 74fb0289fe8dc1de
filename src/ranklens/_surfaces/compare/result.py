"""The result of a comparison: :class:`Comparison`, one :class:`PairComparison` per measure
and pair of systems, with the settings."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..._base.errors import ParameterError
from ..._base.lazy import polars as pl
from ..._results.per_query import Frames, listed
from ..._results.results import Results
from .pair import RECORD, PairComparison

__all__ = ["Comparison", "PairComparison"]


@dataclass(frozen=True, eq=False)
class Comparison(Frames):
    """Paired comparison of several runs on one or more measures.

    :meth:`per_query` gives each pair's per-query differences, as every result type gives
    its per-query values; :meth:`to_polars` one row per comparison (or per comparison and
    query).

    Attributes
    ----------
    pairs : every comparison, measure by measure, in the order of ``measures`` then of the
        pairs: each run against ``baseline`` (in run order), or every pair ``(a, b)`` of runs
        with ``a`` before ``b`` compared as ``system=b, baseline=a``.
    run_names : the runs, in the order given.
    measures : the measures' requested names.
    means : ``{measure: {run: mean}}`` over the queries each run has a value for.
    n_queries : queries on the common query axis (any run).
    baseline : the baseline run's name, or None (all pairs).
    test : ``"t"``, ``"randomization"``, ``"wilcoxon"``, ``"sign"``, ``"bootstrap"``,
        ``"tukey"`` or ``"randomized-tukey"``.
    correction : ``"holm"``, ``"bonferroni"``, ``"fdr_bh"``, ``"none"``, or the Tukey test's
        own family-wise control (``"tukey"``, ``"randomized-tukey"``).
    correction_scope : ``"measure"`` (each measure's comparisons are one family) or ``"all"``.
    alpha : significance level: a difference is significant when ``p_adjusted < alpha``.
    confidence : level of the intervals.
    ci : ``"t"``, or the bootstrap's ``"percentile"``, ``"basic"``, ``"bca"``.
    permutations : sign patterns (randomization) or iterations (randomized Tukey) sampled
        when not exact; None for the other tests.
    resamples : bootstrap resamples (None with t intervals and another test).
    seed : seed of every random stream.
    lower_is_better : the measures where a smaller value is better (the table bolds their
        smallest mean); ``direction`` is numeric either way (+1: system higher).
    clipped : the ``(measure, system, baseline)`` comparisons whose interval was clipped to
        the measure's range of differences, [-1, 1] (measures known to lie in [0, 1]).
    results : the per-query values compared, on one query axis (None for a comparison
        made by hand).

    Examples
    --------
    >>> import ranklens
    >>> qrels = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1}}
    >>> runs = {"x": {"q1": {"a": 1.0}, "q2": {"z": 1.0}, "q3": {"c": 1.0}},
    ...         "y": {"q1": {"z": 1.0}, "q2": {"z": 1.0}, "q3": {"c": 1.0}}}
    >>> cmp = ranklens.compare(qrels, runs, ["P@1"], baseline="x")
    >>> pair = cmp.pair("P@1", "y", "x")
    >>> pair.difference, (pair.wins, pair.ties, pair.losses)
    (-0.3333333333333333, (0, 2, 1))
    """

    pairs: tuple[PairComparison, ...]
    run_names: tuple[str, ...]
    measures: tuple[str, ...]
    means: dict[str, dict[str, float]]
    n_queries: int
    baseline: str | None
    test: str
    correction: str
    correction_scope: str
    alpha: float
    confidence: float
    ci: str
    permutations: int | None
    resamples: int | None
    seed: int
    lower_is_better: tuple[str, ...] = ()
    clipped: tuple[tuple[str, str, str], ...] = ()
    results: Results | None = field(default=None, repr=False)
    _index: dict[tuple[str, str, str], PairComparison] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {(p.measure, p.system, p.baseline): p
                                            for p in self.pairs})

    def __iter__(self) -> Iterator[PairComparison]:
        return iter(self.pairs)

    def __len__(self) -> int:
        return len(self.pairs)

    def __repr__(self) -> str:
        return (f"<Comparison of {len(self.run_names)} runs ({listed(self.run_names)}) on "
                f"{listed(self.measures)}: {self.test} test, {self.correction} correction, "
                f"{sum(p.significant for p in self.pairs)} of {len(self.pairs)} significant "
                f"at {self.alpha}>")

    def _repr_html_(self) -> str:
        from ..render.notebook import html_table
        from ..render.results import convention_line
        from .render import comparison_table

        table = comparison_table(self)
        if self.results is not None:  # the conventions the compared values were computed under
            table = dataclasses.replace(table, notes=(*table.notes,
                                                      convention_line(list(self.results))))
        return html_table(f"Comparison of {len(self.run_names)} runs", table)

    def pair(self, measure: str, system: str, baseline: str) -> PairComparison:
        """The comparison of ``system`` against ``baseline`` on ``measure``.

        The two runs may be given in either order; the answer is then seen from ``system``
        (difference, interval, effect size, wins and losses, direction swapped).

        Raises
        ------
        ParameterError
            No such comparison (unknown measure or run, or a pair not compared in
            baseline mode).
        """
        found = self._index.get((measure, system, baseline))
        if found is not None:
            return found
        other = self._index.get((measure, baseline, system))
        if other is None:
            raise ParameterError(
                f"no comparison of {system!r} with {baseline!r} on {measure!r}; compared: "
                f"measures {list(self.measures)}, runs {list(self.run_names)}"
                + (f" against baseline {self.baseline!r}" if self.baseline else ""))
        return dataclasses.replace(
            other, system=system, baseline=baseline, mean_system=other.mean_baseline,
            mean_baseline=other.mean_system, difference=-other.difference,
            ci_low=-other.ci_high, ci_high=-other.ci_low, effect_size=-other.effect_size,
            wins=other.losses, losses=other.wins, direction=-other.direction)

    def per_query(self, measure: object) -> dict[str, dict[tuple[str, str], float]]:
        """``{query_id: {(system, baseline): difference}}`` of one measure: each pair's
        :meth:`PairComparison.per_query`, every query of the comparison's axis; NaN where a
        query was left out of a pair.

        Examples
        --------
        >>> import ranklens
        >>> cmp = ranklens.compare({"q1": {"a": 1}, "q2": {"b": 1}},
        ...                        {"x": {"q1": {"a": 1.0}, "q2": {"z": 1.0}},
        ...                         "y": {"q2": {"b": 1.0}, "q1": {"z": 1.0}},
        ...                         "w": {"q1": {"a": 1.0}, "q2": {"b": 1.0}}},
        ...                        ["RR"], baseline="x")
        >>> cmp.per_query("RR")["q2"]
        {('y', 'x'): 1.0, ('w', 'x'): 1.0}
        """
        name = self.results._name(measure) if self.results is not None else measure
        pairs = {(p.system, p.baseline): p.per_query() for p in self.pairs if p.measure == name}
        if not pairs:
            raise ParameterError(f"no comparison on {measure!r}; compared: measures "
                                 f"{list(self.measures)}")
        first = next(iter(pairs.values()))
        return {q: {key: values[q] for key, values in pairs.items()} for q in first}

    def direction(self, measure: str, system: str, baseline: str) -> int:
        """+1 / -1 when ``system`` is significantly above / below ``baseline``, else 0."""
        return self.pair(measure, system, baseline).direction

    def to_dicts(self) -> list[dict[str, Any]]:
        """One plain dict per comparison, with the settings (test, correction, ...) in each."""
        settings = {"test": self.test, "correction": self.correction,
                    "correction_scope": self.correction_scope, "alpha": self.alpha,
                    "confidence": self.confidence, "ci": self.ci,
                    "permutations": self.permutations, "resamples": self.resamples,
                    "seed": self.seed}
        return [{**{name: getattr(p, name) for name in RECORD}, **settings}
                for p in self.pairs]

    def to_polars(self, per_query: bool = False) -> pl.DataFrame:
        """One row per comparison (the fields of :class:`PairComparison` and the settings),
        or with ``per_query`` one row per comparison and query: ``measure, system,
        baseline, query_id, difference``."""
        if per_query:
            return pl.concat([p.to_polars().select(
                *(pl.lit(getattr(p, k), pl.String).alias(k)
                  for k in ("measure", "system", "baseline")), pl.all()) for p in self.pairs],
                how="vertical")
        rows = self.to_dicts()
        schema = {name: _polars_type(name) for name in rows[0]} if rows else None
        return pl.DataFrame(rows, schema=schema, orient="row") if rows else pl.DataFrame()

    def render(self, fmt: str = "table", *, details: bool = False) -> str:
        """The comparison as text: ``table``, ``markdown``, ``latex``, ``csv``, ``tsv`` or
        ``jsonl`` (see :func:`ranklens._surfaces.compare.render.render_comparison`).

        ``details``: ``table``, ``markdown`` and ``latex`` show one row per comparison
        (difference, interval, d_z, wins/ties/losses, p, adjusted p, significant) instead
        of the means with marks."""
        from .render import render_comparison

        return render_comparison(self, fmt, details=details)


_INTS = {"n", "excluded", "wins", "ties", "losses", "direction", "permutations", "resamples",
         "seed"}
_BOOLS = {"significant", "exact"}
_STRS = {"measure", "system", "baseline", "test", "correction", "correction_scope", "ci"}


def _polars_type(name: str) -> Any:
    if name in _INTS:
        return pl.Int64
    if name in _BOOLS:
        return pl.Boolean
    return pl.String if name in _STRS else pl.Float64


def is_nan(value: float) -> bool:
    return isinstance(value, float) and math.isnan(value)
