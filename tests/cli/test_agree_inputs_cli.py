"""Issue 39's catalogue on ``ranklens agree`` and ``ranklens pool``: huge cutoffs and depths
refused with their bound, duplicates named with their query, the pool's size said."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import one_error, run, write

HUGE = "99999999999999999999"


@pytest.fixture
def runs(tmp_path: Path) -> list[str]:
    return [str(write(tmp_path / f"{n}.run", f"q1 Q0 d1 1 3.0 {n}\nq1 Q0 d2 2 2.0 {n}\n"
                                             f"q2 Q0 d9 1 1.0 {n}\n")) for n in ("a", "b")]


def test_agree_refuses_a_huge_cutoff_naming_the_bound(runs: list[str],
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["agree", *runs, "-m", f"Overlap@{HUGE}"], capsys)
    assert out.code == 2, out.err
    assert one_error(out.err) == (f"the cutoff of Overlap must be at most 2147483647 "
                                  f"(2**31 - 1), got {HUGE}")


def test_pool_refuses_a_huge_depth_naming_the_bound(runs: list[str],
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["pool", *runs, "--depth", HUGE], capsys)
    assert out.code == 2, out.err
    assert "is not in the range 1<=x<=2147483647" in one_error(out.err)


@pytest.mark.parametrize("command", ["agree", "pool"])
def test_a_duplicate_document_is_named_with_its_query(
        command: str, runs: list[str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    dup = str(write(tmp_path / "dup.run", "q1 Q0 d1 1 3.0 a\nq2 Q0 d9 1 2.0 a\n"
                                          "q2 Q0 d9 2 1.0 a\n"))
    out = run([command, runs[0], dup], capsys)
    assert out.code != 0
    assert "ranks doc 'd9' twice for query 'q2'" in one_error(out.err)


def test_pool_says_how_many_pairs_documents_and_queries(
        runs: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "pool.txt"
    out = run(["pool", *runs, "--depth", "1", "-o", str(target)], capsys)
    assert out.code == 0, out.err
    assert target.read_text().splitlines() == ["q1 0 d1 ?", "q2 0 d9 ?"]
    assert out.err.strip() == ("2 pairs to judge (2 documents) over 2 queries, depth 1, "
                               "0 already judged")


def test_agree_names_runs_by_their_files(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    same_tag = [str(write(tmp_path / f"{n}.run", "q1 Q0 d1 1 3.0 rank\n")) for n in ("x", "y")]
    out = run(["agree", *same_tag, "-m", "Overlap@1", "-f", "csv"], capsys)
    assert out.code == 0, out.err
    assert out.out.splitlines()[1] == "x,y,all,1.0"
