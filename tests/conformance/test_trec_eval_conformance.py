"""``ranklens trec_eval`` prints exactly what trec_eval 10.0 prints on its own test data.

Every command of the conformance README runs in a subprocess; stdout must be byte-identical
to the expected file.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

CASES = [
    ("out.test", "qrels.test results.test"),
    ("out.test", "qrels.test.with-comments results.test"),
    ("out.comment.test", "qrels.comment.test results.comment.test"),
    ("out.test.a", "-m all_trec qrels.test results.test"),
    ("out.test.aq", "-m all_trec -q qrels.test results.test"),
    ("out.test.aqc", "-m all_trec -q -c qrels.test results.trunc"),
    ("out.test.aqcM", "-m all_trec -q -c -M100 qrels.test results.trunc"),
    ("out.test.aql", "-m all_trec -mrelstring.20 -q -l2 qrels.rel_level results.test"),
    ("out.test.prefs", "-m all_prefs -q -R prefs prefs.test prefs.results.test"),
    ("out.test.prefs", "-m all_prefs -q -R prefs prefs.comment.test prefs.results.test"),
    ("out.test.qrels_prefs", "-m all_prefs -q -R qrels_prefs qrels.test results.test"),
    ("out.test.qrels_jg", "-m qrels_jg -q -R qrels_jg qrels.123 results.test"),
    ("out.test.qrels_jg", "-m qrels_jg -q -R qrels_jg qrels.comments.123 results.test"),
    ("out.test.meas_params",
     "-q -miprec_at_recall..10,.20,.25,.75,.50 -m P.5,7,3 -m recall.20,2000 "
     "-m Rprec_mult.5.0,0.2,0.35 -mutility.2,-1,0,0 -m 11pt_avg..25,.5,.75 "
     "-mndcg.1=3,2=9,4=4.5 -mndcg_cut.10,20,23.4 -msuccess.2,5,20 qrels.test results.test"),
    ("out.test.aqZ", "-q -m all_trec -Z zscores_file qrels.test results.test"),
]


def run_cli(args: list[str], cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ranklens", *args], cwd=cwd, input=stdin,
        capture_output=True, timeout=300,
    )


@pytest.mark.parametrize(("expected", "command"), CASES, ids=[c[1] for c in CASES])
def test_byte_identical(trec_dir: Path, expected: str, command: str) -> None:
    proc = run_cli(["trec_eval", *command.split()], trec_dir)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stderr == b""
    want = (trec_dir / expected).read_bytes()
    got = proc.stdout
    if got != want:
        got_lines = got.decode().splitlines()
        want_lines = want.decode().splitlines()
        pairs = enumerate(zip(got_lines, want_lines, strict=False))
        first = next((i for i, (a, b) in pairs if a != b), min(len(got_lines), len(want_lines)))
        pytest.fail(
            f"output differs from {expected} at line {first + 1}: "
            f"got {got_lines[first:first + 1]!r}, want {want_lines[first:first + 1]!r} "
            f"({len(got_lines)} vs {len(want_lines)} lines)"
        )


def test_run_from_stdin(trec_dir: Path) -> None:
    """A run file named ``-`` is read from standard input, as trec_eval does."""
    proc = run_cli(["trec_eval", "qrels.test", "-"], trec_dir,
                   stdin=(trec_dir / "results.test").read_bytes())
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout == (trec_dir / "out.test").read_bytes()


def test_missing_topic_without_c_is_left_out(trec_dir: Path) -> None:
    """Deliberate deviation (docs/trec_eval.md): without -c, trec_eval 10.0 exits 4 when a
    judged topic is absent from the run; we average over the topics the run has, as
    trec_eval 9 did (topic 302 is missing from results.trunc)."""
    proc = run_cli(["trec_eval", "-m", "num_q", "-m", "map", "qrels.test", "results.trunc"],
                   trec_dir)
    assert proc.returncode == 0, proc.stderr.decode()
    lines = proc.stdout.decode().splitlines()
    assert lines[0].split("\t") == ["num_q                 ", "all", "2"]
    assert proc.stderr.decode().splitlines() == [
        "ranklens: warning: 1 judged topics are absent from the run (results.trunc) and were "
        "left out of the averages; pass -c to score them 0: ['302']"]
