"""Files read by Spark for ``ranklens evaluate --engine spark``: the same ids and the same
refusals as the local readers (a real local[2] Spark; skipped or failed as test_spark.py).

Spark's CSV type inference read the ids "007" and "7" as one number, and its TREC reader
dropped lines with too few fields without a word and read a grade that is no number as null.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
from cli_support import run as run_cli
from test_spark import spark  # noqa: F401  (the module's SparkSession fixture)

import ranklens

MEASURES = ["P@1", "P@3", "num_rel_ret"]


def _spark_cli(paths: tuple[str, str], out: Path,
               capsys: pytest.CaptureFixture[str]) -> Any:
    args = ["evaluate", *paths, *[a for m in MEASURES for a in ("-m", m)], "--missing",
            "zero", "--format", "jsonl", "--engine", "spark", "--master", "local[2]",
            "-o", str(out)]
    return run_cli(args, capsys)


@pytest.mark.parametrize("ext,sep", [("csv", ","), ("tsv", "\t")])
def test_text_ids_stay_apart_as_locally(spark: Any, tmp_path: Path, ext: str, sep: str,  # noqa: F811
                                        capsys: pytest.CaptureFixture[str]) -> None:
    def write(name: str, rows: list[tuple[str, ...]]) -> str:
        path = tmp_path / f"{name}.{ext}"
        path.write_text("\n".join(sep.join(r) for r in rows) + "\n")
        return str(path)

    qrels = write("q", [("query_id", "doc_id", "relevance"), ("00", "007", "1"),
                        ("0", "7", "1"), ("0", "1.50", "1")])
    run = write("r", [("query_id", "doc_id", "score"), ("00", "7", "1.5"),
                      ("0", "007", "2.5"), ("0", "7", "0.5"), ("0", "1.5", "3.5")])
    got = _spark_cli((qrels, run), tmp_path / "out", capsys)
    assert got.code == 0, got.err
    written = pl.read_parquet(tmp_path / "out" / "*.parquet")
    local = ranklens.evaluate(qrels, run, MEASURES, missing="zero")
    assert sorted(local.query_ids.tolist()) == ["0", "00"]
    for name in MEASURES:
        rows = written.filter(pl.col("measure") == name).sort("query_id")
        assert rows["query_id"].to_list() == ["0", "00"]
        want = dict(zip(local.query_ids.tolist(), local.query_values[name], strict=True))
        np.testing.assert_array_equal(rows["value"].to_numpy(), [want["0"], want["00"]])
    # "0" ranks 1.5, 007, 7 and only 7 is relevant; "00" retrieved 7, its relevant doc is 007
    assert want_values(written, "num_rel_ret") == {"0": 1.0, "00": 0.0}


def want_values(frame: pl.DataFrame, measure: str) -> dict[str, float]:
    rows = frame.filter(pl.col("measure") == measure)
    return dict(zip(rows["query_id"].to_list(), rows["value"].to_list(), strict=True))


@pytest.mark.parametrize(("which", "lines", "message"), [
    ("run", ["q1 Q0 d1 1 2.5 tag", "q1 Q0 d2 2 1.5"],
     "expected 6 whitespace-separated fields, got 5: 'q1 Q0 d2 2 1.5'"),
    ("run", ["q1 Q0 d1 1 2.5 tag", "q1 Q0 d2 2 high tag"],
     "expected a numeric score, in the line 'q1 Q0 d2 2 high tag'"),
    ("qrels", ["q1 0 d1 1", "q1 0 d2 1 extra"],
     "expected 4 whitespace-separated fields, got 5: 'q1 0 d2 1 extra'"),
    ("qrels", ["q1 0 d1 1", "q1 0 d2 yes"],
     "expected a numeric relevance, in the line 'q1 0 d2 yes'"),
])
def test_a_bad_trec_line_is_named_not_dropped(spark: Any, tmp_path: Path, which: str,  # noqa: F811
                                              lines: list[str], message: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    files = {"qrels": ["# judgments", "q1 0 d1 1", "", "q1 0 d2 0"],
             "run": ["q1 Q0 d1 1 2.5 tag", "q1 Q0 d2 2 1.5 tag"]}
    files[which] = lines
    for name, text in files.items():
        (tmp_path / name).write_text("\n".join(text) + "\n")
    got = _spark_cli((str(tmp_path / "qrels"), str(tmp_path / "run")), tmp_path / "out",
                     capsys)
    assert got.code == 2
    assert got.err.strip() == f"ranklens: error: {tmp_path / which}: {message}"


def test_a_csv_score_that_is_no_number_is_named(spark: Any, tmp_path: Path,  # noqa: F811
                                                capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "q.csv").write_text("query_id,doc_id,relevance\nq1,d1,1\n")
    (tmp_path / "r.csv").write_text("query_id,doc_id,score\nq1,d1,0.5\nq1,d2,n/a\n")
    got = _spark_cli((str(tmp_path / "q.csv"), str(tmp_path / "r.csv")), tmp_path / "out",
                     capsys)
    assert got.code == 2
    assert got.err.strip() == (f"ranklens: error: {tmp_path / 'r.csv'}: expected a numeric "
                               "score, got 'n/a'")
