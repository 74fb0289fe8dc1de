"""Run rows -> judgments: the judgment index of a qrels table and the matching of ranked
rows to judgments.

Rows are matched on the 64-bit pair keys of :mod:`ranklens._model.keys`, then every match
is confirmed on the query number and the doc id string; any unconfirmed or ambiguous match
(a hash collision) sends the candidates through an exact join on the strings instead. So
string work stays proportional to the judgments and the matches, never to the run rows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import polars as pl
else:  # imported on first use (see ranklens._lazy)
    from .._lazy import polars as pl

from .._tables import Qrels, Slot
from .keys import numbered, pair_keys, query_index
from .keyset import KeySet

__all__ = ["QRELS_INDEX", "QrelsIndex", "grades", "match_keys", "qrels_index"]


@dataclass(frozen=True, eq=False)
class QrelsIndex:
    """The judgments of a qrels table, numbered by query.

    Attributes
    ----------
    query_ids : the judged query ids, byte-wise ascending (trec_eval's order).
    queries : the same ids numbered (``query_id``, ``qidx``): the table looked up in.
    query_array : the same ids as an object array (what an alignment holds).
    code : index into ``query_ids`` of each judgment (row order of the frame; int32 when
        it holds the numbers).
    doc_hash : 64-bit hash of each judgment's doc id (``Series.hash(0)``).
    sorted_code, sorted_grade : ``code`` and grade (float) of every judgment, ordered by
        query, then grade descending (how every kernel reads a query's judgments).
    duplicated : whether a doc is judged twice for one query (alignment then applies the
        duplicates policy).

    Every array is read-only.
    """

    query_ids: list[str]
    queries: pl.DataFrame
    query_array: np.ndarray
    code: np.ndarray
    doc_hash: np.ndarray
    sorted_code: np.ndarray
    sorted_grade: np.ndarray
    duplicated: bool


#: where a qrels table keeps its :class:`QrelsIndex`
QRELS_INDEX: Slot[QrelsIndex] = Slot("qrels index")


def qrels_index(qrels: Qrels) -> QrelsIndex:
    """The :class:`QrelsIndex` of ``qrels``, kept on it (built on first use)."""
    return qrels._derived.get(QRELS_INDEX, lambda: _build(qrels))


def _build(qrels: Qrels) -> QrelsIndex:
    qf = qrels.frame
    query_ids = qf["query_id"].unique().sort()
    queries = numbered(query_ids)
    # where the reader marked the starts of query blocks (a one-off, as for runs)
    code = query_index(qf["query_id"], queries, qrels._hints.take_block_starts())
    doc_hash = qf["doc_id"].hash(0).to_numpy()
    duplicated = _repeated_keys(code, doc_hash)
    if duplicated:  # equal keys: equal pairs, or (rarely) a hash collision
        duplicated = bool(qf.select(pl.struct("query_id", "doc_id").is_duplicated())
                          .to_series().any())
    grade = qf["relevance"].to_numpy()
    by_grade = _by_query_then_grade(code, grade)
    query_list = query_ids.to_list()
    index = QrelsIndex(
        query_ids=query_list,
        queries=queries,
        query_array=np.array(query_list, dtype=object),
        code=code,
        doc_hash=doc_hash,
        sorted_code=code[by_grade].astype(np.int64, copy=False),  # what kernels read
        sorted_grade=grade[by_grade].astype(np.float64, copy=False),
        duplicated=duplicated,
    )
    for arr in (index.query_array, index.code, index.doc_hash, index.sorted_code,
                index.sorted_grade):
        arr.flags.writeable = False
    return index


def _repeated_keys(code: np.ndarray, doc_hash: np.ndarray) -> bool:
    """Whether two judgments share a pair key (equal pairs, or a hash collision); the keys
    are a temporary, freed before the index's own arrays are made (a lower peak)."""
    keys = pair_keys(code, doc_hash)
    return bool(keys.size) and pl.Series(keys).n_unique() < keys.size


def _by_query_then_grade(code: np.ndarray, grade: np.ndarray) -> np.ndarray:
    """The order of the judgments by query number ``code``, then grade descending.

    numpy's lexsort rather than polars' multi-column arg sort: at 10^6 judgments the
    latter takes ~15x as long (0.34 s against 0.02 s for Robust x13's 1.67M judgments).
    """
    return np.lexsort((-grade, code))


#: ranked rows few enough for the KeySet whatever the judgments' share (see match_keys)
_SMALL = 1 << 16


def match_keys(keys: np.ndarray, jkeys: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """Positions (ascending) in ``keys`` whose key is in ``jkeys``, and the index into
    ``jkeys`` of each; the index is None when some position matches two entries of
    ``jkeys`` (a key repeated there): then the positions are those of every match.

    With few judgments next to the ranked rows (MS MARCO: one per thousand), or few keys
    in all (a TREC DL run: 43,000 rows, 9,260 judgments), the rows are looked up in a
    :class:`~ranklens._model.keyset.KeySet` of the judgments; otherwise one hash join does
    it (the join's fixed cost outweighs the KeySet's NumPy passes only on small inputs:
    0.85 against 1.35 ms CPU at the DL size, 0.03 against 0.54 ms at a tenth of it, but
    2.6 against 1.8 ms at 100,000 rows and 25,000 judgments).
    """
    m = jkeys.size
    if m == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    small = keys.size <= _SMALL and m * 4 <= keys.size
    if m * 256 > keys.size and not small:
        # lazily: the planned join is faster than the eager one (~15% at 10M x 1M keys)
        pairs = (pl.LazyFrame({"key": jkeys}).with_row_index("row")
                 .join(pl.LazyFrame({"key": keys}).with_row_index("pos"), on="key",
                       how="inner")
                 .sort("pos")
                 .collect())
        pos = pairs["pos"].to_numpy().astype(np.int64)
        if pos.size > 1 and (pos[1:] == pos[:-1]).any():
            return np.unique(pos), None
        return pos, pairs["row"].to_numpy().astype(np.int64)
    ks = KeySet(jkeys)
    pos, at = ks.find(keys)
    return (pos, None) if ks.repeated else (pos, ks.order[at])


def grades(keys: np.ndarray, query_at: Callable[[np.ndarray], np.ndarray],
           doc_ids_at: Callable[[np.ndarray], pl.Series],
           judgments: pl.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """The positions (ascending) of the ranked rows that have a judgment, and its grade.

    Parameters
    ----------
    keys : np.ndarray
        The pair key of each ranked row.
    query_at : callable
        The query number (the judgments' ``qidx``) of the ranked rows at given positions.
    doc_ids_at : callable
        The doc ids of the ranked rows at given positions.
    judgments : pl.DataFrame
        ``qidx``, ``doc_id``, ``relevance`` and ``key`` of each judgment.

    Returns
    -------
    positions, grades : np.ndarray
        int64 positions (ascending) and float64 grades.
    """
    jkeys = judgments["key"].to_numpy()
    pos, rows = match_keys(keys, jkeys)
    doc_ids = doc_ids_at(pos)
    exact = (
        rows is not None  # each row matched at most one judgment
        and bool((judgments["qidx"].to_numpy()[rows] == query_at(pos)).all())
        and bool((judgments["doc_id"].gather(rows) == doc_ids).all())
    )
    if exact:
        return pos, judgments["relevance"].to_numpy()[rows].astype(np.float64, copy=False)
    by_string = (
        pl.DataFrame({"qidx": query_at(pos), "doc_id": doc_ids, "pos": pos})
        .join(judgments.select("qidx", "doc_id", "relevance"), on=["qidx", "doc_id"],
              how="inner")
        .sort("pos")
    )
    return (by_string["pos"].to_numpy().astype(np.int64),
            by_string["relevance"].to_numpy().astype(np.float64))
