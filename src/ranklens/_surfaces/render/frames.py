"""Frames of names, counts and floats: built from result rows (:func:`rows_frame`) and
written as a :class:`~.model.Table` (:func:`frame_table`; risk, power and per-group rows)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..._base.lazy import polars as pl
from .model import Cell, Column, Row, Table

__all__ = ["frame_table", "rows_frame"]


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


def rows_frame(rows: Iterable[Any], names: str, counts: str = "", numbers: str = ""
               ) -> pl.DataFrame:
    """Result rows (tuples, or dicts keyed by column) as a frame whose columns are ``names``
    (strings), then ``counts`` (Int64), then ``numbers`` (Float64), each space-separated:
    typed even when there is no row.

    Examples
    --------
    >>> rows_frame([("q1", 2, 0.5)], "query_id", "n", "mean").dtypes
    [String, Int64, Float64]
    """
    kinds = ((names, pl.String), (counts, pl.Int64), (numbers, pl.Float64))
    schema = {name: kind for text, kind in kinds for name in text.split()}
    return pl.DataFrame(list(rows), schema=schema, orient="row")
