"""The worker processes of a chunked evaluation, seen from the main process: each is a fresh
interpreter running :mod:`ranklens._surfaces.chunked.worker` (see there why not a fork nor
multiprocessing's spawn)."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from typing import Any

__all__ = ["Worker"]


class Worker:
    """One worker process and its pipes."""

    def __init__(self, threads: int) -> None:
        env = {**os.environ, "POLARS_MAX_THREADS": str(threads)}
        # the package as this process imports it (PYTHONPATH, an editable install, a wheel)
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        env["PYTHONPATH"] = os.pathsep.join(
            [root, *([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])])
        self.process = subprocess.Popen(
            [sys.executable, "-m", "ranklens._surfaces.chunked.worker"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, env=env)

    def call(self, task: Any) -> Any:
        """The outcome of one task."""
        from ..._base.errors import RanklensError

        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            pickle.dump(task, self.process.stdin, protocol=pickle.HIGHEST_PROTOCOL)
            self.process.stdin.flush()
            return pickle.load(self.process.stdout)
        except (EOFError, BrokenPipeError, OSError):
            code = self.process.poll()
            raise RanklensError(
                "a worker process evaluating chunks ended unexpectedly (exit code "
                f"{code}); see its messages above, or pass jobs=1") from None

    def stop(self) -> None:
        """End the process (at once: its chunk is no longer wanted)."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()
