"""Correlations of system orderings as a table: one row per method."""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..._base.validate import Choice, check
from ..render.formats import write
from ..render.model import Cell, Column, Row, Table, label
from .coefficients import RankCorrelation

__all__ = ["CORRELATE_FORMATS", "correlation_table", "render_correlations"]

CORRELATE_FORMATS = ("table", "markdown", "latex", "csv", "tsv", "jsonl")


def correlation_table(correlations: Sequence[RankCorrelation], a: str = "A",
                      b: str = "B") -> Table:
    """``method, coefficient, swaps, pairs`` per correlation; the notes say what A and B
    are (``a``, ``b``: how the two evaluations are described) and give both orderings."""
    columns = (Column("method", "left"), Column("coefficient"), Column("swaps", count=True),
               Column("pairs", count=True))
    rows = []
    for c in correlations:
        shown = "nan" if math.isnan(c.coefficient) else f"{c.coefficient:.4f}"
        rows.append(Row((label(c.method), Cell(shown, c.coefficient),
                         Cell(str(c.swaps), c.swaps), Cell(str(c.pairs), c.pairs))))
    notes: tuple[str, ...] = ()
    if correlations:
        first = correlations[0]
        notes = (f"A (reference): {first.measure_a} on {a}: {' > '.join(first.systems)}",
                 f"B: {first.measure_b} on {b}: {' > '.join(first.order_b)}")
    return Table(columns, tuple(rows), notes=notes)


def render_correlations(correlations: Sequence[RankCorrelation], fmt: str = "table", *,
                        a: str = "A", b: str = "B") -> str:
    """Correlations as text in one of :data:`CORRELATE_FORMATS` (the machine formats carry
    no notes).

    Examples
    --------
    >>> import ranklens
    >>> runs = {"x": {"q": {"a": 2.0, "b": 1.0}}, "y": {"q": {"b": 2.0, "a": 1.0}}}
    >>> old = ranklens.evaluate({"q": {"a": 1}}, runs, ["RR"])
    >>> new = ranklens.evaluate({"q": {"b": 1}}, runs, ["RR"])
    >>> c = ranklens.rank_correlation(old, new, "RR")
    >>> print(render_correlations([c], "csv"), end="")
    method,coefficient,swaps,pairs
    kendall,-1.0,1,1
    """
    check("format", fmt, Choice(CORRELATE_FORMATS))
    return write(correlation_table(correlations, a, b), fmt)
