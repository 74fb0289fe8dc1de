"""Judgments and runs read by Spark itself (on the executors), by file kind."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._errors import ParameterError

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

__all__ = ["read_qrels", "read_run"]


def _kind(path: str) -> str:
    name = path.rstrip("/").lower()
    for suffix in (".gz", ".bz2"):  # Spark decompresses these itself
        name = name.removesuffix(suffix)
    if name.endswith(".parquet"):
        return "parquet"
    if name.endswith(".csv"):
        return "csv"
    if name.endswith(".tsv"):
        return "tsv"
    return "trec"


def _fields(spark: SparkSession, path: str, count: int, names: list[str]) -> DataFrame:
    """A TREC file's whitespace-separated fields ``names`` (at positions ``count``)."""
    from pyspark.sql import functions as F

    text = spark.read.text(path)
    parts = F.split(F.trim(F.col("value")), r"\s+")
    lines = text.select(parts.alias("f")).filter(
        (F.size("f") >= count) & ~F.col("f")[0].startswith("#"))
    return lines.select(*[F.col("f")[i].alias(n) for i, n in enumerate(names) if n != "_"])


def _table(spark: SparkSession, path: str) -> DataFrame:
    kind = _kind(path)
    if kind == "parquet":
        return spark.read.parquet(path)
    return spark.read.csv(path, header=True, inferSchema=True,
                          sep="\t" if kind == "tsv" else ",")


def read_qrels(spark: SparkSession, path: str) -> DataFrame:
    """Judgments from a TREC qrels file (``query iteration doc relevance``), or a Parquet,
    CSV or TSV file with ``query_id, doc_id, relevance`` columns."""
    if _kind(path) == "trec":
        from pyspark.sql import functions as F

        frame = _fields(spark, path, 4, ["query_id", "_", "doc_id", "relevance"])
        return frame.withColumn("relevance", F.col("relevance").cast("double"))
    return _table(spark, path)


def read_run(spark: SparkSession, path: str) -> DataFrame:
    """A run from a TREC run file (``query Q0 doc rank score tag``), or a Parquet, CSV or
    TSV file with ``query_id, doc_id, score`` columns."""
    if _kind(path) == "trec":
        from pyspark.sql import functions as F

        frame = _fields(spark, path, 6, ["query_id", "_", "doc_id", "rank", "score"])
        return frame.withColumn("score", F.col("score").cast("double")).withColumn(
            "rank", F.col("rank").cast("long"))
    return _table(spark, path)


def check_master(master: str) -> None:
    """ParameterError unless ``master`` looks like a Spark master URL."""
    if not master.startswith(("local", "spark://", "yarn", "k8s://", "mesos://", "sc://")):
        raise ParameterError(
            "the '--master' option must be a Spark master such as local[2], spark://host:7077,"
            f" yarn or sc://host (Spark Connect); got {master!r}")
