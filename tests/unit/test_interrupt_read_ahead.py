"""Issue 39's catalogue: a Ctrl-C during start-up, while a run is read ahead on a second
thread, ends the evaluation at once; it does not wait on that thread (which may be held on
a lock the interrupt left taken, an import's)."""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path
from typing import Any

import pytest

import ranklens
from ranklens._base.threads import ahead, using
from ranklens._surfaces import evaluate as evaluate_module

QRELS = "q1 0 d1 1\n"
RUN = "q1 Q0 d1 1 1.0 r\n"


def _interrupted_in(call: Any) -> tuple[threading.Thread, list[BaseException]]:
    """``call`` on a thread of its own, what it raised, and the thread (alive: still
    waiting after a second)."""
    raised: list[BaseException] = []

    def target() -> None:
        try:
            call()
        except BaseException as exc:  # the interrupt is what is looked for
            raised.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(timeout=10)
    return thread, raised


def test_ctrl_c_while_a_run_is_read_ahead_ends_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels.write_text(QRELS)
    run.write_text(RUN)
    held = threading.Event()

    def read_held(*args: Any) -> Any:
        held.wait(60)  # the reading thread, held on a lock
        raise RuntimeError("released")

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(evaluate_module, "read_run", read_held)
    monkeypatch.setattr(evaluate_module, "load_qrels", interrupted)
    monkeypatch.setattr(evaluate_module, "resolve_jobs", lambda jobs: 2)
    try:
        thread, raised = _interrupted_in(
            lambda: ranklens.evaluate(str(qrels), [str(run), str(run)], "AP", jobs=2))
        assert not thread.is_alive(), "the interrupted evaluation waited on the reading thread"
        assert [type(e) for e in raised] == [KeyboardInterrupt]
    finally:
        held.set()


def test_ctrl_c_while_the_next_block_is_prepared_ends_at_once() -> None:
    started, held = threading.Event(), threading.Event()

    def prepare(item: int) -> int:
        if item:
            started.set()
            held.wait(60)  # the next block, held on a lock
        return item

    def consume() -> None:
        with using(2), contextlib.closing(ahead(iter([0, 1, 2]), prepare)) as blocks:
            for _ in blocks:
                started.wait(10)  # the interrupt comes while the next block is prepared
                raise KeyboardInterrupt

    try:
        thread, raised = _interrupted_in(consume)
        assert not thread.is_alive(), "the interrupted reader waited on its next block"
        assert [type(e) for e in raised] == [KeyboardInterrupt]
    finally:
        held.set()
