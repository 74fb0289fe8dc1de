"""Issue 14 through the command line: one line and a non-zero status for every problem, help
where help is asked for, files never clobbered."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_support import run, run_subprocess, write

QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 1\n"
RUN = "q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 t\nq2 Q0 d3 1 5.0 t\n"


def test_bare_ranklens_prints_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    out = run([], capsys)
    assert out.code == 0
    assert out.out.startswith("Usage: ranklens [OPTIONS] COMMAND [ARGS]...")
    assert "trec_eval" in out.out and "evaluate" in out.out
    assert out.err == ""


def test_trec_eval_help_lists_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["trec_eval", "-h"], capsys)
    assert out.code == 0
    assert out.out.startswith("Usage: ranklens trec_eval")
    for option in ("-q, --query_eval_wanted", "-m, --measure", "-J, --Judged_docs_only",
                   "-Z, --Zscore"):
        assert option in out.out


def test_trec_eval_duplicates_do_not_suggest_an_option_it_lacks(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    q = write(tmp_path / "q", QRELS)
    r = write(tmp_path / "r", RUN + "q1 Q0 d1 3 0.5 t\n")
    out = run(["trec_eval", str(q), str(r)], capsys)
    assert out.code != 0
    assert out.err.count("\n") == 1
    assert "appears more than once" in out.err
    assert "--duplicates first" not in out.err.replace("ranklens evaluate --duplicates first",
                                                       "")
    assert "ranklens evaluate --duplicates first" in out.err


def test_output_may_not_overwrite_an_input(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    q = write(tmp_path / "q", QRELS)
    r = write(tmp_path / "run.txt", RUN)
    out = run(["evaluate", str(q), str(r), "-o", str(r)], capsys)
    assert out.code == 2
    assert f"-o {r} is one of the input files" in out.err
    assert r.read_text() == RUN


def test_output_is_written_whole_and_replaces_the_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    q = write(tmp_path / "q", QRELS)
    r = write(tmp_path / "r", RUN)
    target = write(tmp_path / "out.csv", "old\n")
    out = run(["evaluate", str(q), str(r), "-m", "P@1", "-f", "csv", "-o", str(target)],
              capsys)
    assert out.code == 0
    assert target.read_text().splitlines()[0].startswith("run,")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".ranklens-")] == []
    missing = tmp_path / "no" / "such" / "dir.csv"
    out = run(["evaluate", str(q), str(r), "-o", str(missing)], capsys)
    assert out.code == 2 and f"cannot write {missing}" in out.err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_on_stdout_is_one_line(tmp_path: Path) -> None:
    q = write(tmp_path / "q", QRELS)
    r = write(tmp_path / "r", RUN)
    for args in (["evaluate", str(q), str(r)], ["trec_eval", str(q), str(r)]):
        with open("/dev/full", "w") as full:
            done = subprocess.run([sys.executable, "-m", "ranklens", *args], stdout=full,
                                  stderr=subprocess.PIPE, timeout=300)
        err = done.stderr.decode()
        assert done.returncode != 0
        assert err == "ranklens: error: cannot write to standard output: No space left on " \
                      "device\n"


def test_swapped_files_say_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    q = write(tmp_path / "q", QRELS)
    r = write(tmp_path / "r", RUN)
    out = run(["evaluate", str(r), str(q)], capsys)
    assert out.code == 2
    assert "are QRELS and RUN given in the wrong order?" in out.err


def test_no_judged_document_is_a_warning(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    q = write(tmp_path / "q", "q1 0 D1 1\nq2 0 D2 1\n")
    r = write(tmp_path / "r", "q1 Q0 p1 1 1.0 t\nq2 Q0 p2 1 1.0 t\n")
    out = run(["evaluate", str(q), str(r), "-m", "P@1"], capsys)
    assert out.code == 0
    assert f"ranklens: warning: the run ({r}) retrieved no judged document for any of its " \
           "2 queries" in out.err


def test_ctrl_c_while_reading_a_pipe_stops_at_once(tmp_path: Path) -> None:
    q = write(tmp_path / "q", QRELS)
    # the writer end stays open: the read blocks until the signal
    proc = subprocess.Popen([sys.executable, "-m", "ranklens", "evaluate", str(q), "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdin is not None
    proc.stdin.write(RUN.encode())
    proc.stdin.flush()
    time.sleep(3)  # past start-up, into the read
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
        proc.stdin.close()
    assert proc.returncode == 130
    # (click writes a newline first, ending the line a terminal echoed ^C on)
    assert err.decode().strip() == "ranklens: error: interrupted"


# a Ctrl-C while ranklens is being imported, made certain: an import hook raises it there
_INTERRUPTED_IMPORT = """
import sys
class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == "ranklens.cli":  # what start-up imports (commands load when run)
            raise KeyboardInterrupt
sys.meta_path.insert(0, Interrupt())
sys.argv = ["ranklens", "measures"]
import _ranklens_entry
_ranklens_entry.run()
"""


def test_ctrl_c_during_start_up_prints_no_traceback() -> None:
    done = subprocess.run([sys.executable, "-c", _INTERRUPTED_IMPORT], capture_output=True,
                          timeout=300)
    assert done.stderr.decode() == "ranklens: error: interrupted\n"
    assert done.returncode == 130


def test_the_installed_command_goes_through_the_guarded_entry_point() -> None:
    from importlib.metadata import entry_points

    (script,) = [e for e in entry_points(group="console_scripts") if e.name == "ranklens"]
    assert script.value == "_ranklens_entry:run"
    command = Path(sys.executable).parent / "ranklens"
    if command.exists():  # a real signal in the middle of start-up
        proc = subprocess.Popen([str(command), "measures"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        assert b"Traceback" not in err
        assert proc.returncode in (0, 130)


def test_a_bad_input_through_the_subprocess_is_one_line(tmp_path: Path) -> None:
    # (a grade of 400 digits is read as trec_eval reads it: saturated, test_file_shapes)
    q = write(tmp_path / "q", "q1 0 d1 high\n")
    r = write(tmp_path / "r", RUN)
    done = run_subprocess(["evaluate", str(q), str(r)])
    assert done.returncode == 2
    assert done.stderr.decode().count("\n") == 1
    assert b"Traceback" not in done.stderr


def test_long_run_names_fold_instead_of_being_cut_in_a_narrow_terminal() -> None:
    from rich.console import Console

    import ranklens
    from ranklens._surfaces.render import rich_table

    qrels = {"q1": {"d1": 1}}
    runs = {"experiments/2024/bm25-rm3-tuned-k1-0.9-b-0.4": {"q1": {"d1": 1.0}},
            "experiments/2024/bm25-rm3-tuned-k1-0.9-b-0.7": {"q1": {"d1": 0.5, "d2": 1.0}}}
    results = ranklens.evaluate(qrels, runs, ["P@1", "AP", "nDCG@10", "RR"])
    console = Console(width=50, record=True, color_system=None)
    console.print(rich_table(results))
    text = console.export_text()
    assert "…" not in text
    flat = "".join(line.split("│")[1].strip() for line in text.splitlines()
                   if line.count("│") > 2)
    for name in runs:
        assert name in flat


def test_two_runs_with_one_tag_are_two_systems(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    q = write(tmp_path / "q", QRELS)
    a = write(tmp_path / "a.run", RUN)
    b = write(tmp_path / "b.run", RUN.replace("2.0", "0.5"))
    out = run(["evaluate", str(q), str(a), str(b), "-m", "P@1", "-f", "csv"], capsys)
    assert out.code == 0
    assert out.out.splitlines() == ["run,query,P@1", "a,all,1.0", "b,all,0.5"]
