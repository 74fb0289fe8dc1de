"""``ranklens agree`` and ``ranklens pool``: outputs, and one error line for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import one_error, run, write

A = "q1 Q0 d1 1 3.0 a\nq1 Q0 d2 2 2.0 a\nq1 Q0 d3 3 1.0 a\nq2 Q0 d9 1 1.0 a\n"
B = "q1 Q0 d2 1 3.0 b\nq1 Q0 d1 2 2.0 b\nq1 Q0 d4 3 1.0 b\nq2 Q0 d9 1 1.0 b\n"
C = "q1 Q0 d7 1 3.0 c\nq2 Q0 d9 1 1.0 c\n"


@pytest.fixture
def runs(tmp_path: Path) -> list[str]:
    return [str(write(tmp_path / f"{n}.run", t)) for n, t in (("a", A), ("b", B), ("c", C))]


def test_agree_writes_the_means_and_each_query(runs: list[str],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["agree", runs[0], runs[1], "-m", "Overlap@2", "-m", "Jaccard@3", "-q",
               "-f", "jsonl"], capsys)
    assert out.code == 0, out.err
    rows = [json.loads(line) for line in out.out.splitlines()]
    assert [(r["run_a"], r["run_b"], r["query"]) for r in rows] == [
        ("a", "b", "q1"), ("a", "b", "q2"), ("a", "b", "all")]
    assert [r["Overlap@2"] for r in rows] == [1.0, 0.5, 0.75]
    assert [r["Jaccard@3"] for r in rows] == [0.5, 1.0, 0.75]


def test_agree_on_three_runs_writes_a_matrix(runs: list[str],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["agree", *runs, "-m", "Jaccard@1", "-f", "csv"], capsys)
    assert out.code == 0, out.err
    assert out.out.splitlines() == [
        "measure,run,a,b,c",
        "Jaccard@1,a,1.0,0.5,0.5",
        "Jaccard@1,b,0.5,1.0,0.5",
        "Jaccard@1,c,0.5,0.5,1.0",
    ]


@pytest.mark.parametrize(("args", "expected"), [
    (["{a}"], "give at least two RUNS to compare; got 1"),
    (["{a}", "{b}", "-m", "RBO(p=1)"],
     "parameter 'p' of RBO must be a number strictly between 0 and 1, got 1.0"),
    (["{a}", "{b}", "-m", "RBO(p=0)"],
     "parameter 'p' of RBO must be a number strictly between 0 and 1, got 0.0"),
    (["{a}", "{b}", "-m", "Overlap"], "Overlap needs a cutoff, e.g. Overlap@10"),
    (["{a}", "{b}", "-m", "nDCG@10"], "unknown agreement measure 'nDCG@10'"),
    (["{a}", "{short}"], "run 'a' holds 1 queries that run 'short' lacks (e.g. 'q2'); pass "
                         "--missing skip to compare the 1 queries both hold"),
    (["{a}", "{b}", "{c}", "-f", "trec"], "--format trec writes two runs' values"),
])
def test_agree_errors_are_one_line(args: list[str], expected: str, runs: list[str],
                                   tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    short = str(write(tmp_path / "short.run", "q1 Q0 d1 1 3.0 s\n"))
    paths = {"a": runs[0], "b": runs[1], "c": runs[2], "short": short}
    out = run(["agree", *(a.format(**paths) for a in args)], capsys)
    assert out.code != 0
    assert expected in one_error(out.err)


def test_agree_missing_skip_compares_the_common_queries(
        runs: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    short = str(write(tmp_path / "short.run", "q1 Q0 d1 1 3.0 s\n"))
    out = run(["agree", runs[0], short, "-m", "Overlap@1", "--missing", "skip", "-f", "csv"],
              capsys)
    assert out.code == 0
    assert out.out.splitlines()[1:] == ["a,short,all,1.0"]
    assert "ranklens: warning: comparing the 1 queries both runs hold" in out.err


def test_pool_writes_the_pairs_to_judge(runs: list[str], tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    qrels = str(write(tmp_path / "qrels.txt", "q1 0 d2 1\n"))
    out = run(["pool", runs[0], runs[1], "--depth", "2", "--qrels", qrels], capsys)
    assert out.code == 0, out.err
    assert out.out.splitlines() == ["q1 0 d1 ?", "q2 0 d9 ?"]
    out = run(["pool", runs[0], "--depth", "1", "-f", "csv"], capsys)
    assert out.out.splitlines() == ["query_id,doc_id,relevance", "q1,d1,", "q2,d9,"]


@pytest.mark.parametrize(("args", "expected"), [
    ([], "give at least one RUN to pool"),
    (["{a}", "--depth", "0"], "Invalid value for '--depth'"),
    (["{a}", "-o", "{a}"], "a.run"),
])
def test_pool_errors_are_one_line(args: list[str], expected: str, runs: list[str],
                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["pool", *(a.format(a=runs[0]) for a in args)], capsys)
    assert out.code != 0
    assert expected in one_error(out.err)


def test_agree_refuses_per_query_for_three_runs(runs: list[str],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """A matrix has no per-query rows: -q is refused, not silently dropped."""
    out = run(["agree", *runs, "-q"], capsys)
    assert out.code == 2
    assert one_error(out.err).startswith("--per-query is for two runs"), out.err


def test_agree_names_a_bad_measure_before_reading_the_runs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The measure is the error, not the absent file read first."""
    out = run(["agree", str(tmp_path / "absent.run"), str(tmp_path / "other.run"), "-m",
               "Nope"], capsys)
    assert out.code == 2
    assert one_error(out.err).startswith("unknown agreement measure 'Nope'"), out.err
