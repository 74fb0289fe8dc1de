"""An MS MARCO run (``qid pid rank``, headerless) is read by chunks under ``memory_limit=`` /
``--memory-limit`` as it is in memory: same values, by one job or two (issue 39: the chunked
reader refused it as a TREC run with 3 fields)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from tests.cli_support import run

import ranklens

pytestmark = pytest.mark.usefixtures("no_floor")

MEASURES = ["AP", "nDCG@10", "P@5", "RR"]


@pytest.fixture
def msmarco(tmp_path: Path) -> tuple[str, str]:
    rng = random.Random(7)
    qrels, lines = [], []
    for q in range(120):
        qrels += [f"{q} 0 {q * 7 + d} {rng.randint(0, 2)}\n" for d in range(5)]
        ranked = rng.sample(range(q * 7, q * 7 + 40), 25)
        lines += [f"{q}\t{d}\t{rank}\n" for rank, d in enumerate(ranked, 1)]
    (tmp_path / "qrels.txt").write_text("".join(qrels))
    (tmp_path / "dev.run").write_text("".join(lines))
    return str(tmp_path / "qrels.txt"), str(tmp_path / "dev.run")


@pytest.mark.parametrize("jobs", [1, 2])
def test_msmarco_run_by_chunks_equals_in_memory(msmarco: tuple[str, str], jobs: int) -> None:
    whole = ranklens.evaluate(*msmarco, MEASURES)
    chunked = ranklens.evaluate(*msmarco, MEASURES, memory_limit="16KB", jobs=jobs)
    assert chunked.engine["engine"] == "chunked" and chunked.engine["chunks"] > 1
    assert ranklens.render(chunked, "jsonl", per_query=True) == \
        ranklens.render(whole, "jsonl", per_query=True)


def test_msmarco_run_by_chunks_on_the_command_line(msmarco: tuple[str, str],
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    args = ["evaluate", *msmarco, "-m", "AP", "-m", "nDCG@10", "-f", "jsonl", "--per-query"]
    whole = run(args, capsys)
    chunked = run([*args, "--memory-limit", "16KB", "-v"], capsys)
    assert whole.code == chunked.code == 0, chunked.err
    assert "chunked" in chunked.err and chunked.out == whole.out
