"""Several runs evaluated with the same measures and options against the same judgments.

:class:`Results` puts every run's per-query values on one query axis, which is what a
comparison of systems (paired tests, win/tie/loss, effect sizes) and a report need: values
paired by query id, never by position. A query one run lacks (``missing="skip"``) is
explicit: NaN in :meth:`Results.values` and False in :attr:`Results.present`, never dropped.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .._base.errors import MeasureError, ParameterError
from .._base.lazy import polars as pl
from .per_query import Frames, by_query, listed
from .result import Result, _read_only

if TYPE_CHECKING:
    from .._base.vocabulary import Vocabulary
    from .._measures import Measure
    from .interval import ScoreInterval

__all__ = ["Results", "results_of"]


def _query_axis(ids: list[np.ndarray]) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
    """Every query of ``ids`` (each run's query ids) once, in trec_eval order, and each run's
    rows on that axis.

    When every run has the same queries in that order already (one run, or runs evaluated
    on the same queries: what an evaluation assembles), the axis is theirs, checked in one
    vectorized comparison, far cheaper than sorting the union (a step the chunked engine
    runs alone after its workers are done); otherwise the union is sorted.
    """
    first = ids[0]
    if first.ndim == 1 and all(q.shape == first.shape for q in ids[1:]):
        # str order is code point order, which is UTF-8 byte order: trec_eval's
        increasing = len(first) < 2 or bool(np.all(first[1:] > first[:-1]))
        if increasing and all(q is first or bool(np.all(q == first)) for q in ids[1:]):
            at = _read_only(np.arange(len(first), dtype=np.int64))
            return np.array(first, dtype=object), tuple(at for _ in ids)
    union = sorted({q for r in ids for q in r.tolist()})
    where = {q: i for i, q in enumerate(union)}
    rows = tuple(np.fromiter((where[q] for q in r.tolist()), dtype=np.int64, count=len(r))
                 for r in ids)
    return np.array(union, dtype=object), rows


@dataclass(frozen=True, eq=False)
class Results(Frames):
    """The :class:`Result` of each of several runs, with per-query values aligned across runs.

    ``results["bm25"]`` (or ``results[0]``) is one run's :class:`Result`; iterating gives
    each run's Result in the order the runs were given. Every run has the same measures
    (``names``) and options.

    Attributes
    ----------
    results : each run's Result, in the order the runs were given.
    run_names : each run's name (unique).
    names : the measure names as requested, in order.
    measures : the parsed :class:`Measure` of each name.
    query_ids : every query any run was evaluated on, in trec_eval order (byte-wise).
    present : ``(queries, runs)`` booleans: whether the run was evaluated on the query (False
        for a query absent from a run under ``missing="skip"``).

    Examples
    --------
    >>> import ranklens
    >>> qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    >>> res = ranklens.evaluate(qrels, {"x": {"q1": {"a": 1.0}, "q2": {"c": 1.0}},
    ...                                 "y": {"q1": {"c": 1.0}, "q2": {"b": 1.0}}}, ["RR"])
    >>> res.run_names, res.query_ids.tolist()
    (('x', 'y'), ['q1', 'q2'])
    >>> res.values("RR").tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """

    results: tuple[Result, ...]
    run_names: tuple[str, ...] = field(init=False)
    query_ids: np.ndarray = field(init=False)
    present: np.ndarray = field(init=False)
    _rows: tuple[np.ndarray, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        results = tuple(self.results)
        if not results:
            raise ParameterError("the 'results' argument is empty; give at least one Result")
        names = tuple(r.run_name for r in results)
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ParameterError(f"run names must be unique; got {twice} more than once")
        first = results[0]
        for r in results[1:]:
            if r.names != first.names or r.measures != first.measures:
                raise ParameterError(
                    "results of several runs must have the same measures; got "
                    f"{', '.join(first.names)} ({first.run_name}) and {', '.join(r.names)} "
                    f"({r.run_name})"
                )
        query_ids, rows = _query_axis([r.query_ids for r in results])
        present = np.zeros((len(query_ids), len(results)), dtype=bool)
        for j, at in enumerate(rows):
            present[at, j] = True
        object.__setattr__(self, "results", results)
        object.__setattr__(self, "run_names", names)
        object.__setattr__(self, "query_ids", _read_only(query_ids))
        object.__setattr__(self, "present", _read_only(present))
        object.__setattr__(self, "_rows", rows)

    @property
    def names(self) -> tuple[str, ...]:
        return self.results[0].names

    @property
    def measures(self) -> dict[str, Measure]:
        return self.results[0].measures

    @property
    def vocabulary(self) -> Vocabulary:
        """The words of its tables and messages: a recommender's when every run's are."""
        return min((r.vocabulary for r in self.results), key=lambda w: w.users)

    @property
    def conventions(self) -> list[dict[str, Any]]:
        """Each run's options in force (one evaluation gives every run the same)."""
        return [r.conventions for r in self.results]

    def __getitem__(self, run: str | int) -> Result:
        """One run's Result, by name or by position."""
        if isinstance(run, int):
            return self.results[run]
        if run in self.run_names:
            return self.results[self.run_names.index(run)]
        raise KeyError(run)

    def __iter__(self) -> Iterator[Result]:
        return iter(self.results)

    def __contains__(self, run: object) -> bool:
        return run in self.run_names

    def __len__(self) -> int:
        return len(self.results)

    def __repr__(self) -> str:
        return (f"<Results of {len(self)} runs ({listed(self.run_names)}): "
                f"{listed(self.names)} over {len(self.query_ids)} queries>")

    def _name(self, measure: object) -> str:
        """The requested name ``measure`` stands for (any spelling, as :class:`Result`)."""
        return self.results[0]._key(measure)

    def values(self, measure: object) -> np.ndarray:
        """Per-query values of one measure: a read-only ``(queries, runs)`` float array.

        Rows follow :attr:`query_ids`, columns :attr:`run_names`. NaN marks a query the
        run was not evaluated on (see :attr:`present`) or one a policy left out
        (``empty="skip"``/``"nan"``).

        Raises
        ------
        MeasureError
            ``measure`` was not evaluated, or is a text measure (``relstring``).
        """
        name = self._name(measure)
        if name in self.results[0].text_values:
            raise MeasureError(f"{name} is a text measure; it has no numeric values")
        out = np.full((len(self.query_ids), len(self.results)), np.nan)
        for j, (r, at) in enumerate(zip(self.results, self._rows, strict=True)):
            out[at, j] = r.query_values[name]
        return _read_only(out)

    def per_query(self, measure: object) -> dict[str, dict[str, float]]:
        """``{query_id: {run: value}}`` for one measure: the rows of :meth:`values`, every
        query of :attr:`query_ids` with every run; NaN where the run was not evaluated on
        the query or a policy left it out.

        Examples
        --------
        >>> import ranklens
        >>> qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
        >>> res = ranklens.evaluate(qrels, {"x": {"q1": {"a": 1.0}},
        ...                                 "y": {"q1": {"c": 1.0}, "q2": {"b": 1.0}}},
        ...                         ["RR"], missing="skip")
        >>> res.per_query("RR")
        {'q1': {'x': 1.0, 'y': 0.0}, 'q2': {'x': nan, 'y': 1.0}}
        """
        rows = [dict(zip(self.run_names, row, strict=True))
                for row in self.values(measure).tolist()]
        return by_query(self.query_ids, rows)

    def aggregates(self, measure: object) -> np.ndarray:
        """The aggregate of one measure for each run (aligned with :attr:`run_names`)."""
        name = self._name(measure)
        return _read_only(np.array([r.aggregates[name] for r in self.results]))

    def interval(self, measure: object, method: str = "t", level: float = 0.95, *,
                 seed: int = 0, n_resamples: int = 9999,
                 clip: bool = True) -> dict[str, ScoreInterval]:
        """Each run's confidence interval of one measure's mean over its queries.

        ``{run_name: ScoreInterval}`` in run order, each one :meth:`Result.interval` of that
        run (over the queries it was evaluated on; every run's bootstrap draws from the same
        ``seed``).

        Examples
        --------
        >>> import ranklens
        >>> qrels = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"a": 1}}
        >>> res = ranklens.evaluate(qrels, {"x": {"q1": {"a": 1.0}, "q2": {"c": 1.0},
        ...                                       "q3": {"a": 1.0}},
        ...                                 "y": {"q1": {"c": 1.0}, "q2": {"b": 1.0},
        ...                                       "q3": {"c": 2.0, "a": 1.0}}}, ["RR"])
        >>> {run: round(ci.high, 4) for run, ci in res.interval("RR", clip=False).items()}
        {'x': 2.1009, 'y': 1.7421}
        """
        return {name: r.interval(measure, method, level, seed=seed, n_resamples=n_resamples,
                                 clip=clip)
                for name, r in zip(self.run_names, self.results, strict=True)}

    def to_polars(self, wide: bool = True) -> pl.DataFrame:
        """Per-query values of every run: ``run, query_id`` and a column per measure, one row
        per run and query it was evaluated on (or long form: ``run, query_id, measure,
        value``)."""
        frames = [r.to_polars(wide=True).select(
            pl.lit(name, dtype=pl.String).alias("run"), pl.all())
            for name, r in zip(self.run_names, self.results, strict=True)]
        frame = pl.concat(frames, how="vertical")
        if wide:
            return frame
        return frame.unpivot(index=["run", "query_id"], variable_name="measure",
                             value_name="value")

    def to_dict(self, *, aggregate_key: str = "all") -> dict[str, dict[str, dict[str, float]]]:
        """``{run: result.to_dict(aggregate_key=...)}`` (see :meth:`Result.to_dict`)."""
        return {name: r.to_dict(aggregate_key=aggregate_key)
                for name, r in zip(self.run_names, self.results, strict=True)}


def results_of(results: Result | Results | Sequence[Result]) -> list[Result]:
    """One Result, a Results or a sequence of Result, as a list of Result."""
    if isinstance(results, Result):
        return [results]
    if isinstance(results, Results):
        return list(results.results)
    return list(results)

