"""The line rules of TREC-style text files: qrels, runs, prefs, qrels_jg, z-scores.

Every such file is read line by line with trec_eval's rules (qrels and runs by the TREC
tokenizer, :mod:`ranklens._ingest.io.trec.tokens`): only ``\\n`` ends a line, only ASCII
blanks separate fields, blank lines and lines whose first field starts with ``#`` are
skipped, and a line with the wrong number of fields is an :class:`~ranklens.InputError`
naming the file, the line, what was expected and what was found.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TypeVar

from ..._base.c_numbers import c_atof, c_atol
from ..._base.errors import InputError

__all__ = ["at_lines", "c_atof", "c_atol", "check_text", "data_lines", "located",
           "strict_float", "strict_int", "text_lines", "without_bom"]

_BOM = b"\xef\xbb\xbf"
_T = TypeVar("_T")

_ASCII_BLANKS = " \t\r\x0b\x0c"
_BLANKS = re.compile(r"[ \t\r\x0b\x0c]+")
_INT = re.compile(r"[+-]?[0-9]+")


def located(build: Callable[[], _T], locate: Callable[[int, str], InputError | None]) -> _T:
    """``build()``; its error about a row of a table raised again where ``locate(row,
    detail)`` places that row in the input (as it was when ``locate`` places it nowhere)."""
    try:
        return build()
    except InputError as exc:
        if exc.row is None:
            raise
        found = locate(exc.row, exc.detail.removeprefix(f"row {exc.row}: "))
        if found is None:
            raise
        raise found from None


def at_lines(path: str, lines: Sequence[int]) -> Callable[[int, str], InputError | None]:
    """:func:`located`'s place of a row of a text file's table: its line, ``lines[row]``."""
    return lambda row, detail: (InputError(detail, source=path, line=lines[row])
                                if row < len(lines) else None)


def check_text(data: bytes, source: str, what: str = "at least one line") -> None:
    """Refuse an empty (or all-blank) file and binary data before tokenizing."""
    # the head first: stripping a whole large file copies it
    if not data[:65536].strip() and not data.strip():
        raise InputError(f"file is empty, expected {what}", source=source)
    if b"\x00" in data[:65536]:
        raise InputError("binary data (NUL bytes), expected a text file", source=source)


def without_bom(data: bytes) -> bytes:
    """``data`` without a leading UTF-8 byte order mark (Windows editors write one; left in,
    it would become part of the first query id)."""
    return data[len(_BOM):] if data.startswith(_BOM) else data


def text_lines(data: bytes, source: str) -> list[str]:
    """``data`` decoded as UTF-8 and split at ``\\n`` only (the C parsers' line ends:
    ``str.splitlines`` would also break at U+0085, U+2028 ...). A leading byte order mark
    is dropped."""
    data = without_bom(data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError("invalid UTF-8 text", source=source, line=line) from exc
    return text.split("\n")


def split_fields(line: str) -> list[str]:
    """The fields of one line, split at runs of ASCII blanks (never at U+00A0 and kin)."""
    stripped = line.strip(_ASCII_BLANKS)
    return _BLANKS.split(stripped) if stripped else []


def data_lines(data: bytes, source: str, fields: int | tuple[int, int | None],
               layout: str, hints: Mapping[int, str] | None = None,
               ) -> Iterator[tuple[int, list[str]]]:
    """``(line number, fields)`` of every data line, checking the number of fields.

    Parameters
    ----------
    data : bytes
        The file's bytes (decompressed).
    source : str
        The file's name, for error messages.
    fields : int or (int, int or None)
        The exact number of fields, or the least and most (None: no most).
    layout : str
        The fields' names, for error messages (``"query iter doc relevance"``).
    hints : mapping of int to str, optional
        A likely cause to add to the error when a line has that many fields (a run line in
        a qrels file: the two files were given in the wrong order).

    Examples
    --------
    >>> list(data_lines(b"# c\\nq1 0 d1 1\\n\\nq1 0 d2 0\\n", "qrels", 4, "q iter doc rel"))
    [(2, ['q1', '0', 'd1', '1']), (4, ['q1', '0', 'd2', '0'])]
    """
    least, most = (fields, fields) if isinstance(fields, int) else fields
    for lineno, line in enumerate(text_lines(data, source), 1):
        found = split_fields(line)
        if not found or found[0].startswith("#"):
            continue
        if len(found) < least or (most is not None and len(found) > most):
            want = (f"{least}" if least == most
                    else f"at least {least}" if most is None else f"{least} to {most}")
            hint = (hints or {}).get(len(found))
            raise InputError(f"expected {want} fields ({layout}), got {len(found)}"
                             + (f"; {hint}" if hint else ""), source=source, line=lineno)
        yield lineno, found


def strict_int(text: str) -> int:
    """An ASCII decimal integer (``int()`` alone would also take ``1_0`` and other digits)."""
    if not _INT.fullmatch(text):
        raise ValueError(text)
    return int(text)


def strict_float(text: str) -> float:
    """A float as Python spells it, ASCII only and without ``_`` separators."""
    if "_" in text or not text.isascii():
        raise ValueError(text)
    return float(text)
