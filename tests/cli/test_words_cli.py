"""Issue 39's naming, parsing and small items on the command line: ``-m``, ``-o -``, one
file under two paths, ``--ci`` and ``--resamples`` bounds."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import one_error, run, write

QRELS = "q1 0 a 2\nq1 0 b 0\nq2 0 x 1\n"
RUN_A = "q1 Q0 a 1 3.0 A\nq1 Q0 b 2 2.0 A\nq2 Q0 x 1 1.0 A\n"
RUN_B = "q1 Q0 b 1 3.0 B\nq1 Q0 a 2 2.0 B\nq2 Q0 y 1 1.0 B\n"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    return {"qrels": str(write(tmp_path / "qrels.txt", QRELS)),
            "a": str(write(tmp_path / "a.run", RUN_A)),
            "b": str(write(tmp_path / "b.run", RUN_B))}


def test_empty_measure_is_refused(files: dict[str, str],
                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["evaluate", files["qrels"], files["a"], "-m", ""], capsys)
    assert out.code == 2
    assert "-m/--measure" in one_error(out.err) and out.out == ""


def test_measure_list_read_as_in_python(files: dict[str, str],
                                        capsys: pytest.CaptureFixture[str]) -> None:
    import ranklens

    out = run(["evaluate", files["qrels"], files["a"], "-m", "nDCG @ 10", "-m", "AP P@1",
               "-f", "csv"], capsys)
    assert out.code == 0, out.err
    assert out.out.splitlines()[0].split(",")[-3:] == ["nDCG @ 10", "AP", "P@1"]
    assert list(ranklens.evaluate(files["qrels"], files["a"], ["nDCG @ 10", "AP P@1"]).names) \
        == ["nDCG @ 10", "AP", "P@1"]


def test_trec_spelling_in_another_case(files: dict[str, str],
                                       capsys: pytest.CaptureFixture[str]) -> None:
    upper = run(["evaluate", files["qrels"], files["a"], "-m", "NDCG_cut_10", "-f", "csv"],
                capsys)
    lower = run(["evaluate", files["qrels"], files["a"], "-m", "ndcg_cut_10", "-f", "csv"],
                capsys)
    assert upper.code == lower.code == 0, upper.err
    assert upper.out.splitlines()[1].split(",")[1:] == lower.out.splitlines()[1].split(",")[1:]


@pytest.mark.parametrize("command", ["evaluate", "compare"])
def test_output_dash_is_standard_output(files: dict[str, str], tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    monkeypatch.chdir(tmp_path)
    out = run([command, files["qrels"], files["a"], files["b"], "-m", "AP", "-f", "csv",
               "-o", "-"], capsys)
    assert out.code == 0, out.err
    assert "AP" in out.out and not (tmp_path / "-").exists()


@pytest.mark.parametrize("command", ["agree", "pool", "correlate"])
def test_output_dash_is_standard_output_for_every_command(
        files: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    monkeypatch.chdir(tmp_path)
    args = {"agree": ["-m", "Overlap@2"], "pool": ["--depth", "2"],
            "correlate": ["--qrels-a", files["qrels"], "-m", "AP", "--measure-b", "P@5"]}
    out = run([command, files["a"], files["b"], *args[command], "-f", "csv", "-o", "-"],
              capsys)
    assert out.code == 0, out.err
    assert out.out.strip() and not (tmp_path / "-").exists()


def test_report_to_standard_output(files: dict[str, str], tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    out = run(["report", files["qrels"], files["a"], files["b"], "-m", "AP", "--max-k", "5",
               "-o", "-"], capsys)
    assert out.code == 0, out.err
    assert out.out.startswith("<!DOCTYPE html>") and not (tmp_path / "-").exists()


def test_one_file_under_two_paths_is_refused(files: dict[str, str], tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    out = run(["evaluate", files["qrels"], "a.run", "./a.run", "-m", "AP"], capsys)
    assert out.code == 2
    message = one_error(out.err)
    assert "given once" in message and "./a.run" in message


def test_output_over_an_input_is_refused(files: dict[str, str],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    before = Path(files["a"]).read_text()
    out = run(["evaluate", files["qrels"], files["a"], "-m", "AP", "-o", files["a"]], capsys)
    assert out.code == 2 and "-o" in one_error(out.err)
    assert Path(files["a"]).read_text() == before


def test_ci_nan_names_the_option(files: dict[str, str],
                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["evaluate", files["qrels"], files["a"], "-m", "AP", "--ci", "nan"], capsys)
    assert out.code == 2 and "--ci" in one_error(out.err)


def test_resamples_are_bounded(files: dict[str, str],
                               capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["evaluate", files["qrels"], files["a"], "-m", "AP", "--ci", "--ci-method",
               "bootstrap", "--resamples", "99999999999999"], capsys)
    assert out.code == 2
    message = one_error(out.err)
    assert "--resamples" in message and "1000000" in message
