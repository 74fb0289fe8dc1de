"""Turn one or more :class:`~ranklens.Result` objects into text: tables, JSON Lines, CSV, ...

Rendering is kept apart from the command line so that every format can be tested at a
fixed width without a terminal. Each run becomes one row (systems side by side); with
``per_query`` every query of every run gets a row too, and the aggregate row's query is
``all``.

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
from typing import TYPE_CHECKING, Any

from ._errors import ParameterError, RanklensError

if TYPE_CHECKING:
    from rich.table import Table as RichTable

    from ._result import Result

__all__ = ["FORMATS", "Cell", "convention_line", "render", "rich_table"]

FORMATS = ("table", "jsonl", "csv", "tsv", "markdown", "latex", "trec")

Cell = float | str


@dataclass(frozen=True)
class _Grid:
    """The neutral form every format is written from: named rows of per-measure cells."""

    measures: tuple[str, ...]
    counts: tuple[bool, ...]  # whether a measure is a count (printed as an integer)
    rows: tuple[tuple[str, str, tuple[Cell, ...]], ...]  # (run, query, values)
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
    rows: list[tuple[str, str, tuple[Cell, ...]]] = []
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
                rows.append((run, str(qid), tuple(cells)))
        agg: list[Cell] = ["" if m in r.text_values else float(r.aggregates[m]) for m in measures]
        rows.append((run, "all", tuple(agg)))
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
    for run, query, cells in grid.rows:
        shown = [_fixed(c, k) for c, k in zip(cells, grid.counts, strict=True)]
        out.append([run, query, *shown] if grid.per_query else [run, *shown])
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


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
}


def _latex_escape(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text)


def _latex(grid: _Grid) -> str:
    header = _header(grid)
    left = _text_columns(grid)
    spec = "l" * left + "r" * (len(header) - left)
    lines = [f"% {grid.convention}"] if grid.convention else []
    lines += [
        f"\\begin{{tabular}}{{{spec}}}",
        "\\toprule",
        " & ".join(_latex_escape(h) for h in header) + r" \\",
        "\\midrule",
    ]
    lines += [" & ".join(_latex_escape(c) for c in row) + r" \\" for row in _display_rows(grid)]
    lines += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(lines) + "\n"


def _delimited(grid: _Grid, sep: str) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=sep, lineterminator="\n")
    writer.writerow(["run", "query", *grid.measures])
    for run, query, cells in grid.rows:
        writer.writerow([run, query, *(_full(c, k) for c, k in zip(cells, grid.counts,
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
    for run, query, cells in grid.rows:
        for measure, value in zip(grid.measures, cells, strict=True):
            if query == "all" and isinstance(value, str):
                continue  # text measures (relstring) exist per query only
            lines.append(json.dumps(
                {"run": run, "query": query, "measure": measure, "value": _json_value(value)},
                ensure_ascii=False,
            ))
    return "".join(line + "\n" for line in lines)


def _trec(grid: _Grid) -> str:
    out: list[str] = []
    for run, query, cells in grid.rows:
        if query == "all":
            out.append(f"{'runid':<22}\tall\t{run}")
        for measure, value, count in zip(grid.measures, cells, grid.counts, strict=True):
            if isinstance(value, str):
                if query != "all":
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
    results: Result | Sequence[Result],
    fmt: str = "table",
    *,
    per_query: bool = False,
    run_names: Sequence[str] | None = None,
) -> str:
    """Render results as text in one of :data:`FORMATS`.

    Parameters
    ----------
    results : Result or sequence of Result
        One result per run, all with the same measures.
    fmt : str, default "table"
        One of ``table``, ``jsonl``, ``csv``, ``tsv``, ``markdown``, ``latex``, ``trec``.
    per_query : bool, default False
        Also write one row per query (the aggregate row's query is ``all``).
    run_names : sequence of str, optional
        Names shown for the runs (default: each result's ``run_name``).

    Returns
    -------
    str
        The rendered text, ending with a newline.
    """
    from ._result import Result

    seq = [results] if isinstance(results, Result) else list(results)
    grid = _grid(seq, run_names, per_query)
    if fmt in ("table", "markdown", "latex"):
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
    if fmt not in writers:
        raise ParameterError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    return writers[fmt](grid)


def _lower_is_better(written: str) -> bool:
    from ._names import parse_measure

    try:
        return parse_measure(written).definition.lower_is_better
    except RanklensError:
        return False


def rich_table(
    results: Result | Sequence[Result],
    *,
    per_query: bool = False,
    run_names: Sequence[str] | None = None,
    title: str | None = None,
) -> RichTable:
    """The ``table`` format as a :class:`rich.table.Table` (best value per column in bold)."""
    from rich.markup import escape
    from rich.table import Table

    from ._result import Result

    seq = [results] if isinstance(results, Result) else list(results)
    grid = _grid(seq, run_names, per_query)
    table = Table(title=title, header_style="bold", caption=escape(convention_line(seq)))
    left = _text_columns(grid)
    for i, h in enumerate(_header(grid)):
        table.add_column(escape(h), justify="left" if i < left else "right",
                         style="cyan" if i == 0 else None)
    best: list[float | None] = []
    for j, count in enumerate(grid.counts):
        vals = [float(c[j]) for _, q, c in grid.rows if q == "all" and isinstance(c[j], float)]
        vals = [v for v in vals if not math.isnan(v)]
        pick = min if _lower_is_better(grid.measures[j]) else max
        best.append(pick(vals) if len(vals) > 1 and not count else None)
    for run, query, cells in grid.rows:
        shown = []
        for j, (c, count) in enumerate(zip(cells, grid.counts, strict=True)):
            text = escape(_fixed(c, count))
            if query == "all" and best[j] is not None and c == best[j]:
                text = f"[bold]{text}[/bold]"
            shown.append(text)
        labels = [escape(run), escape(query)] if per_query else [escape(run)]
        table.add_row(*labels, *shown)
    return table
