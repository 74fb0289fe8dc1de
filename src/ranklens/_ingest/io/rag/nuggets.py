"""nuggetizer's assigned nuggets (``assign`` output, answer and retrieval modes) as rows."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ...._base.errors import InputError
from ...._base.lazy import polars as pl
from .records import field, records, source_name

__all__ = ["read_nuggets"]


def read_nuggets(source: str | Path | Iterable[Any]) -> pl.DataFrame:
    """One row per assigned nugget: ``query_id``, ``key`` (the answer's ``run_id`` in answer
    mode, the candidate's ``docid`` in retrieval mode), ``nugget``, ``importance`` and
    ``assignment`` (``None`` for ``create``'s records, which assign nothing).

    Examples
    --------
    >>> read_nuggets([{"qid": "1", "docid": "d#0_1", "nuggets": [
    ...     {"text": "n", "importance": "vital", "assignment": "support"}]}]).row(0)
    ('1', 'd#0_1', 'n', 'vital', 'support')
    """
    name, rows = source_name(source), []
    for line, record in records(source):
        qid = str(field(record, "qid", name, line))
        key = record.get("docid", record.get("run_id"))
        for nugget in field(record, "nuggets", name, line):
            if not isinstance(nugget, dict) or "text" not in nugget:
                raise InputError(f"a nugget must be an object with 'text'; got {nugget!r:.60}",
                                 source=name, line=line)
            rows.append((qid, None if key is None else str(key), nugget["text"],
                         nugget.get("importance"), nugget.get("assignment")))
    return pl.DataFrame(rows, orient="row", schema=dict.fromkeys(
        ["query_id", "key", "nugget", "importance", "assignment"], pl.String))
