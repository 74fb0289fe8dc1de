"""The ``table`` format on a terminal: a :class:`rich.table.Table`, best values in bold."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .model import Table

if TYPE_CHECKING:
    from rich.table import Table as RichTable

__all__ = ["rich_table"]


def rich_table(table: Table, title: str | None = None) -> RichTable:
    """``table`` as a rich table: the first column in cyan, strong cells bold, the notes as
    the caption; names fold onto more lines rather than being cut (two long run names cut
    to one width would look alike)."""
    from rich.markup import escape
    from rich.table import Table as RichTable

    caption = escape("\n".join(table.notes)) if table.notes else None
    out = RichTable(title=title, header_style="bold", caption=caption)
    for i, column in enumerate(table.columns):
        out.add_column(escape(column.title),
                       justify="left" if column.align == "left" or column.marked else "right",
                       style="cyan" if i == 0 else None,
                       overflow="fold" if column.align == "left" else "ellipsis")
    for row in table.rows:
        shown = []
        for cell in row.cells:
            text = escape(cell.shown)
            shown.append(f"[bold]{text}[/bold]" if cell.strong else text)
        out.add_row(*shown)
    return out
