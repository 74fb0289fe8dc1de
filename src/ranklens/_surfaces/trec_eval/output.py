"""trec_eval's output: ``name<TAB>topic<TAB>value`` lines, byte for byte."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from .columns import Column
from .summary import summary_value
from .table import NO_SUMMARY

__all__ = ["format_value", "trec_eval_text"]


def format_value(column: Column, value: Any, zscores: bool) -> str:
    """One value as trec_eval prints it (``%ld``, ``%6.4f``, ``'text'``)."""
    if column.agg == "none":
        return f"'{value}'"
    if column.integer and not zscores:
        return str(int(value))
    if isinstance(value, float) and math.isnan(value):
        return "  -nan"  # glibc prints the NaN of 0/0 with its sign bit set
    return f"{value:6.4f}"


def trec_eval_text(qids: Sequence[str], columns: Sequence[Column], run_name: str, *,
                   per_query: bool, summary: bool, zscores: bool,
                   overrides: Mapping[str, float]) -> str:
    """Every line trec_eval prints: per topic (``per_query``), then the ``all`` summary.

    ``overrides``: summary values trec_eval does not form from the per-topic values
    (``num_rel`` under ``-c`` counts every relevant judgment).
    """
    lines: list[str] = []

    def row(col: Column, qid: str, value: Any) -> None:
        prefix = "" if col.agg == "none" or not zscores else "Z"  # trec_eval prints "Z%-22s"
        lines.append(f"{prefix}{col.name:<22}\t{qid}\t{format_value(col, value, zscores)}")

    if per_query:
        for i, q in enumerate(qids):
            for col in columns:
                if col.per_query:
                    row(col, q, col.values[i])
    if summary:
        for col in columns:
            if col.te == "runid":
                lines.append(f"{'runid':<22}\tall\t{run_name}")
                continue
            if col.te in NO_SUMMARY:
                continue
            value = overrides.get(col.te, summary_value(col, len(qids)))
            row(col, "all", value)
    return "".join(line + "\n" for line in lines)
