"""Judgment-only alignment work, done once per :class:`Qrels` and kept on it.

The judged queries in trec_eval order, each judgment's query number, the hash of its doc
id and the order of a query's judgments by grade depend on the judgments alone;
:func:`qrels_index` computes them on first use and caches them on the ``Qrels``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ._tables import Qrels

if TYPE_CHECKING:
    import polars as pl
else:  # imported on first use (see ranklens._lazy)
    from ._lazy import polars as pl

__all__ = ["QrelsIndex", "qrels_index"]


@dataclass(frozen=True, eq=False)
class QrelsIndex:
    """The judgments of a qrels table, numbered by query.

    Attributes
    ----------
    query_ids : the judged query ids, byte-wise ascending (trec_eval's order).
    queries : the same ids numbered (``query_id``, ``qidx``): the table looked up in.
    query_array : the same ids as an object array (what an alignment holds).
    code : index into ``query_ids`` of each judgment (row order of the frame).
    doc_hash : 64-bit hash of each judgment's doc id (``Series.hash(0)``).
    sorted_code, sorted_grade : ``code`` and grade (float) of every judgment, ordered by
        query, then grade descending (how every kernel reads a query's judgments).
    duplicated : whether a doc is judged twice for one query (then alignment takes the
        general path, which reports or removes the duplicates).

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


def qrels_index(qrels: Qrels) -> QrelsIndex:
    """The cached :class:`QrelsIndex` of ``qrels`` (built on first use)."""
    cache = qrels._cache
    if "index" not in cache:
        cache["index"] = _build(qrels)
    index: QrelsIndex = cache["index"]
    return index


def _build(qrels: Qrels) -> QrelsIndex:
    # deferred: _align imports this module
    from ._align import _pair_keys, _query_index, numbered

    qf = qrels.frame
    query_ids = qf["query_id"].unique().sort()
    queries = numbered(query_ids)
    code = _query_index(qf["query_id"], queries)
    doc_hash = qf["doc_id"].hash(0).to_numpy()
    keys = _pair_keys(code, doc_hash)
    duplicated = bool(keys.size) and pl.Series(keys).n_unique() < keys.size
    if duplicated:  # equal keys: equal pairs, or (rarely) a hash collision
        duplicated = bool(qf.select(pl.struct("query_id", "doc_id").is_duplicated())
                          .to_series().any())
    by_grade = (pl.DataFrame({"q": code, "g": qf["relevance"]})
                .select(pl.arg_sort_by(["q", "g"], descending=[False, True]))
                .to_series().to_numpy().astype(np.int64))
    query_list = query_ids.to_list()
    index = QrelsIndex(
        query_ids=query_list,
        queries=queries,
        query_array=np.array(query_list, dtype=object),
        code=code,
        doc_hash=doc_hash,
        sorted_code=code[by_grade],
        sorted_grade=qf["relevance"].to_numpy()[by_grade].astype(np.float64),
        duplicated=duplicated,
    )
    for arr in (index.query_array, index.code, index.doc_hash, index.sorted_code,
                index.sorted_grade):
        arr.flags.writeable = False
    return index
