"""Per-group means on Spark, through exact partial sums: each partition sums the values of
each group and measure exactly, the driver adds the sums and rounds once."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .._base.lazy import polars as pl
from .._pipeline.exact import ExactSum, exact_sum

if TYPE_CHECKING:
    import pyarrow as pa

    from ._result import SparkResult

__all__ = ["group_means", "group_sums"]

_SUMS = "group string, measure string, n long, total string"


def group_sums(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """One partition's ``group, measure, n, total`` (the exact sum as JSON) of the counted
    ``query_id, measure, value, group`` rows; one batch in memory at a time."""
    import pyarrow as pa

    sums: dict[tuple[str, str], tuple[int, ExactSum]] = {}
    for batch in batches:
        frame = pl.DataFrame(pl.from_arrow(batch)).group_by("group", "measure").agg("value")
        for group, measure, values in frame.iter_rows():
            n, total = sums.get((group, measure), (0, ExactSum()))
            sums[group, measure] = (n + len(values), total + exact_sum(pl.Series(
                values, dtype=pl.Float64).to_numpy()))
    rows = [(g, m, n, json.dumps(t.to_json())) for (g, m), (n, t) in sums.items()]
    yield pa.RecordBatch.from_pylist(
        [dict(zip(("group", "measure", "n", "total"), r, strict=True)) for r in rows],
        schema=pa.schema([("group", pa.string()), ("measure", pa.string()),
                          ("n", pa.int64()), ("total", pa.string())]))


def group_means(result: SparkResult, groups: Any) -> pl.DataFrame:
    """Each measure's mean and count per group of queries, computed on Spark.

    Parameters
    ----------
    result : SparkResult
        From :func:`ranklens.spark.evaluate`; its per-query values stay on the executors.
    groups : mapping, path, frame or pyspark.sql.DataFrame
        As :func:`ranklens.segments` takes them, or a Spark DataFrame of two columns
        (query id, group: one row per membership). Local groups keep their first-seen
        order; a Spark DataFrame's are sorted by name.

    Returns
    -------
    polars.DataFrame
        ``group, measure, run, n, mean``: the values counted in the aggregate (``counted``),
        their exact sum rounded once over ``n``. ``n`` and ``mean`` equal
        :func:`ranklens.group_means`' on the same values; text measures are left out.

    Examples
    --------
    >>> r = ranklens.spark.evaluate(qrels_df, run_df, ["AP"])  # doctest: +SKIP
    >>> ranklens.spark.group_means(r, {"q1": "short", "q2": "long"})  # doctest: +SKIP
    """
    from pyspark.sql import functions as F

    from .._surfaces.render.frames import rows_frame
    from .._surfaces.segments import memberships

    spark = result.per_query.sparkSession
    if hasattr(groups, "sparkSession"):  # already a Spark DataFrame
        frame = groups.toDF("query_id", "group")
    else:
        pairs = memberships(groups)
        frame = spark.createDataFrame(pairs, "query_id string, group string")
    frame = frame.select(F.col("query_id").cast("string"), F.col("group").cast("string"))
    order = list(dict.fromkeys(g for _, g in pairs)) if not hasattr(groups, "sparkSession") \
        else sorted(r[0] for r in frame.select("group").distinct().collect())
    rows = (result.per_query.filter(F.col("counted")).select("query_id", "measure", "value")
            .join(F.broadcast(frame), "query_id").mapInArrow(group_sums, _SUMS).collect())
    sums: dict[tuple[str, str], tuple[int, ExactSum]] = {}
    for row in rows:
        n, total = sums.get((row.group, row.measure), (0, ExactSum()))
        sums[row.group, row.measure] = (n + row.n, total + ExactSum.from_json(
            json.loads(row.total)))
    names = [n for n, m in result.measures.items() if not m.definition.text]
    out = [(g, m, result.run_name, *sums.get((g, m), (0, ExactSum()))) for g in order
           for m in names]
    return rows_frame(((g, m, r, n, t.to_float() / n if n else float("nan"))
                       for g, m, r, n, t in out), "group measure run", "n", "mean")
