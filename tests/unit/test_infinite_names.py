"""The warning of infinite scores names a run as its other warnings do: by the name given
(``pop=...``, ``run_name=``, a mapping's key), else by its file; in memory, with any jobs,
and by chunks alike (issue 39: warnings named the file though the run was given as pop)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from cli_support import run

import ranklens

QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 1\n"
RUN = "q1 Q0 d1 1 inf r\nq1 Q0 d2 2 1 r\nq2 Q0 d1 1 1 r\n"


def _infinite(call: object) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()  # type: ignore[operator]
    return [str(w.message) for w in caught if "infinite" in str(w.message)]


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "inf.run").write_text(RUN)
    return str(tmp_path / "qrels"), str(tmp_path / "inf.run")


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_run_given_a_name_is_named_by_it(files: tuple[str, str], jobs: int) -> None:
    qrels, path = files
    for call in (lambda: ranklens.evaluate(qrels, {"pop": path}, "AP", jobs=jobs),
                 lambda: ranklens.evaluate(qrels, path, "AP", run_name="pop", jobs=jobs)):
        (message,) = _infinite(call)
        assert message.startswith("pop: 1 score is infinite")


def test_a_run_without_a_name_is_named_by_its_file(files: tuple[str, str]) -> None:
    qrels, path = files
    (message,) = _infinite(lambda: ranklens.evaluate(qrels, path, "AP"))
    assert message.startswith(f"{path}: 1 score is infinite")


def test_the_command_line_names_name_equals_path_by_its_name(
        files: tuple[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    qrels, path = files
    out = run(["evaluate", qrels, f"pop={path}", "-m", "AP"], capsys)
    assert out.code == 0
    assert "ranklens: warning: pop: 1 score is infinite" in out.err
    assert path not in out.err


def test_agreement_and_fuse_name_a_mapping_s_run_by_its_key(files: tuple[str, str],
                                                            tmp_path: Path) -> None:
    _, path = files
    other = tmp_path / "b.run"
    other.write_text("q1 Q0 d2 1 2 b\nq1 Q0 d1 2 1 b\nq2 Q0 d1 1 1 b\n")
    runs = {"pop": path, "b": str(other)}
    for call in (lambda: ranklens.agreement(runs, measures="Overlap@2"),
                 lambda: ranklens.fuse(runs, norm="rank")):
        (message,) = _infinite(call)
        assert message.startswith("pop: 1 score is infinite")
    (message,) = _infinite(lambda: ranklens.fuse([path, str(other)], norm="rank"))
    assert message.startswith(f"{path}: 1 score is infinite")
