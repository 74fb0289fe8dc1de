"""The result of a comparison: :class:`Comparison`, one :class:`PairComparison` per measure
and pair of systems, with the settings."""

from __future__ import annotations

import dataclasses

from .comparison import ComparisonData, PairComparison

__all__ = ["Comparison", "PairComparison"]


class Comparison(ComparisonData):
    """Paired comparison of several runs on one or more measures.

    :meth:`per_query` gives each pair's per-query differences, as every result type gives
    its per-query values; :meth:`to_polars` one row per comparison (or per comparison and
    query).

    Attributes
    ----------
    pairs : every comparison, measure by measure, in the order of ``measures`` then of the
        pairs: each run against ``baseline`` (in run order), or every pair ``(a, b)`` of runs
        with ``a`` before ``b`` compared as ``system=b, baseline=a``.
    run_names : the runs, in the order given.
    measures : the measures' requested names.
    means : ``{measure: {run: mean}}`` over the queries each run has a value for.
    n_queries : queries on the common query axis (any run).
    baseline : the baseline run's name, or None (all pairs).
    test : ``"t"``, ``"randomization"``, ``"wilcoxon"``, ``"sign"``, ``"bootstrap"``,
        ``"tukey"`` or ``"randomized-tukey"``.
    correction : ``"holm"``, ``"bonferroni"``, ``"fdr_bh"``, ``"none"``, or the Tukey test's
        own family-wise control (``"tukey"``, ``"randomized-tukey"``).
    correction_scope : ``"measure"`` (each measure's comparisons are one family) or ``"all"``.
    alpha : significance level: a difference is significant when ``p_adjusted < alpha``.
    confidence : level of the intervals.
    ci : ``"t"``, or the bootstrap's ``"percentile"``, ``"basic"``, ``"bca"``.
    permutations : sign patterns (randomization) or iterations (randomized Tukey) sampled
        when not exact; None for the other tests.
    resamples : bootstrap resamples (None with t intervals and another test).
    seed : seed of every random stream.
    lower_is_better : the measures where a smaller value is better (the table bolds their
        smallest mean); ``direction`` is numeric either way (+1: system higher).
    clipped : the ``(measure, system, baseline)`` comparisons whose interval was clipped to
        the measure's range of differences, [-1, 1] (measures known to lie in [0, 1]).
    results : the per-query values compared, on one query axis (None for a comparison
        made by hand).

    Examples
    --------
    >>> import ranklens
    >>> qrels = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1}}
    >>> runs = {"x": {"q1": {"a": 1.0}, "q2": {"z": 1.0}, "q3": {"c": 1.0}},
    ...         "y": {"q1": {"z": 1.0}, "q2": {"z": 1.0}, "q3": {"c": 1.0}}}
    >>> cmp = ranklens.compare(qrels, runs, ["P@1"], baseline="x")
    >>> pair = cmp.pair("P@1", "y", "x")
    >>> pair.difference, (pair.wins, pair.ties, pair.losses)
    (-0.3333333333333333, (0, 2, 1))
    """

    def _repr_html_(self) -> str:
        from ..render.notebook import html_table
        from ..render.results import convention_line
        from .render import comparison_table

        table = comparison_table(self)
        if self.results is not None:  # the conventions the compared values were computed under
            table = dataclasses.replace(table, notes=(*table.notes,
                                                      convention_line(list(self.results))))
        return html_table(f"Comparison of {len(self.run_names)} runs", table)

    def render(self, fmt: str = "table", *, details: bool = False) -> str:
        """The comparison as text: ``table``, ``markdown``, ``latex``, ``csv``, ``tsv`` or
        ``jsonl`` (see :func:`ranklens._surfaces.compare.render.render_comparison`).

        ``details``: ``table``, ``markdown`` and ``latex`` show one row per comparison
        (difference, interval, d_z, wins/ties/losses, p, adjusted p, significant) instead
        of the means with marks."""
        from .render import render_comparison

        return render_comparison(self, fmt, details=details)
