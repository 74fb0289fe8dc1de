"""Run rows -> judgments: the judgment index of a qrels table and the matching of ranked
rows to judgments.

Rows are matched on the 64-bit pair keys of :mod:`ranklens._model.keys`, then every match
is confirmed on the query number and the doc id string; any unconfirmed or ambiguous match
(a hash collision) sends the candidates through an exact join on the strings instead. So
string work stays proportional to the judgments and the matches, never to the run rows.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from .._base.groups import locate, maybe_duplicated
from .._base.lazy import polars as pl
from .._base.threads import jobs
from .._base.tuning import KEYSET_ROWS as _SMALL
from .._base.tuning import MEMBERSHIP_ROWS as _MEMBERSHIP
from .._ingest.hashcodes import HashCodes, doc_hashes
from .._ingest.tables import Qrels, Slot, query_blocks
from .keys import PairKeys, index_dtype, judgment_order, numbered, sorted_blocks
from .keyset import KeySet

__all__ = ["NOT_JUDGED", "NO_NUMBER", "QRELS_INDEX", "JudgedPairs", "QrelsIndex",
           "doc_numbers", "grades", "match_keys", "qrels_index"]


@dataclass(frozen=True, eq=False)
class QrelsIndex:
    """The judgments of a qrels table, numbered by query.

    Attributes
    ----------
    query_ids : the judged query ids, byte-wise ascending (trec_eval's order).
    queries : the same ids numbered (``query_id``, ``qidx``): the table looked up in.
    query_array : the same ids as an object array (what an alignment holds).
    code : index into ``query_ids`` of each judgment (row order of the frame; int32 when
        it holds the numbers); for judgments held as codes, None: :meth:`query_codes`
        derives it from ``pairs`` (the keys hold it).
    doc_hash : 64-bit hash of each judgment's doc id (``Series.hash(0)``); for
        judgments held as codes, built on first use (:meth:`doc_values`).
    sorted_code, sorted_grade : ``code`` and grade (float) of every judgment, ordered by
        query, then grade descending (how every kernel reads a query's judgments).
    duplicated : whether a doc is judged twice for one query (alignment then applies the
        duplicates policy).

    Every array is read-only.
    """

    query_ids: list[str]
    queries: pl.DataFrame
    query_array: np.ndarray
    code: np.ndarray | None
    doc_hash: np.ndarray | None
    sorted_code: np.ndarray
    sorted_grade: np.ndarray
    duplicated: bool
    #: the judgments held as codes, as exact pair keys (None: judgments held as strings)
    pairs: JudgedPairs | None = None
    _hashes: dict[bool, np.ndarray] = field(default_factory=dict, repr=False)

    def query_codes(self) -> np.ndarray:
        """:attr:`code` (for judgments held as codes, made anew from the pair keys)."""
        if self.code is not None:
            return self.code
        pairs = self.pairs
        assert pairs is not None
        queries = pairs.scheme.query_of(pairs.keys).astype(index_dtype(len(self.query_ids)))
        if pairs.rows is None:
            return queries
        code = np.empty_like(queries)
        code[pairs.rows] = queries
        return code

    def doc_values(self, qrels: Qrels, numbers: bool = False) -> np.ndarray:
        """:attr:`doc_hash` of the judgments of ``qrels`` (built on first use for judgments
        held as codes), or with ``numbers`` their :func:`doc_numbers` (for a run whose
        doc ids are held as numbers)."""
        if self.doc_hash is not None and not numbers:
            return self.doc_hash
        if numbers not in self._hashes:
            hashed = doc_numbers if numbers else doc_hashes
            pairs = self.pairs
            doc_hash = hashed(qrels.frame["doc_id"]) if pairs is None else \
                hashed(pairs.dictionary)[pairs.doc_code]
            doc_hash.flags.writeable = False
            self._hashes[numbers] = doc_hash
        return self._hashes[numbers]


@dataclass(frozen=True, eq=False)
class JudgedPairs:
    """Judgments held as codes (:class:`ranklens._ingest.tables.CodedJudgments`), ready for
    exact matching: each judgment's (query number, doc code) as one integer key.

    Attributes
    ----------
    keys : the exact :class:`~ranklens._model.keys.PairKeys` (``scheme``) of every
        judgment, ascending.
    rows : the judgment row of each key (None: the rows are in key order already, as
        TREC qrels sorted by query and doc id are).
    dictionary : the distinct doc ids; a doc code indexes it.
    doc_code : each judgment row's doc code (uint32).
    """

    keys: np.ndarray
    rows: np.ndarray | None
    dictionary: pl.Series
    doc_code: np.ndarray
    scheme: PairKeys
    _table: list[HashCodes | None] = field(default_factory=list, repr=False)

    def codes_of(self, doc_ids: pl.Series) -> np.ndarray:
        """The doc code of each of ``doc_ids`` (strings), :data:`NOT_JUDGED` where the
        dictionary has none (a fresh, writable array).

        The ids' 64-bit hashes are looked up in the dictionary's
        (:class:`~ranklens._ingest.hashcodes.HashCodes`), and each id found is compared with its
        code's: one that only shares a hash with a judged doc is not judged. When two of
        the dictionary's own ids share a hash, the strings are looked up instead (a cast
        to the Enum of the dictionary, several times slower).
        """
        if not self._table:
            hashes = doc_hashes(self.dictionary)
            distinct = pl.Series(hashes).n_unique() == hashes.size
            self._table.append(HashCodes(hashes) if distinct else None)
        table = self._table[0]
        if table is None:
            found = doc_ids.cast(pl.Enum(self.dictionary), strict=False).to_physical()
            return found.fill_null(NOT_JUDGED).to_numpy().astype(np.uint32)
        codes = np.empty(doc_ids.len(), dtype=np.uint32)
        for i in range(0, codes.size, _STEP):  # a slice at a time: small temporaries
            ids = doc_ids.slice(i, _STEP)
            part = table.find(doc_hashes(ids)).astype(np.uint32)  # -1: NOT_JUDGED
            at = np.flatnonzero(part != NOT_JUDGED)
            same = (self.dictionary.gather(part[at]) == ids.gather(at)).to_numpy()
            if not same.all():
                part[at[~same]] = NOT_JUDGED
            codes[i:i + part.size] = part
        return codes

    def find(self, query: np.ndarray, doc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Which of the pairs (``query`` number, ``doc`` code) are judged (a Boolean mask),
        and the judgment row of each judged one."""
        key = self.scheme.of(query, doc)
        if not self.keys.size:
            return np.zeros(key.size, dtype=bool), np.zeros(0, dtype=np.int64)
        at, hit = locate(self.keys, key)
        at = at[hit]
        return hit, at if self.rows is None else self.rows[at]


#: the doc code of a doc id no judgment has (no dictionary is that large)
NOT_JUDGED = np.uint32(0xFFFFFFFF)
#: :func:`doc_numbers` of an id not written as a UInt32 number (no UInt32 is that large)
NO_NUMBER = np.uint64(1 << 32)


def doc_numbers(ids: pl.Series) -> np.ndarray:
    """The strings ``ids`` as UInt32 numbers (uint64), where each is written as its number
    is (what a run holding its doc ids as numbers holds), else :data:`NO_NUMBER`."""
    number = ids.cast(pl.UInt32, strict=False)
    written = (number.cast(pl.String) == ids).fill_null(False).to_numpy()
    return np.where(written, number.fill_null(0).to_numpy().astype(np.uint64), NO_NUMBER)


#: rows matched at a time: the temporaries stay small (and polars's, freed, go back)
_STEP = 1 << 18


#: where a qrels table keeps its :class:`QrelsIndex`
QRELS_INDEX: Slot[QrelsIndex] = Slot("qrels index")


def qrels_index(qrels: Qrels) -> QrelsIndex:
    """The :class:`QrelsIndex` of ``qrels``, kept on it (built on first use)."""
    return qrels._derived.get(QRELS_INDEX, lambda: _build(qrels))


def _build(qrels: Qrels) -> QrelsIndex:
    coded = qrels.coded
    pairs: JudgedPairs | None = None
    doc_hash: np.ndarray | None = None
    if coded is not None:
        block_ids, lengths = coded.block_ids, coded.block_lengths
        grade = coded.relevance
    else:
        qf = qrels.frame
        # where the reader marked the starts of query blocks (a one-off, as for runs)
        block_ids, lengths = query_blocks(qf["query_id"], qrels.hints.take_block_starts())
        doc_hash = qf["doc_id"].hash(0).to_numpy()
        grade = qf["relevance"].to_numpy()
    query_ids, block_code = sorted_blocks(block_ids)
    queries = numbered(query_ids)
    code = np.repeat(block_code.astype(index_dtype(queries.height)), lengths)
    # the sorted judgments first, their order freed before the pair keys are made (peak)
    by_grade = judgment_order(code, grade)
    sorted_code = code[by_grade].astype(np.int64, copy=False)  # what kernels read
    sorted_grade = grade[by_grade].astype(np.float64, copy=False)
    del by_grade
    if coded is not None:
        # built on first use (doc_values), if at all
        pairs = _judged_pairs(code, coded.doc_code, coded.dictionary, coded.lookup)
        # (query, doc code) pairs are exact keys: no hash collision to rule out
        duplicated = bool((pairs.keys[1:] == pairs.keys[:-1]).any())
    else:
        assert doc_hash is not None
        # (the keys a temporary, freed before the index's own arrays are made: a lower peak)
        duplicated = maybe_duplicated(PairKeys.hashed(queries.height).of(code, doc_hash))
        if duplicated:  # equal keys: equal pairs, or (rarely) a hash collision
            duplicated = bool(qf.select(pl.struct("query_id", "doc_id").is_duplicated())
                              .to_series().any())
    query_list = query_ids.to_list()
    index = QrelsIndex(
        query_ids=query_list,
        queries=queries,
        query_array=np.array(query_list, dtype=object),
        # judgments held as codes: the pair keys hold the query numbers (memory)
        code=None if pairs is not None else code,
        doc_hash=doc_hash,
        sorted_code=sorted_code,
        sorted_grade=sorted_grade,
        duplicated=duplicated,
        pairs=pairs,
    )
    for arr in (index.query_array, code, index.sorted_code, index.sorted_grade,
                *(() if doc_hash is None else (doc_hash,))):
        arr.flags.writeable = False
    return index


def _judged_pairs(code: np.ndarray, doc_code: np.ndarray, dictionary: pl.Series,
                  lookup: list[HashCodes | None] | None = None) -> JudgedPairs:
    """The :class:`JudgedPairs` of judgments numbered by query (``code``) and doc
    (``doc_code``); ``lookup`` keeps the dictionary's hash table (shared by the judgments
    cut from the same table; None: a place of their own)."""
    scheme = PairKeys.exact(int(code.max()) + 1 if code.size else 1, dictionary.len())
    keys = scheme.of(code, doc_code)
    rows = None
    if keys.size > 1 and not bool((keys[1:] >= keys[:-1]).all()):
        rows = np.argsort(keys, kind="stable").astype(index_dtype(keys.size), copy=False)
        keys = keys[rows]
        rows.flags.writeable = False
    keys.flags.writeable = False
    return JudgedPairs(keys=keys, rows=rows, dictionary=dictionary, doc_code=doc_code,
                       scheme=scheme, _table=[] if lookup is None else lookup)


def _members(keys: np.ndarray, jkeys: np.ndarray) -> np.ndarray:
    """Whether each of ``keys`` is in ``jkeys`` (a bool mask); with :func:`jobs` > 1, the
    keys are tested in that many parts on threads (polars releases the GIL; each part
    hashes ``jkeys`` again: a little more CPU time for less wall time)."""
    judged = pl.Series(jkeys).implode()
    n = min(jobs(), 8)
    if n == 1:
        return pl.Series(keys).is_in(judged).to_numpy()
    bounds = np.linspace(0, keys.size, n + 1).astype(np.int64)
    with ThreadPoolExecutor(n, thread_name_prefix="ranklens-members") as pool:
        parts = pool.map(lambda lo, hi: pl.Series(keys[lo:hi]).is_in(judged).to_numpy(),
                         bounds[:-1], bounds[1:])
        return np.concatenate(list(parts))


def match_keys(keys: np.ndarray, jkeys: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """Positions (ascending) in ``keys`` whose key is in ``jkeys``, and the index into
    ``jkeys`` of each; the index is None when some position matches two entries of
    ``jkeys`` (a key repeated there): then the positions are those of every match.

    With few judgments next to the ranked rows (MS MARCO: one per thousand), or few keys
    in all (a TREC DL run: 43,000 rows, 9,260 judgments), the rows are looked up in a
    :class:`~ranklens._model.keyset.KeySet` of the judgments; otherwise one hash join does
    it (the join's fixed cost outweighs the KeySet's NumPy passes only on small inputs:
    ``KEYSET_ROWS``, docs/benchmarks.md).
    """
    m = jkeys.size
    if m == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    small = keys.size <= _SMALL and m * 4 <= keys.size
    if m * 256 > keys.size and keys.size >= _MEMBERSHIP:
        pos = np.flatnonzero(_members(keys, jkeys))
        # the join then pairs the judged rows alone (at most ``m`` of the ``keys``)
        pairs = (pl.LazyFrame({"key": keys[pos]}).with_row_index("at")
                 .join(pl.LazyFrame({"key": jkeys}).with_row_index("row"), on="key",
                       how="inner")
                 .sort("at")
                 .collect())
        at = pairs["at"].to_numpy()
        if at.size > pos.size:  # a key repeated in ``jkeys``: some row matched twice
            return pos, None
        return pos, pairs["row"].to_numpy().astype(np.int64)
    if m * 256 > keys.size and not small:
        # lazily: the planned join is faster than the eager one on large inputs
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
           doc_ids_at: Callable[[np.ndarray], pl.Series], judgments: pl.DataFrame,
           judged_doc_ids: Callable[[np.ndarray], pl.Series] | None = None,
           ) -> tuple[np.ndarray, np.ndarray]:
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
        ``qidx``, ``relevance`` and ``key`` of each judgment (and ``doc_id``, unless
        ``judged_doc_ids`` gives them).
    judged_doc_ids : callable, optional
        The doc ids of the judgments at given positions (default: their ``doc_id``).

    Returns
    -------
    positions, grades : np.ndarray
        int64 positions (ascending) and float64 grades.
    """
    if judged_doc_ids is None:
        judged_doc_ids = judgments["doc_id"].gather
    jkeys = judgments["key"].to_numpy()
    pos, rows = match_keys(keys, jkeys)
    doc_ids = doc_ids_at(pos)
    exact = (
        rows is not None  # each row matched at most one judgment
        and bool((judgments["qidx"].to_numpy()[rows] == query_at(pos)).all())
        and bool((judged_doc_ids(rows) == doc_ids).all())
    )
    if exact:
        return pos, judgments["relevance"].to_numpy()[rows].astype(np.float64, copy=False)
    by_string = (
        pl.DataFrame({"qidx": query_at(pos), "doc_id": doc_ids, "pos": pos})
        .join(judgments.select("qidx", "relevance").with_columns(
                  judged_doc_ids(np.arange(judgments.height)).alias("doc_id")),
              on=["qidx", "doc_id"], how="inner")
        .sort("pos")
    )
    return (by_string["pos"].to_numpy().astype(np.int64),
            by_string["relevance"].to_numpy().astype(np.float64))
