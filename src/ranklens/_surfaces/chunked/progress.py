"""A progress bar on standard error while chunks are written and evaluated (only when
standard error is a terminal)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["Progress", "on_terminal"]


class Progress:
    """Tasks shown by a rich progress display, or nothing (``display`` None)."""

    def __init__(self, display: Any) -> None:
        self.display = display

    @contextlib.contextmanager
    def task(self, what: str, total: int | None = None) -> Iterator[Callable[[], None]]:
        """A task; the block is given a function that counts one step done."""
        if self.display is None:
            yield lambda: None
            return
        task = self.display.add_task(what, total=total)
        try:
            yield lambda: self.display.advance(task)
        finally:
            self.display.remove_task(task)

    def close(self) -> None:
        if self.display is not None:
            self.display.stop()


def on_terminal(force: bool = False) -> Progress:
    """A :class:`Progress` drawing on standard error when it is a terminal (or ``force``)."""
    if not (force or sys.stderr.isatty()):
        return Progress(None)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, SpinnerColumn, TextColumn
    from rich.progress import Progress as RichProgress

    display = RichProgress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                           MofNCompleteColumn(), transient=True,
                           console=Console(stderr=True, force_terminal=force or None))
    display.start()
    return Progress(display)
