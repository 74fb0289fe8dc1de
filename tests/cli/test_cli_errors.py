"""Every user error is ONE line on stderr (``ranklens: error: ...``), a non-zero exit, and no
traceback; ``--debug`` shows the traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import one_error, run, run_subprocess, write

QRELS = "q1 0 d1 1\nq1 0 d2 0\n"
OK_RUN = "q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\n"


@pytest.fixture
def qrels(tmp_path: Path) -> Path:
    return write(tmp_path / "qrels.txt", QRELS)


@pytest.mark.parametrize(("content", "expected"), [
    ("q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0\n",
     "run.txt:2: expected at least 6 fields (query iter doc rank score tag), got 5"),
    ("q1 Q0 d1 1 abc r\n", "run.txt:1: expected a numeric score, got 'abc'"),
    ("q1 Q0 d1 1 nan r\n", "run.txt:1: expected a numeric score, got NaN"),
    ("", "run.txt: file is empty, expected at least one line"),
    ("q9 Q0 d1 1 2.0 r\n", "the run (run.txt) and the qrels (qrels.txt) share no query"),
    ("q1 Q0 d1 1 2.0 r\nq1 Q0 d1 2 1.0 r\n",
     "run.txt: document 'd1' appears more than once for query 'q1' in the run"),
])
def test_bad_run_files(content: str, expected: str, qrels: Path, tmp_path: Path,
                       capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "run.txt", content)
    r = run(["evaluate", "qrels.txt", "run.txt"], capsys)
    assert r.code == 2
    assert r.out == ""
    assert one_error(r.err).startswith(expected)


def test_duplicate_hint_names_the_cli_option(qrels: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]):
    dup = write(tmp_path / "dup.run", "q1 Q0 d1 1 2.0 r\nq1 Q0 d1 2 1.0 r\n")
    r = run(["evaluate", str(qrels), str(dup)], capsys)
    assert "pass --duplicates first" in one_error(r.err)


def test_missing_file(qrels: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    r = run(["evaluate", str(qrels), str(tmp_path / "nope.run")], capsys)
    assert r.code == 2
    assert one_error(r.err) == f"{tmp_path / 'nope.run'}: no such file"


def test_binary_garbage(qrels: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    path = tmp_path / "garbage.run"
    path.write_bytes(bytes(range(256)) * 4)
    r = run(["evaluate", str(qrels), str(path)], capsys)
    assert r.code == 2
    assert one_error(r.err) == f"{path}: binary data (NUL bytes), expected a text file"


def test_unknown_measures_all_reported_with_suggestions(qrels: Path, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]):
    runf = write(tmp_path / "run.txt", OK_RUN)
    r = run(["evaluate", str(qrels), str(runf), "-m", "ndcgg@10", "-m", "AP", "-m", "mapp"],
            capsys)
    assert r.code == 2
    msg = one_error(r.err)
    assert "unknown measure 'ndcgg@10'; did you mean 'nDCG@10'" in msg
    assert "unknown measure 'mapp'; did you mean 'map'" in msg


def test_bad_measure_is_reported_before_reading_files(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]):
    r = run(["evaluate", str(tmp_path / "absent.qrels"), str(tmp_path / "absent.run"),
             "-m", "nDCG@zz"], capsys)
    assert r.code == 2
    assert "cutoff of nDCG must be a number" in one_error(r.err)


def test_usage_errors_are_one_line(capsys: pytest.CaptureFixture[str]):
    r = run(["evaluate", "qrels.txt"], capsys)
    assert r.code == 2
    assert one_error(r.err) == ("Missing argument 'RUNS...'. "
                                "(see 'ranklens evaluate --help')")
    r = run(["evaluate", "q", "r", "--format", "xml"], capsys)
    assert r.code == 2
    assert "'xml' is not one of" in one_error(r.err)


def test_trec_eval_errors(tmp_path: Path, qrels: Path, capsys: pytest.CaptureFixture[str]):
    runf = write(tmp_path / "run.txt", OK_RUN)
    r = run(["trec_eval", "-m", "mapp", str(qrels), str(runf)], capsys)
    assert r.code == 1
    assert one_error(r.err).startswith("illegal measure 'mapp'; did you mean 'map'")
    r = run(["trec_eval", "-m", "P.0", str(qrels), str(runf)], capsys)
    assert r.code == 2
    assert one_error(r.err).startswith("negative cutoff detected in 'P.0'")
    r = run(["trec_eval", str(qrels)], capsys)
    assert r.code == 1
    assert one_error(r.err).startswith("expected two files (qrels and run), got 1")
    r = run(["trec_eval", "-R", "bogus", str(qrels), str(runf)], capsys)
    assert r.code == 2
    r = run(["trec_eval", str(qrels), str(tmp_path / "none.run")], capsys)
    assert r.code == 2
    assert one_error(r.err) == f"{tmp_path / 'none.run'}: no such file"


def test_debug_shows_traceback(qrels: Path, tmp_path: Path):
    bad = write(tmp_path / "bad.run", "q1 Q0 d1 1 2.0\n")
    proc = run_subprocess(["--debug", "evaluate", str(qrels), str(bad)])
    assert proc.returncode != 0
    err = proc.stderr.decode()
    assert "Traceback (most recent call last)" in err
    assert "expected at least 6 fields" in err
    proc = run_subprocess(["evaluate", str(qrels), str(bad)])
    assert proc.returncode == 2
    assert proc.stderr.decode().count("\n") == 1
    assert "Traceback" not in proc.stderr.decode()


@pytest.mark.parametrize("flag", [["--memory-limit", "1KB"], ["--jobs", "2"]])
def test_memory_limit_and_jobs_are_refused_for_pairs(flag: list[str], tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """--pairs files are evaluated in memory: the options are refused, not ignored."""
    pairs = write(tmp_path / "rag.jsonl", '{"query_id": "u1", "retrieved": ["a"], '
                                          '"relevant": ["a"]}\n')
    r = run(["evaluate", "--pairs", str(pairs), "-m", "RR", *flag], capsys)
    assert r.code == 2
    assert one_error(r.err).startswith("--memory-limit and --jobs are for QRELS and RUNS"), r.err


def test_master_is_refused_for_pairs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--pairs files are evaluated locally: --master is refused, not ignored."""
    pairs = write(tmp_path / "rag.jsonl", '{"query_id": "u1", "retrieved": ["a"], '
                                          '"relevant": ["a"]}\n')
    r = run(["evaluate", "--pairs", str(pairs), "-m", "RR", "--master", "local[1]"], capsys)
    assert r.code == 2
    assert one_error(r.err).startswith("--master is for --engine spark"), r.err
