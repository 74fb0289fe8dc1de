"""``--format-in rag-judgments``: TREC RAG 2025's six-column judgment file as QRELS of
evaluate, compare, power and report gives the values of the same judgments as a TREC qrels
file; the options it cannot go with are refused in one line."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from cli_support import run


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    rng = random.Random(7)
    six, four, runs = [], [], {"a.run": [], "b.run": []}
    for q in range(1, 6):
        for d in range(12):
            grade = rng.randint(0, 4)
            six.append(f"{q} Q0 doc{d}#{d % 3}_x {grade} {rng.random():.2f} my-qrel")
            four.append(f"{q} 0 doc{d}#{d % 3}_x {grade}")
        for name, lines in runs.items():
            docs = rng.sample(range(12), 10)
            lines += [f"{q} Q0 doc{d}#{d % 3}_x {r} {20 - r} {name}" for r, d in
                      enumerate(docs, 1)]
    for name, lines in {"judged.txt": six, "judged.qrels": four, **runs}.items():
        (tmp_path / name).write_text("\n".join(lines) + "\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("command", [["evaluate"], ["evaluate", "--per-query"], ["compare"],
                                     ["power"]])
def test_judgment_file_equals_the_trec_qrels(command: list[str], files: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    args = ["a.run", "b.run", "-m", "nDCG@10", "-m", "AP", "-f", "csv"]
    six = run([*command, "judged.txt", *args, "--format-in", "rag-judgments"], capsys)
    four = run([*command, "judged.qrels", *args], capsys)
    assert six.code == four.code == 0, six.err
    assert six.out == four.out and "AP" in six.out


def test_report_reads_the_judgment_file(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["report", "judged.txt", "a.run", "b.run", "--format-in", "rag-judgments",
               "-o", "r.html"], capsys)
    assert out.code == 0, out.err
    assert (files / "r.html").stat().st_size > 0


def test_without_the_option_the_error_names_it(files: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["evaluate", "judged.txt", "a.run"], capsys)
    assert out.code == 2 and "--format-in rag-judgments" in out.err
    assert len(out.err.strip().splitlines()) == 1


@pytest.mark.parametrize(("extra", "message"), [
    (["--memory-limit", "200MB"], "not with --subtopics or --memory-limit"),
    (["--engine", "spark"], "--subtopics and --format-in are for the local engine")])
def test_refused_with(extra: list[str], message: str, files: Path,
                      capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["evaluate", "judged.txt", "a.run", "--format-in", "rag-judgments", *extra], capsys)
    assert out.code == 2 and message in out.err and "Traceback" not in out.err
    assert len(out.err.strip().splitlines()) == 1
