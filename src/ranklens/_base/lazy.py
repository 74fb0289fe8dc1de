"""polars, imported on first use.

``import ranklens`` should not pay polars' import time (about half of it) when no data is
loaded yet: modules import ``pl`` from here, the proxy below at run time and polars itself
for type checkers.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__all__ = ["polars"]


class _LazyModule:
    """Stands in for a module; the first attribute lookup imports it."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        value = getattr(importlib.import_module(self._name), attr)
        setattr(self, attr, value)  # later lookups are plain attribute reads
        return value

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r}>"


if TYPE_CHECKING:
    import polars as polars
else:
    polars = _LazyModule("polars")
