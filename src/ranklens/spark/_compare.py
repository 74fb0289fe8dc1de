"""Significance tests over runs evaluated on Spark: their per-query values, collected."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .._measures import Measure
from .._surfaces.compare import Comparison, compare_results
from ._collect import collect
from ._result import SparkResult

__all__ = ["compare"]


def compare(results: Mapping[str, SparkResult],
            measures: str | Measure | Iterable[str | Measure] | None = None,
            **options: Any) -> Comparison:
    """:func:`ranklens.compare` over runs evaluated with :func:`ranklens.spark.evaluate`.

    Only the per-query values travel to the driver (one float per query, measure and run,
    through :func:`collect`); the statistics are the local ones, so the same seed gives the
    same p-values as a local comparison of the same values.

    Parameters
    ----------
    results : mapping
        ``{run name: SparkResult}`` with the same measures.
    measures : str, Measure or list of them, optional
        The measures to compare on (default: every measure of the results).
    **options
        The keyword options of :func:`ranklens.compare_results` (``baseline``, ``test``,
        ``correction``, ``alpha``, ``seed``, ...).

    Returns
    -------
    Comparison

    Examples
    --------
    >>> cmp = compare({"bm25": spark_bm25, "dense": spark_dense},  # doctest: +SKIP
    ...               baseline="bm25", test="randomization")
    """
    return compare_results(collect(results), measures, **options)
