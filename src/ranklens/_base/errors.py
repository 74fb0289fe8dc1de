"""Exceptions and warnings raised by ranklens.

Every problem ranklens detects is reported with one of these types, never a bare
``KeyError`` or an ``assert``::

    RanklensError                 base of everything below (a ValueError)
    ├── InputError                malformed or inconsistent qrels / run data;
    │                             carries ``source`` and ``line`` when known
    ├── MeasureError              a measure name or parameter that does not parse
    └── ParameterError            a bad option passed to a public function

    RanklensWarning               something was handled by a default policy
                                  (missing queries, ignored queries, ...)
"""

from __future__ import annotations

__all__ = [
    "InputError",
    "MeasureError",
    "ParameterError",
    "RanklensError",
    "RanklensWarning",
]


class RanklensError(ValueError):
    """Base class of every error ranklens raises on purpose."""


class InputError(RanklensError):
    """Qrels or run data that is malformed or inconsistent.

    Parameters
    ----------
    message : str
        What is wrong: what was expected and what was found.
    source : str, optional
        The file (or other input) the problem is in.
    line : int, optional
        1-based line number in ``source``.
    row : int, optional
        0-based row of the table the problem is in (the message names it too), so that a
        file reader can turn it into the file's line.
    """

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None,
                 row: int | None = None):
        self.source = source
        self.line = line
        self.row = row
        self.detail = message
        where = ""
        if source is not None:
            where = f"{source}:{line}: " if line is not None else f"{source}: "
        super().__init__(f"{where}{message}")


class MeasureError(RanklensError):
    """A measure name that does not parse, or a parameter it does not accept."""


class ParameterError(RanklensError):
    """An option of a public function outside its allowed values."""


class RanklensWarning(UserWarning):
    """A data condition was handled by a default policy; the message names the policy."""
