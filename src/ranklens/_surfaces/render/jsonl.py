"""The ``jsonl`` format: one JSON object per row, keyed by the column titles."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator

from .model import Table, Value

__all__ = ["lines"]


def _json(value: Value) -> Value:
    """NaN as null: JSON has no NaN (a query left out by a policy, a test without a p)."""
    return None if isinstance(value, float) and math.isnan(value) else value


def lines(table: Table) -> Iterator[str]:
    """``table`` as JSON Lines, line by line: ``{title: value, ...}`` per row, non-ASCII text
    as it is.

    An infinite value is written ``Infinity`` (as Python's ``json`` reads it).

    Examples
    --------
    >>> from ranklens._surfaces.render.model import Cell, Column, Row, Table, label
    >>> t = Table((Column("run", "left"), Column("value")),
    ...           (Row((label("é"), Cell("nan", float("nan")))),))
    >>> print("".join(lines(t)), end="")
    {"run": "é", "value": null}
    """
    titles = table.titles
    for row in table.rows:
        yield json.dumps({title: _json(cell.value) for title, cell in zip(titles, row.cells,
                                                                          strict=True)},
                         ensure_ascii=False) + "\n"
