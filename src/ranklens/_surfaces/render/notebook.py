"""Results that show themselves in a notebook: a small HTML table with the conventions in
force.

:func:`html_table` writes any neutral :class:`~.model.Table` and its notes, every string
escaped. At most :data:`SHOWN_ROWS` rows and :data:`SHOWN_COLUMNS` columns are shown; a
line counts the rest. The result types' ``_repr_html_`` call it. ``Result`` and ``Results``
sit below the renderers: they reach :func:`results_html` through ``Frames.html_writer``,
which ``ranklens._surfaces`` sets.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..._base.lazy import polars as pl
from ..._results.per_query import Shown, listed
from ..._results.result import Result
from ..._results.results import Results, results_of
from .frames import frame_table
from .html import html_text
from .model import Column, Row, Table, label
from .results import convention_line, grid_table, results_grid

__all__ = ["SHOWN_COLUMNS", "SHOWN_ROWS", "html_table", "record_html", "results_html"]

#: rows and columns a notebook shows; a line counts the rest
SHOWN_ROWS = 20
SHOWN_COLUMNS = 12


def html_table(title: str, table: Table) -> str:
    """``table`` as a bounded HTML fragment under ``title``, its notes below it.

    Examples
    --------
    >>> from ranklens._surfaces.render.model import Cell, Column, Row, Table, label
    >>> t = Table((Column("run", "left"), Column("AP")),
    ...           (Row((label("<a>"), Cell("0.25", 0.25))),), notes=("convention: trec",))
    >>> html = html_table("Result", t)
    >>> '<td style="text-align:left">&lt;a&gt;</td>' in html
    True
    >>> html.endswith("</table><p><small>convention: trec</small></p></div>")
    True
    """
    rows = list(table.rows)
    columns = table.columns[:SHOWN_COLUMNS]
    head = "".join(f"<th>{html_text(c.title)}</th>" for c in columns)
    body = "".join("<tr>" + "".join(
        f"<td style=\"text-align:{c.align}\">{html_text(cell.shown)}</td>"
        for c, cell in zip(columns, row.cells[:SHOWN_COLUMNS], strict=True)) + "</tr>\n"
        for row in rows[:SHOWN_ROWS])
    more = [f"... {n} more {what}" for n, what in ((len(rows) - SHOWN_ROWS, "rows"),
                                                   (len(table.columns) - SHOWN_COLUMNS, "columns"))
            if n > 0]
    notes = "".join(f"<p><small>{html_text(n)}</small></p>" for n in (*more, *table.notes))
    return (f"<div class=\"ranklens\"><p><b>{html_text(title)}</b></p><table><thead><tr>"
            f"{head}</tr>\n</thead><tbody>{body}</tbody></table>{notes}</div>")


def results_html(results: Any) -> str | None:
    """A ``Result`` (one row per measure) or ``Results`` (one per run) as :func:`html_table`
    writes it; another result type as :func:`record_html` does; None for another object."""
    if not isinstance(results, (Result, Results)):
        return record_html(results) if isinstance(results, Shown) else None
    seq = results_of(results)
    table = grid_table(results_grid(seq, None, False), query_column=False)
    over = f"over {len(results.query_ids)} {seq[0].vocabulary.queries}"
    if isinstance(results, Result):
        (row,) = list(table.rows)
        table = Table((Column("measure", "left"), Column("value")), tuple(
            Row((label(c.title), cell))
            for c, cell in zip(table.columns[1:], row.cells[1:], strict=True)))
        title = f"Result {results.run_name} {over}"
    else:
        title = f"Results of {len(seq)} runs {over}"
    return html_table(title, Table(table.columns, table.rows, notes=(convention_line(seq),)))


def _shown(value: object) -> str:
    if isinstance(value, tuple):
        return listed([_shown(v) for v in value])
    return f"{value:.4f}" if isinstance(value, float) else str(value)


def record_html(obj: Any) -> str:
    """A result dataclass under its type's name: its settings and numbers (scalar fields) as
    one table, then its ``table()``, or each frame it holds, or its ``to_polars()``; the
    conventions of the results it holds below. Each table is bounded as :func:`html_table`.

    Examples
    --------
    >>> import ranklens
    >>> p = ranklens.power([[0.4, 0.5], [0.6, 0.5], [0.3, 0.45]], min_diff=0.1)
    >>> html = record_html(p)
    >>> html.startswith('<div class="ranklens"><p><b>Power</b></p>')
    True
    >>> f'<td style="text-align:left">{p.queries_needed}</td>' in html
    True
    """
    fields = {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
    shown = [f.name for f in dataclasses.fields(obj) if f.repr and isinstance(
        fields[f.name], (str, int, float, tuple, type(None)))]
    tables = [(type(obj).__name__, Table((Column("field", "left"), Column("value", "left")),
                                         tuple(Row((label(n), label(_shown(fields[n]))))
                                               for n in shown)))] if shown else []
    frames = {n: v for n, v in fields.items() if isinstance(v, pl.DataFrame)}
    if hasattr(obj, "table"):
        tables.append(("", obj.table()))
    elif not frames and hasattr(obj, "to_polars") and getattr(obj, "source", 0) is not None:
        frames = {"per query" if hasattr(obj, "per_query") else "": obj.to_polars()}
    # the first rows only: a frame may hold millions
    tables += [(n, frame_table(f.head(SHOWN_ROWS), *(
        [f"... {f.height - SHOWN_ROWS} more rows"] if f.height > SHOWN_ROWS else [])))
        for n, f in frames.items()]
    notes = tuple(dict.fromkeys(convention_line(results_of(v)) for v in fields.values()
                                if isinstance(v, (Result, Results))))
    title, last = tables[-1]
    tables[-1] = (title, dataclasses.replace(last, notes=(*last.notes, *notes)))
    return "".join(html_table(title or type(obj).__name__, t) for title, t in tables)
