"""A spinner on standard error while big files are read or a Spark job runs (only when
stderr is a terminal)."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterable, Iterator

__all__ = ["BIG_FILE", "loading", "working"]

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
    names = ", ".join(f"{os.path.basename(p)} ({size / 2**20:.0f} MB)" for p, size in big)
    with working(f"Reading {names}", force=force) if big else contextlib.nullcontext():
        yield


@contextlib.contextmanager
def working(message: str, *, force: bool = False) -> Iterator[Callable[[str], None]]:
    """Show a rich spinner saying ``message`` while the block runs; the block is given a
    function that replaces the message (``Evaluating run.txt on Spark ...``).

    As for :func:`loading`, nothing is shown when standard error is not a terminal unless
    ``force`` is set.
    """
    if not (force or sys.stderr.isatty()):
        yield lambda text: None
        return
    from rich.console import Console

    console = Console(stderr=True, force_terminal=force or None)
    with console.status(f"{message} ...", spinner="dots") as status:
        yield lambda text: status.update(f"{text} ...")
