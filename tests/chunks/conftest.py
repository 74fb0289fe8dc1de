"""The chunk tests force chunking on small files with limits of a few kilobytes: below the
floor a real limit must hold (the interpreters), which is then taken as zero."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def no_floor(monkeypatch: pytest.MonkeyPatch) -> None:
    """The interpreters cost nothing: a tiny limit is the data's alone."""
    from ranklens._surfaces.chunked import size

    monkeypatch.setattr(size, "PROCESS_BYTES", 0)
    monkeypatch.setattr(size, "MIN_CHUNK", 0)
