"""The ``ranklens`` command's entry point, kept outside the package on purpose.

Importing ranklens takes a moment (numpy, the measures); a Ctrl-C in that moment must end
the command as one after start-up does (``ranklens: error: interrupted``, status 130), not
with a traceback. A module inside the package could not catch it: the package is imported
before any of its modules' code runs.
"""

from __future__ import annotations

import os
import sys

__all__ = ["run"]

#: polars's allocator (jemalloc, which reads this variable when polars is loaded): blocks
#: of 128 KiB and more are handed back to the system when freed, rather than kept for ten
#: seconds. A command reads its inputs, evaluates and ends within those seconds, so the
#: parser's freed buffers would otherwise stay counted in its memory (a lower peak at no
#: CPU cost; docs/benchmarks.md, "Why the code is shaped as it is").
#: A value the user set is kept.
ALLOCATOR = ("_RJEM_MALLOC_CONF", "oversize_threshold:131072")


def run() -> None:
    """Import the command line and run it; a Ctrl-C during the import ends it quietly."""
    if "polars" not in sys.modules:  # (python -m ranklens has imported nothing of it yet)
        os.environ.setdefault(*ALLOCATOR)
    try:
        from ranklens.cli import run as run_cli
    except KeyboardInterrupt:
        sys.stderr.write("ranklens: error: interrupted\n")
        sys.stderr.flush()
        os._exit(130)
    run_cli()


if __name__ == "__main__":
    run()
