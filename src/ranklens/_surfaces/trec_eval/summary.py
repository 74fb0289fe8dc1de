"""trec_eval's summary and z-scores: the one place per-topic values are aggregated.

The summary is formed as trec_eval forms it, by the engine's aggregation
(:func:`ranklens._results.result.aggregate`: a sequential double sum over topics, then one division
for ``mean``, nothing more for ``sum``), ``exp`` of the mean of the stored logarithms for
``gmean`` (stored as logarithms so that ``-Z`` standardises the logarithm, as trec_eval
does); ``num_q`` counts topics. Z-scores (``-Z``) standardise each per-topic value by
a per-topic, per-measure mean and standard deviation read from a file.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

import numpy as np

from ..._base.errors import InputError
from ..._ingest.io._lines import c_atof, check_text, data_lines
from ..._ingest.io.trec.files import read_bytes
from ..._pipeline.assemble import aggregate
from .columns import Column

__all__ = ["MISSING_ZSCORE", "ZScores", "apply_zscores", "read_zscores", "summary_value"]

MISSING_ZSCORE = -1000000.0  # trec_eval's value for a topic or measure without statistics

# (topic, printed measure name) -> (mean, standard deviation)
ZScores = Mapping[tuple[str, str], tuple[float, float]]


def summary_value(column: Column, num_q: int) -> float:
    """The ``all`` value of ``column`` over ``num_q`` topics.

    Examples
    --------
    >>> summary_value(Column("P_5", "P", (0.2, 0.4), "mean"), 2)
    0.30000000000000004
    """
    if column.agg == "count":
        return float(num_q)
    values = np.asarray(column.values, dtype=np.float64)
    if column.agg == "sum":
        return aggregate(values, "sum")
    if num_q == 0:
        return 0.0
    if column.agg == "gmean":
        return math.exp(aggregate(values, "mean"))
    return aggregate(values, "mean")


def read_zscores(path: str | Path) -> dict[tuple[str, str], tuple[float, float]]:
    """A z-score file's ``topic measure mean stddev`` lines (numbers read as C's atof)."""
    source = str(path)
    data = read_bytes(path)
    check_text(data, source, "zscore lines")
    table: dict[tuple[str, str], tuple[float, float]] = {}
    for _, fields in data_lines(data, source, 4, "query measure mean stddev"):
        table[(fields[0], fields[1])] = (c_atof(fields[2]), c_atof(fields[3]))
    if not table:
        raise InputError("file is empty, expected zscore lines", source=source)
    return table


def apply_zscores(qids: list[str], columns: list[Column], table: ZScores) -> list[Column]:
    """The columns with each numeric per-topic value replaced by its z-score."""
    known_q = {q for q, _ in table}

    def z(v: float, entry: tuple[float, float] | None) -> float:
        if entry is None:
            return MISSING_ZSCORE
        if entry[1]:
            return (v - entry[0]) / entry[1]
        return 0.0 if v == entry[0] else MISSING_ZSCORE

    return [col if col.agg == "none" else replace(col, values=tuple(
        z(v, table.get((q, col.name)) if q in known_q else None)
        for q, v in zip(qids, col.values, strict=True))) for col in columns]
