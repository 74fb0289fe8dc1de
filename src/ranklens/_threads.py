"""How many threads ranklens's own work may use while an evaluation runs (its ``jobs``),
and the one way it uses more: the next items of a sequence prepared while this one is
consumed.

Only the evaluation in progress sets it (:func:`using`), so a reader called on its own
(``ranklens.load_run``) works on the calling thread alone, as before. Threads, not
processes: the work handed to the second thread is polars' parser and NumPy over large
arrays, which release the GIL, and the tables it returns need no copy back.
"""

from __future__ import annotations

import contextlib
import threading
from collections import deque
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


def ahead(items: Iterable[T], prepare: Callable[[T], U], depth: int = 1
          ) -> Generator[tuple[T, U], None, None]:
    """Each item with ``prepare(item)``, in order; when :func:`jobs` > 1, the next items
    are drawn from ``items`` and prepared on other threads while the caller consumes this
    one: ``min(depth, jobs())`` of them at once, each on its own thread (so at most
    ``depth + 1`` are held at once).

    The items are drawn in order, one thread at a time; closing the iterator early
    (``contextlib.closing``) waits for the items in preparation and prepares no other, so
    ``items`` can be closed right after; an exception raised by ``items`` or ``prepare``
    is raised where its item would have been yielded.

    Examples
    --------
    >>> with using(2):
    ...     [pair for pair in ahead([1, 2, 3], lambda x: x * 10)]
    [(1, 10), (2, 20), (3, 30)]
    >>> with using(2):
    ...     [pair for pair in ahead([1, 2, 3], lambda x: x * 10, depth=2)]
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
    width = max(1, min(depth, jobs()))
    done = object()
    turn = [0]  # the ticket of the next item to draw
    drawing = threading.Condition()

    def step(ticket: int) -> tuple[T, U] | object:
        # the steps draw in the order of their tickets (they start in that order: the
        # pool takes them first in, first out, so a ticket's predecessor is never left
        # waiting behind it), then prepare their items at once
        with drawing:
            drawing.wait_for(lambda: turn[0] == ticket)
            try:
                item = next(source, done)
            finally:
                turn[0] += 1
                drawing.notify_all()
        return done if item is done else (item, prepare(item))  # type: ignore[arg-type]

    pool = ThreadPoolExecutor(width, thread_name_prefix="ranklens-ahead")
    try:
        pending: deque[Future[tuple[T, U] | object]] = deque(
            pool.submit(step, ticket) for ticket in range(width))
        ticket = width
        while True:
            got = pending.popleft().result()
            if got is done:
                return
            pending.append(pool.submit(step, ticket))
            ticket += 1
            yield got  # type: ignore[misc]
            del got
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
