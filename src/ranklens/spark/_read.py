"""Judgments and runs read by Spark itself (on the executors), by file kind."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._base.errors import InputError, ParameterError

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

__all__ = ["read_qrels", "read_run"]


def _kind(path: str) -> str:
    # Spark decompresses .gz and .bz2 itself
    name = path.rstrip("/").lower().removesuffix(".gz").removesuffix(".bz2")
    return next((kind for kind in ("parquet", "csv", "tsv") if name.endswith(f".{kind}")),
                "trec")


def _fields(spark: SparkSession, path: str, count: int, names: list[str],
            numbers: dict[str, str]) -> DataFrame:
    """A TREC file's whitespace-separated fields ``names`` (``count`` per line), those in
    ``numbers`` cast to their Spark type; InputError naming the first line (by its text:
    Spark does not number lines) with another count of fields or a field that is not a
    number. One job over the file, before any evaluation."""
    from pyspark.sql import functions as F

    text = spark.read.text(path)
    parts = F.split(F.trim(F.col("value")), r"\s+")
    lines = text.select(F.col("value"), parts.alias("f")).filter(
        (F.trim(F.col("value")) != "") & ~F.col("f")[0].startswith("#"))
    fields = lines.select(F.col("value"), F.size("f").alias("n"), *[
        (F.expr(f"try_cast(f[{i}] AS {numbers[n]})") if n in numbers else F.col("f")[i]).alias(n)
        for i, n in enumerate(names) if n != "_"])
    bad = F.col("n") != count
    for name in numbers:
        bad = bad | F.col(name).isNull()
    first = fields.filter(bad).limit(1).collect()
    if first:
        row = first[0]
        line = row["value"].strip()[:200]
        if row["n"] != count:
            raise InputError(f"expected {count} whitespace-separated fields, got {row['n']}: "
                             f"{line!r}", source=path)
        name = next(n for n in numbers if row[n] is None)
        raise InputError(f"expected a numeric {name}, in the line {line!r}", source=path)
    return fields.select(*[n for n in names if n != "_"])


def _table(spark: SparkSession, path: str, numbers: dict[str, str]) -> DataFrame:
    """A Parquet file; or a CSV/TSV file read as text (type inference would read the ids
    "007" and "7" as the same number) with the columns in ``numbers`` cast to their Spark
    type, InputError naming the first value that is not a number."""
    kind = _kind(path)
    if kind == "parquet":
        return spark.read.parquet(path)
    from pyspark.sql import functions as F

    frame = spark.read.csv(path, header=True, inferSchema=False,
                           sep="\t" if kind == "tsv" else ",")
    present = [c for c in numbers if c in frame.columns]
    cast = frame.select(*[
        F.expr(f"try_cast(`{c}` AS {numbers[c]})").alias(c) if c in present else F.col(c)
        for c in frame.columns], *[F.col(c).alias(f"_text_{c}") for c in present])
    for column in present:
        first = cast.filter(F.col(column).isNull() & F.col(f"_text_{column}").isNotNull()) \
            .select(f"_text_{column}").limit(1).collect()
        if first:
            raise InputError(f"expected a numeric {column}, got {first[0][0]!r}", source=path)
    return cast.select(*frame.columns)


def read_qrels(spark: SparkSession, path: str) -> DataFrame:
    """Judgments from a TREC qrels file (``query iteration doc relevance``), or a Parquet,
    CSV or TSV file with ``query_id, doc_id, relevance`` columns."""
    if _kind(path) == "trec":
        return _fields(spark, path, 4, ["query_id", "_", "doc_id", "relevance"],
                       {"relevance": "double"})
    return _table(spark, path, {"relevance": "double"})


def read_run(spark: SparkSession, path: str) -> DataFrame:
    """A run from a TREC run file (``query Q0 doc rank score tag``), or a Parquet, CSV or
    TSV file with ``query_id, doc_id, score`` columns."""
    if _kind(path) == "trec":
        from pyspark.sql import functions as F

        frame = _fields(spark, path, 6, ["query_id", "_", "doc_id", "rank", "score", "_"],
                        {"score": "double"})
        # trec_eval ignores the rank field; it orders ties="input" here, where Spark keeps
        # no line order (null where it is not an integer, as the local reader ignores it)
        return frame.withColumn("rank", F.expr("try_cast(rank AS long)"))
    return _table(spark, path, {"score": "double", "rank": "long"})


def check_master(master: str) -> None:
    """ParameterError unless ``master`` looks like a Spark master URL."""
    if not master.startswith(("local", "spark://", "yarn", "k8s://", "mesos://", "sc://")):
        raise ParameterError(
            "the '--master' option must be a Spark master such as local[2], spark://host:7077,"
            f" yarn or sc://host (Spark Connect); got {master!r}")
