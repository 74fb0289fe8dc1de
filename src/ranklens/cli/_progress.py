"""A spinner on standard error while big files are read (only when stderr is a terminal)."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterable, Iterator

__all__ = ["BIG_FILE", "loading"]

BIG_FILE = 30 * 1024 * 1024  # bytes: below this, reading is too quick to be worth a spinner


def _big_files(paths: Iterable[str]) -> list[tuple[str, int]]:
    out = []
    for p in paths:
        if p == "-":
            continue
        try:
            size = os.path.getsize(p)
        except OSError:
            continue
        if size > BIG_FILE:
            out.append((p, size))
    return out


@contextlib.contextmanager
def loading(paths: Iterable[str], *, force: bool = False) -> Iterator[None]:
    """Show a rich spinner naming the files > 30 MB while the block runs.

    Nothing is shown when standard error is not a terminal (pipes, CI logs) unless
    ``force`` is set (used by tests).
    """
    big = _big_files(paths)
    if not big or not (force or sys.stderr.isatty()):
        yield
        return
    from rich.console import Console

    names = ", ".join(f"{os.path.basename(p)} ({size / 2**20:.0f} MB)" for p, size in big)
    console = Console(stderr=True, force_terminal=force or None)
    with console.status(f"Reading {names} ...", spinner="dots"):
        yield
