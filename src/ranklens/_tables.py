"""The two columnar tables every input form is turned into.

Ids are kept as strings (trec_eval compares them byte-wise); relevance and scores are
float64, which holds every integer grade exactly and every score trec_eval 10.0 reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import polars as pl

__all__ = ["Qrels", "Run"]


@dataclass(frozen=True, eq=False)
class Qrels:
    """Relevance judgments: columns ``query_id``, ``doc_id`` (str) and ``relevance`` (f64).

    Build one with :func:`ranklens.load_qrels`.
    """

    frame: pl.DataFrame
    source: str = "<qrels>"
    # judgment-only alignment work, built on first evaluation: see ranklens._qrels_index
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    def __len__(self) -> int:
        return self.frame.height

    def __repr__(self) -> str:
        nq = self.frame["query_id"].n_unique() if self.frame.height else 0
        return f"Qrels({self.source!r}, {nq} queries, {self.frame.height} judgments)"


@dataclass(frozen=True, eq=False)
class Run:
    """A ranked result list: ``query_id``, ``doc_id`` (str), ``score`` (f64) and ``order``.

    ``order`` is the position of the row in the input (or the rank column of a run file
    when ties are broken by input order). ``name`` is the run tag (a TREC file's last
    column) or a name given by the caller. Build one with :func:`ranklens.load_run`.
    """

    frame: pl.DataFrame
    source: str = "<run>"
    name: str = "run"
    # run-only alignment work (ranked order, doc-id hashes), built on first evaluation:
    # see ranklens._run_index
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    def __len__(self) -> int:
        return self.frame.height

    def __repr__(self) -> str:
        nq = self.frame["query_id"].n_unique() if self.frame.height else 0
        return f"Run({self.source!r}, {nq} queries, {self.frame.height} rows)"
