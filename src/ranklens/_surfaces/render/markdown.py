"""The ``markdown`` format: a pipe table, the notes below it."""

from __future__ import annotations

from .model import Table

__all__ = ["render"]


def _escape(text: str) -> str:
    """A pipe inside a cell would end it."""
    return text.replace("|", "\\|")


def render(table: Table) -> str:
    """``table`` as a Markdown pipe table (names aligned left, numbers right).

    Examples
    --------
    >>> from ranklens._surfaces.render.model import Cell, Column, Row, Table, label
    >>> t = Table((Column("run", "left"), Column("AP")),
    ...           (Row((label("a|b"), Cell("0.2500", 0.25))),))
    >>> print(render(t), end="")
    | run | AP |
    | :--- | ---: |
    | a\\|b | 0.2500 |
    """
    align = [":---" if c.align == "left" else "---:" for c in table.columns]
    lines = ["| " + " | ".join(_escape(t) for t in table.titles) + " |",
             "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(_escape(c.shown) for c in row.cells) + " |"
              for row in table.rows]
    if table.notes:
        lines += ["", *(_escape(n) for n in table.notes)]
    return "\n".join(lines) + "\n"
