"""The ``table`` format: aligned plain text, a rule under the header, the notes below."""

from __future__ import annotations

from .model import Table

__all__ = ["render"]


def render(table: Table) -> str:
    """``table`` as aligned plain text.

    Names and marked columns are aligned left (numbers start together, marks hang to the
    right), other numbers right; columns are two spaces apart; the notes follow a blank
    line.

    Examples
    --------
    >>> from ranklens._surfaces.render.model import Cell, Column, Row, Table, label
    >>> t = Table((Column("run", "left"), Column("AP")),
    ...           (Row((label("bm25"), Cell("0.2500", 0.25))),), notes=("note",))
    >>> print(render(t), end="")
    run       AP
    ----  ------
    bm25  0.2500
    <BLANKLINE>
    note
    """
    header = table.titles
    body = [[cell.shown for cell in row.cells] for row in table.rows]
    widths = [max(len(r[i]) for r in [header, *body]) for i in range(len(header))]
    left = [c.align == "left" or c.marked for c in table.columns]

    def line(cells: list[str]) -> str:
        parts = [c.ljust(w) if lft else c.rjust(w)
                 for c, w, lft in zip(cells, widths, left, strict=True)]
        return "  ".join(parts).rstrip()

    lines = [line(header), "  ".join("-" * w for w in widths), *(line(r) for r in body)]
    if table.notes:
        lines += ["", *table.notes]
    return "\n".join(lines) + "\n"
