"""Which module writes which format: one writer per format, for results and comparisons."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from . import delimited, jsonl, latex, markdown, text, trec
from .model import Table

__all__ = ["LINES", "WRITERS", "write", "write_lines"]

#: format name -> its writer's lines, made as they are written: the formats of per-query
#: rows, which a chunked evaluation's output streams (the others are written whole)
LINES: dict[str, Callable[[Table], Iterator[str]]] = {
    "table": text.lines,
    "csv": lambda table: delimited.lines(table, ","),
    "tsv": lambda table: delimited.lines(table, "\t"),
    "jsonl": jsonl.lines,
    "trec": trec.lines}


def _whole(lines: Callable[[Table], Iterator[str]]) -> Callable[[Table], str]:
    """The writer of the text ``lines`` makes, at once."""
    return lambda table: "".join(lines(table))


#: format name -> the function writing a table in it
WRITERS: dict[str, Callable[[Table], str]] = {
    "markdown": markdown.render, "latex": latex.render,
    **{fmt: _whole(lines) for fmt, lines in LINES.items()}}


def write(table: Table, fmt: str) -> str:
    """``table`` as text in the format ``fmt`` (a key of :data:`WRITERS`; the callers check
    the name against their own list, with their own message)."""
    return WRITERS[fmt](table)


def write_lines(table: Table, fmt: str) -> Iterator[str]:
    """``table`` in the format ``fmt`` as pieces of text, made as they are consumed."""
    return LINES[fmt](table) if fmt in LINES else iter((WRITERS[fmt](table),))
