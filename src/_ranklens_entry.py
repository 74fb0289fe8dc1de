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


def run() -> None:
    """Import the command line and run it; a Ctrl-C during the import ends it quietly."""
    try:
        from ranklens.cli import run as run_cli
    except KeyboardInterrupt:
        sys.stderr.write("ranklens: error: interrupted\n")
        sys.stderr.flush()
        os._exit(130)
    run_cli()


if __name__ == "__main__":
    run()
