"""The driver side: checks before any job, the Spark plan, and the one job that reads the
buckets' sums, diagnostics, errors and warnings."""

from __future__ import annotations

import functools
import json
import warnings
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from .._base.errors import MeasureError, ParameterError, RanklensWarning, error_from_dict
from .._base.tuning import BUCKETS_PER_CORE, BYTES_PER_BUCKET, DEFAULT_BUCKETS, MAX_DEFAULT_BUCKETS
from .._base.validate import Choice, Integer, check
from .._measures import Measure, _ties
from .._model.items import ItemContext
from .._pipeline.assemble import finish
from .._pipeline.blocks import BlockSpec, Outcome, settle
from .._pipeline.context import check_context, load_context
from .._pipeline.options import EvaluateOptions
from .._pipeline.partials import Partial
from .._pipeline.plan import Plan, make_plan
from ._bucket import OUTPUT_FIELDS, evaluate_bucket, shipped_context, text_ids
from ._result import SparkResult

if TYPE_CHECKING:
    import pyarrow as pa
    from pyspark.sql import DataFrame

__all__ = ["DEFAULT_BUCKETS", "evaluate"]

# Spark's integral types (their typeName()s): ids of these types are shuffled as longs
_INTEGRAL = ("integer", "long", "short", "byte")
# Spark's numeric types
NUMBERS = (*_INTEGRAL, "float", "double", "decimal")

def evaluate(qrels: DataFrame, run: DataFrame,
             measures: str | Measure | Iterable[str | Measure], *,
             query_id: str = "query_id", doc_id: str = "doc_id", relevance: str = "relevance",
             score: str = "score", rank: str | None = None, buckets: int | None = None,
             run_name: str | None = None, method: str = "auto",
             options: EvaluateOptions | None = None, train: Any = None, items: Any = None,
             item_features: Any = None, item_groups: Any = None, **kwargs: Any) -> SparkResult:
    """Evaluate a run held in a Spark DataFrame against judgments held in another.

    Every option and convention of :func:`ranklens.evaluate` applies, with the same
    per-query values: each bucket of whole queries (a hash of the query id) is evaluated by
    ranklens's own engine in a Python worker. Options are checked on the driver before any
    job runs.

    Parameters
    ----------
    qrels : pyspark.sql.DataFrame
        Judgments: a query id, a doc id (strings or integers) and a numeric relevance
        (grades are kept).
    run : pyspark.sql.DataFrame
        Results: a query id, a doc id and a numeric score (and a rank, see ``rank``).
    measures : str, Measure or list of them
        As for :func:`ranklens.evaluate`.
    query_id, doc_id, relevance, score : str
        The column names in ``qrels`` and ``run``.
    rank : str, optional
        A numeric column giving each row's position in its query's ranking (ascending).
        Required by ``ties="input"``: Spark keeps no row order across a shuffle.
    buckets : int, optional
        How many buckets of queries to evaluate separately (default: 4 per core of the
        session, at least 8, or one per 40 MB of the run's columns read when Spark's plan
        statistics estimate more (Parquet, ORC, ...: the files' sizes); 64 under Spark
        Connect); each must fit in one Python worker's memory (about 180 bytes per run
        row). Results do not depend on it.
    run_name, options, **kwargs
        As for :func:`ranklens.evaluate` (``rel``, ``missing``, ``ties``, ``convention``,
        ... or one :class:`EvaluateOptions`).
    method : {"auto", "compact", "cogroup", "partition"}
        ``compact`` (``auto``): each input repartitioned by query id into ``buckets``
        partitions, one row per query holding its rows as arrays (``collect_list``), the
        two joined and ``mapInArrow`` (pyspark >= 3.3); ``cogroup``:
        ``groupBy(bucket).cogroup(...).applyInArrow`` (pyspark >= 4.0); ``partition``:
        both inputs repartitioned by query id and ``mapInArrow`` (pyspark >= 3.3).
    train, items, item_features, item_groups : optional
        The beyond-accuracy measures' item tables (``Novelty@k``, ``Coverage@k``, ...), as
        for :func:`ranklens.evaluate`: any form it reads (a path is read on the driver), or
        a Spark DataFrame with the same columns (collected to the driver: they are the
        size of the catalogue and the training data). They are loaded once on the driver
        and shipped to every bucket as one item numbering; catalogue-level measures
        (coverage, Gini, entropy, PopREO/PopRSP) add the buckets' item counts and finish
        on the driver. See docs/beyond-accuracy.md.

    Returns
    -------
    SparkResult
        Aggregates and diagnostics on the driver; per-query values as a DataFrame.

    Raises
    ------
    MeasureError, ParameterError
        Before any job: a bad measure, option or column.
    InputError
        What :func:`ranklens.evaluate` raises for the same data, with the same message.

    Examples
    --------
    >>> from pyspark.sql import SparkSession  # doctest: +SKIP
    >>> spark = SparkSession.builder.master("local[2]").getOrCreate()  # doctest: +SKIP
    >>> qrels = spark.createDataFrame([("q1", "d1", 1), ("q1", "d3", 2)],
    ...                               "query_id string, doc_id string, relevance int")
    ...                               # doctest: +SKIP
    >>> run = spark.createDataFrame([("q1", "d1", 0.9), ("q1", "d2", 0.8)],
    ...                             "query_id string, doc_id string, score double")
    ...                             # doctest: +SKIP
    >>> r = evaluate(qrels, run, ["P@2", "nDCG@3"], missing="zero")  # doctest: +SKIP
    >>> r["P@2"]  # doctest: +SKIP
    0.5
    """
    plan = make_plan(measures, options, run_name=run_name, **kwargs)
    diversity = [str(m) for m in plan.canonical if m.definition.subtopics]
    if diversity:
        raise MeasureError(
            f"{', '.join(diversity)} need subtopic judgments, which ranklens.spark does not "
            "read yet; evaluate them with ranklens.evaluate on load_qrels(..., "
            "kind='subtopic')")
    # the item tables are read on the driver, before any job: a missing one is a
    # MeasureError here, not a worker's
    context = load_context(*(_collected(t) for t in (train, items, item_features,
                                                     item_groups)))
    check_context(plan.canonical, context)
    check("buckets", buckets, Integer(1, none=True))
    check("method", method, Choice(("auto", "compact", "cogroup", "partition")))
    ids = [(query_id, "query_id", "id"), (doc_id, "doc_id", "id")]
    check_columns(qrels, "'qrels' argument", [*ids, (relevance, "relevance", "number")])
    check_columns(run, "'run' argument", [*ids, (score, "score", "number"), *(
        [(rank, "rank", "number")] if rank is not None else [])])
    if needs_rank(plan) and rank is None:
        raise ParameterError(
            "ties='input' needs each query's order, which Spark does not keep across a "
            "shuffle: pass rank='<column>' naming a numeric column (ascending positions)")
    name = run_name if run_name is not None else "run"
    spec = BlockSpec.of(plan, "<qrels DataFrame>", "<run DataFrame>", name,
                        has_rank=rank is not None, **shipped_context(context))
    from pyspark.sql import functions as F

    qid, did = _id_type(qrels, run, query_id), _id_type(qrels, run, doc_id)
    q = qrels.select(F.col(query_id).cast(qid).alias("query_id"),
                     F.col(doc_id).cast(did).alias("doc_id"),
                     F.col(relevance).cast("double").alias("relevance"))
    r = run.select(F.col(query_id).cast(qid).alias("query_id"),
                   F.col(doc_id).cast(did).alias("doc_id"),
                   F.col(score).cast("double").alias("score"),
                   (F.col(rank) if rank is not None else F.lit(0)).cast("double").alias("rank"))
    n_buckets = buckets if buckets is not None else _default_buckets(r)
    out = _buckets(q, r, spec, n_buckets, method).persist()
    try:
        rows = out.filter(F.col("kind") != "value").collect()  # the one job
        result = _assemble(plan, spec, [row.asDict() for row in rows], context)
    except BaseException:
        out.unpersist()
        raise
    per_query = out.filter(F.col("kind") == "value").select(
        "query_id", "measure", "value", "counted",
        *(["text"] if any(m.definition.text for m in plan.measures) else []))
    return SparkResult(plan=plan, run_name=name, aggregates=result[0],
                       diagnostics=result[1], per_query=per_query, buckets=n_buckets,
                       cached=out)


def _collected(table: Any) -> Any:
    """``table`` as :func:`~ranklens._pipeline.context.load_context` reads it: a Spark
    DataFrame (classic or Connect) collected to an Arrow table, anything else as given."""
    if not type(table).__module__.startswith("pyspark."):
        return table
    if hasattr(table, "toArrow"):  # pyspark >= 4.0
        return table.toArrow()
    return table.toPandas()


def _default_buckets(run: Any) -> int:
    """Buckets when none is asked for: :data:`BUCKETS_PER_CORE` per core of ``run``'s
    session (at least 8), more when Spark's plan statistics estimate ``run`` (the columns
    ranklens reads) at over :data:`BYTES_PER_BUCKET` a bucket; :data:`DEFAULT_BUCKETS` when
    the session's cores are unknown (Spark Connect has no SparkContext)."""
    try:
        cores = int(run.sparkSession.sparkContext.defaultParallelism)
    except Exception:  # Connect raises its own error classes for sparkContext
        return DEFAULT_BUCKETS
    by_cores = max(8, BUCKETS_PER_CORE * cores)
    size = _estimated_bytes(run)
    if size is None:
        return by_cores
    return max(by_cores, min(MAX_DEFAULT_BUCKETS, -(-size // BYTES_PER_BUCKET)))


def _estimated_bytes(frame: Any) -> int | None:
    """Spark's estimate of ``frame``'s size in bytes (no job runs: from the files' sizes
    and the columns read), or None where Spark has none (it then says 2**63 - 1)."""
    try:
        size = frame._jdf.queryExecution().optimizedPlan().stats().sizeInBytes()
        size = int(size if isinstance(size, int) else size.toString())
    except Exception:  # no JVM handle (Connect) or a plan without statistics
        return None
    return size if 0 < size < 2**62 else None


def needs_rank(plan: Plan) -> bool:
    """Whether a measure of ``plan`` orders tied scores by input order."""
    return plan.policies.ties == "input" or any(
        _ties.effective_ties(m, plan.policies.ties) == "input" for m in plan.canonical)


def check_columns(frame: Any, what: str, columns: list[tuple[str, str, str]],
                  form: str = "") -> dict[str, str]:
    """Each column's type name, once ``frame`` is a Spark DataFrame holding each (column,
    the option naming it, its kind: ``id``, ``number`` or ``any``) of ``columns`` (read from the
    schema: no job runs; ``form``: said after a wrong kind)."""
    schema = getattr(frame, "schema", None)
    if schema is None or not hasattr(frame, "select"):
        raise ParameterError(f"the {what} must be a Spark DataFrame, got a "
                             f"{type(frame).__name__}")
    types = {f.name: f.dataType.typeName() for f in schema.fields}
    for column, option, _ in columns:
        if column not in types:
            raise ParameterError(f"the {what} has no {column!r} column ({option}; columns: "
                                 f"{list(types)})")
    for column, option, kind in columns:
        allowed, held = ((("string", *_INTEGRAL), "strings or integers") if kind == "id"
                         else (NUMBERS, "numbers") if kind == "number" else (types.values(), ""))
        if types[column] not in allowed:
            raise ParameterError(f"the {option} column {column!r} must hold {held}{form}; "
                                 f"got {types[column]}")
    return types


def _id_type(qrels: Any, run: Any, column: str) -> str:
    """The Spark type an id column travels as: ``long`` when it holds integers in both
    frames, else ``string``.

    Integers are shuffled, grouped and sent to Python as 8 fixed bytes instead of text, and
    turned into their decimal strings in the worker (:func:`~._bucket.evaluate_bucket`), the
    strings a cast on the JVM would have given: the values are those of string ids.
    """
    kinds = [next(f.dataType.typeName() for f in frame.schema.fields if f.name == column)
             for frame in (qrels, run)]  # both present: checked by check_columns
    return "long" if all(kind in _INTEGRAL for kind in kinds) else "string"


def _output_schema() -> str:
    return ", ".join(f"{name} {kind}" for name, kind in OUTPUT_FIELDS)


def _buckets(q: DataFrame, r: DataFrame, spec: BlockSpec, n: int, method: str) -> DataFrame:
    from pyspark.sql import functions as F

    # "compact" ("auto") needs only collect_list and mapInArrow (pyspark >= 3.3, classic
    # and Connect) and measured cheapest (docs/spark.md)
    if method in ("auto", "compact"):
        return _compact(q, r, spec, n)
    if method == "cogroup":
        bucket = F.pmod(F.xxhash64("query_id"), F.lit(n)).alias("bucket")
        return (q.withColumn("bucket", bucket).groupBy("bucket")
                .cogroup(r.withColumn("bucket", bucket).groupBy("bucket"))
                .applyInArrow(functools.partial(_cogrouped, spec), _output_schema()))
    both = q.select("query_id", "doc_id", F.col("relevance").alias("value"),
                    F.lit(None).cast("double").alias("rank"), F.lit(True).alias("judged")
                    ).unionByName(
        r.select("query_id", "doc_id", F.col("score").alias("value"), "rank",
                 F.lit(False).alias("judged")))
    return both.repartition(n, "query_id").mapInArrow(functools.partial(_partition, spec),
                                                       _output_schema())


def _compact(q: DataFrame, r: DataFrame, spec: BlockSpec, n: int) -> DataFrame:
    """:func:`_grouped`'s partitions, each evaluated as one bucket."""
    return _grouped(q, r, spec.has_rank, n).mapInArrow(functools.partial(_compacted, spec),
                                                       _output_schema())


def _grouped(q: DataFrame, r: DataFrame, has_rank: bool, n: int) -> DataFrame:
    """One row per query, its run rows and judgments as arrays, built on the JVM.

    Arrow then moves each query id once and no grouping by bucket sorts the run rows: a
    partition of this frame holds whole queries, ``n`` partitions (hash of the query id).
    (benchmarks/spark.py --stages times this step alone.)
    """
    from pyspark.sql import functions as F

    fields = ["doc_id", "score", *(["rank"] if has_rank else [])]
    runs = r.repartition(n, "query_id").groupBy("query_id").agg(
        F.collect_list(F.struct(*fields)).alias("run"))
    judged = q.repartition(n, "query_id").groupBy("query_id").agg(
        F.collect_list(F.struct("doc_id", "relevance")).alias("qrels"))
    return judged.join(runs, "query_id", "full_outer")


def _compacted(spec: BlockSpec, batches: Iterator[pa.RecordBatch]
               ) -> Iterator[pa.RecordBatch]:
    """One partition of :func:`_compact`'s rows, flattened back to rows and evaluated as
    one bucket (no batch when the partition is empty)."""
    rows = _table(batches)
    if rows is None:
        return
    run_fields = ["doc_id", "score", *(["rank"] if spec.has_rank else [])]
    qrels = _flattened(rows, "qrels", ["doc_id", "relevance"]).drop_columns(["parent"])
    run = _flattened(rows, "run", run_fields)
    if spec.has_rank:  # each query's rows in rank order (a stable sort keeps rank ties)
        import pyarrow.compute as pc

        run = run.take(pc.sort_indices(run, [("parent", "ascending"), ("rank", "ascending")]))
    yield from evaluate_bucket(spec, qrels, run.drop_columns(["parent"]),
                               ordered=True).to_batches()


def _table(batches: Iterator[pa.RecordBatch]) -> pa.Table | None:
    """A partition's batches as one table (None: the partition is empty)."""
    import pyarrow as pa

    collected = list(batches)
    return pa.Table.from_batches(collected) if collected else None


def _flattened(rows: pa.Table, column: str, fields: list[str]) -> pa.Table:
    """The elements of the list column ``column`` as rows, with their query id."""
    import pyarrow as pa
    import pyarrow.compute as pc

    lists = rows[column].combine_chunks()
    parents = pc.list_parent_indices(lists)
    # flatten() (not field()) honours the struct array's own offset
    children = pc.list_flatten(lists).flatten()
    # one string per query, then per row: integer query ids are cast before the take
    query_ids = text_ids(rows.select(["query_id"]))["query_id"].combine_chunks()
    return pa.table({"query_id": query_ids.take(parents),
                     "parent": parents, **dict(zip(fields, children, strict=True))})


def _cogrouped(spec: BlockSpec, qrels: pa.Table, run: pa.Table) -> pa.Table:
    """One bucket: the judgments and the run rows of the queries hashed to it."""
    return evaluate_bucket(spec, qrels.select(["query_id", "doc_id", "relevance"]),
                           run.select(["query_id", "doc_id", "score", "rank"]))


def _partition(spec: BlockSpec, batches: Iterator[pa.RecordBatch]
               ) -> Iterator[pa.RecordBatch]:
    """One partition (whole queries, possibly spanning Arrow batches; none when the
    partition is empty)."""
    import pyarrow.compute as pc

    rows = _table(batches)
    if rows is None:
        return
    judged = pc.equal(rows["judged"], True)
    qrels = rows.filter(judged).select(["query_id", "doc_id", "value"]).rename_columns(
        ["query_id", "doc_id", "relevance"])
    run = rows.filter(pc.invert(judged)).select(["query_id", "doc_id", "value", "rank"]
                                                ).rename_columns(
        ["query_id", "doc_id", "score", "rank"])
    yield from evaluate_bucket(spec, qrels, run).to_batches()


def _assemble(plan: Plan, spec: BlockSpec, rows: list[dict[str, Any]],
              context: ItemContext | None = None
              ) -> tuple[dict[str, float], dict[str, Any]]:
    """Aggregates and diagnostics from the buckets' rows, assembled as the local engine
    assembles its own (:func:`~ranklens._pipeline.assemble.finish`, with the item
    ``context`` the buckets read); raises what it would raise, in its order, and warns
    what it would warn."""
    # a bucket's error comes in a row beside its partial's: an outcome of no query
    outcomes = [Outcome(Partial.from_json(json.loads(r["text"]))) if r["kind"] == "partial"
                else Outcome(Partial(tallies={}), error_from_dict(json.loads(r["text"])))
                for r in rows if r["kind"] in ("partial", "error")]
    merged = settle(plan, outcomes, qrels_source=spec.qrels_source,
                    run_source=spec.run_source)
    totals = finish(plan, merged, run_source=spec.run_source, qrels_source=spec.qrels_source,
                    context=context)
    for message in totals.notices:
        warnings.warn(message, RanklensWarning, stacklevel=3)
    _worker_warnings(rows)
    diagnostics = {
        "missing_queries": list(merged.missing.examples),
        "ignored_queries": list(merged.ignored.examples), **totals.diagnostics}
    return totals.aggregates, diagnostics


def _worker_warnings(rows: list[dict[str, Any]]) -> None:
    """The workers' own warnings, each once."""
    import builtins

    for category, message in dict.fromkeys((r["measure"], r["text"]) for r in rows
                                           if r["kind"] == "warning"):
        cls = RanklensWarning if category == "RanklensWarning" else getattr(
            builtins, category, UserWarning)
        if not (isinstance(cls, type) and issubclass(cls, Warning)):
            cls = UserWarning
        warnings.warn(message, cls, stacklevel=4)
