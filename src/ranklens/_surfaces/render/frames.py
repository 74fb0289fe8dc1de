"""A frame of names, counts and floats as a :class:`~.model.Table` (risk, power and
per-group rows)."""

from __future__ import annotations

from ..._base.lazy import polars as pl
from .model import Cell, Column, Row, Table

__all__ = ["frame_table"]


def frame_table(frame: pl.DataFrame, *notes: str) -> Table:
    """A frame of names, counts and floats as a table every format of this package
    writes (the risk rows, the power command's)."""

    def cell(v: object) -> Cell:
        text = v if isinstance(v, str) else "" if v is None else str(v) if isinstance(
            v, int) else f"{v:.4f}"
        return Cell(text, v)  # type: ignore[arg-type]

    columns = tuple(Column(name, "right" if frame[name].dtype.is_numeric() else "left",
                           count=frame[name].dtype.is_integer()) for name in frame.columns)
    rows = tuple(Row(tuple(cell(v) for v in row)) for row in frame.iter_rows())
    return Table(columns, rows, notes=notes)
