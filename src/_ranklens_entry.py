"""The ``ranklens`` command's entry point, kept outside the package on purpose.

Importing ranklens takes a moment (numpy, the measures); a Ctrl-C in that moment must end
the command as one after start-up does (``ranklens: error: interrupted``, status 130), not
with a traceback. Importing this module installs that ending as Python's SIGINT handler, so
the console script is guarded from its first line of ranklens code; ``python -m ranklens``
imports it from ``ranklens/__init__.py`` first thing. The command line puts Python's own
handler back once its guard is in place (:func:`ranklens.cli.run`).
"""

from __future__ import annotations

import os
import sys

__all__ = ["quiet_interrupts", "run"]

#: polars's allocator (jemalloc, which reads this variable when polars is loaded): blocks
#: of 128 KiB and more are handed back to the system when freed, rather than kept for ten
#: seconds. A command reads its inputs, evaluates and ends within those seconds, so the
#: parser's freed buffers would otherwise stay counted in its memory (a lower peak at no
#: CPU cost; docs/benchmarks.md, "Why the code is shaped as it is").
#: A value the user set is kept.
ALLOCATOR = ("_RJEM_MALLOC_CONF", "oversize_threshold:131072")


def _interrupted(signum: int, frame: object) -> None:
    """End the process at once with the command's one line (nothing is written yet)."""
    os.write(2, b"ranklens: error: interrupted\n")
    os._exit(130)


def quiet_interrupts() -> None:
    """Make a Ctrl-C end the process with one line and status 130 until Python's handler
    is put back (``_signal``: a built-in module, imported in no time)."""
    import _signal

    _signal.signal(_signal.SIGINT, _interrupted)


quiet_interrupts()


def run() -> None:
    """Import the command line and run it; a Ctrl-C during the import ends it quietly."""
    if "polars" not in sys.modules:  # (python -m ranklens has imported nothing of it yet)
        os.environ.setdefault(*ALLOCATOR)
    quiet_interrupts()  # (again: a caller may have imported this module long before)
    try:
        from ranklens.cli import run as run_cli
    except KeyboardInterrupt:  # raised by a handler other than ours
        _interrupted(2, None)  # (2: SIGINT)
    run_cli()


if __name__ == "__main__":
    run()
