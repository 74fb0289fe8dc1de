"""Results that show themselves in a notebook: a small HTML table with the conventions in
force.

:func:`html_table` writes any neutral :class:`~.model.Table` and its notes, every string
escaped. At most :data:`SHOWN_ROWS` rows and :data:`SHOWN_COLUMNS` columns are shown; a
line counts the rest. The result types' ``_repr_html_`` call it. ``Result`` and ``Results``
sit below the renderers: they reach :func:`results_html` through ``Frames.html_writer``,
which ``ranklens._surfaces`` sets.
"""

from __future__ import annotations

from typing import Any

from ..._results.result import Result
from ..._results.results import Results, results_of
from .html import html_text
from .model import Column, Row, Table, label
from .results import convention_line, grid_table, results_grid

__all__ = ["SHOWN_COLUMNS", "SHOWN_ROWS", "html_table", "results_html"]

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
    writes it; None for another object."""
    if not isinstance(results, (Result, Results)):
        return None
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
