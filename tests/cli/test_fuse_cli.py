"""``ranklens fuse`` and ``--fuse METHOD`` on evaluate, compare and report."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import run, write

import ranklens

BM25 = "q1 Q0 a 1 3.0 bm25\nq1 Q0 b 2 2.0 bm25\nq1 Q0 c 3 1.0 bm25\nq2 Q0 a 1 1.0 bm25\n"
DENSE = "q1 Q0 b 1 0.9 dense\nq1 Q0 d 2 0.5 dense\nq2 Q0 b 1 0.7 dense\n"
QRELS = "q1 0 b 1\nq1 0 d 1\nq2 0 a 1\n"


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path, Path]:
    return (write(tmp_path / "bm25.run", BM25), write(tmp_path / "dense.run", DENSE),
            write(tmp_path / "qrels.txt", QRELS))


def test_fuse_writes_the_same_run_as_the_library(files: tuple[Path, Path, Path],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    bm25, dense, _ = files
    out = bm25.parent / "fused.run"
    result = run(["fuse", str(bm25), str(dense), "--method", "mnz", "--norm", "zmuv",
                  "-o", str(out)], capsys)
    assert result.code == 0, result.err
    written = ranklens.load_run(str(out))
    expected = ranklens.fuse([str(bm25), str(dense)], "mnz", norm="zmuv")
    assert written.doc_id.to_list() == expected.doc_id.to_list()
    assert written.score.tolist() == expected.score.tolist()  # read back exactly
    first = out.read_text().splitlines()[0].split()
    assert first[:4] == ["q1", "Q0", "b", "1"] and first[5] == "mnz"


def test_fuse_to_standard_output_with_weights_and_params(
        files: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    bm25, dense, _ = files
    result = run(["fuse", str(bm25), str(dense), "--method", "rrf", "--param", "k=0"], capsys)
    assert result.code == 0
    # b: 1 / 2 + 1 / 1 under k = 0
    assert result.out.splitlines()[0].split()[2:5] == ["b", "1", "1.5"]
    result = run(["fuse", str(bm25), str(dense), "--method", "wsum", "--weights", "0,1",
                  "--norm", "none"], capsys)
    assert result.out.splitlines()[0].split()[2] == "b"


@pytest.mark.parametrize(("args", "message"), [
    (["--method", "nope"], "the 'method' option must be one of anz, bayesfuse, bordafuse"),
    (["--method", "wsum", "--weights", "1,2,3"], "one weight per run (2); got 3"),
    (["--weights", "a,b", "--method", "wsum"], "the '--weights' option must be numbers"),
    (["--param", "k"], "the '--param' option must be NAME=NUMBER"),
    (["--param", "phi=2", "--method", "rbc"], "the 'phi' parameter of 'rbc' must be"),
    (["--norm", "l2"], "the 'norm' option must be one of min-max"),
])
def test_bad_fuse_options_give_one_line(files: tuple[Path, Path, Path], args: list[str],
                                        message: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    bm25, dense, _ = files
    result = run(["fuse", str(bm25), str(dense), *args], capsys)
    assert result.code == 2
    assert result.err.count("\n") == 1 and message in result.err
    assert "Traceback" not in result.err


def test_fuse_never_writes_over_an_input(files: tuple[Path, Path, Path],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    bm25, dense, _ = files
    result = run(["fuse", str(bm25), str(dense), "-o", str(dense)], capsys)
    assert result.code != 0 and "is one of the input files" in result.err
    assert dense.read_text() == DENSE


def test_fuse_needs_two_runs(files: tuple[Path, Path, Path],
                             capsys: pytest.CaptureFixture[str]) -> None:
    result = run(["fuse", str(files[0])], capsys)
    assert result.code != 0 and "at least two RUNS" in result.err


def test_evaluate_fuse_adds_the_fused_run(files: tuple[Path, Path, Path],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    bm25, dense, qrels = files
    result = run(["evaluate", str(qrels), str(bm25), str(dense), "--fuse", "rrf", "-m", "AP",
                  "-f", "csv"], capsys)
    assert result.code == 0, result.err
    rows = [line.split(",") for line in result.out.splitlines()[1:]]
    assert [r[0] for r in rows] == ["bm25", "dense", "rrf"]
    fused = ranklens.fuse([str(bm25), str(dense)], "rrf")
    expected = ranklens.evaluate(str(qrels), fused, ["AP"])["AP"]
    assert rows[2][1] == "all" and float(rows[2][2]) == pytest.approx(expected, rel=1e-12)


def test_compare_and_report_fuse(files: tuple[Path, Path, Path],
                                 capsys: pytest.CaptureFixture[str]) -> None:
    bm25, dense, qrels = files
    result = run(["compare", str(qrels), str(bm25), str(dense), "--fuse", "CombMNZ", "-m",
                  "AP", "-f", "csv"], capsys)
    assert result.code == 0, result.err
    assert "mnz" in result.out
    page = bm25.parent / "r.html"
    result = run(["report", str(qrels), str(bm25), str(dense), "--fuse", "rrf", "-o",
                  str(page)], capsys)
    assert result.code == 0, result.err
    assert "rrf" in page.read_text()


def test_fused_run_named_like_an_input_gets_a_prefix(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    rrf = write(tmp_path / "rrf.run", BM25)
    dense = write(tmp_path / "dense.run", DENSE)
    qrels = write(tmp_path / "qrels.txt", QRELS)
    result = run(["evaluate", str(qrels), str(rrf), str(dense), "--fuse", "rrf", "-m", "AP",
                  "-f", "csv"], capsys)
    assert [line.split(",")[0] for line in result.out.splitlines()[1:]] == [
        "rrf", "dense", "fused-rrf"]


def test_fuse_supervised_with_train_equals_the_library(
        files: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    bm25, dense, qrels = files
    out = bm25.parent / "prob.run"
    result = run(["fuse", str(bm25), str(dense), "--method", "probfuse", "--train", str(qrels),
                  "--param", "n_segments=2", "--param", "folds=2", "-o", str(out)], capsys)
    assert result.code == 0, result.err
    written = ranklens.load_run(str(out))
    expected = ranklens.fuse([str(bm25), str(dense)], "probfuse", train=str(qrels),
                             n_segments=2, folds=2)
    assert written.doc_id.to_list() == expected.doc_id.to_list()
    assert written.score.tolist() == expected.score.tolist()
    result = run(["fuse", str(bm25), str(dense), "--method", "probfuse", "--train", str(qrels),
                  "--param", "n_segments=2", "--allow-leakage"], capsys)
    assert result.code == 0, result.err
    leaky = ranklens.fuse([str(bm25), str(dense)], "probfuse", train=str(qrels),
                          n_segments=2, allow_leakage=True)
    assert [line.split()[2] for line in result.out.splitlines()] == leaky.doc_id.to_list()


@pytest.mark.parametrize(("args", "message"), [
    (["--method", "probfuse", "--param", "n_segments=2"],
     "the '--train' option must give the training judgments of the supervised method"),
    (["--method", "rrf", "--train", "QRELS"], "the '--train' option is for the supervised"),
    (["--method", "rrf", "--allow-leakage"], "the '--allow-leakage' option is for the"),
    (["--method", "probfuse", "--train", "QRELS"], "needs the parameter 'n_segments'"),
    (["--method", "slidefuse", "--train", "QRELS", "--param", "w=-1"],
     "the 'w' parameter of 'slidefuse' must be"),
    (["--method", "posfuse", "--train", "QRELS"],  # two judged queries, five folds
     "the 'folds' parameter of 'posfuse' must be at most the number of training queries"),
])
def test_bad_supervised_fuse_options_give_one_line(
        files: tuple[Path, Path, Path], args: list[str], message: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    bm25, dense, qrels = files
    args = [str(qrels) if a == "QRELS" else a for a in args]
    result = run(["fuse", str(bm25), str(dense), *args], capsys)
    assert result.code == 2, result.err
    assert result.err.count("\n") == 1 and message in result.err
    assert "Traceback" not in result.err


def test_fuse_never_writes_over_the_training_judgments(
        files: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    bm25, dense, qrels = files
    result = run(["fuse", str(bm25), str(dense), "--method", "posfuse", "--train", str(qrels),
                  "--allow-leakage", "-o", str(qrels)], capsys)
    assert result.code != 0 and "is one of the input files" in result.err
    assert qrels.read_text() == QRELS


def test_evaluate_fuse_refuses_a_supervised_method(files: tuple[Path, Path, Path],
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    bm25, dense, qrels = files
    result = run(["evaluate", str(qrels), str(bm25), str(dense), "--fuse", "posfuse", "-m",
                  "AP"], capsys)
    assert result.code == 2 and result.err.count("\n") == 1
    assert "the '--fuse' option takes the unsupervised methods; 'posfuse' learns" in result.err


# -- issue 39: --fuse speaks of --fuse, takes parameters, and is accepted where documented --

@pytest.mark.parametrize(("args", "message"), [
    (["--fuse", "rrff"], "the '--fuse' option must be one of anz, "),
    (["--fuse", "rbc"], "the '--fuse' option must give the 'rbc' parameter 'phi' after the "
                        "method, e.g. --fuse rbc:phi=0.8"),
    (["--fuse", "rrf:k"], "the '--fuse' option must be METHOD:NAME=NUMBER,..."),
    (["--fuse", "rrf:k=1,k=2"], "the '--fuse' option gives the parameter 'k' twice"),
])
def test_bad_fuse_methods_name_the_fuse_option(files: tuple[Path, Path, Path], args: list[str],
                                               message: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    bm25, dense, qrels = files
    result = run(["evaluate", str(qrels), str(bm25), str(dense), "-m", "AP", *args], capsys)
    assert result.code == 2 and result.err.count("\n") == 1, result.err
    assert message in result.err and "'method'" not in result.err


def test_a_misspelt_fuse_method_suggests_the_right_one(
        files: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    bm25, dense, qrels = files
    result = run(["evaluate", str(qrels), str(bm25), str(dense), "--fuse", "rrff"], capsys)
    assert "(did you mean 'rrf'?)" in result.err


def test_fuse_with_one_run_speaks_of_runs(files: tuple[Path, Path, Path],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    bm25, _, qrels = files
    result = run(["evaluate", str(qrels), str(bm25), "--fuse", "rrf", "-m", "AP"], capsys)
    assert result.code == 2 and result.err.count("\n") == 1, result.err
    assert "the '--fuse' option fuses two RUNS or more; got 1" in result.err
    assert "mapping" not in result.err


def test_fuse_parameters_follow_the_method(files: tuple[Path, Path, Path],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    bm25, dense, qrels = files
    result = run(["evaluate", str(qrels), str(bm25), str(dense), "--fuse", "rbc:phi=0.8",
                  "-m", "AP", "-f", "csv"], capsys)
    assert result.code == 0, result.err
    rows = [line.split(",") for line in result.out.splitlines()[1:]]
    fused = ranklens.fuse([str(bm25), str(dense)], "rbc", phi=0.8)
    expected = ranklens.evaluate(str(qrels), fused, ["AP"])["AP"]
    assert rows[2][0] == "rbc" and float(rows[2][2]) == pytest.approx(expected, rel=1e-12)


def test_evaluate_fuse_accepts_jobs(files: tuple[Path, Path, Path],
                                    capsys: pytest.CaptureFixture[str]) -> None:
    bm25, dense, qrels = files
    args = ["evaluate", str(qrels), str(bm25), str(dense), "--fuse", "rrf", "-m", "AP",
            "-f", "csv"]
    one = run(args, capsys)
    two = run([*args, "--jobs", "2"], capsys)
    assert two.code == 0, two.err
    assert two.out == one.out


def test_compare_takes_the_fused_run_as_baseline(files: tuple[Path, Path, Path],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    bm25, dense, qrels = files
    result = run(["compare", str(qrels), str(bm25), str(dense), "--fuse", "rrf",
                  "--baseline", "rrf", "-m", "AP", "-f", "csv"], capsys)
    assert result.code == 0, result.err
    assert "rrf" in result.out


def test_fuse_writes_dash_to_standard_output(files: tuple[Path, Path, Path],
                                             capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    bm25, dense, _ = files
    monkeypatch.chdir(bm25.parent)
    result = run(["fuse", str(bm25), str(dense), "-o", "-"], capsys)
    assert result.code == 0, result.err
    assert not (bm25.parent / "-").exists()
    assert result.out.splitlines()[0].split()[:3] == ["q1", "Q0", "b"]


def test_fuse_refuses_a_parameter_given_twice(files: tuple[Path, Path, Path],
                                              capsys: pytest.CaptureFixture[str]) -> None:
    bm25, dense, _ = files
    result = run(["fuse", str(bm25), str(dense), "--param", "k=60", "--param", "k=20"],
                 capsys)
    assert result.code == 2 and "the '--param' option gives the parameter 'k' twice" \
        in result.err


def test_evaluate_fuse_verbose_names_the_engine(files: tuple[Path, Path, Path],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    bm25, dense, qrels = files
    result = run(["evaluate", str(qrels), str(bm25), str(dense), "--fuse", "rrf", "-m", "AP",
                  "-v"], capsys)
    assert result.code == 0, result.err
    assert "ranklens: engine: " in result.err
    assert "rrf" in result.out


@pytest.mark.parametrize("command", [["compare"], ["report", "-o", "r.html"],
                                     ["power", "--min-diff", "0.1"]])
def test_fuse_with_pairs_files_is_refused(tmp_path: Path, command: list[str],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    # --pairs files are not runs to fuse: --fuse is refused, never silently left out
    line = '{"query_id": "q1", "retrieved": ["a", "b"], "relevant": ["b"]}\n'
    a, b = write(tmp_path / "a.jsonl", line), write(tmp_path / "b.jsonl", line)
    result = run([command[0], "--pairs", str(a), "--pairs", str(b), "--fuse", "rrf",
                  *command[1:]], capsys)
    assert result.code == 2 and result.err.count("\n") == 1, result.err
    assert "--fuse is for RUNS, not --pairs files" in result.err
