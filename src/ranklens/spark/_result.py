"""What :func:`ranklens.spark.evaluate` returns."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._pipeline.plan import Plan
from .._results.result import Aggregates, Result

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

__all__ = ["SparkResult"]


class SparkResult(Aggregates):
    """Aggregates on the driver, per-query values as a Spark DataFrame.

    ``result["nDCG@10"]`` is the aggregate (mean, geometric mean or sum, as
    :func:`ranklens.evaluate` computes it, the sum rounded once: the same for any number of
    buckets). Its attributes:

    Attributes
    ----------
    per_query : pyspark.sql.DataFrame
        ``query_id, measure, value, counted`` (and ``text`` for a text measure such as
        ``relstring``): one row per evaluated query and requested measure, the empty-query
        policy applied; ``counted`` tells whether the value is in the aggregate. Computed
        once and cached: call :meth:`unpersist` when done with it.
    diagnostics : dict
        ``missing_count`` / ``missing_queries`` (judged queries absent from the run: the
        count and the first 100 ids), ``ignored_count`` / ``ignored_queries`` (run queries
        without judgments), ``empty_queries`` (per averaged measure, how many queries have
        no relevant judgment) and ``evaluated_queries``.
    conventions : dict
        The options in force, as :attr:`ranklens.Result.conventions` records them.
    names, measures, run_name, buckets
        The measures as written and parsed, the run's name, the bucket count.
    """

    def __init__(self, *, plan: Plan, run_name: str, aggregates: dict[str, float],
                 diagnostics: dict[str, Any], per_query: DataFrame, buckets: int,
                 cached: DataFrame) -> None:
        self.names = plan.names
        self.measures = plan.measure_of()
        self.conventions = dict(plan.conventions)
        self.run_name = run_name
        self.aggregates = aggregates
        self.diagnostics = diagnostics
        self.per_query = per_query
        self.buckets = buckets
        self._cached = cached

    def __repr__(self) -> str:
        return (f"<SparkResult {self.run_name}: {self._body()} over "
                f"{self.diagnostics.get('evaluated_queries')} queries, {self.buckets} buckets>")

    def unpersist(self) -> None:
        """Release the cached per-query values."""
        self._cached.unpersist()

    def to_result(self) -> Result:
        """The per-query values collected to the driver as a local :class:`ranklens.Result`
        (one float per query and measure: mind the driver's memory). Its aggregates are
        this result's."""
        table: Any = self.per_query.toPandas()  # pandas: what every pyspark version has
        query_ids = np.array(sorted(set(table["query_id"].tolist())), dtype=np.object_)
        position = {q: i for i, q in enumerate(query_ids.tolist())}
        values: dict[str, np.ndarray] = {}
        texts: dict[str, list[str]] = {}
        for name, measure in self.measures.items():
            rows = table[table["measure"] == name]
            at = np.array([position[q] for q in rows["query_id"].tolist()], dtype=np.int64)
            column = np.full(len(query_ids), np.nan)
            if measure.definition.text:
                text = np.empty(len(query_ids), dtype=object)
                text[at] = rows["text"].to_numpy()
                texts[name] = text.tolist()
            else:
                column[at] = rows["value"].to_numpy(dtype=np.float64)
            values[name] = column
        return Result(names=self.names, measures=self.measures, query_ids=query_ids,
                      query_values=values, aggregates=dict(self.aggregates),
                      conventions=dict(self.conventions), run_name=self.run_name,
                      diagnostics={"missing_queries": self.diagnostics["missing_queries"],
                                   "ignored_queries": self.diagnostics["ignored_queries"]},
                      text_values=texts)
