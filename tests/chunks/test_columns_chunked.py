"""Headerless runs named by ``columns=`` / ``--columns`` are read by chunks under
``memory_limit=`` / ``--memory-limit`` as they are in memory: the same output, by one job or
two (issue 39: the command line refused ``--columns`` with ``--memory-limit``)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from tests.cli_support import run

import ranklens

pytestmark = pytest.mark.usefixtures("no_floor")

MEASURES = ["AP", "nDCG@10", "P@5", "RR"]
SHAPES = {"qid,docid,score": "{q}\t{d}\t{score}\n", "qid,_,docid,rank": "{q} x {d} {rank}\n"}


def _files(tmp_path: Path, shape: str) -> tuple[str, str]:
    rng = random.Random(11)
    qrels, lines = [], []
    for q in range(120):
        qrels += [f"{q} 0 d{q * 7 + d} {rng.randint(0, 2)}\n" for d in range(5)]
        ranked = rng.sample(range(q * 7, q * 7 + 40), 25)
        lines += [SHAPES[shape].format(q=q, d=f"d{d}", rank=rank, score=round(rng.random(), 3))
                  for rank, d in enumerate(ranked, 1)]
    (tmp_path / "qrels.txt").write_text("".join(qrels))
    (tmp_path / "plain.txt").write_text("".join(lines))
    return str(tmp_path / "qrels.txt"), str(tmp_path / "plain.txt")


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("shape", list(SHAPES))
def test_columns_by_chunks_equal_in_memory(tmp_path: Path, shape: str, jobs: int) -> None:
    qrels, path = _files(tmp_path, shape)
    whole = ranklens.evaluate(qrels, path, MEASURES, columns=shape)
    chunked = ranklens.evaluate(qrels, path, MEASURES, columns=shape, memory_limit="16KB",
                                jobs=jobs)
    assert chunked.engine["engine"] == "chunked" and chunked.engine["chunks"] > 1
    assert ranklens.render(chunked, "jsonl", per_query=True) == \
        ranklens.render(whole, "jsonl", per_query=True)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_columns_with_memory_limit_on_the_command_line(
        tmp_path: Path, jobs: str, capsys: pytest.CaptureFixture[str]) -> None:
    qrels, path = _files(tmp_path, "qid,docid,score")
    args = ["evaluate", qrels, path, "-m", "AP", "-m", "nDCG@10", "-f", "jsonl", "--per-query",
            "--columns", "qid,docid,score"]
    whole = run(args, capsys)
    chunked = run([*args, "--memory-limit", "16KB", "--jobs", jobs, "-v"], capsys)
    assert whole.code == chunked.code == 0, chunked.err
    assert "chunked" in chunked.err and chunked.out == whole.out


def test_file_order_columns_by_chunks_are_refused(tmp_path: Path) -> None:
    qrels, path = _files(tmp_path, "qid,docid,score")
    with pytest.raises(ranklens.ParameterError, match="add a score or rank column"):
        ranklens.evaluate(qrels, path, MEASURES, columns="qid,docid", memory_limit="16KB")
