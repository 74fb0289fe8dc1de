"""Which module writes which format: one writer per format, for results and comparisons."""

from __future__ import annotations

from collections.abc import Callable

from . import delimited, jsonl, latex, markdown, text, trec
from .model import Table

__all__ = ["WRITERS", "write"]

#: format name -> the function writing a table in it
WRITERS: dict[str, Callable[[Table], str]] = {
    "table": text.render,
    "markdown": markdown.render,
    "latex": latex.render,
    "csv": lambda table: delimited.render(table, ","),
    "tsv": lambda table: delimited.render(table, "\t"),
    "jsonl": jsonl.render,
    "trec": trec.render}


def write(table: Table, fmt: str) -> str:
    """``table`` as text in the format ``fmt`` (a key of :data:`WRITERS`; the callers check
    the name against their own list, with their own message)."""
    return WRITERS[fmt](table)
