"""Correlations of system orderings as a table: one row per method."""

from __future__ import annotations

from collections.abc import Sequence

from ..._base.validate import Choice, check
from ..render.formats import write
from ..render.frames import frame_table, rows_frame
from ..render.model import Table
from .coefficients import RankCorrelation

__all__ = ["CORRELATE_FORMATS", "correlation_table", "render_correlations"]

CORRELATE_FORMATS = ("table", "markdown", "latex", "csv", "tsv", "jsonl")


def correlation_table(correlations: Sequence[RankCorrelation], a: str = "A",
                      b: str = "B") -> Table:
    """``method, coefficient, swaps, pairs`` per correlation; the notes say what A and B
    are (``a``, ``b``: how the two evaluations are described) and give both orderings."""
    frame = rows_frame(((c.method, c.swaps, c.pairs, c.coefficient) for c in correlations),
                       "method", "swaps pairs", "coefficient")
    notes: tuple[str, ...] = ()
    if correlations:
        first = correlations[0]
        notes = (f"A (reference): {first.measure_a} on {a}: {' > '.join(first.systems)}",
                 f"B: {first.measure_b} on {b}: {' > '.join(first.order_b)}")
    return frame_table(frame.select("method", "coefficient", "swaps", "pairs"), *notes)


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
