"""Two runs' rankings of the same queries, paired document by document.

Each run is ranked as ``evaluate`` ranks it (:func:`ranklens._model.ranking.run_index`:
score descending, ties by doc id descending as trec_eval, or by input order with
``ties="input"``), read to the measure's depth, and the documents the two rankings share
are matched. A kernel then reads, per query, both lengths, the ranks of each shared
document in both, and each row's tied group (its first and last rank among equal scores).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..._base.errors import InputError
from ..._base.groups import group_offsets, group_ranks, ranges
from ..._base.lazy import polars as pl
from ..._ingest.tables import Run
from ..._measures._registry import MAX_CUTOFF
from ..._model.ranking import run_index

__all__ = ["MAX_DEPTH", "Pairing", "Side", "pair_runs", "query_set", "ranks", "top_rows"]

#: the deepest cutoff or pool depth read (one bound for measures, agreement and pools)
MAX_DEPTH = MAX_CUTOFF


@dataclass(frozen=True)
class Side:
    """One run's rankings of the paired queries, rows query by query, best first.

    Attributes
    ----------
    qidx : the query (index into the pairing's ``query_ids``) of each row.
    rank : the 1-based rank of each row.
    top, bottom : the first and last rank of the row's tied group (equal scores, within
        the depth read); both equal ``rank`` for an untied row.
    length : each query's number of rows.
    other : the row of the other side holding the same document, or -1.
    doc : each row's doc id.
    """

    qidx: np.ndarray
    rank: np.ndarray
    top: np.ndarray
    bottom: np.ndarray
    length: np.ndarray
    other: np.ndarray
    doc: pl.Series


@dataclass(frozen=True)
class Pairing:
    """Both runs' rankings of the same queries (``a`` and ``b``), documents matched."""

    query_ids: list[str]
    a: Side
    b: Side
    depth: int | None

    @property
    def nq(self) -> int:
        return len(self.query_ids)


def ranks(qidx: np.ndarray, nq: int) -> tuple[np.ndarray, np.ndarray]:
    """Each query's number of rows and each row's 1-based rank in its query (``qidx``:
    rows grouped by query, of ``nq`` queries)."""
    offsets = group_offsets(qidx, nq)
    return np.diff(offsets), group_ranks(qidx, offsets)


def query_set(run: Run, ties: str) -> list[str]:
    """The queries of ``run`` (those with rows, then those given empty), in its order."""
    ids = run_index(run, ties).query_ids.to_list()
    return ids + [q for q in run.empty_queries if q not in set(ids)]


def top_rows(run: Run, queries: list[str], ties: str, depth: int | None
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The run rows ranked in the top ``depth`` (all with None) of each of ``queries``:
    (query index of each, run row of each, score of each), query by query, best first. A
    query the run lacks or ranks empty has no row."""
    index = run_index(run, ties)
    if index.duplicated:
        rows, _ = index.duplicate_positions(run)
        at = rows[:1] if rows.size else np.zeros(1, dtype=np.int64)
        raise InputError(
            f"run {run.name!r} ({run.source}) ranks doc {run.doc_ids_at(index.src_at(at))[0]!r} "
            f"twice for query {index.query_ids[int(index.code_at(at)[0])]!r}; a ranking "
            "compared with another must hold each document once: remove the repeated row")
    # each query's place in the run index (-1: the run lacks it), one join for all
    numbered = pl.DataFrame({"q": index.query_ids.cast(pl.String),
                             "c": np.arange(index.query_ids.len(), dtype=np.int64)})
    code = (pl.DataFrame({"q": pl.Series(queries, dtype=pl.String)})
            .join(numbered, on="q", how="left", maintain_order="left")["c"]
            .fill_null(-1).to_numpy().astype(np.int64))
    # padded: a query the run lacks (code -1) reads an empty slice
    offsets = np.append(np.asarray(index.offsets, dtype=np.int64), 0)
    starts = offsets[code]
    lengths = np.where(code >= 0, offsets[code + 1] - starts, 0)
    if depth is not None:
        lengths = np.minimum(lengths, depth)
    qidx = np.repeat(np.arange(len(queries), dtype=np.int64), lengths)
    pos = ranges(starts, lengths)
    rows = index.src_at(pos) if pos.size else pos
    return qidx, rows.astype(np.int64), run.score[rows]


def _side(run: Run, queries: list[str], ties: str, depth: int | None
          ) -> tuple[Side, pl.DataFrame]:
    qidx, rows, score = top_rows(run, queries, ties, depth)
    n = qidx.size
    length, rank = ranks(qidx, len(queries))
    # tied groups: runs of equal scores within a query (ranked order keeps them adjacent)
    new = np.ones(n, dtype=bool)
    if n > 1:
        new[1:] = (qidx[1:] != qidx[:-1]) | (score[1:] != score[:-1])
    group = np.cumsum(new) - 1
    starts = np.flatnonzero(new)
    ends = np.append(starts[1:], n) - 1
    top = rank[starts][group] if n else rank
    bottom = rank[ends][group] if n else rank
    doc = run.doc_ids_at(rows)
    frame = pl.DataFrame({"q": qidx, "d": doc, "i": np.arange(n, dtype=np.int64)})
    return Side(qidx, rank, top, bottom, length, np.full(n, -1, dtype=np.int64), doc), frame


def pair_runs(run_a: Run, run_b: Run, queries: list[str], ties: str,
              depth: int | None) -> Pairing:
    """The two runs' rankings of ``queries`` to ``depth``, shared documents matched."""
    a, fa = _side(run_a, queries, ties, depth)
    b, fb = _side(run_b, queries, ties, depth)
    both = fa.join(fb, on=["q", "d"], how="inner")
    ia = both["i"].to_numpy().astype(np.int64)
    ib = both["i_right"].to_numpy().astype(np.int64)
    a.other[ia] = ib
    b.other[ib] = ia
    return Pairing(queries, a, b, depth)
