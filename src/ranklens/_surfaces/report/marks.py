"""Significance marks of the summary table: each run against the baseline, per measure.

The one place the report asks for a comparison of systems: :func:`ranklens.compare_results`
on the per-query values already computed, so the marks and the sentence under the table are
those ``ranklens compare`` prints for the same runs, test and correction.
"""

from __future__ import annotations

from ..._results.results import Results
from ..compare import compare_results
from ..compare.notes import footer

__all__ = ["Marks", "significance_marks"]

#: (run, measure) -> (symbol shown, explanation on hover, CSS class)
Marks = dict[tuple[str, str], tuple[str, str, str]]
_SYMBOL = {1: ("\u25b2", "up", "above"), -1: ("\u25bc", "down", "below")}


def significance_marks(results: Results, baseline: str, measures: tuple[str, ...], *,
                       test: str | None = None, correction: str | None = None,
                       alpha: float = 0.05) -> tuple[Marks, str]:
    """Marks for each (run, measure) significantly above or below the baseline, and the
    sentences explaining them."""
    if len(results) < 2:
        return {}, "One run: nothing to compare."
    # a catalogue-level measure (Coverage@k, Gini@k) has one value per run, nothing to test
    tested = [m for m in measures if results.measures[m].definition.aggregate != "catalogue"]
    if not tested:
        return {}, "No per-query measure to test: no marks."
    cmp = compare_results(results, tested, baseline=baseline, test=test,  # type: ignore[arg-type]
                          correction=correction, alpha=alpha)  # type: ignore[arg-type]
    marks: Marks = {}
    for pair in cmp.pairs:
        if pair.direction == 0:
            continue
        symbol, cls, word = _SYMBOL[pair.direction]
        marks[(pair.system, pair.measure)] = (
            symbol, f"significantly {word} {baseline}: difference {pair.difference:+.4f}, "
            f"adjusted p = {pair.p_adjusted:.3g}, {pair.wins} wins / {pair.ties} ties / "
            f"{pair.losses} losses", cls)
    return marks, " ".join(footer(cmp)) + " Bold: the best run on each measure."
