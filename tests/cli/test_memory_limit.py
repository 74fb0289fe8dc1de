"""An honest memory limit (issue 39, item 1): string doc ids cost more than numbers, a limit
below the interpreters' floor is refused, ``jobs`` is capped at what helps, and the engine
chosen is said (``-v``, ``Result.engine``); Parquet paths that hold no Parquet are named."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from cli_support import one_error, run, run_subprocess, write

import ranklens
from ranklens._base.errors import ParameterError, RanklensWarning

QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 1\n"
RUN = ("q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\nq2 Q0 d1 1 1.0 r\nq2 Q0 d3 2 0.5 r\n"
       "q2 Q0 d4 3 0.2 r\n")


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    return write(tmp_path / "qrels.txt", QRELS), write(tmp_path / "run.txt", RUN)


def test_limit_below_the_floor_is_refused(files: tuple[Path, Path]) -> None:
    """A limit the interpreter alone exceeds is refused up front, the floor named."""
    with pytest.raises(ParameterError, match=r"'memory_limit' option must be at least \d+MB"):
        ranklens.evaluate(*files, ["AP"], memory_limit="1MB")


def test_limit_below_the_floor_on_the_command_line(files: tuple[Path, Path],
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    r = run(["evaluate", *map(str, files), "--memory-limit", "1MB"], capsys)
    assert r.code == 2
    assert "at least" in one_error(r.err)


def test_string_doc_ids_cost_more_than_numbers(tmp_path: Path) -> None:
    """The bytes per run line are measured on the file's first lines."""
    from ranklens._surfaces.chunked.size import BYTES_PER_ROW, bytes_per_row

    numbers = write(tmp_path / "n.run", "".join(f"q Q0 {i + 1} {i} 1.0 r\n" for i in range(500)))
    text = write(tmp_path / "s.run", "".join(f"q Q0 D{i + 1} {i} 1.0 r\n" for i in range(500)))
    assert bytes_per_row(str(numbers)) == BYTES_PER_ROW
    assert bytes_per_row(str(text)) > 1.4 * BYTES_PER_ROW


def test_result_says_which_engine(files: tuple[Path, Path]) -> None:
    result = ranklens.evaluate(*files, ["AP"], jobs=1)
    assert result.engine == {"engine": "in memory", "jobs": 1}


def test_limit_too_small_for_the_jobs_evaluates_with_fewer(
        files: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """--jobs 2 under a limit that holds one interpreter: one job, and a note saying so;
    the values are the in-memory engine's."""
    from ranklens._surfaces.chunked import choose

    monkeypatch.setattr(choose, "estimated_rows", lambda path: 3_000_000)
    with warnings.catch_warnings(record=True) as told:
        warnings.simplefilter("always")
        got = ranklens.evaluate(*files, ["AP"], memory_limit="150MB", jobs=2)
    notes = [str(w.message) for w in told if issubclass(w.category, RanklensWarning)]
    assert any("holds 1 job(s), not 2" in n for n in notes), notes
    assert got.engine["engine"] == "chunked" and got.engine["workers"] == 1
    assert got["AP"] == ranklens.evaluate(*files, ["AP"])["AP"]


def test_verbose_says_the_engine_off_a_terminal(files: tuple[Path, Path]) -> None:
    proc = run_subprocess(["evaluate", *map(str, files), "-m", "AP", "-v", "--jobs", "1"])
    assert proc.returncode == 0
    assert proc.stderr.decode().strip() == "ranklens: engine: in memory, 1 job(s)"


def test_jobs_beyond_the_cores_are_capped_with_a_note(files: tuple[Path, Path]) -> None:
    """--jobs 100000 on a 5-line run answers promptly (no thousands of threads)."""
    proc = run_subprocess(["evaluate", *map(str, files), "-m", "AP", "--jobs", "100000"])
    assert proc.returncode == 0
    assert "ranklens: note: --jobs 100000 is more than the" in proc.stderr.decode()


@pytest.mark.parametrize("name, expected", [
    ("adir", "the directory holds no file"),
    ("fake.parquet", "is not Parquet data"),
    ("none*.parquet", "no file matches this pattern"),
])
def test_parquet_paths_without_parquet_are_named(name: str, expected: str,
                                                 files: tuple[Path, Path], tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "adir").mkdir()
    write(tmp_path / "fake.parquet", "not parquet\n")
    path = str(tmp_path / name)
    r = run(["evaluate", str(files[0]), path, "--memory-limit", "1GB"], capsys)
    assert r.code == 2
    message = one_error(r.err)
    assert message.startswith(f"{path}: {expected}"), message
