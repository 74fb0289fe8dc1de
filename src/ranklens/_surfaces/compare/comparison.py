"""What a comparison holds: one :class:`PairComparison` per measure and pair of systems,
with the settings (:class:`ComparisonData`; :mod:`.result` adds the renderings)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..._base.errors import ParameterError
from ..._base.lazy import polars as pl
from ..._results.per_query import Frames, listed
from ..._results.results import Results
from .pair import RECORD, PairComparison

__all__ = ["ComparisonData", "PairComparison"]


@dataclass(frozen=True, eq=False)
class ComparisonData(Frames):
    """What a comparison holds and looks up: :class:`Comparison` without its renderings
    (which read it: :mod:`.render`, :mod:`.notes`)."""

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
