"""A Ctrl-C at any moment of the command's start-up, by ``python -m ranklens`` and by the
installed ``ranklens`` script, ends it with one line and status 130 (issue 39).

The child runs with ``-X importtime``, whose lines say how far start-up has gone: the SIGINT
is sent at delays after ranklens's own code has begun (``import typing`` in
``ranklens/__init__.py`` for ``-m``, the script's import of ``_ranklens_entry``), so a signal
that lands before Python runs any of ranklens's code (which no code can catch) does not
make the test flaky. A marker never seen lets the command finish (status 0).
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

DELAYS = (0.0, 0.001, 0.002, 0.003, 0.005, 0.01, 0.02, 0.05, 0.2, 0.5)


def _interrupted_after(command: list[str], marker: str, delay: float) -> tuple[int, str]:
    """Status and standard error (import-time lines dropped) of ``command`` sent SIGINT
    ``delay`` seconds after its import-time line for ``marker``."""
    proc = subprocess.Popen([sys.executable, "-X", "importtime", *command],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert proc.stderr is not None
        seen = []
        for line in proc.stderr:
            seen.append(line.decode())
            if line.rstrip().endswith(b"| " + marker.encode()):
                break
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        rest = proc.communicate(timeout=120)[1].decode()
    finally:
        proc.kill()
    err = [ln for ln in [*seen, *rest.splitlines(keepends=True)]
           if not ln.startswith("import time:")]
    return proc.returncode, "".join(err)


def _script() -> str:
    """The installed ``ranklens`` script beside this interpreter (or on the path)."""
    beside = Path(sys.executable).with_name("ranklens")
    found = str(beside) if beside.exists() else shutil.which("ranklens")
    if found is None:
        pytest.skip("no installed ranklens script")
    return found


@pytest.mark.parametrize("how", ["python -m", "script"])
def test_ctrl_c_at_any_moment_of_start_up_is_one_line(tmp_path: Path, how: str) -> None:
    q = tmp_path / "q"
    q.write_text("q1 0 a 1\nq1 0 b 0\n")
    r = tmp_path / "r"
    r.write_text("q1 Q0 a 1 2.0 t\nq1 Q0 b 2 1.0 t\n")
    args = ["evaluate", str(q), str(r), "-m", "P@1"]
    command, marker = (["-m", "ranklens", *args], "typing") if how == "python -m" \
        else ([_script(), *args], "_ranklens_entry")
    for delay in DELAYS:
        status, err = _interrupted_after(command, marker, delay)
        assert "Traceback" not in err, (delay, err)
        # interrupted, or already done when the signal came
        assert (status, err) in ((130, "ranklens: error: interrupted\n"), (0, "")), \
            (delay, status, err)
