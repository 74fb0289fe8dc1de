"""ranklens on Spark against Spark MLlib's RankingEvaluator and RankingMetrics, in one session.

    python benchmarks/spark.py --preset recsys --reps 3 [--master local[2]] [--buckets 64]
    python benchmarks/spark.py --queries 1000000 --depth 100 --judged 10   # 10x recsys
    python benchmarks/spark.py --preset recsys --scaling 8,64,512          # bucket counts
    python benchmarks/spark.py --preset recsys --int-ids                   # integer ids
    python benchmarks/spark.py --preset recsys --stages --reps 4           # stage by stage

The data comes from the shared generator (``$RANKLENS_SHARED_DIR/bench/make_trec_data.py``,
default ``../shared``), written once as TREC files and Parquet under ``benchmarks/.cache/``.
Every path starts from the same two Parquet files (read by Spark in the timed part) and
computes AP, nDCG@10, P@10 and R@100 (binary relevance: MLlib's PySpark API drops grades):

- ranklens.spark: ``evaluate`` (aggregates and diagnostics: one job) then every per-query
  value written to Parquet (from the cached values: a second, small job);
- RankingEvaluator, building its input: one row per query with the ranked ids (grouped,
  sorted by score) and the relevant ids, joined and cached, then its four ``evaluate``
  calls; means only;
- RankingEvaluator, input cached: the four ``evaluate`` calls alone, on that input built
  and cached beforehand (untimed: printed below the table); means only;
- RankingMetrics (RDD): the same input built (uncached), turned into an RDD of Python
  lists, cached, and its four means.

Wall seconds, with the load average after each path (the machine is shared); the order of the
paths alternates between rounds and the table gives medians.

``--stages`` times ranklens.spark's path one step at a time instead (no-op writes, so each
line adds one step to the one above: the JVM's grouping per query; + the Arrow transfer to
Python, discarded there; + the engine, returning nothing; the whole path) beside
RankingEvaluator's input built alone and its whole path, with the CPU time all processes
used meanwhile (``/proc/stat``: whether the cores were the limit).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
MEASURES = ["AP", "nDCG@10", "P@10", "R@100"]


def _data(args: argparse.Namespace) -> tuple[Path, Path]:
    shared = Path(os.environ.get("RANKLENS_SHARED_DIR", HERE.parent.parent / "shared"))
    shape = (f"{args.preset}" if args.preset else
             f"q{args.queries}-d{args.depth}-j{args.judged}")
    out = HERE / ".cache" / f"spark-{shape}"
    if not (out / "run.parquet").exists():
        cmd = [sys.executable, str(shared / "bench" / "make_trec_data.py"), "--out", str(out),
               "--runs", "1"]
        if args.preset:
            cmd += ["--preset", args.preset]
        else:
            cmd += ["--queries", str(args.queries), "--depth", str(args.depth),
                    "--judged", str(args.judged), "--grades", "2"]
        subprocess.run(cmd, check=True)
        _to_parquet(out / "qrels.txt", out / "qrels.parquet", 4,
                    {"query_id": 0, "doc_id": 2, "relevance": 3})
        _to_parquet(out / "run1.txt", out / "run.parquet", 6,
                    {"query_id": 0, "doc_id": 2, "score": 4})
    return out / "qrels.parquet", out / "run.parquet"


def _int_ids(qrels: Path, run: Path) -> tuple[Path, Path]:
    """The same data with the ids as 64-bit integers (the generator's ids are all
    canonically written integers), as recommender logs usually hold them."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = qrels.parent
    target = out.with_name(out.name + "-int")
    target.mkdir(exist_ok=True)
    for source in (qrels, run):
        if not (target / source.name).exists():
            table = pq.read_table(source)
            for name in ("query_id", "doc_id"):
                table = table.set_column(table.schema.get_field_index(name), name,
                                         table[name].cast(pa.int64()))
            pq.write_table(table, target / source.name)
    return target / qrels.name, target / run.name


def _to_parquet(text: Path, parquet: Path, fields: int, columns: dict[str, int]) -> None:
    """A TREC file's (``fields`` fields a line) ``columns`` (name: field position) as
    Parquet, streamed: the 10x set's 100M lines need not fit in memory."""
    import pyarrow as pa
    import pyarrow.csv as csv
    import pyarrow.parquet as pq

    names = [f"f{i}" for i in range(fields)]
    types = {names[i]: pa.string() if name.endswith("_id") else pa.float64()
             for name, i in columns.items()}
    reader = csv.open_csv(text, read_options=csv.ReadOptions(column_names=names,
                                                             block_size=64 << 20),
                          parse_options=csv.ParseOptions(delimiter=" "),
                          convert_options=csv.ConvertOptions(
                              column_types=types, include_columns=list(types)))
    schema = pa.schema([(name, types[names[i]]) for name, i in columns.items()])
    with pq.ParquetWriter(parquet, schema) as writer:
        for batch in reader:
            writer.write_table(pa.Table.from_batches([batch]).select(
                [names[i] for i in columns.values()]).rename_columns(list(columns)))


def _busy() -> tuple[float, float]:
    """Seconds of CPU time all processes used so far, busy and in all (Linux; nan
    elsewhere)."""
    try:
        with open("/proc/stat") as stat:
            ticks = [int(x) for x in stat.readline().split()[1:]]
    except OSError:
        return math.nan, math.nan
    hz = os.sysconf("SC_CLK_TCK")
    return (sum(ticks) - ticks[3] - ticks[4]) / hz, sum(ticks) / hz  # idle, iowait


def _discard(batches: Any) -> Any:
    """A worker that reads every Arrow batch and returns one count."""
    import pyarrow as pa

    rows = sum(batch.num_rows for batch in batches)
    yield pa.RecordBatch.from_pydict({"rows": [rows]})


def _engine_only(spec: Any, batches: Any) -> Any:
    """A worker that evaluates its bucket and returns only how many rows that gave."""
    import pyarrow as pa

    from ranklens.spark._driver import _compacted

    rows = sum(batch.num_rows for batch in _compacted(spec, batches))
    yield pa.RecordBatch.from_pydict({"rows": [rows]})


def _stages(args: argparse.Namespace, read: Callable[[], tuple],
            paths: dict[str, Callable[[], Any]]) -> None:
    """ranklens.spark's path step by step beside RankingEvaluator's (see the docstring)."""
    import functools

    from ranklens.spark._bucket import BucketSpec
    from ranklens.spark._driver import _default_buckets, _grouped

    spec = BucketSpec(measures=tuple(MEASURES), options=(("missing", "zero"),),
                      qrels_source="<qrels DataFrame>", run_source="<run DataFrame>",
                      run_name="run", has_rank=False)

    def grouped() -> Any:
        qrels, run = read()
        return _grouped(qrels, run, False, args.buckets or _default_buckets(run))

    def noop(frame: Any) -> None:
        frame.write.format("noop").mode("overwrite").save()

    stages: dict[str, Callable[[], Any]] = {
        "ranklens: grouping per query on the JVM": lambda: noop(grouped()),
        "ranklens: + Arrow to Python (discarded)": lambda: noop(
            grouped().mapInArrow(_discard, "rows long")),
        "ranklens: + the engine (nothing returned)": lambda: noop(
            grouped().mapInArrow(functools.partial(_engine_only, spec), "rows long")),
        **paths,
    }
    times: dict[str, list[float]] = {name: [] for name in stages}
    cpu: dict[str, list[float]] = {name: [] for name in stages}
    for rep in range(args.reps):
        for name in (list(stages) if rep % 2 == 0 else list(stages)[::-1]):
            busy, total = _busy()
            start = time.perf_counter()
            stages[name]()
            times[name].append(time.perf_counter() - start)
            busy_after, total_after = _busy()
            cpu[name].append(busy_after - busy)
            print(f"  {name}: {times[name][-1]:.1f} s, CPU {cpu[name][-1]:.1f} of "
                  f"{total_after - total:.1f} s", file=sys.stderr, flush=True)
    print("\n| step | median s | rounds | CPU s used (all processes) |\n|---|---:|---|---:|")
    for name in stages:
        print(f"| {name} | {statistics.median(times[name]):.2f} | "
              f"{', '.join(f'{t:.2f}' for t in times[name])} | "
              f"{statistics.median(cpu[name]):.1f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", choices=["tiny", "recsys"])
    ap.add_argument("--queries", type=int, default=1_000_000)
    ap.add_argument("--depth", type=int, default=100)
    ap.add_argument("--judged", type=int, default=10)
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--buckets", type=int, default=None,
                    help="default: ranklens.spark's (4 per core, at least 8)")
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--scaling", default="", help="comma-separated bucket counts")
    ap.add_argument("--memory", default="8g", help="spark.driver.memory")
    ap.add_argument("--partitions", type=int, default=16, help="spark.sql.shuffle.partitions")
    ap.add_argument("--method", default="auto", help="ranklens.spark.evaluate's method")
    ap.add_argument("--skip", default="", help="comma-separated path numbers (1-4) to skip")
    ap.add_argument("--int-ids", action="store_true",
                    help="the ids as 64-bit integers in the Parquet files (default: strings)")
    ap.add_argument("--stages", action="store_true",
                    help="ranklens.spark's path step by step beside RankingEvaluator's")
    ap.add_argument("--conf", action="append", default=[],
                    help="key=value: a Spark session setting for every path (repeatable)")
    args = ap.parse_args()
    qrels_path, run_path = _data(args)
    if args.int_ids:
        qrels_path, run_path = _int_ids(qrels_path, run_path)

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.ml.evaluation import RankingEvaluator
    from pyspark.mllib.evaluation import RankingMetrics
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    import ranklens.spark

    builder = (SparkSession.builder.master(args.master).appName("ranklens-bench")
             .config("spark.driver.memory", args.memory)
             .config("spark.sql.shuffle.partitions", str(args.partitions))
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.ui.enabled", "false"))
    for setting in args.conf:
        key, _, value = setting.partition("=")
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    tmp = Path(tempfile.mkdtemp(prefix="ranklens-spark-bench-"))

    def read() -> tuple:
        return spark.read.parquet(str(qrels_path)), spark.read.parquet(str(run_path))

    def ranklens_path(buckets: int | None) -> dict[str, float]:
        qrels, run = read()
        result = ranklens.spark.evaluate(qrels, run, MEASURES, buckets=buckets,
                                         missing="zero", method=args.method)
        result.per_query.write.mode("overwrite").parquet(str(tmp / "per_query"))
        out = dict(result)
        result.unpersist()
        return out

    def mllib_input(own: bool = False) -> Any:
        qrels, run = read()
        if own:  # a plan of its own from the leaves up: Spark substitutes a cached plan
            # for any matching part of a later one, which would time the cache
            run = run.filter(F.col("score") > float("-inf"))
        ranked = run.groupBy("query_id").agg(F.sort_array(F.collect_list(F.struct(
            (-F.col("score")).alias("s"), F.col("doc_id").cast("double").alias("d")))).alias("r"))
        ranked = ranked.select("query_id", F.transform("r", lambda x: x["d"]).alias("prediction"))
        relevant = qrels.filter(F.col("relevance") >= 1).groupBy("query_id").agg(
            F.collect_list(F.col("doc_id").cast("double")).alias("label"))
        return relevant.join(ranked, "query_id", "left").select(
            F.coalesce("prediction", F.array().cast("array<double>")).alias("prediction"),
            "label")

    def evaluator_path(frame: Any) -> dict[str, float]:
        ev = RankingEvaluator(predictionCol="prediction", labelCol="label")
        return {
            "AP": ev.setMetricName("meanAveragePrecision").evaluate(frame),
            "nDCG@10": ev.setMetricName("ndcgAtK").setK(10).evaluate(frame),
            "P@10": ev.setMetricName("precisionAtK").setK(10).evaluate(frame),
            "R@100": ev.setMetricName("recallAtK").setK(100).evaluate(frame),
        }

    def built_evaluator_path() -> dict[str, float]:
        frame = mllib_input(own=True).cache()
        out = evaluator_path(frame)
        frame.unpersist()
        return out

    def rdd_path() -> dict[str, float]:
        frame = mllib_input()
        rdd = frame.rdd.map(lambda row: (list(row.prediction), list(row.label))).cache()
        metrics = RankingMetrics(rdd)
        out = {"AP": metrics.meanAveragePrecision, "nDCG@10": metrics.ndcgAt(10),
               "P@10": metrics.precisionAt(10), "R@100": metrics.recallAt(100)}
        rdd.unpersist()
        return out

    if args.stages:
        def evaluator_input() -> None:  # RankingEvaluator's input alone, as built below
            mllib_input(own=True).write.format("noop").mode("overwrite").save()

        _stages(args, read, {
            "ranklens: the whole path (+ per-query Parquet)": lambda: ranklens_path(
                args.buckets),
            "RankingEvaluator: its input alone (grouped, sorted, joined)": evaluator_input,
            "RankingEvaluator: the whole path (input cached, four means)":
                built_evaluator_path})
        spark.stop()
        return
    skip = {int(x) for x in args.skip.split(",") if x}
    build = math.nan
    cached = None
    if 2 not in skip:
        start = time.perf_counter()
        cached = mllib_input().cache()
        cached.count()
        build = time.perf_counter() - start
    every: dict[str, Callable[[], dict[str, float]]] = {
        f"ranklens.spark ({args.buckets or 'default'} buckets, + per-query Parquet)":
            lambda: ranklens_path(args.buckets),
        "RankingEvaluator (input cached, means only)": lambda: evaluator_path(cached),
        "RankingEvaluator (building its input, means only)": built_evaluator_path,
        "RankingMetrics (RDD, means only)": rdd_path,
    }
    paths = {name: f for i, (name, f) in enumerate(every.items(), 1) if i not in skip}
    times: dict[str, list[float]] = {name: [] for name in paths}
    values: dict[str, dict[str, float]] = {}
    loads = []
    for rep in range(args.reps):
        order = list(paths) if rep % 2 == 0 else list(paths)[::-1]
        for name in order:
            start = time.perf_counter()
            values[name] = paths[name]()
            times[name].append(time.perf_counter() - start)
            loads.append(os.getloadavg()[0])
            print(f"  {name}: {times[name][-1]:.1f} s, load {loads[-1]:.1f}", file=sys.stderr,
                  flush=True)
    first = statistics.median(times[next(iter(paths))])
    print(f"\n{qrels_path.parent.name}, {args.master}, median of {args.reps}, load average "
          f"{min(loads):.1f}-{max(loads):.1f}\n")
    print("| path | seconds | x ranklens.spark | " + " | ".join(MEASURES) + " |")
    print("|---|---|---|" + "---|" * len(MEASURES))
    for name in paths:
        t = statistics.median(times[name])
        cells = " | ".join(f"{values[name][m]:.6f}" for m in MEASURES)
        print(f"| {name} | {t:.1f} | {t / first:.2f} | {cells} |")
    print(f"\nRankingEvaluator's input (grouped, sorted, cached; untimed above): {build:.1f} s")
    for buckets in [int(b) for b in args.scaling.split(",") if b]:
        start = time.perf_counter()
        ranklens_path(buckets)
        print(f"| ranklens.spark, {buckets} buckets | {time.perf_counter() - start:.1f} | "
              f"load {os.getloadavg()[0]:.1f} |", flush=True)
    spark.stop()


if __name__ == "__main__":
    main()
