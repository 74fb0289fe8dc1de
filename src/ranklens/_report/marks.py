"""Significance marks of the summary table: each run against the baseline, per measure.

The one place the report asks for a comparison of systems. The marks are ``(text, class)``
pairs: the text's first character is shown, the whole text on hover; ``up`` or ``down``
colours it.
"""

from __future__ import annotations

from .._results import Results

__all__ = ["Marks", "significance_marks"]

Marks = dict[tuple[str, str], tuple[str, str]]


def significance_marks(results: Results, baseline: str,
                       measures: tuple[str, ...]) -> tuple[Marks, str]:
    """Marks for each (run, measure) that differs significantly from the baseline, and the
    sentence explaining them under the table."""
    if len(results) < 2:
        return {}, "One run: nothing to compare."
    return {}, (f"Bold: the best run on each measure. Differences from {baseline} are not "
                "tested for significance in this version.")
