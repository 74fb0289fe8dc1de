"""Results as tables: one row per run (and per query of each run), one column per measure.

It reads the parsed measures a result holds and never parses a name again. The aggregate
row's query is ``all``; a query literally named ``all`` is still a query (the rows know which
is which).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from ..._base.errors import ParameterError
from ..._results.interval import IntervalRequest
from ..._results.result import Result
from .best import best_key, tie_key
from .model import Cell, Column, Lazy, Row, Table, label

__all__ = ["Grid", "convention_line", "grid_records", "grid_table", "results_grid"]

Number = float | str  # a measure's value: a number, or text (relstring)

#: Per-query rows made at a time: what rendering holds is bounded by this, not by the queries.
ROWS_AT_A_TIME = 1024


@dataclass(frozen=True)
class _RunRow:
    """A run's values for one query, or its aggregates."""

    run: str
    query: str
    values: tuple[Number, ...]
    aggregate: bool
    #: per measure, the interval of the aggregate row's mean (None: none asked or none
    #: defined, a count or text)
    bounds: tuple[tuple[float, float] | None, ...] = ()


@dataclass(frozen=True)
class Grid:
    """The runs' values, checked: the same measures for every run."""

    measures: tuple[str, ...]
    counts: tuple[bool, ...]  # whether a measure is a count (shown as an integer)
    lower_is_better: tuple[bool, ...]
    #: made on each pass, per run: its aggregate row, and with ``per_query`` its query ids
    #: and one list of values per measure, at most :data:`ROWS_AT_A_TIME` queries a block;
    #: a run's last block is an aggregate row and no queries
    blocks: Iterable[tuple[_RunRow, list[str], list[list[Number]]]]
    aggregates: tuple[_RunRow, ...]
    per_query: bool
    #: the intervals shown beside each mean (None: no interval columns)
    ci: IntervalRequest | None = None

    @property
    def rows(self) -> Iterator[_RunRow]:
        """Every row in order: each run's per-query rows, then its aggregate row."""
        for agg, ids, columns in self.blocks:
            for qid, *values in zip(ids, *columns, strict=True):
                yield _RunRow(agg.run, qid, tuple(values), aggregate=False)
            if not ids:
                yield agg

    def with_interval(self) -> tuple[bool, ...]:
        """Per measure: whether it gets interval columns (a mean, when intervals are on)."""
        return tuple(self.ci is not None and not count and any(
            r.bounds and r.bounds[j] is not None for r in self.aggregates)
            for j, count in enumerate(self.counts))


def convention_line(results: Sequence[Result]) -> str:
    """``convention: trec (ties=docid, rel=1, ...)``: the options every number depends on.

    Runs evaluated under different options get one clause each, so no number is shown
    without the convention it was computed under.
    """
    clauses: list[str] = []
    for r in results:
        c = r.conventions
        parts = [f"ties={c.get('ties')}", f"rel={c.get('rel')}", f"missing={c.get('missing')}",
                 f"empty={c.get('empty')}", f"duplicates={c.get('duplicates')}"]
        if c.get("depth") is not None:
            parts.append(f"depth={c['depth']}")
        if c.get("judged_only"):
            parts.append("judged_only=true")
        if c.get("empty_ranking") is not None:  # recorded only when not "zero"
            parts.append(f"empty_ranking={c['empty_ranking']}")
        for key in ("ap_denominator", "gain", "ideal"):
            if key in c:
                parts.append(f"{key}={c[key]}")
        clause = f"{c.get('convention', 'trec')} ({', '.join(parts)})"
        if clause not in clauses:
            clauses.append(clause)
    return "convention: " + "; ".join(clauses)


def results_grid(results: Sequence[Result], names: Sequence[str] | None,
                 per_query: bool, ci: IntervalRequest | None = None) -> Grid:
    """Every run's aggregates (and per-query values), side by side; with ``ci``, the
    interval of each mean (:meth:`Result.interval`) on the aggregate rows.

    Raises
    ------
    ParameterError
        No results, results of different measures, or not one name per result.
    """
    if not results:
        raise ParameterError("nothing to render: no results were given")
    measures = tuple(results[0].names)
    for r in results[1:]:
        if tuple(r.names) != measures:
            raise ParameterError(
                f"results to render side by side must have the same measures; got "
                f"{', '.join(measures)} and {', '.join(r.names)}")
    if names is not None and len(names) != len(results):
        raise ParameterError(f"{len(names)} run names given for {len(results)} results")
    definitions = [results[0].measures[m].definition for m in measures]
    runs = [names[i] if names is not None else r.run_name for i, r in enumerate(results)]
    aggregates = tuple(_RunRow(run, "all", tuple(
        "" if m in r.text_values else float(r.aggregates[m]) for m in measures),
        aggregate=True, bounds=tuple(_bounds(r, m, d.aggregate, ci) for m, d in zip(
            measures, definitions, strict=True)) if ci is not None else ())
        for r, run in zip(results, runs, strict=True))

    def blocks() -> Iterator[tuple[_RunRow, list[str], list[list[Number]]]]:
        for r, agg in zip(results, aggregates, strict=True):
            for at in range(0, len(r.query_ids) if per_query else 0, ROWS_AT_A_TIME):
                cut = slice(at, at + ROWS_AT_A_TIME)
                yield agg, [str(q) for q in r.query_ids[cut].tolist()], [
                    [str(v) for v in r.text_values[m][cut]] if m in r.text_values
                    else r.query_values[m][cut].astype(float).tolist() for m in measures]
            yield agg, [], []

    return Grid(measures, tuple(d.aggregate == "sum" for d in definitions),
                tuple(bool(d.lower_is_better) for d in definitions), Lazy(blocks), aggregates,
                per_query, ci)


def _bounds(r: Result, measure: str, aggregate: str,
            ci: IntervalRequest) -> tuple[float, float] | None:
    """The interval of one run's mean of ``measure`` (None for a sum, gmean or text)."""
    if aggregate != "mean" or measure in r.text_values:
        return None
    got = r.interval(measure, ci.method, ci.level, seed=ci.seed, n_resamples=ci.n_resamples)
    return got.low, got.high


def _fixed(value: Number, count: bool) -> str:
    """A value as the human formats show it: 4 decimals, counts as integers."""
    if isinstance(value, str):
        return value
    if math.isnan(value):
        return "nan"
    return str(int(value)) if count and float(value).is_integer() else f"{value:.4f}"


def _best(grid: Grid) -> list[float | None]:
    """Per measure, the best aggregate (its :func:`~.best.tie_key`) when several runs have
    one (none for counts)."""
    best: list[float | None] = []
    for j, count in enumerate(grid.counts):
        values = [v for r in grid.aggregates
                  if isinstance(v := r.values[j], float) and not math.isnan(v)]
        key = best_key(values, grid.lower_is_better[j])
        best.append(key if len(values) > 1 and not count else None)
    return best


def grid_table(grid: Grid, *, query_column: bool, best: bool = False,
               query_label: str = "query") -> Table:
    """One row per run (and query): ``run``, ``query`` when ``query_column``, the measures.

    ``best``: the best aggregate of each measure is a strong cell (bold on a terminal);
    ``query_label``: the query column's header (``user`` for a recommender's results).
    """
    marks = _best(grid) if best else [None] * len(grid.measures)
    spans = grid.with_interval()
    columns = [Column("run", "left"), *([Column(query_label, "left")] if query_column else [])]
    for m, k, span in zip(grid.measures, grid.counts, spans, strict=True):
        columns.append(Column(m, count=k))
        if span:
            columns += [Column(f"{m} low"), Column(f"{m} high")]

    def row(r: _RunRow) -> Row:
        cells = [label(r.run), *([label(r.query)] if query_column else [])]
        if not (r.aggregate or any(spans)):  # a query's row, the most made: no marks, no bounds
            return Row((*cells, *[Cell(_fixed(v, k), v)
                                  for v, k in zip(r.values, grid.counts, strict=True)]))
        for j, (v, k, b, span) in enumerate(zip(r.values, grid.counts, marks, spans,
                                                 strict=True)):
            cells.append(Cell(_fixed(v, k), v, strong=r.aggregate and b is not None
                              and isinstance(v, float) and tie_key(v) == b))
            if span:
                cells += _bound_cells(r.bounds[j] if r.bounds else None)
        return Row(tuple(cells), aggregate=r.aggregate)

    def widths() -> list[int]:
        """The widest text of each column, a query's values measured without their rows."""
        sizes = [[len(c.shown) for c in row(r).cells] for r in grid.aggregates]
        for _, ids, values in grid.blocks:
            if ids:  # the run's name is measured on its aggregate row
                sizes.append([0, max(map(len, ids)), *(
                    max(len(_fixed(v, k)) for v in column)
                    for column, k in zip(values, grid.counts, strict=True))])
        return [max(column) for column in zip(*sizes, strict=True)]

    # the per-query rows have no interval cells: measured apart only without intervals
    return Table(tuple(columns), Lazy(lambda: map(row, grid.rows)),
                 widths=widths if grid.per_query and query_column and not any(spans) else None)


def _bound_cells(bounds: tuple[float, float] | None) -> list[Cell]:
    """The low and high cells of an interval (empty on a per-query row)."""
    if bounds is None:
        return [Cell("", None), Cell("", None)]
    return [Cell(_fixed(b, False), b) for b in bounds]


def grid_records(grid: Grid) -> Table:
    """One row per value: ``run``, ``query``, ``measure``, ``value`` (text measures per
    query only: they have no aggregate); with intervals, ``low`` and ``high`` too (null but
    on the aggregate rows of means)."""
    columns = (Column("run", "left"), Column("query", "left"), Column("measure", "left"),
               Column("value"), *((Column("low"), Column("high")) if grid.ci else ()))

    def rows() -> Iterator[Row]:
        for r in grid.rows:
            for j, (measure, value) in enumerate(zip(grid.measures, r.values, strict=True)):
                if r.aggregate and isinstance(value, str):
                    continue
                cells = [label(r.run), label(r.query), label(measure), Cell(str(value), value)]
                if grid.ci:
                    cells += _bound_cells(r.bounds[j] if r.bounds else None)
                yield Row(tuple(cells), aggregate=r.aggregate)

    return Table(columns, Lazy(rows))
