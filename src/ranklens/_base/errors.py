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

from typing import Any

from .vocabulary import vocabulary_of

__all__ = ["DuplicateError", "InputError", "MeasureError", "ParameterError",
           "RanklensError", "RanklensWarning"]


class RanklensError(ValueError):
    """Base class of every error ranklens raises on purpose.

    An error carries itself across processes (a chunk's worker, a Spark bucket):
    :meth:`to_dict` gives a JSON-safe form and :func:`error_from_dict` the same error back,
    and pickling goes through them.
    """

    @property
    def message(self) -> str:
        """What is wrong, without where (an :class:`InputError`'s file and line)."""
        return str(self)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe form of this error: its class name and its fields."""
        return {"class": type(self).__name__, "message": self.message}

    def __reduce__(self) -> str | tuple[Any, ...]:
        if type(self).__name__ not in _CLASSES:  # a subclass elsewhere pickles as it likes
            return super().__reduce__()
        return error_from_dict, (self.to_dict(),)


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

    @property
    def message(self) -> str:
        return self.detail

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "source": self.source, "line": self.line,
                "row": self.row}


class DuplicateError(InputError):
    """A document given twice for one query under ``duplicates="error"``.

    The pair named is the first query's in trec_eval order (byte-wise), at ``first``, its
    first involved row of the table (``what``: "qrels" or "run"); ``rows`` counts the
    duplicated pairs; ``users``: the tables were read from user and item columns, so the
    message says users and items. The errors of several blocks of one table
    :meth:`combine` into the one the whole table gives, whatever the blocks.
    """

    def __init__(self, query_id: str, doc_id: str, rows: int, what: str, *,
                 source: str | None = None, first: int = 0, users: bool = False):
        self.query_id, self.doc_id, self.rows, self.what = query_id, doc_id, rows, what
        self.first, self.users = first, users
        w = vocabulary_of(users)
        query, doc = w.query, w.doc
        pairs = f"{rows} duplicated ({query}, {doc}) pair{'s' if rows != 1 else ''}"
        kept = "first occurrence in file order" if what == "qrels" else \
            "first (highest-ranked) occurrence"
        super().__init__(
            f"{doc} {doc_id!r} appears more than once for {query} {query_id!r} in the "
            f"{w.qrels if what == 'qrels' else w.run} ({pairs}); pass duplicates='first' "
            f"to keep only the {kept}", source=source)

    def to_dict(self) -> dict[str, Any]:
        # read as an InputError where the fields are not known
        return {**super().to_dict(), "class": "InputError", "duplicate": {
            "query_id": self.query_id, "doc_id": self.doc_id, "rows": self.rows,
            "what": self.what, "first": self.first, "users": self.users}}

    def at_row(self, first: int) -> DuplicateError:
        """This error with its first row at ``first`` (in a table holding this one's)."""
        return DuplicateError(self.query_id, self.doc_id, self.rows, self.what,
                              source=self.source, first=first, users=self.users)

    @staticmethod
    def combine(errors: list[DuplicateError]) -> DuplicateError:
        """The error of the table holding the rows of ``errors``' blocks (of whole
        queries): the first query's duplicate, every block's pairs counted."""
        head = min(errors, key=lambda e: (e.query_id.encode(), e.first))
        return DuplicateError(head.query_id, head.doc_id, sum(e.rows for e in errors),
                              head.what, source=head.source, first=head.first,
                              users=head.users)


class MeasureError(RanklensError):
    """A measure name that does not parse, or a parameter it does not accept."""


class ParameterError(RanklensError):
    """An option of a public function outside its allowed values."""


class RanklensWarning(UserWarning):
    """A data condition was handled by a default policy; the message names the policy."""


_CLASSES: dict[str, type[RanklensError]] = {cls.__name__: cls for cls in (
    RanklensError, InputError, DuplicateError, MeasureError, ParameterError)}


def error_from_dict(data: dict[str, Any]) -> RanklensError:
    """The error :meth:`RanklensError.to_dict` gave ``data`` of (a class it does not know:
    a :class:`RanklensError` with the same message)."""
    duplicate = data.get("duplicate")
    if duplicate is not None:
        return DuplicateError(source=data.get("source"), **duplicate)
    cls = _CLASSES.get(data["class"], RanklensError)
    if cls is InputError:
        return InputError(data["message"], source=data.get("source"), line=data.get("line"),
                          row=data.get("row"))
    return cls(data["message"])
