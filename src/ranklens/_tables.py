"""The two columnar tables every input form is turned into.

Ids are kept as strings (trec_eval compares them byte-wise); relevance and scores are
float64, which holds every integer grade exactly and every score trec_eval 10.0 reads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ._groups import locate

if TYPE_CHECKING:
    import polars as pl
else:  # imported on first use (see ranklens._lazy)
    from ._lazy import polars as pl

__all__ = ["Qrels", "Run", "query_blocks"]


@dataclass(frozen=True, eq=False)
class Qrels:
    """Relevance judgments: columns ``query_id``, ``doc_id`` (str) and ``relevance`` (f64).

    Build one with :func:`ranklens.load_qrels`.
    """

    frame: pl.DataFrame
    source: str = "<qrels>"
    # judgment-only alignment work, built by load_qrels or on first evaluation: see
    # ranklens._qrels_index
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    def __len__(self) -> int:
        return self.frame.height

    def __repr__(self) -> str:
        nq = self.frame["query_id"].n_unique() if self.frame.height else 0
        return f"Qrels({self.source!r}, {nq} queries, {self.frame.height} judgments)"


def query_blocks(query_ids: pl.Series,
                 new: pl.Series | None = None) -> tuple[pl.Series, np.ndarray]:
    """The blocks of adjacent rows with one query id: each block's id and length (int64).
    ``new`` marks the rows that start a block, when the caller has it already."""
    if new is None:
        new = (query_ids != query_ids.shift(1)).fill_null(True)
    starts = new.arg_true().to_numpy().astype(np.int64)
    return query_ids.gather(starts), np.diff(np.append(starts, query_ids.len()))


class Run:
    """A ranked result list: ``query_id``, ``doc_id`` (str), ``score`` (f64) and ``order``.

    ``order`` is the position of the row in the input (used when ties are broken by input
    order). ``name`` is the run tag (a TREC file's last column) or a name given by the
    caller. Build one with :func:`ranklens.load_run`.

    Runs list each query's documents together, so a query id is stored once per block of
    adjacent rows (``block_ids``, ``block_lengths``), not once per row: at MS MARCO scale
    that is 7,000 strings instead of 7,000,000. :attr:`frame` rebuilds the row table on
    demand.

    A run read from a file for one set of judgments may keep the doc ids of only the rows
    that can matter to it (tied scores, judged doc ids; see ``read_trec_run``): then
    :attr:`doc_id` reads the file again the first time every row's is asked for.
    """

    __slots__ = ("_cache", "_doc_id", "_partial", "block_ids", "block_lengths", "name",
                 "score", "source")

    def __init__(self, frame: pl.DataFrame, source: str = "<run>", name: str = "run") -> None:
        block_ids, lengths = query_blocks(frame["query_id"])
        self._set(block_ids, lengths, frame["doc_id"], frame["score"].to_numpy(), source, name)

    @classmethod
    def from_blocks(cls, block_ids: pl.Series, block_lengths: np.ndarray, doc_id: pl.Series,
                    score: np.ndarray, source: str = "<run>", name: str = "run", *,
                    partial: tuple[np.ndarray, Callable[[], pl.Series]] | None = None) -> Run:
        """A run from its columns: the query id of each block of adjacent rows, the block
        lengths, and each row's doc id and score.

        With ``partial=(rows, restore)`` (``rows`` ascending), ``doc_id`` holds the doc ids
        of those rows only, and ``restore()`` gives every row's when one is asked for.
        """
        run = cls.__new__(cls)
        run._set(block_ids, block_lengths, doc_id, score, source, name)
        run._partial = partial
        return run

    def _set(self, block_ids: pl.Series, block_lengths: np.ndarray, doc_id: pl.Series,
             score: np.ndarray, source: str, name: str) -> None:
        score = np.ascontiguousarray(score, dtype=np.float64)
        score.flags.writeable = False
        block_lengths = np.asarray(block_lengths, dtype=np.int64)
        block_lengths.flags.writeable = False
        self.block_ids = block_ids.alias("query_id")
        self.block_lengths = block_lengths
        self._doc_id = doc_id.alias("doc_id")  # of the rows in _partial, if set
        # (rows whose doc ids _doc_id holds, how to read every row's) or None: all are held
        self._partial: tuple[np.ndarray, Callable[[], pl.Series]] | None = None
        self.score = score
        self.source = source
        self.name = name
        # run-only alignment work (ranked order, pair keys), built by load_run or on first
        # evaluation: see ranklens._run_index
        self._cache: dict = {}

    @property
    def doc_id(self) -> pl.Series:
        """The doc id of every row."""
        if self._partial is not None:
            self._doc_id = self._partial[1]().alias("doc_id")
            self._partial = None
        return self._doc_id

    def doc_ids_at(self, rows: np.ndarray) -> pl.Series:
        """The doc ids of the rows ``rows`` (restoring every row's only when some of
        ``rows`` were not kept)."""
        if self._partial is not None:
            kept = self._partial[0]
            if rows.size == 0:
                return self._doc_id.clear()
            if kept.size:
                at, hit = locate(kept, rows)
                if hit.all():
                    return self._doc_id.gather(at)
        return self.doc_id.gather(rows)

    @property
    def query_id(self) -> pl.Series:
        """The query id of every row (built on demand)."""
        blocks = np.repeat(np.arange(self.block_lengths.size), self.block_lengths)
        return self.block_ids.gather(blocks)

    @property
    def frame(self) -> pl.DataFrame:
        """The rows as a table: ``query_id``, ``doc_id``, ``score``, ``order`` (built on
        demand, not kept)."""
        n = len(self)
        return pl.DataFrame({
            "query_id": self.query_id,
            "doc_id": self.doc_id,
            "score": self.score,
            "order": np.arange(n, dtype=np.int64),
        }, schema={"query_id": pl.String, "doc_id": pl.String, "score": pl.Float64,
                   "order": pl.Int64})

    def __len__(self) -> int:
        return int(self.score.size)

    def __repr__(self) -> str:
        nq = self.block_ids.n_unique() if self.block_ids.len() else 0
        return f"Run({self.source!r}, {nq} queries, {len(self)} rows)"
