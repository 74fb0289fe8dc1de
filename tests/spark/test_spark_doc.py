"""docs/spark.md's examples run, in page order, on a real local Spark (skipped as test_spark.py).

Its Python blocks run in one namespace that holds what the page takes as given: ``spark`` (the
session), the recommender frames and ``ratings``. Its ``ranklens`` lines run in process; the
install and cluster lines (pip, venv-pack, spark-submit) are listed with the reason.
"""

from __future__ import annotations

import random
import shlex
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from cli.test_doc_examples import DATA, NOT_RUN, blocks, shell_commands  # tests/cli
from cli_support import run
from test_spark import spark  # noqa: F401  (the module's SparkSession fixture)

PAGE = "docs/spark.md"

#: The page's shell lines that are no ranklens command, and why they do not run here.
SPARK_NOT_RUN = {
    "pip install 'ranklens[spark]'": "installs the package and pyspark (pip, network)",
    "python -m venv env": "packs an environment for a cluster (venv-pack, network)",
    "env/bin/pip install 'ranklens[spark]' venv-pack": "installs into that environment",
    "env/bin/venv-pack -o env.tar.gz": "packs that environment",
    "spark-submit --master yarn --archives env.tar.gz#env --conf "
    "spark.pyspark.python=./env/bin/python evaluate.py": "needs a YARN cluster",
}


def trec_frame(name: str, columns: list[str]) -> pl.DataFrame:
    """A bundled TREC file's id, id and number columns."""
    rows = [line.split() for line in (DATA / name).read_text("utf-8").splitlines()]
    pick = (0, 2, 3) if name.endswith(".qrels") else (0, 2, 4)
    return pl.DataFrame([[r[i] for r in rows] for i in pick], schema=columns,
                        orient="col").with_columns(pl.col(columns[2]).cast(pl.Float64))


def given(session: Any, cwd: Path) -> dict[str, Any]:
    """Write the files the page reads and make the frames it names."""
    trec_frame("demo.qrels", ["query_id", "doc_id", "relevance"]).write_parquet(
        cwd / "qrels.parquet")
    trec_frame("demo-bm25.run", ["query_id", "doc_id", "score"]).write_parquet(
        cwd / "run.parquet")
    test = trec_frame("demo-recs.qrels", ["query_id", "doc_id", "relevance"])
    recs = trec_frame("demo-recs-personal.run", ["query_id", "doc_id", "score"])
    test.write_parquet(cwd / "test.parquet")
    recs.write_parquet(cwd / "recs.parquet")
    train = pl.read_csv(DATA / "demo-recs-train.txt", separator=" ", has_header=False,
                        new_columns=["user_id", "item_id"])
    train.write_parquet(cwd / "train.parquet")
    train.write_csv(cwd / "train.tsv", separator="\t")
    (cwd / "items.txt").write_bytes((DATA / "demo-recs-items.tsv").read_bytes())
    rows = [line.split() for line in (DATA / "demo-recs-embeddings.txt").read_text().splitlines()]
    rng = random.Random(7)  # explicit ratings 1-5 of 30 users on 12 items, for ALS
    ratings = [(u, i, float(rng.randint(1, 5))) for u in range(30) for i in range(12)
               if rng.random() < 0.6]
    return {
        "spark": session,
        "test": session.createDataFrame(test.to_pandas()),
        "recommendations": session.createDataFrame(recs.to_pandas()),
        "catalogue_df": session.createDataFrame(
            pl.read_csv(DATA / "demo-recs-items.tsv", separator="\t").to_pandas()),
        "embeddings_df": session.createDataFrame(
            [(r[0], [float(x) for x in r[1:]]) for r in rows], "item_id string, v array<double>"),
        "ratings": session.createDataFrame(ratings, "user int, item int, rating double"),
    }


def test_every_example_runs(spark: Any, tmp_path: Path,  # noqa: F811
                            monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    # the JVM resolves relative paths against its own folder, not Python's: the test's
    context = spark.sparkContext
    jvm = context._jvm
    local = jvm.org.apache.hadoop.fs.FileSystem.getLocal(context._jsc.hadoopConfiguration())
    before = local.getWorkingDirectory()
    local.setWorkingDirectory(jvm.org.apache.hadoop.fs.Path(str(tmp_path)))
    try:
        run_page(given(spark, tmp_path), capsys)
    finally:
        local.setWorkingDirectory(before)


def run_page(scope: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    skipped = {**NOT_RUN, **SPARK_NOT_RUN}
    steps = [(line, "python", text) for line, lang, text in blocks(PAGE) if lang == "python"]
    steps += [(line, "shell", command) for line, command, _ in shell_commands(PAGE)]
    ran = 0
    for line, kind, text in sorted(steps):
        if kind == "python":
            if "rating >= 4" in text:  # the CrossValidator section's test split has ratings
                scope["test"] = scope["ratings"]
            exec(compile(text, f"{PAGE}:{line}", "exec"), scope)
            ran += 1
            continue
        for part in (p.split(" #", 1)[0].strip() for p in text.split("&&")):
            if part in skipped:
                continue
            args = shlex.split(part)[1:]
            if "-o" in args:  # not over the parquet folder a Python block wrote
                args[args.index("-o") + 1] = f"cli-{line}.parquet"
            out = run(args, capsys)
            assert out.code == 0, f"{PAGE}:{line}: {part}\n{out.err}"
            ran += 1
    assert ran == 7  # 4 Python blocks, 3 commands
