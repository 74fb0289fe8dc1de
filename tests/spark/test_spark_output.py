"""The Parquet folder of ``ranklens evaluate --engine spark -o``: replaced whole on this
machine's filesystem, left as it was when the job fails (a real local[2] Spark; skipped or
failed as tests/test_spark.py). The refusals of an output over an input are in
tests/test_cli_outputs.py: they come before Spark starts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cli_support import run as run_cli
from cli_support import write
from test_spark import spark  # noqa: F401  (the module's SparkSession fixture)

from ranklens._base.outputs import TEMP_PREFIX

QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 1\n"
RUN = "q1 Q0 d1 1 2.0 a\nq1 Q0 d2 2 1.0 a\nq2 Q0 d3 1 5.0 a\n"


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(TEMP_PREFIX))


def test_the_folder_is_replaced_whole(spark: Any, tmp_path: Path,  # noqa: F811
                                      capsys: pytest.CaptureFixture[str]) -> None:
    import polars as pl

    q, r = write(tmp_path / "qrels.txt", QRELS), write(tmp_path / "a.run", RUN)
    out = tmp_path / "pq"
    args = ["evaluate", str(q), str(r), "-m", "P@1", "--engine", "spark", "--master",
            "local[2]", "-f", "jsonl", "-o", str(out)]
    assert run_cli(args, capsys).code == 0
    (out / "stale.parquet").write_text("from an older run")
    got = run_cli(args, capsys)
    assert got.code == 0, got.err
    assert not (out / "stale.parquet").exists()
    written = pl.read_parquet(out / "*.parquet").sort("query_id")
    assert written["value"].to_list() == [1.0, 1.0]
    assert leftovers(tmp_path) == []


def test_a_failed_job_leaves_the_old_folder(spark: Any, tmp_path: Path) -> None:  # noqa: F811
    from ranklens.spark._write import write_parquet

    out = tmp_path / "pq"
    out.mkdir()
    (out / "old.parquet").write_text("old")
    failing = spark.range(3).selectExpr("assert_true(id < 0) AS x")
    with pytest.raises(Exception, match="id < 0"):
        write_parquet(spark, failing, str(out))
    assert sorted(p.name for p in out.iterdir()) == ["old.parquet"]
    assert leftovers(tmp_path) == []


def test_which_paths_are_on_this_machine(spark: Any, tmp_path: Path) -> None:  # noqa: F811
    from ranklens.spark._write import local_folder

    assert local_folder(spark, str(tmp_path / "pq")) == str(tmp_path / "pq")
    assert local_folder(spark, f"file://{tmp_path}/pq") == f"{tmp_path}/pq"
    assert local_folder(spark, "hdfs://namenode/user/pq") is None
    assert local_folder(spark, "s3a://bucket/pq") is None
