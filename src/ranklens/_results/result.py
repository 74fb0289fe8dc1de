"""The result of an evaluation: per-query values first, aggregates derived from them."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .._base.errors import MeasureError, ParameterError
from .._base.lazy import polars as pl
from .._base.vocabulary import IR, Vocabulary
from .._names import parse_measure
from .per_query import Frames, by_query, listed

if TYPE_CHECKING:
    from .._measures import Measure
    from .interval import ScoreInterval

__all__ = ["Aggregates", "Result"]

class Aggregates(Mapping[str, float]):
    """A mapping of each requested measure (as written, or any spelling of it) to its
    aggregate: what :class:`Result` and :class:`ranklens.spark.SparkResult` share.
    Subclasses hold ``names``, ``measures`` (written -> parsed) and ``aggregates``."""

    names: tuple[str, ...]
    measures: dict[str, Measure]
    aggregates: dict[str, float]

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

    def _body(self) -> str:
        """``name=value`` of each aggregate, for a repr."""
        return listed([f"{n}={self.aggregates[n]:.4f}" for n in self.names])

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


@dataclass(frozen=True, eq=False)
class Result(Aggregates, Frames):
    """Values of every requested measure for one run.

    ``result[name]`` is the aggregate (a float) of a measure as it was written in the
    request; :meth:`per_query` and :meth:`to_polars` give the per-query values.

    Attributes
    ----------
    names : the measure names as requested, in order.
    measures : the parsed :class:`Measure` of each name.
    query_ids : the evaluated queries, in trec_eval order.
    query_values : per-query values of each name, aligned with ``query_ids``; NaN marks a
        query left out of the aggregate by a policy (``empty='skip'``/``'nan'``). These
        arrays, like ``query_ids``, are read-only views: copy one to change it.
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
    #: the query ids were given as integers: frames give them back as integers, in numeric
    #: order (``query_ids`` stay strings in trec_eval order)
    integer_query_ids: bool = False
    #: what evaluated it: ``{"engine": "in memory", "jobs": 2}`` or ``{"engine": "chunked",
    #: "chunks": 12, "workers": 1, "estimated_bytes": ...}`` (``ranklens.evaluate`` only)
    engine: dict[str, Any] = field(default_factory=dict)
    #: the words its tables use: users and items for a recommender's inputs
    vocabulary: Vocabulary = IR

    def __post_init__(self) -> None:
        # read-only views: a caller editing a result's values would change its aggregates'
        # meaning behind them, and the arrays may be shared between two spellings of a measure
        object.__setattr__(self, "query_ids", _read_only(self.query_ids))
        object.__setattr__(self, "query_values",
                           {k: _read_only(v) for k, v in self.query_values.items()})

    def __repr__(self) -> str:
        body = self._body()
        conv = self.conventions.get("convention")
        shown = f"; convention={conv}, ties={self.conventions.get('ties')}" if conv else ""
        over = f"{len(self.query_ids)} {self.vocabulary.queries}"
        return f"<Result {self.run_name}: {body} over {over}{shown}>"

    def per_query(self, name: object) -> dict[str, float]:
        """``{query_id: value}`` for one measure, every query of :attr:`query_ids` in
        trec_eval order; NaN where a policy left the query out.

        Every result type reads its per-query values this way (docs/results.md).

        Examples
        --------
        >>> import ranklens
        >>> r = ranklens.evaluate({"a": {"d": 1}, "b": {"d": 1}},
        ...                       {"a": {"d": 1.0}, "b": {"x": 1.0}}, ["P@1"])
        >>> r.per_query("P@1")
        {'a': 1.0, 'b': 0.0}
        """
        return by_query(self.query_ids, self.query_values[self._key(name)])

    def aggregate(self, name: object, how: str = "mean",
                  weights: Mapping[Any, float] | np.ndarray | None = None) -> float:
        """One measure's aggregate over the queries, another way than its own.

        Parameters
        ----------
        name : str or Measure
            The measure, under any of its spellings.
        how : {"mean", "median"}, default "mean"
            The mean (weighted by ``weights``), or the median (RePlay's ``Median``).
        weights : mapping or array, optional
            Each query's weight in the mean (scikit-learn's ``sample_weight``): a
            ``{query_id: weight}`` mapping (queries not in it weigh 0) or an array in
            :attr:`query_ids` order. Weights must be finite and >= 0, not all 0.

        Returns
        -------
        float
            Queries left out by ``empty="skip"`` or ``"nan"`` (a NaN value) do not count.

        Examples
        --------
        >>> import ranklens
        >>> r = ranklens.evaluate({"a": {"d": 1}, "b": {"d": 1}, "c": {"d": 1}},
        ...                       {"a": {"d": 1.0}, "b": {"x": 1.0}, "c": {"d": 1.0}}, ["P@1"])
        >>> r.aggregate("P@1", "median"), r.aggregate("P@1", weights={"a": 1, "b": 3})
        (1.0, 0.25)
        """
        values = self.query_values[self._key(name)]
        if how not in ("mean", "median"):
            raise ParameterError(f"the 'how' argument must be one of mean, median; got {how!r}")
        w = self._weights(weights)
        counted = ~np.isnan(values)
        if w is not None:
            counted &= w > 0
        v = values[counted]
        if how == "median":
            if w is not None:
                raise ParameterError("weights apply to the mean only; got how='median'")
            return float(np.median(v)) if v.size else float("nan")
        if w is None:
            return float(np.cumsum(v)[-1]) / v.size if v.size else float("nan")
        ws = w[counted]
        return float(np.cumsum(v * ws)[-1] / np.cumsum(ws)[-1]) if v.size else float("nan")

    def interval(self, measure: object, method: str = "t", level: float = 0.95, *,
                 seed: int = 0, n_resamples: int = 9999, clip: bool = True) -> ScoreInterval:
        """A confidence interval of one measure's mean over the queries.

        The interval is over this result's per-query values (:attr:`query_values`). The
        evaluation's policies have decided them already: a query scored 0 (``empty="zero"``,
        ``missing="zero"``) counts as a 0, a query left out (``empty="skip"``/``"nan"``,
        a NaN value) is left out here too, as the aggregate leaves it out.

        Parameters
        ----------
        measure : str or Measure
            The measure, under any of its spellings (a mean, not a count or text).
        method : {"t", "bootstrap"}, default "t"
            ``t``: mean ± t(n-1, (1+level)/2)·s/sqrt(n) (``scipy.stats.t.interval``).
            ``bootstrap``: the percentile interval of ``n_resamples`` means of queries drawn
            with replacement from ``numpy.random.default_rng(seed)``.
        level : float, default 0.95
            The confidence level, strictly between 0 and 1.
        seed : int, default 0
            The bootstrap's seed: the same seed gives the same interval.
        n_resamples : int, default 9999
            The bootstrap's resamples, at most 1,000,000 (each is a mean in memory).
        clip : bool, default True
            For a measure whose values lie in [0, 1] (declared so, and so here), move a
            bound past 0 or 1 onto it (``clipped`` says so): a t interval of a mean near
            either end, or of few queries, reaches past it.

        Returns
        -------
        ScoreInterval
            ``mean``, ``low``, ``high``, ``method``, ``level``, ``n`` (the queries counted)
            and ``clipped``; fewer than two queries give NaN bounds, values all equal the
            zero-width interval at that value.

        Raises
        ------
        MeasureError
            The measure was not evaluated, or its aggregate is not a mean (a count, text).
        ParameterError
            A bad ``method``, ``level``, ``seed`` or ``n_resamples``.

        Examples
        --------
        >>> import ranklens
        >>> r = ranklens.evaluate({"a": {"d": 1}, "b": {"d": 1}, "c": {"d": 1}},
        ...                       {"a": {"d": 1.0}, "b": {"x": 1.0, "d": 0.5},
        ...                        "c": {"x": 1.0, "y": 0.9, "d": 0.1}}, ["RR"])
        >>> ci = r.interval("RR", clip=False)
        >>> round(ci.mean, 4), round(ci.low, 4), round(ci.high, 4), ci.n
        (0.6111, -0.2507, 1.473, 3)
        >>> ci = r.interval("RR")  # RR lies in [0, 1]
        >>> ci.low, ci.high, ci.clipped
        (0.0, 1.0, True)
        >>> r.interval("RR", "bootstrap", seed=1).method
        'bootstrap'
        """
        from .interval import score_interval

        values = self._mean_values(measure)
        within = None
        if clip and self.measures[self._key(measure)].in_unit_range:
            kept = values[~np.isnan(values)]
            if kept.size and kept.min() >= 0.0 and kept.max() <= 1.0:
                within = (0.0, 1.0)
        return score_interval(values, method, level, seed, n_resamples, within)

    def _mean_values(self, measure: object) -> np.ndarray:
        """The per-query values of a measure whose aggregate is a mean."""
        key = self._key(measure)
        if key in self.text_values:
            raise MeasureError(f"{key} is a text measure; it has no interval")
        if self.measures[key].definition.aggregate != "mean":
            how = self.measures[key].definition.aggregate
            raise MeasureError(f"{key} is aggregated as a {how}, not a mean over queries; it "
                               "has no interval")
        if self.measures[key].definition.weight is not None:
            raise MeasureError(f"{key} is a weighted mean over queries; the intervals are of "
                               "plain means, so it has none")
        return self.query_values[key]

    def _weights(self, weights: Mapping[Any, float] | np.ndarray | None) -> np.ndarray | None:
        if weights is None:
            return None
        if isinstance(weights, Mapping):
            given = {str(q): w for q, w in weights.items()}
            unknown = sorted(set(given) - set(self.query_ids.tolist()))
            if unknown:
                raise ParameterError(f"weights name queries that were not evaluated: "
                                     f"{unknown[:5]}")
            w = np.array([given.get(q, 0.0) for q in self.query_ids.tolist()], dtype=np.float64)
        else:
            w = np.asarray(weights, dtype=np.float64)
            if w.shape != (len(self.query_ids),):
                raise ParameterError(f"weights must hold one value per query "
                                     f"({len(self.query_ids)}), got shape {w.shape}")
        if not np.isfinite(w).all() or (w < 0).any() or not (w > 0).any():
            raise ParameterError("weights must be finite numbers >= 0, not all 0")
        return w

    def to_polars(self, wide: bool = True) -> pl.DataFrame:
        """Per-query values: one row per query and a column per measure (or long form).

        Query ids given as integers (user ids of a recommender's frame or mapping) come back
        as integers, rows in numeric order; others are strings in trec_eval order."""
        cols: dict[str, Any] = {"query_id": self.query_ids.tolist()}
        for name in self.names:
            cols[name] = self.query_values[name]
        frame = pl.DataFrame(cols)
        if self.integer_query_ids:
            frame = frame.with_columns(pl.col("query_id").cast(pl.Int64)).sort(
                "query_id", maintain_order=True)
        if wide:
            return frame
        return frame.unpivot(index="query_id", variable_name="measure", value_name="value")

    def to_dict(self, *, aggregate_key: str = "all") -> dict[str, dict[str, float]]:
        """``{measure: {query_id: value, ..., aggregate_key: aggregate}}``.

        Parameters
        ----------
        aggregate_key : str, default "all"
            The key of the aggregate in each measure's dict (trec_eval's ``all``).

        Raises
        ------
        ParameterError
            A query is named ``aggregate_key``: its value and the aggregate would share a
            key, so pass another one (``to_dict(aggregate_key="*")``).
        """
        if (self.query_ids == aggregate_key).any():
            raise ParameterError(
                f"a query is named {aggregate_key!r}, the key of the aggregates in to_dict(); "
                "pass another aggregate_key, e.g. to_dict(aggregate_key='*')"
            )
        out: dict[str, dict[str, float]] = {}
        for name in self.names:
            row = self.per_query(name)
            row[aggregate_key] = self.aggregates[name]
            out[name] = row
        return out


def _read_only(values: np.ndarray) -> np.ndarray:
    """A read-only view of ``values`` (the array itself stays as it was)."""
    view = np.asarray(values).view()
    view.flags.writeable = False
    return view
