"""The result of an evaluation: per-query values first, aggregates derived from them."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ._errors import MeasureError
from ._names import parse_measure

if TYPE_CHECKING:
    import pandas as pd
    import polars as pl

    from ._measures import Measure

__all__ = ["Result", "aggregate"]

GEO_FLOOR = 1e-5  # trec_eval's MIN_GEO_MEAN


def aggregate(values: np.ndarray, how: str, keep: np.ndarray | None = None) -> float:
    """Aggregate per-query values as trec_eval does (sequential double sums, then divide).

    ``keep`` selects the queries that count (the others were left out by a policy such as
    ``empty='skip'``). A NaN among the kept values is not dropped: it makes the aggregate
    NaN, as trec_eval prints ``-nan``, rather than silently shrinking the average.
    """
    v = np.asarray(values, dtype=np.float64)
    if how == "none":
        return math.nan
    if keep is not None:
        v = v[keep]
    if how == "sum":
        return float(np.cumsum(v)[-1]) if v.size else 0.0
    if v.size == 0:
        return 0.0
    if how == "gmean":
        logs = np.log(np.maximum(v, GEO_FLOOR))
        return float(math.exp(float(np.cumsum(logs)[-1]) / v.size))
    # np.cumsum is a plain left-to-right loop, so this equals trec_eval's summation order
    return float(np.cumsum(v)[-1]) / v.size


@dataclass(frozen=True, eq=False)
class Result(Mapping[str, float]):
    """Values of every requested measure for one run.

    ``result[name]`` is the aggregate (a float) of a measure as it was written in the
    request; :meth:`per_query` and :meth:`to_polars` give the per-query values.

    Attributes
    ----------
    names : the measure names as requested, in order.
    measures : the parsed :class:`Measure` of each name.
    query_ids : the evaluated queries, in trec_eval order.
    query_values : per-query values of each name, aligned with ``query_ids``; NaN marks a
        query left out of the aggregate by a policy (``empty='skip'``/``'nan'``).
    aggregates : the aggregate of each name.
    conventions : the options in force (tie policy, relevance level, ...).
    run_name : the run's name (a TREC file's tag).
    diagnostics : ``missing_queries`` and ``ignored_queries`` as reported by alignment.
    """

    names: tuple[str, ...]
    measures: dict[str, Measure]
    query_ids: np.ndarray
    query_values: dict[str, np.ndarray]
    aggregates: dict[str, float]
    conventions: dict[str, Any]
    run_name: str = "run"
    diagnostics: dict[str, Any] = field(default_factory=dict)
    text_values: dict[str, list[str]] = field(default_factory=dict)

    def __getitem__(self, name: object) -> float:
        return self.aggregates[self._key(name)]

    def __contains__(self, name: object) -> bool:
        # Mapping's default would call __getitem__ and expect KeyError, not MeasureError
        return self._resolve(name) is not None

    def get(self, name: object, default: Any = None) -> Any:
        key = self._resolve(name)
        return default if key is None else self.aggregates[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)

    def __repr__(self) -> str:
        body = ", ".join(f"{n}={self.aggregates[n]:.4f}" for n in self.names)
        conv = self.conventions.get("convention")
        shown = f"; convention={conv}, ties={self.conventions.get('ties')}" if conv else ""
        return f"<Result {self.run_name}: {body} over {len(self.query_ids)} queries{shown}>"

    def per_query(self, name: object) -> dict[str, float]:
        """``{query_id: value}`` for one measure, in trec_eval query order."""
        key = self._key(name)
        return dict(zip(self.query_ids.tolist(), self.query_values[key].tolist(), strict=True))

    def _resolve(self, name: object) -> str | None:
        """The requested name ``name`` stands for: as written, canonical, or any spelling."""
        if isinstance(name, str) and name in self.aggregates:
            return name
        key = str(name)
        for written, measure in self.measures.items():
            if str(measure) == key:
                return written
        try:
            wanted = parse_measure(name) if isinstance(name, str) else name
        except MeasureError:
            return None
        for written, measure in self.measures.items():
            if measure == wanted:
                return written
        return None

    def _key(self, name: object) -> str:
        key = self._resolve(name)
        if key is None:
            raise MeasureError(
                f"{str(name)!r} was not evaluated; this result has {', '.join(self.names)}"
            )
        return key

    def to_polars(self, wide: bool = True) -> pl.DataFrame:
        """Per-query values: one row per query and a column per measure (or long form)."""
        import polars as pl

        cols: dict[str, Any] = {"query_id": self.query_ids.tolist()}
        for name in self.names:
            cols[name] = self.query_values[name]
        frame = pl.DataFrame(cols)
        if wide:
            return frame
        return frame.unpivot(index="query_id", variable_name="measure", value_name="value")

    def to_pandas(self, wide: bool = True) -> pd.DataFrame:
        """:meth:`to_polars` as a pandas DataFrame (needs pandas)."""
        return self.to_polars(wide).to_pandas()

    def to_dict(self) -> dict[str, dict[str, float]]:
        """``{measure: {query_id: value, ..., "all": aggregate}}``."""
        out: dict[str, dict[str, float]] = {}
        for name in self.names:
            row = self.per_query(name)
            row["all"] = self.aggregates[name]
            out[name] = row
        return out
