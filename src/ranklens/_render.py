"""Turn one or more :class:`~ranklens.Result` objects into text: tables, JSON Lines, CSV, ...

Rendering is kept apart from the results and from the command line, so that every format
can be tested at a fixed width without a terminal. It reads the parsed measures a result
holds and never parses a name again. Each run becomes one row (systems side by side); with
``per_query`` every query of every run gets a row too, and the aggregate row's query is
``all`` (a query literally named ``all`` is still a query: the rows know which is which).

Formats
-------
``table``     plain aligned text (the CLI upgrades it to a rich table on a terminal)
``jsonl``     one ``{"run", "query", "measure", "value"}`` object per line
``csv``/``tsv`` a header ``run,query,<measures...>`` then one row per run (and query),
              values at full precision
``markdown``  a pipe table
``latex``     a booktabs ``tabular``
``trec``      trec_eval's rows, ``%-22s\\t%s\\t%6.4f``, after a ``runid`` row per run
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal, get_args

from ._errors import ParameterError
from ._latex import escape as latex_escape
from ._measures import Measure
from ._result import Result
from ._results import Results, results_of

if TYPE_CHECKING:
    from rich.table import Table as RichTable

__all__ = ["FORMATS", "Cell", "Format", "convention_line", "render", "rich_table"]

#: The output formats of :func:`render`.
Format = Literal["table", "jsonl", "csv", "tsv", "markdown", "latex", "trec"]
FORMATS: tuple[str, ...] = get_args(Format)

Cell = float | str


@dataclass(frozen=True)
class _Row:
    """One row of a grid: a run's values for one query, or its aggregates."""

    run: str
    query: str
    cells: tuple[Cell, ...]
    aggregate: bool  # told apart by this flag, never by the query id (a query may be "all")


@dataclass(frozen=True)
class _Grid:
    """The neutral form every format is written from: named rows of per-measure cells."""

    measures: tuple[str, ...]
    counts: tuple[bool, ...]  # whether a measure is a count (printed as an integer)
    rows: tuple[_Row, ...]
    per_query: bool
    convention: str = ""  # one line naming the conventions in force (human formats only)


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
        for key in ("ap_denominator", "gain", "ideal"):
            if key in c:
                parts.append(f"{key}={c[key]}")
        clause = f"{c.get('convention', 'trec')} ({', '.join(parts)})"
        if clause not in clauses:
            clauses.append(clause)
    return "convention: " + "; ".join(clauses)


def _grid(results: Sequence[Result], names: Sequence[str] | None, per_query: bool) -> _Grid:
    if not results:
        raise ParameterError("nothing to render: no results were given")
    measures = tuple(results[0].names)
    for r in results[1:]:
        if tuple(r.names) != measures:
            raise ParameterError(
                f"results to render side by side must have the same measures; got "
                f"{', '.join(measures)} and {', '.join(r.names)}"
            )
    if names is not None and len(names) != len(results):
        raise ParameterError(f"{len(names)} run names given for {len(results)} results")
    counts = tuple(results[0].measures[m].definition.aggregate == "sum" for m in measures)
    rows: list[_Row] = []
    for i, r in enumerate(results):
        run = names[i] if names is not None else r.run_name
        if per_query:
            qids = r.query_ids.tolist()
            for j, qid in enumerate(qids):
                cells: list[Cell] = []
                for m in measures:
                    if m in r.text_values:
                        cells.append(str(r.text_values[m][j]))
                    else:
                        cells.append(float(r.query_values[m][j]))
                rows.append(_Row(run, str(qid), tuple(cells), aggregate=False))
        agg: list[Cell] = ["" if m in r.text_values else float(r.aggregates[m]) for m in measures]
        rows.append(_Row(run, "all", tuple(agg), aggregate=True))
    return _Grid(measures, counts, tuple(rows), per_query)


def _fixed(value: Cell, count: bool) -> str:
    """A value as shown in human-readable tables: 4 decimals, counts as integers."""
    if isinstance(value, str):
        return value
    if math.isnan(value):
        return "nan"
    if count and float(value).is_integer():
        return str(int(value))
    return f"{value:.4f}"


def _full(value: Cell, count: bool) -> str:
    """A value at full precision (shortest repr that reads back to the same double)."""
    if isinstance(value, str):
        return value
    if count and float(value).is_integer():
        return str(int(value))
    return repr(float(value))


def _header(grid: _Grid) -> list[str]:
    return ["run", "query", *grid.measures] if grid.per_query else ["run", *grid.measures]


def _display_rows(grid: _Grid) -> list[list[str]]:
    out = []
    for row in grid.rows:
        shown = [_fixed(c, k) for c, k in zip(row.cells, grid.counts, strict=True)]
        out.append([row.run, row.query, *shown] if grid.per_query else [row.run, *shown])
    return out


def _text_columns(grid: _Grid) -> int:
    """How many leading columns hold text (left-aligned) rather than numbers."""
    return 2 if grid.per_query else 1


def _plain(grid: _Grid) -> str:
    header = _header(grid)
    body = _display_rows(grid)
    widths = [max(len(row[i]) for row in [header, *body]) for i in range(len(header))]
    left = _text_columns(grid)

    def line(cells: list[str]) -> str:
        parts = [
            c.ljust(w) if i < left else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    rule = "  ".join("-" * w for w in widths)
    lines = [line(header), rule, *(line(r) for r in body)]
    if grid.convention:
        lines += ["", grid.convention]
    return "\n".join(lines) + "\n"


def _markdown(grid: _Grid) -> str:
    header = _header(grid)
    left = _text_columns(grid)

    def esc(text: str) -> str:
        return text.replace("|", "\\|")

    align = [":---" if i < left else "---:" for i in range(len(header))]
    lines = ["| " + " | ".join(esc(h) for h in header) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(esc(c) for c in row) + " |" for row in _display_rows(grid)]
    if grid.convention:
        lines += ["", esc(grid.convention)]
    return "\n".join(lines) + "\n"


def _latex(grid: _Grid) -> str:
    header = _header(grid)
    left = _text_columns(grid)
    spec = "l" * left + "r" * (len(header) - left)
    lines = [f"% {grid.convention}"] if grid.convention else []
    lines += [
        f"\\begin{{tabular}}{{{spec}}}",
        "\\toprule",
        " & ".join(latex_escape(h) for h in header) + r" \\",
        "\\midrule",
    ]
    lines += [" & ".join(latex_escape(c) for c in row) + r" \\" for row in _display_rows(grid)]
    lines += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(lines) + "\n"


def _delimited(grid: _Grid, sep: str) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=sep, lineterminator="\n")
    writer.writerow(["run", "query", *grid.measures])
    for row in grid.rows:
        writer.writerow([row.run, row.query, *(_full(c, k) for c, k in zip(row.cells, grid.counts,
                                                                             strict=True))])
    return buf.getvalue()


def _json_value(value: Cell) -> Any:
    if isinstance(value, str):
        return value
    if math.isnan(value):
        return None  # JSON has no NaN; null marks a query left out by a policy
    return value


def _jsonl(grid: _Grid) -> str:
    lines = []
    for row in grid.rows:
        for measure, value in zip(grid.measures, row.cells, strict=True):
            if row.aggregate and isinstance(value, str):
                continue  # text measures (relstring) exist per query only
            lines.append(json.dumps(
                {"run": row.run, "query": row.query, "measure": measure,
                 "value": _json_value(value)},
                ensure_ascii=False,
            ))
    return "".join(line + "\n" for line in lines)


def _trec(grid: _Grid) -> str:
    out: list[str] = []
    for row in grid.rows:
        query = row.query
        if row.aggregate:
            out.append(f"{'runid':<22}\tall\t{row.run}")
        for measure, value, count in zip(grid.measures, row.cells, grid.counts, strict=True):
            if isinstance(value, str):
                if not row.aggregate:
                    out.append(f"{measure:<22}\t{query}\t'{value}'")
                continue
            if count and not math.isnan(value):
                out.append(f"{measure:<22}\t{query}\t{int(value)}")
            else:
                out.append(f"{measure:<22}\t{query}\t{_c_float(value)}")
    return "".join(line + "\n" for line in out)


def _c_float(value: float) -> str:
    """``%6.4f`` as glibc prints it (NaN from 0/0 carries the sign bit: ``-nan``)."""
    if math.isnan(value):
        return "  -nan"
    return f"{value:6.4f}"


def render(
    results: Result | Results | Sequence[Result],
    format: Format = "table",
    *,
    per_query: bool = False,
    run_names: Sequence[str] | None = None,
) -> str:
    """Render results as text in one of :data:`FORMATS`.

    Parameters
    ----------
    results : Result, Results or sequence of Result
        One result per run, all with the same measures.
    format : {"table", "jsonl", "csv", "tsv", "markdown", "latex", "trec"}, default "table"
        ``table``: aligned plain text; ``jsonl``: one ``{"run", "query", "measure",
        "value"}`` object per line (NaN as null); ``csv``/``tsv``: full precision;
        ``markdown``: a pipe table; ``latex``: a booktabs tabular; ``trec``: trec_eval's
        rows. The human formats (table, markdown, latex) end with the conventions in force.
    per_query : bool, default False
        Also write one row per query (the aggregate row's query is ``all``).
    run_names : sequence of str, optional
        Names shown for the runs (default: each result's ``run_name``).

    Returns
    -------
    str
        The rendered text, ending with a newline.

    Raises
    ------
    ParameterError
        An unknown format, no results, results of different measures, or as many run
        names as results not given.

    Examples
    --------
    >>> import ranklens
    >>> r = ranklens.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0, "b": 2.0}}, ["P@1", "RR"])
    >>> print(ranklens.render(r, "csv"), end="")
    run,query,P@1,RR
    run,all,0.0,0.5
    """
    seq = results_of(results)
    grid = _grid(seq, run_names, per_query)
    if format in ("table", "markdown", "latex"):
        grid = replace(grid, convention=convention_line(seq))
    writers = {
        "table": _plain,
        "markdown": _markdown,
        "latex": _latex,
        "jsonl": _jsonl,
        "trec": _trec,
        "csv": lambda g: _delimited(g, ","),
        "tsv": lambda g: _delimited(g, "\t"),
    }
    if format not in writers:
        raise ParameterError(f"unknown format {format!r}; expected one of {', '.join(FORMATS)}")
    return writers[format](grid)


def _lower_is_better(measure: Measure) -> bool:
    return measure.definition.lower_is_better


def rich_table(
    results: Result | Results | Sequence[Result],
    *,
    per_query: bool = False,
    run_names: Sequence[str] | None = None,
    title: str | None = None,
) -> RichTable:
    """The ``table`` format as a :class:`rich.table.Table` (best value per column in bold)."""
    from rich.markup import escape
    from rich.table import Table

    seq = results_of(results)
    grid = _grid(seq, run_names, per_query)
    table = Table(title=title, header_style="bold", caption=escape(convention_line(seq)))
    left = _text_columns(grid)
    for i, h in enumerate(_header(grid)):
        # names fold onto more lines rather than being cut: two long run names cut to one
        # width would look alike
        table.add_column(escape(h), justify="left" if i < left else "right",
                         style="cyan" if i == 0 else None,
                         overflow="fold" if i < left else "ellipsis")
    best: list[float | None] = []
    for j, count in enumerate(grid.counts):
        vals = [float(r.cells[j]) for r in grid.rows
                if r.aggregate and isinstance(r.cells[j], float)]
        vals = [v for v in vals if not math.isnan(v)]
        pick = min if _lower_is_better(seq[0].measures[grid.measures[j]]) else max
        best.append(pick(vals) if len(vals) > 1 and not count else None)
    for row in grid.rows:
        shown = []
        for j, (c, count) in enumerate(zip(row.cells, grid.counts, strict=True)):
            text = escape(_fixed(c, count))
            if row.aggregate and best[j] is not None and c == best[j]:
                text = f"[bold]{text}[/bold]"
            shown.append(text)
        labels = [escape(row.run), escape(row.query)] if per_query else [escape(row.run)]
        table.add_row(*labels, *shown)
    return table
