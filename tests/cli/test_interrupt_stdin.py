"""Ctrl-C while the command waits on standard input ends it with one line and status 130
(issue 39's catalogue)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from cli_support import write


def test_ctrl_c_while_reading_standard_input(tmp_path: Path) -> None:
    qrels = write(tmp_path / "qrels.txt", "q1 0 d1 1\n")
    proc = subprocess.Popen(
        [sys.executable, "-m", "ranklens", "evaluate", str(qrels), "-"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdin is not None
    proc.stdin.write(b"q1 Q0 d1 1 1.0 r\n")  # a first line, then the pipe stays open
    proc.stdin.flush()
    time.sleep(4)  # start-up, then blocked on the rest of standard input
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err.decode() == "ranklens: error: interrupted\n"
