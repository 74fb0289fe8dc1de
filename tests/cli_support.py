"""Helpers for the CLI tests: run ``ranklens`` in-process or as a real subprocess."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from ranklens.cli import main


@dataclass
class Outcome:
    code: int
    out: str
    err: str


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> Outcome:
    """``ranklens ARGS`` through the console-script entry point, in this process."""
    with pytest.raises(SystemExit) as exc:
        main(args)
    captured = capsys.readouterr()
    code = exc.value.code
    return Outcome(code if isinstance(code, int) else 1, captured.out, captured.err)


def run_subprocess(args: list[str], cwd: Path | None = None,
                   stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """``python -m ranklens ARGS`` in a child process (real stdin/stdout, no terminal)."""
    return subprocess.run([sys.executable, "-m", "ranklens", *args], cwd=cwd, input=stdin,
                          capture_output=True, timeout=300)


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def one_error(err: str) -> str:
    """The message of ``err``, asserted to be ONE ``ranklens: error: ...`` line and no
    traceback."""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("ranklens: error: "), err
    assert "Traceback" not in err
    return lines[0][len("ranklens: error: "):]
