"""ranklens on Apache Spark: every measure, per query, exactly as the local engine computes it.

``import ranklens.spark`` needs pyspark and pyarrow (``pip install 'ranklens[spark]'``), on
the driver and on every executor. See docs/spark.md.

Examples
--------
>>> import ranklens.spark  # doctest: +SKIP
>>> result = ranklens.spark.evaluate(qrels_df, run_df, ["nDCG@10", "AP"])  # doctest: +SKIP
>>> result["nDCG@10"], result.per_query.write.parquet("per_query")  # doctest: +SKIP
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._collect import collect
from ._compare import compare
from ._driver import DEFAULT_BUCKETS, evaluate
from ._groups import group_means
from ._result import SparkResult

if TYPE_CHECKING:
    from ._evaluator import RankingEvaluator

__all__ = ["DEFAULT_BUCKETS", "RankingEvaluator", "SparkResult", "collect", "compare",
           "evaluate", "group_means"]


def __getattr__(name: str) -> Any:
    # RankingEvaluator subclasses pyspark.ml's Evaluator: pyspark.ml loads on first use only
    if name == "RankingEvaluator":
        from ._evaluator import RankingEvaluator

        return RankingEvaluator
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
