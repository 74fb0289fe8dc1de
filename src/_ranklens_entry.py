"""The ``ranklens`` command's entry point, kept outside the package on purpose.

Importing ranklens takes a moment (numpy, the measures); a Ctrl-C in that moment must end
the command as one after start-up does (``ranklens: error: interrupted``, status 130), not
with a traceback. A module inside the package could not catch it: the package is imported
before any of its modules' code runs.
"""

from __future__ import annotations

import os
import sys
from collections.abc import MutableMapping

__all__ = ["ALLOCATOR_SETTINGS", "allocator_settings", "run"]


#: polars's allocator (jemalloc) keeps freed pages resident for 10 s by default: a command
#: that lives a few seconds then peaks with the parser's freed buffers still counted. Given
#: back at once, peak RSS fell 10-18% (Robust x13 478 -> 401 MB, recsys 751-800 -> 655 MB,
#: msmarco ~400 -> 356 MB) at no measured cost in time (docs/benchmarks.md).
ALLOCATOR_SETTINGS = ("_RJEM_MALLOC_CONF", "dirty_decay_ms:0,muzzy_decay_ms:0")


def allocator_settings(environ: MutableMapping[str, str]) -> None:
    """Set :data:`ALLOCATOR_SETTINGS` in ``environ`` unless the user set that variable: it
    must be there before polars is imported, whose allocator reads it once."""
    name, value = ALLOCATOR_SETTINGS
    environ.setdefault(name, value)


def run() -> None:
    """Import the command line and run it; a Ctrl-C during the import ends it quietly."""
    allocator_settings(os.environ)
    try:
        from ranklens.cli import run as run_cli
    except KeyboardInterrupt:
        sys.stderr.write("ranklens: error: interrupted\n")
        sys.stderr.flush()
        os._exit(130)
    run_cli()


if __name__ == "__main__":
    run()
