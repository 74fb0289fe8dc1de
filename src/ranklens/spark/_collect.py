"""Several Spark evaluations' per-query values on the driver, on one query axis."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from .._base.errors import ParameterError
from .._results.results import Results
from ._result import SparkResult

__all__ = ["collect"]


def collect(results: Mapping[str, SparkResult]) -> Results:
    """The per-query values of several runs evaluated on Spark, collected to the driver as
    a local :class:`ranklens.Results` (one float per query, measure and run), ready for a
    significance test or any local comparison. Aggregates are the Spark results' own.

    Parameters
    ----------
    results : mapping
        ``{run name: SparkResult}``, each from :func:`ranklens.spark.evaluate` with the same
        measures.

    Returns
    -------
    Results
        One query axis; ``present`` is False where a run was not evaluated on a query.

    Raises
    ------
    ParameterError
        No results, or results of different measures.

    Examples
    --------
    >>> both = collect({"bm25": spark_bm25, "dense": spark_dense})  # doctest: +SKIP
    >>> both.values("nDCG@10").shape  # doctest: +SKIP
    (100000, 2)
    """
    if not isinstance(results, Mapping) or not results:
        raise ParameterError("the 'results' argument must be a non-empty mapping "
                             "{run name: SparkResult}")
    return Results(tuple(dataclasses.replace(r.to_result(), run_name=name)
                         for name, r in results.items()))
