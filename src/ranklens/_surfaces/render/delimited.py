"""The ``csv`` and ``tsv`` formats: a header row, then one row per table row, full precision."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

from .model import Column, Table, Value

__all__ = ["lines"]


def _field(value: Value, column: Column) -> Value:
    """Numbers at full precision (the shortest text that reads back to the same double),
    whole counts as integers, no value as an empty field."""
    if value is None:
        return ""
    if isinstance(value, float):
        return str(int(value)) if column.count and value.is_integer() else repr(value)
    return value


def lines(table: Table, sep: str = ",") -> Iterator[str]:
    """``table``'s values separated by ``sep`` (quoted where needed), one line per row (the
    header's first).

    Examples
    --------
    >>> from ranklens._surfaces.render.model import Cell, Column, Row, Table, label
    >>> t = Table((Column("run", "left"), Column("AP"), Column("num_ret", count=True)),
    ...           (Row((label("a,b"), Cell("0.3333", 1 / 3), Cell("5", 5.0))),))
    >>> print("".join(lines(t)), end="")
    run,AP,num_ret
    "a,b",0.3333333333333333,5
    """
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=sep, lineterminator="\n")

    def flushed() -> str:
        text = buf.getvalue()
        buf.seek(0)
        buf.truncate()
        return text

    if table.columns:
        writer.writerow(table.titles)
        yield flushed()
    for row in table.rows:
        writer.writerow([_field(cell.value, column)
                         for cell, column in zip(row.cells, table.columns, strict=True)])
        yield flushed()
