"""How many threads ranklens's own work may use while an evaluation runs (its ``jobs``),
and the one way it uses a second one: the next item of a sequence prepared while this
one is consumed.

Only the evaluation in progress sets it (:func:`using`), so a reader called on its own
(``ranklens.load_run``) works on the calling thread alone, as before. Threads, not
processes: the work handed to the second thread is polars' parser and NumPy over large
arrays, which release the GIL, and the tables it returns need no copy back.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextvars import ContextVar
from typing import TypeVar

__all__ = ["ahead", "jobs", "using"]

T = TypeVar("T")
U = TypeVar("U")

_JOBS: ContextVar[int] = ContextVar("ranklens_jobs", default=1)


def jobs() -> int:
    """The threads the evaluation in progress may use (1 outside of one)."""
    return _JOBS.get()


@contextlib.contextmanager
def using(n: int) -> Iterator[None]:
    """Within the block, :func:`jobs` is ``n``."""
    token = _JOBS.set(max(1, int(n)))
    try:
        yield
    finally:
        _JOBS.reset(token)


def ahead(items: Iterable[T], prepare: Callable[[T], U]
          ) -> Generator[tuple[T, U], None, None]:
    """Each item with ``prepare(item)``, in order; when :func:`jobs` > 1, the next item is
    drawn from ``items`` and prepared on a second thread while the caller consumes this one
    (one item ahead: at most two are held at once).

    Closing the iterator early (``contextlib.closing``) waits for the item in preparation
    (not on Ctrl-C) and prepares no other, so ``items`` can be closed right after; an
    exception raised by ``items`` or ``prepare`` is raised where its item would have been
    yielded.

    Examples
    --------
    >>> with using(2):
    ...     [pair for pair in ahead([1, 2, 3], lambda x: x * 10)]
    [(1, 10), (2, 20), (3, 30)]
    """
    source = iter(items)
    # (an item and what was prepared from it are let go of once handed over: a suspended
    # generator's locals would keep them alive while the next one is drawn and prepared)
    if jobs() == 1:
        for item in source:
            prepared = prepare(item)
            yield item, prepared
            del item, prepared
        return
    done = object()

    def step() -> tuple[T, U] | object:
        # only this thread advances ``source`` once the first step is submitted: the one
        # worker runs the steps one after another
        item = next(source, done)
        return done if item is done else (item, prepare(item))  # type: ignore[arg-type]

    pool = ThreadPoolExecutor(1, thread_name_prefix="ranklens-ahead")
    try:
        pending: Future[tuple[T, U] | object] = pool.submit(step)
        while True:
            got = pending.result()
            if got is done:
                return
            pending = pool.submit(step)
            yield got  # type: ignore[misc]
            del got
    finally:
        # Ctrl-C ends at once, not once the item in preparation is ready (it may wait on a
        # lock the interrupt left held)
        pool.shutdown(wait=not _interrupted(), cancel_futures=True)


def _interrupted() -> bool:
    """Whether a Ctrl-C is ending the block this is called from: raised in it, or the cause
    of the generator's closing."""
    exc = sys.exc_info()[1]
    return isinstance(exc, KeyboardInterrupt) or (
        isinstance(exc, GeneratorExit) and isinstance(exc.__context__, KeyboardInterrupt))
