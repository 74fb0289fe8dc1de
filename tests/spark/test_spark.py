"""ranklens.spark on a real local Spark (local[2]): per-query values identical to the local
engine for every registered measure and convention, whatever the bucket count.

One SparkSession for the module, small data. Skipped (with the reason) when pyspark or a Java
runtime is missing, except under CI or RANKLENS_REQUIRE_PEERS, where that fails instead:
.ci/run installs both.
"""

from __future__ import annotations

import json
import math
import os
import random
import shutil
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from spark_support import spark_measures

import ranklens
from ranklens import InputError, MeasureError, ParameterError, RanklensWarning


def _need(reason: str) -> None:
    if os.environ.get("CI") or os.environ.get("RANKLENS_REQUIRE_PEERS"):
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        _need("pyspark is not installed (pip install 'ranklens[spark]')")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        _need("no Java runtime for Spark (apt-get install openjdk-17-jre-headless)")
    # the workers must run this interpreter, where ranklens is installed
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    session = (SparkSession.builder.master("local[2]").appName("ranklens-tests")
               .config("spark.ui.enabled", "false")
               .config("spark.sql.shuffle.partitions", "4")
               .config("spark.default.parallelism", "2")
               .config("spark.sql.execution.arrow.maxRecordsPerBatch", "7")  # queries span batches
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


MEASURES = spark_measures()


def _random_data(seed: int, queries: int = 40) -> tuple[list[tuple], list[tuple]]:
    """Graded judgments and a run with many tied scores; some queries judged only, some
    only in the run, some without a relevant judgment."""
    rng = random.Random(seed)
    qrels, run = [], []
    for i in range(queries):
        q = f"q{i}" if i % 7 else str(i)  # ids that sort differently as text and numbers
        where = rng.choice(["both"] * 6 + ["qrels", "run"])
        docs = rng.sample([f"d{j}" for j in range(30)], rng.randint(1, 15))
        if where != "run":
            top = rng.choice([0, 1, 3])
            for d in docs[: rng.randint(1, len(docs))]:
                qrels.append((q, d, rng.randint(-1, top)))
        if where != "qrels":
            ranked = rng.sample([f"d{j}" for j in range(30)], rng.randint(1, 20))
            for pos, d in enumerate(ranked):
                run.append((q, d, rng.randint(0, 6) / 2, pos))
    return qrels, run


def _frames(spark: Any, qrels: list[tuple], run: list[tuple]) -> tuple[Any, Any]:
    q = spark.createDataFrame(qrels, "query_id string, doc_id string, relevance int")
    r = spark.createDataFrame(run, "query_id string, doc_id string, score double, rank int")
    return q, r


def _local(qrels: list[tuple], run: list[tuple], measures: list[str],
           **options: Any) -> ranklens.Result:
    import polars as pl

    q = pl.DataFrame(qrels, schema=["query_id", "doc_id", "relevance"], orient="row")
    # the local frame in rank order: what ties="input" reads
    r = pl.DataFrame(run, schema=["query_id", "doc_id", "score", "rank"], orient="row"
                     ).sort(["query_id", "rank"]).drop("rank")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        return ranklens.evaluate(q, r, measures, **options)


def _same(local: ranklens.Result, remote: ranklens.spark.SparkResult) -> None:
    got = remote.to_result()
    assert got.query_ids.tolist() == local.query_ids.tolist()
    for name in local:
        if local.measures[name].definition.text:
            assert got.text_values[name] == local.text_values[name], name
            continue
        np.testing.assert_array_equal(got.query_values[name], local.query_values[name],
                                      err_msg=name)
        a, b = local[name], remote[name]
        assert (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, rel=1e-12,
                                                                       abs=1e-15), name


def jsonl_means(text: str) -> dict[str, float]:
    """Each measure's aggregate (the ``query == "all"`` rows) of ``--format jsonl`` output."""
    rows = [json.loads(line) for line in text.splitlines()]
    return {r["measure"]: r["value"] for r in rows if r["query"] == "all"}


@pytest.mark.parametrize("buckets", [1, 3, 64])
def test_every_measure_equals_local(spark: Any, buckets: int) -> None:
    import ranklens.spark

    qrels, run = _random_data(buckets)
    q, r = _frames(spark, qrels, run)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        remote = ranklens.spark.evaluate(q, r, MEASURES, buckets=buckets)
    _same(_local(qrels, run, MEASURES), remote)
    remote.unpersist()


def test_means_do_not_depend_on_buckets(spark: Any) -> None:
    import ranklens.spark

    qrels, run = _random_data(7, queries=60)
    q, r = _frames(spark, qrels, run)
    names = ["AP", "nDCG@10", "GMAP", "num_rel_ret", "RR"]
    got = [dict(ranklens.spark.evaluate(q, r, names, missing="zero", buckets=b))
           for b in (1, 3, 64)]
    assert got[0] == got[1] == got[2]
    local = _local(qrels, run, names, missing="zero")
    for name in names:
        assert got[0][name] == pytest.approx(local[name], rel=1e-12)


@pytest.mark.parametrize("options", [
    {"convention": "sklearn"},
    {"convention": "torchmetrics"},
    {"convention": "kaggle"},
    {"convention": "ranx", "missing": "zero"},
    {"empty": "skip", "missing": "skip", "rel": 2},
    {"empty": "nan", "judged_only": True, "depth": 5},
    {"empty": "one", "ties": "average", "collection_size": 40},
    {"ties": "input"},
])
@pytest.mark.parametrize("method", ["compact", "cogroup", "partition"])
def test_conventions_and_options_equal_local(spark: Any, options: dict, method: str) -> None:
    import ranklens.spark

    qrels, run = _random_data(11)
    q, r = _frames(spark, qrels, run)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        remote = ranklens.spark.evaluate(q, r, MEASURES, buckets=3, method=method,
                                         rank="rank", **options)
    _same(_local(qrels, run, MEASURES, **options), remote)
    assert remote.conventions == _local(qrels, run, ["P@1"], **options).conventions
    remote.unpersist()


@pytest.mark.parametrize("files", [("qrels.test", "results.test"),
                                   ("qrels.rel_level", "results.test"),
                                   ("qrels.test", "results.trunc")])
def test_conformance_files_equal_local(spark: Any, trec_dir: Path, files: tuple) -> None:
    import ranklens.spark

    qrels = ranklens.load_qrels(trec_dir / files[0]).frame
    run = ranklens.load_run(trec_dir / files[1]).frame
    names = [m for m in MEASURES if not m.startswith("relstring")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        local = ranklens.evaluate(qrels, run.drop("order"), names)
        remote = ranklens.spark.evaluate(
            spark.createDataFrame(qrels.to_pandas()),
            spark.createDataFrame(run.to_pandas()), names, buckets=3)
    _same(local, remote)
    remote.unpersist()


@pytest.mark.parametrize("types", [("long", "long"), ("int", "long"), ("long", "string")])
def test_integer_ids_give_the_values_of_their_strings(spark: Any, types: tuple[str, str]
                                                      ) -> None:
    """Integer ids travel through Spark as longs and become their decimal strings in the
    workers: the values are those of the same ids given as text, score ties broken by the
    doc ids' text order (10 before 9 descending, as trec_eval), negative ids included;
    a frame with integer ids beside one with text ids compares them as text."""
    import ranklens.spark

    rng = random.Random(7)
    qrels, run = [], []
    for q in [-3, 0, 7, 10, 2147483647]:
        for d in rng.sample(range(-5, 40), 12):
            qrels.append((q, d, rng.randint(-1, 3)))
        for pos, d in enumerate(rng.sample(range(-5, 40), 20)):
            run.append((q, d, rng.randint(0, 3) / 2, pos))  # many tied scores
    qrels.append((55, 1, 1))  # judged, not retrieved
    run.append((66, 1, 1.0, 0))  # retrieved, not judged
    qtype, rtype = types
    q = spark.createDataFrame(qrels, f"query_id {qtype}, doc_id {qtype}, relevance int")
    as_text = [(str(a), str(b), *rest) for a, b, *rest in run]
    r = (spark.createDataFrame(run, f"query_id {rtype}, doc_id {rtype}, score double, rank int")
         if rtype != "string" else spark.createDataFrame(
             as_text, "query_id string, doc_id string, score double, rank int"))
    names = ["AP", "nDCG@5", "P@5", "RR", "R@10", "num_ret"]
    local = _local([(str(a), str(b), g) for a, b, g in qrels], as_text, names, missing="zero")
    for method in ("partition", "cogroup", "compact"):  # compact's result is checked below
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RanklensWarning)
            remote = ranklens.spark.evaluate(q, r, names, buckets=3, missing="zero",
                                             method=method)
        _same(local, remote)
        if method != "compact":
            remote.unpersist()
    from ranklens.spark._driver import _id_type

    assert _id_type(q, r, "doc_id") == ("string" if "string" in types else "long")
    assert remote.diagnostics["missing_queries"] == ["55"]
    assert remote.diagnostics["ignored_queries"] == ["66"]
    assert sorted({row.query_id for row in remote.per_query.collect()}) == sorted(
        ["-3", "0", "7", "10", "2147483647", "55"])
    remote.unpersist()


def test_per_query_frame(spark: Any) -> None:
    import ranklens.spark

    q = spark.createDataFrame([(1, "d1", 2), (1, "d2", 0), (2, "d1", 0)],
                              "qid long, doc string, grade int")
    r = spark.createDataFrame([(1, "d2", 0.9), (1, "d1", 0.5), (2, "d1", 0.1)],
                              "qid long, doc string, s float")
    result = ranklens.spark.evaluate(q, r, ["P@1", "nDCG@2"], query_id="qid", doc_id="doc",
                                     relevance="grade", score="s", empty="skip",
                                     missing="zero")
    rows = sorted(tuple(x) for x in result.per_query.collect())
    ndcg = (2 / math.log2(3)) / 2  # graded: d1 (grade 2) at rank 2, ideal at rank 1
    assert rows[:2] == [("1", "P@1", 0.0, True), ("1", "nDCG@2", pytest.approx(ndcg), True)]
    # query 2 has no relevant judgment: left out of the aggregates (empty="skip")
    assert [(q, m, c) for q, m, _, c in rows[2:]] == [("2", "P@1", False), ("2", "nDCG@2", False)]
    assert all(math.isnan(v) for _, _, v, _ in rows[2:])
    assert result["nDCG@2"] == pytest.approx(ndcg)
    assert result["P@1"] == 0.0
    assert result.diagnostics["empty_queries"] == {"P@1": 1, "nDCG@2": 1}
    # no buckets given: 4 per core of the session, at least 8 (local[2]: 8)
    cores = spark.sparkContext.defaultParallelism
    assert result.buckets == max(8, 4 * cores) == ranklens.spark.evaluate(
        q, r, ["P@1"], query_id="qid", doc_id="doc", relevance="grade", score="s",
        missing="zero", buckets=None).buckets
    result.unpersist()


def test_default_buckets_grow_with_the_estimated_size(spark: Any, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Beyond 4 per core, one bucket per BYTES_PER_BUCKET of the run as Spark's plan
    statistics estimate it (files: their sizes); frames without statistics (from local
    data) get the per-core count; the values do not change."""
    import ranklens.spark
    from ranklens.spark import _driver

    qrels, run = _random_data(11, queries=60)
    q, r = _frames(spark, qrels, run)
    r.write.parquet(str(tmp_path / "run"))
    from_file = spark.read.parquet(str(tmp_path / "run"))
    size = _driver._estimated_bytes(from_file.select("query_id", "doc_id", "score"))
    files = sum(f.stat().st_size for f in (tmp_path / "run").glob("*.parquet"))
    assert size is not None and files // 2 <= size <= files * 4
    assert _driver._estimated_bytes(r) is None  # from local data: no estimate
    cores = max(8, 4 * spark.sparkContext.defaultParallelism)
    monkeypatch.setattr(_driver, "BYTES_PER_BUCKET", 64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        by_size = ranklens.spark.evaluate(q, from_file, ["AP", "P@5"], missing="zero")
        by_cores = ranklens.spark.evaluate(q, r, ["AP", "P@5"], missing="zero")
    assert by_cores.buckets == cores
    # the estimate of the four columns read, ~the files' size: a bucket per 64 bytes
    assert cores < files // 4 // 64 <= by_size.buckets <= files * 8 // 64
    assert dict(by_size) == dict(by_cores)
    _same(_local(qrels, run, ["AP", "P@5"], missing="zero"), by_size)
    by_size.unpersist()
    by_cores.unpersist()


def _raised(call: Any) -> BaseException:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        with pytest.raises(ranklens.RanklensError) as info:
            call()
    return info.value


@pytest.mark.parametrize("options", [
    {"missing": "error"},
    {"empty": "error"},
    {"duplicates": "error"},
])
def test_errors_are_those_of_the_local_engine(spark: Any, options: dict) -> None:
    import ranklens.spark

    qrels, run = _random_data(5)
    run.append((*run[0][:3], 99))  # a document twice in one ranking
    q, r = _frames(spark, qrels, run)
    local = _raised(lambda: _local(qrels, run, ["AP"], **options))
    remote = _raised(lambda: ranklens.spark.evaluate(q, r, ["AP"], buckets=3, **options))
    assert type(remote) is type(local)
    assert str(remote).replace("<run DataFrame>", "<run frame>").replace(
        "<qrels DataFrame>", "<qrels frame>") == str(local)


def test_no_common_query_and_no_judgments(spark: Any) -> None:
    import ranklens.spark

    q, r = _frames(spark, [("q1", "d1", 1)], [("q2", "d1", 1.0, 0)])
    with pytest.raises(InputError, match="share no query"):
        ranklens.spark.evaluate(q, r, ["AP"], buckets=2)
    empty = spark.createDataFrame([], "query_id string, doc_id string, relevance int")
    with pytest.raises(InputError, match="hold no judgments"):
        ranklens.spark.evaluate(empty, r, ["AP"], buckets=2)


def test_warnings_name_missing_and_ignored_queries(spark: Any) -> None:
    import ranklens.spark

    q, r = _frames(spark, [("q1", "d1", 1), ("q2", "d1", 1)],
                   [("q1", "d1", 1.0, 0), ("q3", "d1", 1.0, 0)])
    with pytest.warns(RanklensWarning) as caught:
        result = ranklens.spark.evaluate(q, r, ["AP"], buckets=2)
    messages = sorted(str(w.message) for w in caught if w.category is RanklensWarning)
    assert messages == [
        "1 judged queries are absent from the run (<run DataFrame>) and were scored 0 "
        "(missing='zero'): ['q2']",
        "1 queries of the run (<run DataFrame>) have no judgments and were ignored: ['q3']",
    ]
    assert result["AP"] == 0.5
    assert result.diagnostics["missing_count"] == 1


def test_bad_requests_fail_before_any_job(spark: Any) -> None:
    import ranklens.spark

    q, r = _frames(spark, [("q1", "d1", 1)], [("q1", "d1", 1.0, 0)])
    with pytest.raises(MeasureError):
        ranklens.spark.evaluate(q, r, ["nDGC@10"])
    with pytest.raises(ParameterError,
                       match="'buckets' option must be a positive integer or None; got 0"):
        ranklens.spark.evaluate(q, r, ["AP"], buckets=0)
    with pytest.raises(ParameterError, match="rank='<column>'"):
        ranklens.spark.evaluate(q, r, ["AP"], ties="input")
    with pytest.raises(ParameterError, match="no 'grade' column"):
        ranklens.spark.evaluate(q, r, ["AP"], relevance="grade")
    with pytest.raises(ParameterError, match="must be a Spark DataFrame"):
        ranklens.spark.evaluate({"q1": {"d1": 1}}, r, ["AP"])
    with pytest.raises(ParameterError, match="must hold numbers"):
        ranklens.spark.evaluate(q, r, ["AP"], score="doc_id")


def test_import_ranklens_does_not_import_pyspark() -> None:
    import subprocess

    code = "import sys, ranklens; print('pyspark' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_cli_engine_spark(spark: Any, trec_dir: Path, tmp_path: Path,
                          capsys: pytest.CaptureFixture[str]) -> None:
    """``ranklens evaluate --engine spark``: TREC files read by Spark, aggregates printed as
    the local engine prints them, per-query values in Parquet equal to the local ones."""

    import polars as pl
    from cli_support import run as run_cli

    qrels, results = str(trec_dir / "qrels.test"), str(trec_dir / "results.test")
    args = ["evaluate", qrels, results, "-m", "P@10", "-m", "AP", "-m", "nDCG@10",
            "--missing", "zero", "--format", "jsonl"]
    local = run_cli(args, capsys)
    remote = run_cli([*args, "--engine", "spark", "--master", "local[2]", "-o",
                      str(tmp_path / "pq")], capsys)
    assert (local.code, remote.code) == (0, 0), remote.err

    assert jsonl_means(remote.out) == pytest.approx(jsonl_means(local.out), rel=1e-12)
    written = pl.read_parquet(tmp_path / "pq" / "*.parquet").sort("measure", "query_id")
    expected = ranklens.evaluate(qrels, results, ["P@10", "AP", "nDCG@10"], missing="zero")
    for name in ("P@10", "AP", "nDCG@10"):
        got = written.filter(pl.col("measure") == name)
        assert got["query_id"].to_list() == expected.query_ids.tolist()
        np.testing.assert_array_equal(got["value"].to_numpy(), expected.query_values[name])
        assert set(got["run"].to_list()) == {"results.test"}  # the run's name: its file name
    bad = run_cli([*args, "--engine", "spark", "--master", "nowhere", "-o",
                   str(tmp_path / "x")], capsys)
    assert bad.code != 0 and "'--master' option must be a Spark master" in bad.err
    assert "Traceback" not in bad.err


def test_cli_engine_spark_without_output_prints_the_local_table(
        spark: Any, trec_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Without -o, ``--engine spark`` prints what the local engine prints for the same files,
    measures and format options, and writes no Parquet."""
    from cli_support import run as run_cli

    (tmp_path / "in").mkdir()
    lines = (trec_dir / "results.test").read_text().splitlines(keepends=True)
    (tmp_path / "in" / "half.run").write_text("".join(lines[::2]))  # every other row
    monkeypatch.chdir(tmp_path)
    qrels = str(trec_dir / "qrels.test")
    runs = [str(trec_dir / "results.test"), f"half={tmp_path / 'in' / 'half.run'}"]
    for extra in ([], ["--format", "markdown", "--rel", "2"]):
        args = ["evaluate", qrels, *runs, "-m", "nDCG@10", "-m", "AP", "-m", "P@5",
                "--missing", "skip", *extra]
        local = run_cli(args, capsys)
        remote = run_cli([*args, "--engine", "spark", "--master", "local[2]"], capsys)
        assert (local.code, remote.code) == (0, 0), remote.err
        assert remote.out == local.out and "half" in remote.out
        assert "ranklens:" not in remote.err
    assert [p.name for p in tmp_path.rglob("*")] == ["in", "half.run"]  # no Parquet


def test_cli_engine_spark_output_shows_no_spark_progress_or_dependency_warnings(
        trec_dir: Path, tmp_path: Path) -> None:
    """With -o, a real ``ranklens`` process writes the Parquet folder and its output has
    neither Spark's stage bars nor pyspark's own warnings passed off as ranklens's."""
    import polars as pl
    from cli_support import run_subprocess

    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        _need("no Java runtime for Spark (apt-get install openjdk-17-jre-headless)")
    out = run_subprocess(["evaluate", str(trec_dir / "qrels.test"),
                          str(trec_dir / "results.test"), "-m", "nDCG@10",
                          "--engine", "spark", "--master", "local[2]",
                          "-o", str(tmp_path / "pq")], cwd=tmp_path)
    stdout, stderr = out.stdout.decode(), out.stderr.decode()
    assert out.returncode == 0, stderr
    assert "results.test" in stdout and "nDCG@10" in stdout
    assert pl.read_parquet(tmp_path / "pq" / "*.parquet")["measure"].unique().to_list() == [
        "nDCG@10"]
    assert "[Stage" not in stderr and "[Stage" not in stdout
    assert "ranklens: FutureWarning" not in stderr
    assert "ranklens: " not in stderr  # nothing about the data here to warn of


def test_collect_several_runs_on_one_query_axis(spark: Any) -> None:
    import polars as pl

    import ranklens.spark

    qrels, run = _random_data(21)
    other = [(q, d, -s, p) for q, d, s, p in run if q != "q3"]
    q, r = _frames(spark, qrels, run)
    _, o = _frames(spark, qrels, other)
    names = ["AP", "nDCG@10"]
    both = ranklens.spark.collect({
        "a": ranklens.spark.evaluate(q, r, names, missing="skip", buckets=3),
        "b": ranklens.spark.evaluate(q, o, names, missing="skip", buckets=3)})
    frame_q = pl.DataFrame(qrels, schema=["query_id", "doc_id", "relevance"], orient="row")

    def frame(rows: list[tuple]) -> pl.DataFrame:
        return pl.DataFrame(rows, schema=["query_id", "doc_id", "score", "rank"],
                            orient="row").drop("rank")

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        local = ranklens.evaluate(frame_q, {"a": frame(run), "b": frame(other)}, names,
                                  missing="skip")
    assert both.run_names == ("a", "b")
    assert both.query_ids.tolist() == local.query_ids.tolist()
    np.testing.assert_array_equal(both.present, local.present)
    for name in names:
        np.testing.assert_array_equal(both.values(name), local.values(name))
    with pytest.raises(ParameterError, match="non-empty mapping"):
        ranklens.spark.collect({})
    # the statistics over Spark's per-query values are the local ones, bit for bit; the
    # means (so the difference) are each engine's aggregates, which may differ in the last bit
    spark_cmp = ranklens.spark.compare(
        {"a": ranklens.spark.evaluate(q, r, names, missing="zero", buckets=3),
         "b": ranklens.spark.evaluate(q, o, names, missing="zero", buckets=3)},
        baseline="a", test="randomization", seed=7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        local_cmp = ranklens.compare(frame_q, {"a": frame(run), "b": frame(other)}, names,
                                     missing="zero", baseline="a", test="randomization",
                                     seed=7)
    for name in names:
        got, want = spark_cmp.pair(name, "b", "a"), local_cmp.pair(name, "b", "a")
        assert (got.p_value, got.n) == (want.p_value, want.n)
        assert got.difference == pytest.approx(want.difference, rel=1e-12, abs=1e-15)
        assert got.difference == got.mean_system - got.mean_baseline


def test_diversity_measures_are_refused_before_any_job(spark: Any) -> None:
    qrels = spark.createDataFrame([("q1", "d1", 1)], "query_id string, doc_id string, "
                                  "relevance int")
    run = spark.createDataFrame([("q1", "d1", 1.0)], "query_id string, doc_id string, "
                                "score double")
    import ranklens.spark

    with pytest.raises(MeasureError, match="alpha-nDCG@10 need subtopic judgments"):
        ranklens.spark.evaluate(qrels, run, ["alpha-nDCG@10", "AP"])
