"""The ``trec`` format: trec_eval's rows, ``%-22s\\t%s\\t%6.4f``, after a ``runid`` row per run.

It writes a table of per-query results: the first column names the run, the second the
query, every other column is one measure.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from .model import Table

__all__ = ["lines"]


def _c_float(value: float) -> str:
    """``%6.4f`` as glibc prints it (NaN from 0/0 carries the sign bit: ``-nan``)."""
    return "  -nan" if math.isnan(value) else f"{value:6.4f}"


def lines(table: Table) -> Iterator[str]:
    """``table`` as trec_eval prints it, a row's measures at a time: each aggregate row opens
    with ``runid``; counts are integers, text measures (relstring) quoted and per query only.

    Examples
    --------
    >>> from ranklens._surfaces.render.model import Cell, Column, Row, Table, label
    >>> t = Table((Column("run", "left"), Column("query", "left"), Column("map")),
    ...           (Row((label("bm25"), label("all"), Cell("0.2500", 0.25)), aggregate=True),))
    >>> for line in "".join(lines(t)).splitlines():
    ...     print(line.split("\\t"))
    ['runid                 ', 'all', 'bm25']
    ['map                   ', 'all', '0.2500']
    """
    measures = table.columns[2:]
    for row in table.rows:
        out: list[str] = []
        run, query = row.cells[0].value, row.cells[1].value
        if row.aggregate:
            out.append(f"{'runid':<22}\tall\t{run}")
        for column, cell in zip(measures, row.cells[2:], strict=True):
            value, name = cell.value, column.title
            if isinstance(value, str):
                if not row.aggregate:
                    out.append(f"{name:<22}\t{query}\t'{value}'")
                continue
            number = float(value) if isinstance(value, (int, float)) else math.nan
            if column.count and not math.isnan(number):
                out.append(f"{name:<22}\t{query}\t{int(number)}")
            else:
                out.append(f"{name:<22}\t{query}\t{_c_float(number)}")
        yield "".join(line + "\n" for line in out)
