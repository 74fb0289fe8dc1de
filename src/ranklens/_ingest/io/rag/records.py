"""JSON records from a JSON Lines file or from Python (dicts, or pydantic objects)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from ...._base.errors import InputError
from ..trec.files import read_bytes

__all__ = ["field", "records", "source_name"]


def source_name(source: Any) -> str:
    """A path's text, else ``"<records>"``."""
    return str(source) if isinstance(source, (str, Path)) else "<records>"


def records(source: str | Path | Iterable[Any]) -> Iterator[tuple[int | None, Mapping[str, Any]]]:
    """``(line, record)`` of each object of ``source``: a ``.jsonl`` path (line numbers from
    1) or an iterable of mappings or pydantic models (line ``None``)."""
    name = source_name(source)
    if not isinstance(source, (str, Path, Iterable)) or isinstance(source, Mapping):
        raise InputError(f"expected a .jsonl path or a list of records; got "
                         f"{type(source).__name__}", source=name)
    items = _read_jsonl(str(source)) if isinstance(source, (str, Path)) else (
        (None, r) for r in source)
    for line, record in items:
        if hasattr(record, "model_dump"):
            record = record.model_dump()
        if not isinstance(record, Mapping):
            raise InputError(f"expected a JSON object, got {type(record).__name__}",
                             source=name, line=line)
        yield line, record


def _read_jsonl(path: str) -> Iterator[tuple[int | None, Any]]:
    """(line number, value) of each non-blank line of a JSON Lines file (compression
    undone); a line that is not JSON is an error naming the file and line."""
    text = read_bytes(path)
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            yield number, json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise InputError(f"not valid JSON: {exc}", source=path, line=number) from None


def field(record: Mapping[str, Any], path: str, name: str, line: int | None) -> Any:
    """The value at the dotted ``path`` of ``record``; an error naming the field if absent."""
    value: Any = record
    for key in path.split("."):
        if not isinstance(value, Mapping) or key not in value:
            raise InputError(f"record has no {path!r} field; found {sorted(record)}",
                             source=name, line=line)
        value = value[key]
    return value
