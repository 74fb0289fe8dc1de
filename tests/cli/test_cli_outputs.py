"""Every command that writes a file refuses to write it over one of its inputs (one line on
stderr, status 2, the input untouched) and writes it whole: evaluate, compare, report, and
evaluate --engine spark (a Parquet folder). trec_eval writes to standard output only.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import one_error, run, write

import ranklens
from ranklens._base.errors import ParameterError
from ranklens._base.outputs import TEMP_PREFIX

QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 1\nq2 0 d4 1\n"
RUN_A = "q1 Q0 d1 1 2.0 a\nq1 Q0 d2 2 1.0 a\nq2 Q0 d3 1 5.0 a\nq2 Q0 d9 2 4.0 a\n"
RUN_B = "q1 Q0 d2 1 2.0 b\nq1 Q0 d1 2 1.0 b\nq2 Q0 d4 1 5.0 b\nq2 Q0 d3 2 4.0 b\n"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    return {"qrels": write(tmp_path / "qrels.txt", QRELS),
            "a": write(tmp_path / "a.run", RUN_A), "b": write(tmp_path / "b.run", RUN_B)}


def untouched(files: dict[str, Path]) -> bool:
    return (files["qrels"].read_text(), files["a"].read_text(), files["b"].read_text()) == \
        (QRELS, RUN_A, RUN_B)


def command(name: str, files: dict[str, Path], output: Path) -> list[str]:
    q, a, b = (str(files[k]) for k in ("qrels", "a", "b"))
    return {
        "evaluate": ["evaluate", q, a, b, "-m", "AP", "-f", "csv", "-o", str(output)],
        "compare": ["compare", q, a, b, "-m", "AP", "-f", "csv", "-o", str(output)],
        "report": ["report", q, a, b, "-m", "AP", "--max-k", "3", "-o", str(output)],
        "spark": ["evaluate", q, a, b, "-m", "AP", "--engine", "spark", "--master",
                  "local[1]", "-o", str(output)],
    }[name]


COMMANDS = ["evaluate", "compare", "report", "spark"]


@pytest.mark.parametrize("name", COMMANDS)
@pytest.mark.parametrize("which", ["qrels", "a", "b"])
def test_the_output_may_not_be_an_input(name: str, which: str, files: dict[str, Path],
                                        capsys: pytest.CaptureFixture[str]) -> None:
    out = run(command(name, files, files[which]), capsys)
    assert out.code == 2
    assert one_error(out.err) == (f"-o {files[which]} is one of the input files "
                                  f"({files[which]}); expected a new file or another one to "
                                  "overwrite")
    assert untouched(files)


@pytest.mark.parametrize("name", COMMANDS)
def test_the_same_file_by_another_name_is_refused(name: str, files: dict[str, Path],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    link = files["a"].parent / "link.run"
    link.symlink_to(files["a"])
    out = run(command(name, files, link), capsys)
    assert out.code == 2 and "is one of the input files" in one_error(out.err)
    assert untouched(files) and link.is_symlink()


@pytest.mark.parametrize("name", COMMANDS)
def test_a_folder_holding_an_input_is_refused(name: str, files: dict[str, Path],
                                              capsys: pytest.CaptureFixture[str]) -> None:
    folder = files["a"].parent
    out = run(command(name, files, folder), capsys)
    assert out.code == 2
    assert one_error(out.err).startswith(f"-o {folder} is a folder holding the input file ")
    assert untouched(files)


def test_evaluate_pairs_may_not_overwrite_its_file(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    text = '{"query_id": "q1", "retrieved": ["a", "b"], "relevant": ["a"]}\n'
    pairs = write(tmp_path / "rag.jsonl", text)
    out = run(["evaluate", "--pairs", str(pairs), "-m", "RR", "-o", str(pairs)], capsys)
    assert out.code == 2 and "is one of the input files" in one_error(out.err)
    assert pairs.read_text() == text


@pytest.mark.parametrize("name", ["evaluate", "compare", "report"])
def test_an_existing_output_is_replaced_whole(name: str, files: dict[str, Path],
                                              capsys: pytest.CaptureFixture[str]) -> None:
    target = write(files["a"].parent / "out", "old\n")
    out = run(command(name, files, target), capsys)
    assert out.code == 0, out.err
    text = target.read_text(encoding="utf-8")
    assert text != "old\n" and text.endswith("\n")
    assert text.startswith("<!DOCTYPE html>" if name == "report" else
                           "run," if name == "evaluate" else "measure,")
    assert [p.name for p in target.parent.iterdir() if p.name.startswith(TEMP_PREFIX)] == []


@pytest.mark.parametrize("name", ["compare", "report"])
def test_an_unwritable_output_is_one_line(name: str, files: dict[str, Path],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    missing = files["a"].parent / "no" / "out"
    out = run(command(name, files, missing), capsys)
    assert out.code == 2
    assert one_error(out.err).startswith(f"cannot write {missing}: No such file")


def test_the_library_report_refuses_its_inputs(files: dict[str, Path]) -> None:
    runs = {"a": str(files["a"]), "b": files["b"]}
    for given in (runs, [files["a"], files["b"]], files["b"]):
        with pytest.raises(ParameterError, match=r"the 'output' option .* is one of the input "
                                                 r"files .*b\.run"):
            ranklens.report(str(files["qrels"]), given, "AP", output=files["b"])
    with pytest.raises(ParameterError, match=r"qrels\.txt is one of the input files"):
        ranklens.report(files["qrels"], runs, "AP", output=str(files["qrels"]))
    assert untouched(files)


def test_trec_eval_writes_no_file(files: dict[str, Path],
                                  capsys: pytest.CaptureFixture[str]) -> None:
    before = sorted(p.name for p in files["a"].parent.iterdir())
    out = run(["trec_eval", str(files["qrels"]), str(files["a"])], capsys)
    assert out.code == 0 and out.out.startswith("runid")
    assert sorted(p.name for p in files["a"].parent.iterdir()) == before
