"""The one place an evaluation's engine is chosen (its thresholds: :mod:`ranklens._base.tuning`).

Every engine gives the same values; they differ in speed and memory. ``evaluate`` and
``Judgments.evaluate`` ask :func:`choose_engine` before anything is read:

- ``"chunked"``: files larger than the memory limit (or a directory of Parquet files) are
  cut into chunks on disk, each a block of the block driver
  (:mod:`ranklens._surfaces.chunked`; the rule: :func:`~.chunked.choose.chunking`);
- ``"dicts"``: one run and its judgments given as nested dicts are aligned without tables
  (:mod:`ranklens._pipeline.dicts`), unless the data or the plan do not fit that path
  (more than :data:`~ranklens._base.tuning.DICT_ROWS` rows, ids that are not strings, ...),
  which is known once the dicts are read and sends them to the tables;
- ``"tables"``: everything else, loaded as tables; a run judged deeply is computed a query
  subset at a time by the block driver (:func:`query_subsets`, from the loaded sizes).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .._base.lazy import polars as pl
from .._base.tuning import SUBSET_ROWS, SUBSET_SHARE, SUBSETS
from .._ingest.tables import Qrels, Run, SubtopicQrels
from .._model.items import ItemContext
from .._model.subsets import judged_query_ids, subset_bounds
from .._pipeline.plan import Plan
from .chunked.choose import Chunking, chunking

__all__ = ["EngineChoice", "by_subsets", "choose_engine", "query_subsets"]


@dataclass(frozen=True)
class EngineChoice:
    """The engine of an evaluation, and its chunking when it is ``"chunked"``."""

    engine: Literal["chunked", "dicts", "tables"]
    chunks: Chunking | None = None


def choose_engine(plan: Plan, qrels: Any, runs: Sequence[Any], *, several: bool,
                  dict_judgments: bool, context: ItemContext | None = None,
                  memory_limit: Any = None, jobs: Any = None) -> EngineChoice:
    """The engine that evaluates ``runs`` against ``qrels`` as given (paths, objects).

    ``several``: the runs were given as several; ``dict_judgments``: the judgments were
    given as nested dicts; ``context``: the beyond-accuracy measures' item tables (read in
    memory, so never chunked).
    """
    chunks = None if context is not None else chunking(plan, qrels, runs, memory_limit, jobs)
    if chunks is not None:
        return EngineChoice("chunked", chunks)
    if not several and context is None and dict_judgments and type(runs[0]) is dict:
        return EngineChoice("dicts")
    return EngineChoice("tables")


def by_subsets(judgments: int, rows: int) -> bool:
    """Whether a run of ``rows`` ranked rows against ``judgments`` is computed by query
    subsets (when the judgments have enough queries)."""
    return rows >= SUBSET_ROWS and judgments >= SUBSET_SHARE * rows


def query_subsets(qrels: Qrels | SubtopicQrels, run: Run,
                  context: ItemContext | None = None) -> pl.Series | None:
    """The bounds of the query subsets a loaded run of the ``"tables"`` engine is computed
    in (:func:`ranklens._pipeline.subsets.compute_run`), None for all queries at once:
    plain judgments without item tables, judged deeply (:func:`by_subsets`), with enough
    queries for :data:`~ranklens._base.tuning.SUBSETS` subsets."""
    if context is not None or not isinstance(qrels, Qrels) or qrels.unretrieved is not None \
            or not by_subsets(len(qrels), len(run)):
        return None
    judged = judged_query_ids(qrels)
    return subset_bounds(judged, SUBSETS) if judged.len() >= 2 * SUBSETS else None
