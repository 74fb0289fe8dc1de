"""The ``table`` format: aligned plain text, a rule under the header, the notes below."""

from __future__ import annotations

from collections.abc import Iterator

from .model import Table

__all__ = ["lines"]


def lines(table: Table) -> Iterator[str]:
    """``table`` as aligned plain text, line by line: the columns are measured first
    (``table.widths``, else a pass over the rows), then the rows written (never all held).

    Names and marked columns are aligned left (numbers start together, marks hang to the
    right), other numbers right; columns are two spaces apart; the notes follow a blank
    line.

    Examples
    --------
    >>> from ranklens._surfaces.render.model import Cell, Column, Row, Table, label
    >>> t = Table((Column("run", "left"), Column("AP")),
    ...           (Row((label("bm25"), Cell("0.2500", 0.25))),), notes=("note",))
    >>> print("".join(lines(t)), end="")
    run       AP
    ----  ------
    bm25  0.2500
    <BLANKLINE>
    note
    """
    header = table.titles
    widths = [len(t) for t in header]
    for sizes in [table.widths()] if table.widths else (
            [len(cell.shown) for cell in row.cells] for row in table.rows):
        widths = [max(w, n) for w, n in zip(widths, sizes, strict=True)]
    left = [c.align == "left" or c.marked for c in table.columns]

    def line(cells: list[str]) -> str:
        parts = [c.ljust(w) if lft else c.rjust(w)
                 for c, w, lft in zip(cells, widths, left, strict=True)]
        return "  ".join(parts).rstrip() + "\n"

    yield line(header)
    yield "  ".join("-" * w for w in widths) + "\n"
    for row in table.rows:
        yield line([cell.shown for cell in row.cells])
    if table.notes:
        yield from ("\n", *(note + "\n" for note in table.notes))
