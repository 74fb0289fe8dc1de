"""Run rows -> judgments: the judgment index of a qrels table and the matching of ranked
rows to judgments, exactly.

Each judgment is keyed by its (query number, doc value) pair (:class:`~ranklens._model.keys.
PairKeys`), the doc value exact: a code into a dictionary of the distinct judged doc ids
(:class:`JudgedPairs`; the TREC qrels reader's, or made here on first use for a frame), or,
for a run holding its doc ids as numbers, the number itself (:class:`JudgedNumbers`). A
hash only finds a candidate, and a whole key or string confirms it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._base.groups import locate, maybe_duplicated
from .._base.lazy import polars as pl
from .._ingest.hashcodes import HashCodes, doc_hashes
from .._ingest.tables import Qrels, Slot, query_blocks
from .keys import PairKeys, index_dtype, judgment_order, numbered, sorted_blocks

__all__ = ["NOT_JUDGED", "NO_NUMBER", "QRELS_INDEX", "JudgedNumbers", "JudgedPairs",
           "QrelsIndex", "doc_numbers", "qrels_index"]


@dataclass(frozen=True, eq=False)
class QrelsIndex:
    """The judgments of a qrels table, numbered by query.

    Attributes
    ----------
    query_ids : the judged query ids, byte-wise ascending (trec_eval's order).
    queries : the same ids numbered (``query_id``, ``qidx``): the table looked up in.
    query_array : the same ids as an object array (what an alignment holds).
    code : index into ``query_ids`` of each judgment (row order of the frame; int32 when
        it holds the numbers); for judgments held as codes, None: the pair keys hold it.
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
    sorted_code: np.ndarray
    sorted_grade: np.ndarray
    duplicated: bool
    #: the exact keys, by kind (False: doc codes, True: doc numbers), built on first use
    #: but for judgments held as codes (their codes' keys)
    _keys: dict[bool, JudgedPairs | JudgedNumbers] = field(default_factory=dict, repr=False)

    def query_codes(self) -> np.ndarray:
        """:attr:`code` (for judgments held as codes, made anew from the pair keys)."""
        if self.code is not None:
            return self.code
        pairs = self._keys[False]
        assert isinstance(pairs, JudgedPairs)
        queries = pairs.scheme.query_of(pairs.keys).astype(index_dtype(len(self.query_ids)))
        if pairs.rows is None:
            return queries
        code = np.empty_like(queries)
        code[pairs.rows] = queries
        return code

    def keys(self, qrels: Qrels, numbers: bool) -> JudgedPairs | JudgedNumbers:
        """The judgments of ``qrels`` (this index's) keyed exactly: by doc code, or with
        ``numbers`` (a run holding its doc ids as numbers) by doc number."""
        if numbers not in self._keys:
            coded = qrels.coded
            if numbers:
                value = doc_numbers(qrels.frame["doc_id"]) if coded is None else \
                    doc_numbers(coded.dictionary)[coded.doc_code]
                self._keys[True] = JudgedNumbers.of(self.query_codes(), value)
            else:  # a frame's judgments (the reader's codes are keyed at once)
                doc_code, dictionary, table = _coded_docs(qrels.frame["doc_id"])
                self._keys[False] = _judged_pairs(self.query_codes(), doc_code, dictionary,
                                                  [table])
        return self._keys[numbers]


@dataclass(frozen=True, eq=False)
class JudgedPairs:
    """Judgments keyed by doc code, for exact matching: each judgment's (query number, doc
    code) as one integer key.

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
    #: the dictionary's hash table (None: two of its ids share a hash), built on first use
    #: and shared by the judgments cut from one table
    _table: list[HashCodes | None] = field(default_factory=list, repr=False)
    #: :meth:`find`'s screen of the keys' low bits, built on first use
    _screen: list[np.ndarray] = field(default_factory=list, repr=False)

    def codes_of(self, doc_ids: pl.Series) -> np.ndarray:
        """The doc code each of ``doc_ids`` (strings) may have, :data:`NOT_JUDGED` where
        the dictionary has none (a fresh, writable array).

        The ids' 64-bit hashes are looked up in the dictionary's
        (:class:`~ranklens._ingest.hashcodes.HashCodes`): a code found is that of the one
        judged id sharing the hash, so a judged pair found through it is then
        :meth:`confirmed` on the ids (strings compared for the matches only, not for every
        row). When two of the dictionary's own ids share a hash, the strings are looked up
        instead (exact codes: a cast to the Enum of the dictionary, several times slower).
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
            # (-1, no such hash, is NOT_JUDGED as uint32)
            codes[i:i + _STEP] = table.find(doc_hashes(doc_ids.slice(i, _STEP)))
        return codes

    def confirmed(self, code: np.ndarray, doc_ids: pl.Series) -> np.ndarray:
        """Whether each of ``doc_ids`` is the dictionary's id of its ``code`` (a mask)."""
        return (self.dictionary.gather(code) == doc_ids).to_numpy()

    def maybe(self, doc: np.ndarray) -> np.ndarray:
        """Whether each code of ``doc`` may be judged: it is a code (a Boolean mask)."""
        return doc != NOT_JUDGED

    def find(self, query: np.ndarray, doc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Which of the pairs (``query`` number, ``doc`` code) are judged (a Boolean mask),
        and the judgment row of each judged one."""
        key = self.scheme.of(query, doc)
        hit = np.zeros(key.size, dtype=bool)
        if not self.keys.size:
            return hit, np.zeros(0, dtype=np.int64)
        if not self._screen:  # whether some judged key has these low bits
            self._screen.append(np.zeros(_SCREEN, dtype=bool))
            self._screen[0][self.keys & self.keys.dtype.type(_SCREEN - 1)] = True
        # most keys ruled out by one read; the others searched for
        maybe = np.flatnonzero(self._screen[0][key & key.dtype.type(_SCREEN - 1)])
        at, found = locate(self.keys, key[maybe])
        hit[maybe[found]] = True
        at = at[found]
        return hit, at if self.rows is None else self.rows[at]


@dataclass(frozen=True, eq=False)
class JudgedNumbers:
    """Judgments keyed by doc number, for a run holding its doc ids as UInt32 numbers: each
    judgment whose doc id is written as a number keyed (query number, that number)
    (:meth:`~ranklens._model.keys.PairKeys.numbers`), in a hash table of the whole keys
    (a match is exact). A judged id written otherwise ("007", "x7") is no row's."""

    table: HashCodes
    #: the judgment row of each key of the table
    rows: np.ndarray
    #: whether some judged number has these low bits: most rows of a run are ruled out
    #: with one read of this cache-sized table (:meth:`maybe`)
    screen: np.ndarray

    @classmethod
    def of(cls, query: np.ndarray, number: np.ndarray) -> JudgedNumbers:
        """The judgments numbered by ``query`` and :func:`doc_numbers` ``number``."""
        rows = np.flatnonzero(number != NO_NUMBER)
        screen = np.zeros(_SCREEN, dtype=bool)
        screen[number[rows] & np.uint64(_SCREEN - 1)] = True
        return cls(HashCodes(PairKeys.numbers().of(query[rows], number[rows])), rows, screen)

    def maybe(self, doc: np.ndarray) -> np.ndarray:
        """Whether each number of ``doc`` may be judged (a Boolean mask)."""
        return self.screen[doc & np.uint32(_SCREEN - 1)]

    def find(self, query: np.ndarray, doc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`JudgedPairs.find` of the pairs (``query`` number, ``doc`` number)."""
        found = self.table.find(PairKeys.numbers().of(query, doc))
        hit = found >= 0
        return hit, self.rows[found[hit]]


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


#: rows looked up at a time: the temporaries stay small (and polars's, freed, go back)
_STEP = 1 << 18
#: slots of :attr:`JudgedNumbers.screen`: it stays in cache
_SCREEN = 1 << 20


#: where a qrels table keeps its :class:`QrelsIndex`
QRELS_INDEX: Slot[QrelsIndex] = Slot("qrels index")


def qrels_index(qrels: Qrels) -> QrelsIndex:
    """The :class:`QrelsIndex` of ``qrels``, kept on it (built on first use)."""
    return qrels._derived.get(QRELS_INDEX, lambda: _build(qrels))


def _build(qrels: Qrels) -> QrelsIndex:
    coded = qrels.coded
    if coded is not None:
        block_ids, lengths, grade = coded.block_ids, coded.block_lengths, coded.relevance
    else:
        qf = qrels.frame
        # where the reader marked the starts of query blocks (a one-off, as for runs)
        block_ids, lengths = query_blocks(qf["query_id"], qrels.hints.take_block_starts())
        grade = qf["relevance"].to_numpy()
    query_ids, block_code = sorted_blocks(block_ids)
    queries = numbered(query_ids)
    code = np.repeat(block_code.astype(index_dtype(queries.height)), lengths)
    # the sorted judgments first, their order freed before the pair keys are made (peak)
    by_grade = judgment_order(code, grade)
    sorted_code = code[by_grade].astype(np.int64, copy=False)  # what kernels read
    sorted_grade = grade[by_grade].astype(np.float64, copy=False)
    del by_grade
    keys: dict[bool, JudgedPairs | JudgedNumbers] = {}
    if coded is not None:
        pairs = _judged_pairs(code, coded.doc_code, coded.dictionary, coded.lookup)
        keys[False] = pairs
        # (query, doc code) pairs are exact keys: no hash collision to rule out
        duplicated = bool((pairs.keys[1:] == pairs.keys[:-1]).any())
    else:
        # (the keys a temporary, freed before the index's own arrays are made: a lower peak)
        hashed = PairKeys.hashed(queries.height).of(code, doc_hashes(qf["doc_id"]))
        duplicated = maybe_duplicated(hashed)
        del hashed
        if duplicated:  # equal keys: equal pairs, or (rarely) a hash collision
            duplicated = bool(qf.select(pl.struct("query_id", "doc_id").is_duplicated())
                              .to_series().any())
    query_list = query_ids.to_list()
    index = QrelsIndex(
        query_ids=query_list,
        queries=queries,
        query_array=np.array(query_list, dtype=object),
        # judgments held as codes: the pair keys hold the query numbers (memory)
        code=None if coded is not None else code,
        sorted_code=sorted_code,
        sorted_grade=sorted_grade,
        duplicated=duplicated,
        _keys=keys,
    )
    for arr in (index.query_array, code, index.sorted_code, index.sorted_grade):
        arr.flags.writeable = False
    return index


def _coded_docs(doc_ids: pl.Series) -> tuple[np.ndarray, pl.Series, HashCodes | None]:
    """The code of each of ``doc_ids`` into a dictionary of the distinct ones, that
    dictionary and its hash table (None: two ids share a hash), a frame's judgments coded
    as the TREC qrels reader codes a file's."""
    distinct, code = np.unique(doc_hashes(doc_ids), return_inverse=True)
    code = code.reshape(-1).astype(np.uint32)
    first = np.empty(distinct.size, dtype=np.int64)
    first[code] = np.arange(code.size)  # a row of each (any: equal hashes, equal ids)
    dictionary = doc_ids.gather(first)
    if not bool((dictionary.gather(code) == doc_ids).all()):  # two ids share a hash
        dictionary = doc_ids.unique(maintain_order=True)
        code = doc_ids.cast(pl.Enum(dictionary)).to_physical().to_numpy().astype(np.uint32)
        return code, dictionary, None
    return code, dictionary, HashCodes(distinct)  # a code is its hash's index


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
