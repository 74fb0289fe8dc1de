"""Run names on the command line: ``NAME=PATH``, ``--name``, the default names (file names
without directory and suffixes), ``--baseline`` by name; the same for evaluate, compare and
report (one parser, :func:`ranklens.cli._options.name_systems`)."""

from __future__ import annotations

import csv
import gzip
import io
import json
import re
from pathlib import Path

import pytest
from cli_support import run, write

QRELS = "q1 0 a 2\nq1 0 b 0\nq1 0 c 1\nq2 0 x 1\nq2 0 y 0\n"
RUN_A = "q1 Q0 a 1 3.0 rank\nq1 Q0 b 2 2.0 rank\nq2 Q0 y 1 2.0 rank\nq2 Q0 x 2 1.0 rank\n"
RUN_B = "q1 Q0 c 1 3.0 rank\nq1 Q0 a 2 2.0 rank\nq2 Q0 x 1 2.0 rank\nq2 Q0 y 2 1.0 rank\n"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    dense = tmp_path / "b" / "dense.run.gz"
    dense.write_bytes(gzip.compress(RUN_B.encode()))
    return {"qrels": str(write(tmp_path / "qrels.txt", QRELS)),
            "bm25": str(write(tmp_path / "a" / "bm25.run", RUN_A)),
            "dense": str(dense),
            "bm25b": str(write(tmp_path / "b" / "bm25.run", RUN_B))}


def _csv_names(out: str) -> list[str]:
    return [row[0] for row in list(csv.reader(io.StringIO(out)))[1:]]


def test_default_names_are_file_names(files: dict[str, str],
                                      capsys: pytest.CaptureFixture[str]) -> None:
    r = run(["evaluate", files["qrels"], files["bm25"], files["dense"], "-m", "P@1", "-f",
             "csv"], capsys)
    assert r.code == 0, r.err
    assert _csv_names(r.out) == ["bm25", "dense"]


def test_alike_file_names_keep_their_directory(files: dict[str, str],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    r = run(["evaluate", files["qrels"], files["bm25"], files["bm25b"], "-m", "P@1", "-f",
             "csv"], capsys)
    assert r.code == 0, r.err
    assert _csv_names(r.out) == ["a/bm25", "b/bm25"]


def test_name_equals_path(files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    r = run(["evaluate", files["qrels"], f"BM25={files['bm25']}", files["dense"], "-m", "P@1",
             "-f", "csv"], capsys)
    assert r.code == 0, r.err
    assert _csv_names(r.out) == ["BM25", "dense"]


def test_name_option(files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    r = run(["evaluate", files["qrels"], files["bm25"], files["dense"], "--name", "Lexical",
             "--name", "Neural", "-m", "P@1", "-f", "latex"], capsys)
    assert r.code == 0, r.err
    assert "Lexical" in r.out and "Neural" in r.out and "bm25" not in r.out


def test_an_existing_file_with_an_equals_sign_stays_a_path(
        tmp_path: Path, files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    odd = write(tmp_path / "k=10.run", RUN_A)
    r = run(["evaluate", files["qrels"], str(odd), "-m", "P@1", "-f", "csv"], capsys)
    assert r.code == 0, r.err
    assert _csv_names(r.out) == ["k=10"]
    # a directory before '=' is no name: the whole argument is a path (missing here)
    r = run(["evaluate", files["qrels"], str(tmp_path / "x=y.run"), "-m", "P@1"], capsys)
    assert r.code != 0 and "x=y.run" in r.err


@pytest.mark.parametrize(("extra", "message"), [
    (["--name", "one"], "--name is given 1 time for 2 RUNs"),
    (["--name", "one", "--name", "two", "--name", "three"], "--name is given 3 times"),
    (["--name", "same", "--name", "same"], "two RUNs are named 'same'"),
    (["--name", "", "--name", "x"], "a run name cannot be empty"),
])
def test_name_errors(files: dict[str, str], extra: list[str], message: str,
                     capsys: pytest.CaptureFixture[str]) -> None:
    r = run(["evaluate", files["qrels"], files["bm25"], files["dense"], *extra], capsys)
    assert r.code == 2, r.err
    lines = r.err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], r.err


def test_both_forms_for_one_run_is_an_error(files: dict[str, str],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    r = run(["evaluate", files["qrels"], f"x={files['bm25']}", files["dense"], "--name", "a",
             "--name", "b"], capsys)
    assert r.code == 2 and "named twice, by NAME=PATH and by --name" in r.err
    r = run(["evaluate", files["qrels"], f"dense={files['bm25']}", files["dense"]], capsys)
    assert r.code == 2 and "two RUNs are named 'dense'" in r.err


def test_compare_baseline_by_name_or_path(files: dict[str, str],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    base = ["compare", files["qrels"], f"BM25={files['bm25']}", files["dense"], "-m", "P@1",
            "-f", "jsonl"]
    by_name = run([*base, "--baseline", "BM25"], capsys)
    assert by_name.code == 0, by_name.err
    row = json.loads(by_name.out.splitlines()[0])
    assert (row["system"], row["baseline"]) == ("dense", "BM25")
    for given in (f"BM25={files['bm25']}", files["bm25"]):  # as given, for compatibility
        again = run([*base, "--baseline", given], capsys)
        assert again.code == 0 and again.out == by_name.out
    bad = run([*base, "--baseline", "nope"], capsys)
    assert bad.code == 2 and "--baseline must name one of the runs (BM25, dense)" in bad.err


def test_report_names_runs_and_takes_the_baseline_by_name(
        tmp_path: Path, files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.html"
    r = run(["report", files["qrels"], files["bm25"], f"Neural={files['dense']}", "-m", "AP",
             "--baseline", "Neural", "--max-k", "3", "-o", str(out)], capsys)
    assert r.code == 0, r.err
    html = out.read_text("utf-8")
    blocks = dict(re.findall(r'<script type="application/json" id="([\w-]+)">(.*?)</script>',
                             html, flags=re.S))
    queries = json.loads(blocks["ranklens-queries"])
    assert queries["runs"] == ["bm25", "Neural"] and queries["baseline"] == 1
    assert "Neural (baseline)" in html and files["bm25"] not in html


def test_pairs_files_are_named_the_same_way(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    rows = [{"query_id": "q1", "retrieved": ["a", "b"], "relevant": ["a"]},
            {"query_id": "q2", "retrieved": ["c", "d"], "relevant": ["d"]}]
    (tmp_path / "x").mkdir()
    first = write(tmp_path / "x" / "hybrid.jsonl", "\n".join(json.dumps(r) for r in rows))
    second = write(tmp_path / "bm25.jsonl", "\n".join(json.dumps(r) for r in rows[::-1]))
    r = run(["evaluate", "--pairs", str(first), "--pairs", f"lexical={second}", "-m", "RR",
             "-f", "csv"], capsys)
    assert r.code == 0, r.err
    assert _csv_names(r.out) == ["hybrid", "lexical"]
    r = run(["evaluate", "--pairs", str(first), "--pairs", str(second), "--name", "h",
             "--name", "b", "-m", "RR", "-f", "csv"], capsys)
    assert r.code == 0, r.err
    assert _csv_names(r.out) == ["h", "b"]
