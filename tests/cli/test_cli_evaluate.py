"""``ranklens evaluate``: formats, several runs, compressed and standard input, options."""

from __future__ import annotations

import bz2
import csv
import gzip
import io
import json
import lzma
from pathlib import Path

import polars as pl
import pytest
from cli_support import run, run_subprocess, write

QRELS = "q1 0 a 2\nq1 0 b 0\nq1 0 c 1\nq2 0 x 1\nq2 0 y 0\n"
# q1: a(rel 2) at 1, b(0) at 2, c(1) at 3 -> AP = (1/1 + 2/3)/2; q2: x at rank 2 -> AP 1/2
RUN_A = "q1 Q0 a 1 3.0 A\nq1 Q0 b 2 2.0 A\nq1 Q0 c 3 1.0 A\nq2 Q0 y 1 2.0 A\nq2 Q0 x 2 1.0 A\n"
# run B finds everything first
RUN_B = "q1 Q0 a 1 3.0 B\nq1 Q0 c 2 2.0 B\nq1 Q0 b 3 1.0 B\nq2 Q0 x 1 2.0 B\nq2 Q0 y 2 1.0 B\n"
AP_A = ((1 + 2 / 3) / 2 + 0.5) / 2


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    return {
        "qrels": write(tmp_path / "qrels.txt", QRELS),
        "a": write(tmp_path / "a.run", RUN_A),
        "b": write(tmp_path / "b.run", RUN_B),
    }


def test_default_measures_in_header(files: dict[str, Path], capsys: pytest.CaptureFixture[str]):
    r = run(["evaluate", str(files["qrels"]), str(files["a"])], capsys)
    assert r.code == 0, r.err
    header = r.out.splitlines()[0].split()
    assert header == ["run", "nDCG@10", "AP", "RR@10", "P@10", "R@100", "R@1000"]
    row = r.out.splitlines()[2].split()
    assert row[0] == "a"  # the file name without directory and suffix
    assert row[2] == f"{AP_A:.4f}"
    assert row[3] == f"{(1 + 0.5) / 2:.4f}"  # RR@10


def test_jsonl_has_exactly_four_keys(files: dict[str, Path], capsys: pytest.CaptureFixture[str]):
    r = run(["evaluate", str(files["qrels"]), str(files["a"]), "-m", "map", "-m", "P@2",
             "--format", "jsonl"], capsys)
    rows = [json.loads(line) for line in r.out.splitlines()]
    assert all(set(row) == {"run", "query", "measure", "value"} for row in rows)
    assert [(row["query"], row["measure"]) for row in rows] == [("all", "map"), ("all", "P@2")]
    assert rows[0]["run"] == "a"
    assert rows[0]["value"] == pytest.approx(AP_A, abs=1e-15)
    assert rows[1]["value"] == pytest.approx((0.5 + 0.5) / 2)


def test_jsonl_per_query_rows(files: dict[str, Path], capsys: pytest.CaptureFixture[str]):
    r = run(["evaluate", str(files["qrels"]), str(files["a"]), "-m", "AP", "--per-query",
             "--format", "jsonl"], capsys)
    rows = [json.loads(line) for line in r.out.splitlines()]
    assert [(row["query"], row["value"]) for row in rows] == [
        ("q1", pytest.approx((1 + 2 / 3) / 2)), ("q2", 0.5), ("all", pytest.approx(AP_A))]


def test_several_runs_side_by_side(files: dict[str, Path], capsys: pytest.CaptureFixture[str]):
    r = run(["evaluate", str(files["qrels"]), str(files["a"]), str(files["b"]), "-m", "AP",
             "-m", "RR", "--format", "csv"], capsys)
    table = list(csv.reader(io.StringIO(r.out)))
    assert table[0] == ["run", "query", "AP", "RR"]
    assert [row[0] for row in table[1:]] == ["a", "b"]
    assert float(table[2][2]) == 1.0 and float(table[2][3]) == 1.0
    assert float(table[1][2]) == pytest.approx(AP_A, abs=1e-15)


@pytest.mark.parametrize("fmt", ["table", "markdown", "latex", "tsv", "csv", "trec", "jsonl"])
def test_every_format_names_both_runs_and_values(fmt: str, files: dict[str, Path],
                                                 capsys: pytest.CaptureFixture[str]):
    r = run(["evaluate", str(files["qrels"]), f"Lexical={files['a']}", f"Dense={files['b']}",
             "-m", "AP", "--format", fmt], capsys)
    assert r.code == 0, r.err
    assert f"{AP_A:.4f}" in r.out or repr(AP_A) in r.out
    assert "1.0000" in r.out or "1.0" in r.out
    assert r.out.count("Lexical") == 1 and r.out.count("Dense") == 1
    assert "a.run" not in r.out and "b.run" not in r.out


def test_trec_format_rows(files: dict[str, Path], capsys: pytest.CaptureFixture[str]):
    r = run(["evaluate", str(files["qrels"]), str(files["a"]), "-m", "AP", "-m", "NumRet",
             "--per-query", "--format", "trec"], capsys)
    assert r.out.splitlines() == [
        "AP                    \tq1\t0.8333",
        "NumRet                \tq1\t3",
        "AP                    \tq2\t0.5000",
        "NumRet                \tq2\t2",
        "runid                 \tall\ta",
        "AP                    \tall\t0.6667",
        "NumRet                \tall\t5",
    ]


def test_output_file(files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    out = tmp_path / "scores.tsv"
    r = run(["evaluate", str(files["qrels"]), str(files["a"]), "-m", "P@1", "--format", "tsv",
             "-o", str(out)], capsys)
    assert r.code == 0 and r.out == ""
    assert out.read_text().splitlines() == ["run\tquery\tP@1", "a\tall\t0.5"]


@pytest.mark.parametrize("suffix,compress", [(".gz", gzip.compress), (".bz2", bz2.compress),
                                             (".xz", lzma.compress)])
def test_compressed_run(suffix: str, compress, files: dict[str, Path], tmp_path: Path,
                        capsys: pytest.CaptureFixture[str]):
    path = tmp_path / f"a.run{suffix}"
    path.write_bytes(compress(RUN_A.encode()))
    r = run(["evaluate", str(files["qrels"]), str(path), "-m", "AP", "--format", "csv"], capsys)
    assert r.code == 0, r.err
    assert float(r.out.splitlines()[1].split(",")[2]) == pytest.approx(AP_A, abs=1e-15)


def test_run_from_stdin(files: dict[str, Path]):
    proc = run_subprocess(["evaluate", str(files["qrels"]), "-", "-m", "AP", "--format", "csv"],
                          stdin=RUN_A.encode())
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout.decode().splitlines()[1].startswith("-,all,0.666666")


def test_columnar_inputs(tmp_path: Path, files: dict[str, Path],
                         capsys: pytest.CaptureFixture[str]):
    qrels = pl.DataFrame({"query_id": ["q1", "q1", "q1", "q2", "q2"],
                          "doc_id": ["a", "b", "c", "x", "y"], "relevance": [2, 0, 1, 1, 0]})
    runf = pl.DataFrame({"query_id": ["q1", "q1", "q1", "q2", "q2"],
                         "doc_id": ["a", "b", "c", "y", "x"],
                         "score": [3.0, 2.0, 1.0, 2.0, 1.0]})
    qrels.write_parquet(tmp_path / "q.parquet")
    runf.write_csv(tmp_path / "r.csv")
    runf.write_ndjson(tmp_path / "r.jsonl")
    runf.write_csv(tmp_path / "r.tsv", separator="\t")
    for name in ("r.csv", "r.jsonl", "r.tsv"):
        r = run(["evaluate", str(tmp_path / "q.parquet"), str(tmp_path / name), "-m", "AP",
                 "--format", "csv"], capsys)
        assert r.code == 0, r.err
        assert float(r.out.splitlines()[1].split(",")[2]) == pytest.approx(AP_A, abs=1e-15)


def test_comments_and_crlf(tmp_path: Path, files: dict[str, Path],
                           capsys: pytest.CaptureFixture[str]):
    path = tmp_path / "crlf.run"
    path.write_bytes(("# produced by a test\r\n" + RUN_A.replace("\n", "\r\n")).encode())
    r = run(["evaluate", str(files["qrels"]), str(path), "-m", "AP", "--format", "csv"], capsys)
    assert r.code == 0, r.err
    assert float(r.out.splitlines()[1].split(",")[2]) == pytest.approx(AP_A, abs=1e-15)


def test_convention_options(files: dict[str, Path], capsys: pytest.CaptureFixture[str]):
    def value(*extra: str) -> float:
        r = run(["evaluate", str(files["qrels"]), str(files["a"]), "--format", "csv", *extra],
                capsys)
        assert r.code == 0, r.err
        return float(r.out.splitlines()[1].split(",")[2])

    assert value("-m", "AP", "--rel", "2") == pytest.approx((1.0 + 0.0) / 2)  # q2 has no rel 2
    assert value("-m", "AP", "--rel", "2", "--empty", "skip") == 1.0
    assert value("-m", "NumRet", "--depth", "1") == 2
    assert value("-m", "P@3", "--judged-only") == pytest.approx((2 / 3 + 1 / 3) / 2)
    # Utility(d=1): + (N + RR - n - R) per query; q1: 2-1+0+(10+2-3-2), q2: 1-1+0+(10+1-2-1)
    assert value("-m", "Utility(d=1)", "--collection-size", "10") == pytest.approx(
        ((2 - 1 + 7) + (1 - 1 + 8)) / 2)
    assert value("-m", "AP", "--ties", "input") == pytest.approx(AP_A)


def test_missing_query_warns_once_per_run(tmp_path: Path, files: dict[str, Path],
                                          capsys: pytest.CaptureFixture[str]):
    only_q1 = write(tmp_path / "q1.run", "\n".join(RUN_A.splitlines()[:3]) + "\n")
    r = run(["evaluate", str(files["qrels"]), str(only_q1), "-m", "AP", "--format", "csv"],
            capsys)
    assert r.code == 0
    assert r.err.splitlines() == [
        f"ranklens: warning: 1 judged queries are absent from the run ({only_q1}) and were "
        "scored 0 (--missing zero): ['q2']"]
    assert float(r.out.splitlines()[1].split(",")[2]) == pytest.approx((1 + 2 / 3) / 4)
    r = run(["evaluate", str(files["qrels"]), str(only_q1), "-m", "AP", "--missing", "skip",
             "--format", "csv"], capsys)
    assert r.err == ""
    assert float(r.out.splitlines()[1].split(",")[2]) == pytest.approx((1 + 2 / 3) / 2)


def test_duplicates_first(tmp_path: Path, files: dict[str, Path],
                          capsys: pytest.CaptureFixture[str]):
    dup = write(tmp_path / "dup.run", RUN_A + "q1 Q0 a 4 0.5 A\n")
    r = run(["evaluate", str(files["qrels"]), str(dup), "-m", "AP", "--duplicates", "first",
             "--format", "csv"], capsys)
    assert r.code == 0, r.err
    assert float(r.out.splitlines()[1].split(",")[2]) == pytest.approx(AP_A, abs=1e-15)
