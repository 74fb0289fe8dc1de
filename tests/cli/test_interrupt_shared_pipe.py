"""Ctrl-C while the command waits on a pipe that another process also holds open ends it
with one line and status 130 (issue 39's older catalogue: Ctrl-C while blocked reading
standard input). The signal may reach a thread other than the reading one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from cli_support import write


def test_ctrl_c_while_reading_a_shared_pipe(tmp_path: Path) -> None:
    qrels = write(tmp_path / "qrels.txt", "q1 0 d1 1\n")
    read_end, write_end = os.pipe()  # both ends stay open here: the read never ends
    try:
        proc = subprocess.Popen([sys.executable, "-m", "ranklens", "evaluate", str(qrels), "-"],
                                stdin=read_end, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(4)  # start-up, then blocked on standard input
        proc.send_signal(signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=20)
        finally:
            proc.kill()
    finally:
        os.close(read_end)
        os.close(write_end)
    assert proc.returncode == 130
    assert err.decode().strip() == "ranklens: error: interrupted"
