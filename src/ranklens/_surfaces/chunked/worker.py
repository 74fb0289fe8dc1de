"""A worker process evaluating chunks: ``python -m ranklens._surfaces.chunked.worker``.

Started as a fresh interpreter (not a fork: polars' thread pool does not survive one, and
not multiprocessing's spawn, which imports the caller's main module again: a script
without an ``if __name__ == "__main__"`` guard would evaluate itself once per worker). Its
environment sets ``POLARS_MAX_THREADS`` before polars is imported. It reads pickled tasks
(a name in ``engine.TASKS`` and its arguments) on standard input and writes each outcome,
pickled, on its own duplicate of standard output; anything else printed goes to standard
error.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
from typing import IO

from .engine import run_task

__all__ = ["serve"]


def serve(tasks: IO[bytes], out: IO[bytes]) -> None:
    """Evaluate each task read from ``tasks`` until it closes; write outcomes to ``out``."""
    while True:
        try:
            task = pickle.load(tasks)
        except EOFError:
            return
        pickle.dump(run_task(task), out, protocol=pickle.HIGHEST_PROTOCOL)
        out.flush()


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle
    protocol = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a stray print must not corrupt the outcomes
    serve(sys.stdin.buffer, protocol)
