"""The two columnar tables every input form is turned into.

Ids are kept as strings (trec_eval compares them byte-wise); relevance and scores are
float64, which holds every integer grade exactly and every score trec_eval 10.0 reads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import numpy as np

from .._base.errors import InputError, ParameterError
from .._base.lazy import polars as pl
from .columns import check_relevance, check_scores, ids, no_nulls, numeric

__all__ = ["CodedJudgments", "Derived", "Qrels", "ReaderHints", "Run", "Slot", "SubtopicQrels",
           "extend_blocks", "per_row", "query_blocks", "table_schema"]

T = TypeVar("T")


class Slot(Generic[T]):
    """A typed place in a table's :class:`Derived` memo.

    The module that builds a value declares its slot, e.g. ``QRELS_INDEX:
    Slot[QrelsIndex] = Slot("qrels index")`` in ``ranklens._model.matching``: only that
    module reads and writes the place, and mypy knows what it holds. Slots are compared by
    identity, so two never clash whatever their names (the name is for ``repr``).
    """

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"Slot({self.name!r})"


_ABSENT: Any = object()


class Derived:
    """Work derived from one table alone and kept on it: the engine's indexes, built on
    first use (``ranklens._model``), each in a :class:`Slot` declared by the module that
    builds it. A table's derived work depends only on its own (immutable) columns, so it
    is never stale."""

    __slots__ = ("_values",)

    def __init__(self) -> None:
        self._values: dict[Slot[Any], Any] = {}

    def get(self, slot: Slot[T], build: Callable[[], T]) -> T:
        """The value in ``slot``, built by ``build()`` and kept there on first use (a
        ``build`` that raises keeps nothing)."""
        value = self._values.get(slot, _ABSENT)
        if value is _ABSENT:
            value = self._values[slot] = build()
        out: T = value
        return out

    def peek(self, slot: Slot[T]) -> T | None:
        """The value in ``slot`` if it was built, else None (nothing is built)."""
        out: T | None = self._values.get(slot)
        return out

    def __contains__(self, slot: object) -> bool:
        return slot in self._values

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"Derived({', '.join(s.name for s in self._values)})"


@dataclass(eq=False)
class ReaderHints:
    """Work a reader did anyway that the table's first index reuses instead of redoing.

    Each hint is taken by the one index that uses it (``take_*``): the table then no longer
    holds it, so its memory is freed once the index is built. A table made any other way
    has none; the index then computes the same values itself.
    """

    #: :class:`Qrels`: whether each judgment row starts a block of adjacent rows of one
    #: query (a Boolean series; the typed TREC qrels reader's). Taken by
    #: ``ranklens._model.matching``, which numbers the judgments' queries with it.
    block_starts: pl.Series | None = None
    #: :class:`Run`: ``doc_id.hash(0)`` of each row, in row order (a writable uint64 array;
    #: the TREC run reader's). Taken by ``ranklens._model.ranking``, which turns it into
    #: the run index's keys in place.
    doc_hashes: np.ndarray | None = None

    #: :class:`Run`: whether no doc id occurs twice in one block of rows, as the structure
    #: it was read from guarantees (a mapping's keys, already strings). A fact, not work to
    #: hand over: it is read, not taken, and lets ``ranklens._model.ranking`` leave out
    #: its duplicate check when each query is one block.
    distinct_docs: bool = False
    #: :class:`Qrels` and :class:`Run`: the ids were read from user and item columns
    #: (``user_id``, ``item_id``...), so messages about them say users and items. A fact,
    #: read, not taken.
    users: bool = False
    #: :class:`Qrels` from a star-rating column: the warning to give when ``rel`` stays 1
    #: (said by the evaluation, which knows ``rel``; the reader does not)
    rating_note: str | None = None

    def take_block_starts(self) -> pl.Series | None:
        """:attr:`block_starts`, released here (None if there is none)."""
        out, self.block_starts = self.block_starts, None
        return out

    def take_doc_hashes(self) -> np.ndarray | None:
        """:attr:`doc_hashes`, released here (None if there is none)."""
        out, self.doc_hashes = self.doc_hashes, None
        return out


@dataclass(frozen=True, eq=False)
class CodedJudgments:
    """Judgments held as codes: what the TREC qrels reader builds instead of a frame of
    strings (judgments repeating doc ids across queries then hold a fraction of the memory).

    The doc ids are codes into one dictionary of the distinct doc ids, sorted byte-wise
    (trec_eval's ``strcmp`` order) when they are few enough to sort quickly (the TREC
    reader's: up to 262,144), else in order of first appearance: codes are compared for
    equality only, the order spares sorting pairs; the query ids are held once per block
    of adjacent rows with one query id, as a :class:`Run` holds them.

    Attributes
    ----------
    block_ids : the query id of each block of adjacent rows (String).
    block_lengths : the rows of each block (int64).
    doc_code : each row's index into ``dictionary`` (uint32).
    dictionary : the distinct doc ids (String), each once.
    relevance : each row's grade: int8 when every grade fits one (TREC grades are
        integers; the reader's), else float64. :attr:`Qrels.grades` gives them as
        held.
    lookup : where the dictionary's hash table is kept, built on first use
        (``ranklens._model.matching``); the tables cut from these judgments share the
        dictionary, and so this place (one table for them all).
    """

    block_ids: pl.Series
    block_lengths: np.ndarray
    doc_code: np.ndarray
    dictionary: pl.Series
    relevance: np.ndarray
    lookup: list[Any] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        for arr in (self.block_lengths, self.doc_code, self.relevance):
            arr.flags.writeable = False

    @property
    def query_id(self) -> pl.Series:
        """The query id of every row (built on demand)."""
        return per_row(self.block_ids, self.block_lengths).alias("query_id")

    def frame(self) -> pl.DataFrame:
        """The rows as a table of strings (built on demand)."""
        return pl.DataFrame({
            "query_id": self.query_id,
            "doc_id": self.dictionary.gather(self.doc_code).alias("doc_id"),
            "relevance": self.relevance.astype(np.float64, copy=False),
        }, schema=table_schema("relevance"))


class Qrels:
    """Relevance judgments: columns ``query_id``, ``doc_id`` (str) and ``relevance`` (f64).

    Build one with :func:`ranklens.load_qrels` (any input form), or from a polars frame
    with those columns (checked as the loaders check theirs).

    The TREC qrels reader holds the ids as codes (:class:`CodedJudgments`) rather than a
    frame of strings: :attr:`frame` then builds the row table on first use (and keeps
    it); the evaluation itself reads the codes (:attr:`coded`).
    """

    __slots__ = ("_coded", "_derived", "_frame", "hints", "integer_query_ids", "source",
                 "unretrieved")

    def __init__(self, frame: pl.DataFrame, source: str = "<qrels>",
                 integer_query_ids: bool = False,
                 unretrieved: pl.DataFrame | None = None,
                 hints: ReaderHints | None = None) -> None:
        """Check the frame as the loaders check theirs: a polars DataFrame (else
        ParameterError) with String ids (integers are turned into strings), float64
        relevance, no missing value and no relevance that is not finite (else InputError).
        Columns other than ``query_id``, ``doc_id`` and ``relevance`` are dropped.
        ``hints``: the reader's work for the first index (:class:`ReaderHints`)."""
        frame = _checked(frame, ("query_id", "doc_id", "relevance"), "Qrels", source)
        self._set(frame, None, source, integer_query_ids, unretrieved, hints)

    @classmethod
    def from_codes(cls, coded: CodedJudgments, source: str = "<qrels>") -> Qrels:
        """Judgments held as codes (for readers that have checked their columns: nothing
        is checked here)."""
        qrels = cls.__new__(cls)
        qrels._set(None, coded, source, False, None, None)
        return qrels

    def _set(self, frame: pl.DataFrame | None, coded: CodedJudgments | None, source: str,
             integer_query_ids: bool, unretrieved: pl.DataFrame | None,
             hints: ReaderHints | None) -> None:
        self._frame = frame
        self._coded = coded
        self.source = source
        #: every query id was given as an integer (user ids): results give them back as
        #: integers, in numeric order (see Result.to_polars)
        self.integer_query_ids = integer_query_ids
        #: relevant items not in ``frame``, as counts: columns ``query_id`` (String),
        #: ``relevance`` (Float64), ``count`` (Int64) (``evaluate_arrays(n_relevant=...)``:
        #: a count stays a count); each such query also has a row in ``frame``
        self.unretrieved = unretrieved
        #: judgment-only alignment work (the judgment index, the first-judgment-only
        #: table), built on first evaluation: see ranklens._model.matching and
        #: ranklens._model.align. A table made anew starts without any.
        self._derived = Derived()
        #: what the reader hands the first index (see :class:`ReaderHints`)
        self.hints = hints or ReaderHints()

    @property
    def frame(self) -> pl.DataFrame:
        """The judgments as a table: ``query_id``, ``doc_id`` (str), ``relevance`` (f64)
        (for judgments held as codes, built on first use and kept)."""
        if self._frame is not None:
            return self._frame
        coded = self._coded
        assert coded is not None
        return self._derived.get(_FRAME, coded.frame)

    @property
    def coded(self) -> CodedJudgments | None:
        """The judgments as codes, when the reader made them so (else None: :attr:`frame`
        holds them)."""
        return self._coded

    @property
    def grades(self) -> np.ndarray:
        """Each judgment's grade as held (row order), without building :attr:`frame`
        (judgments held as codes may hold their grades as int8)."""
        if self._coded is not None:
            return self._coded.relevance
        return self.frame["relevance"].to_numpy()

    def __len__(self) -> int:
        if self._coded is not None:
            return int(self._coded.doc_code.size)
        return self.frame.height

    def __repr__(self) -> str:
        if self._coded is not None:
            ids = self._coded.block_ids
            nq = ids.n_unique() if ids.len() else 0
        else:
            nq = self.frame["query_id"].n_unique() if self.frame.height else 0
        return f"Qrels({self.source!r}, {nq} queries, {len(self)} judgments)"


#: :attr:`Qrels.frame` of judgments held as codes
_FRAME: Slot[pl.DataFrame] = Slot("frame")


@dataclass(frozen=True, eq=False)
class SubtopicQrels:
    """Subtopic (intent) judgments, the TREC Web track's ``ndeval`` kind: columns
    ``query_id``, ``subtopic``, ``doc_id`` (str) and ``relevance`` (f64), one row per
    document judged for one subtopic of a query.

    What the diversity measures (alpha-nDCG, ERR-IA, NRBP, P-IA, S-recall) read. Build one
    with ``ranklens.load_qrels(..., kind="subtopic")``, or from a polars frame with those
    columns. :meth:`documents` gives plain judgments (a document's grade: its highest over
    the subtopics) for the other measures.

    Examples
    --------
    >>> import ranklens
    >>> sq = ranklens.load_qrels({"q1": {"s1": {"d1": 1}, "s2": {"d1": 1, "d2": 1}}},
    ...                          kind="subtopic")
    >>> sq
    SubtopicQrels('<subtopic qrels dict>', 1 queries, 2 subtopics, 3 judgments)
    >>> ranklens.evaluate(sq, {"q1": {"d2": 2.0, "d1": 1.0}}, ["S-recall@1"])["S-recall@1"]
    0.5
    """

    frame: pl.DataFrame
    source: str = "<subtopic qrels>"
    #: the plain judgments (:meth:`documents`) and the document tables of
    #: ranklens._model.subtopics, built on first use
    _derived: Derived = field(default_factory=Derived, init=False, repr=False,
                              compare=False)

    def __post_init__(self) -> None:
        """Check the frame as :class:`Qrels` checks its own (the subtopic column is an id)."""
        if not isinstance(self.frame, pl.DataFrame):
            raise ParameterError(
                "SubtopicQrels(frame): expected a polars DataFrame with columns "
                f"['query_id', 'subtopic', 'doc_id', 'relevance'], got a "
                f"{type(self.frame).__name__}; ranklens.load_qrels(..., kind='subtopic') "
                "reads every other form")
        if "subtopic" not in self.frame.columns:
            raise InputError("expected a 'subtopic' column, found columns "
                             f"{self.frame.columns}", source=self.source)
        judged = _checked(self.frame, ("query_id", "doc_id", "relevance"), "Qrels",
                          self.source)
        frame = pl.DataFrame({"query_id": judged["query_id"],
                              "subtopic": ids(self.frame["subtopic"], self.source),
                              "doc_id": judged["doc_id"], "relevance": judged["relevance"]})
        no_nulls(frame, self.source)
        object.__setattr__(self, "frame", frame)

    def documents(self) -> Qrels:
        """Plain judgments: each judged document once per query, graded by its highest
        grade over the query's subtopics (relevant to some subtopic: relevant)."""
        return self._derived.get(_DOCUMENTS, lambda: Qrels(
            self.frame.group_by("query_id", "doc_id", maintain_order=True)
            .agg(pl.col("relevance").max()), self.source))

    def __len__(self) -> int:
        return self.frame.height

    def __repr__(self) -> str:
        nq = self.frame["query_id"].n_unique() if self.frame.height else 0
        ns = self.frame.select(pl.struct("query_id", "subtopic").n_unique()).item() \
            if self.frame.height else 0
        return (f"SubtopicQrels({self.source!r}, {nq} queries, {ns} subtopics, "
                f"{self.frame.height} judgments)")


#: :meth:`SubtopicQrels.documents`
_DOCUMENTS: Slot[Qrels] = Slot("documents")


def table_schema(value: str) -> dict[str, Any]:
    """The schema of a qrels (``value="relevance"``) or run (``"score"``) frame."""
    return {"query_id": pl.String, "doc_id": pl.String, value: pl.Float64}


def per_row(block_ids: pl.Series, block_lengths: np.ndarray) -> pl.Series:
    """Each block's id repeated over its rows."""
    return block_ids.gather(np.repeat(np.arange(block_lengths.size), block_lengths))


def query_blocks(query_ids: pl.Series,
                 new: pl.Series | None = None) -> tuple[pl.Series, np.ndarray]:
    """The blocks of adjacent rows with one query id: each block's id and length (int64).
    ``new`` marks the rows that start a block, when the caller has it already."""
    if new is None:
        new = (query_ids != query_ids.shift(1)).fill_null(True)
    starts = new.arg_true().to_numpy().astype(np.int64)
    return query_ids.gather(starts), np.diff(np.append(starts, query_ids.len()))


def extend_blocks(heads: list[pl.Series], lengths: list[np.ndarray], block_ids: pl.Series,
                  block_lengths: np.ndarray) -> None:
    """Add a part's blocks of rows (:func:`query_blocks`) after ``heads`` and ``lengths``:
    a query continued from the last block stays one block."""
    if heads and heads[-1][-1] == block_ids[0]:
        lengths[-1] = lengths[-1].copy()
        lengths[-1][-1] += block_lengths[0]
        block_ids, block_lengths = block_ids[1:], block_lengths[1:]
    if block_ids.len():
        heads.append(block_ids)
        lengths.append(block_lengths)


class Run:
    """A ranked result list: ``query_id``, ``doc_id`` (str), ``score`` (f64) and ``order``.

    ``order`` is the position of the row in the input (used when ties are broken by input
    order). ``name`` is the run tag (a TREC file's last column) or a name given by the
    caller. Build one with :func:`ranklens.load_run`.

    Runs list each query's documents together, so a query id is stored once per block of
    adjacent rows (``block_ids``, ``block_lengths``), not once per row: at MS MARCO scale
    that is 7,000 strings instead of 7,000,000. :attr:`frame` rebuilds the row table on
    demand.

    Doc ids may be held as UInt32 numbers when each is written as its number (the TREC
    reader's, for MS MARCO's 7M rows: 4 bytes a row instead of a 16-byte string view);
    :attr:`doc_id` and :meth:`doc_ids_at` always give them as text.

    ``empty_queries`` holds the ids of queries given with an explicitly empty ranking
    (``{"q": {}}``, an empty retrieved list): they have no row, yet they are in the run,
    so they are scored on their empty ranking rather than treated as absent.
    """

    __slots__ = ("_derived", "_doc_id", "block_ids", "block_lengths", "empty_queries", "hints",
                 "name", "score", "source")

    def __init__(self, frame: pl.DataFrame, source: str = "<run>", name: str = "run",
                 hints: ReaderHints | None = None) -> None:
        """A run from a polars frame with columns ``query_id``, ``doc_id`` and ``score``
        (others are ignored), checked as the loaders check theirs. ``hints``: the reader's
        work for the first index (:class:`ReaderHints`).

        Raises
        ------
        ParameterError
            ``frame`` is not a polars DataFrame.
        InputError
            A column is absent, an id is neither a string nor an integer, a value is
            missing, or a score is not a number (NaN included).
        """
        frame = _checked(frame, ("query_id", "doc_id", "score"), "Run", source)
        block_ids, lengths = query_blocks(frame["query_id"])
        self._set(block_ids, lengths, frame["doc_id"], frame["score"].to_numpy(), source, name,
                  hints)

    @classmethod
    def from_blocks(cls, block_ids: pl.Series, block_lengths: np.ndarray, doc_id: pl.Series,
                    score: np.ndarray, source: str = "<run>", name: str = "run",
                    empty_queries: tuple[str, ...] = (),
                    hints: ReaderHints | None = None) -> Run:
        """A run from its columns: the query id of each block of adjacent rows, the block
        lengths, each row's doc id and score, the queries whose ranking is empty, and the
        reader's work for the first index (:class:`ReaderHints`).

        For readers that have checked their columns already (String ids, no missing value,
        no NaN score): nothing is checked here.
        """
        run = cls.__new__(cls)
        run._set(block_ids, block_lengths, doc_id, score, source, name, hints)
        # a query with rows is not empty, however often it is also given empty
        with_rows = set(block_ids.to_list()) if empty_queries else set()
        run.empty_queries = tuple(dict.fromkeys(q for q in empty_queries if q not in with_rows))
        return run

    def _set(self, block_ids: pl.Series, block_lengths: np.ndarray, doc_id: pl.Series,
             score: np.ndarray, source: str, name: str, hints: ReaderHints | None) -> None:
        score = np.ascontiguousarray(score, dtype=np.float64)
        score.flags.writeable = False
        block_lengths = np.asarray(block_lengths, dtype=np.int64)
        block_lengths.flags.writeable = False
        self.block_ids = block_ids.alias("query_id")
        self.block_lengths = block_lengths
        self._doc_id = doc_id.alias("doc_id")
        self.score = score
        self.source = source
        self.name = name
        self.empty_queries: tuple[str, ...] = ()
        #: run-only alignment work (a run index per tie order: ranked order, pair keys),
        #: built on first evaluation: see ranklens._model.ranking
        self._derived = Derived()
        #: what the reader hands the first index (see :class:`ReaderHints`)
        self.hints = hints or ReaderHints()

    @property
    def doc_id(self) -> pl.Series:
        """The doc id of every row (as text; doc ids held as numbers are written out once,
        and that text is kept)."""
        if self._doc_id.dtype == pl.String:
            return self._doc_id
        return self._derived.get(_DOC_TEXT, lambda: self._doc_id.cast(pl.String))

    @property
    def held_doc_id(self) -> pl.Series:
        """The doc id of every row as it is held (text, or UInt32 numbers)."""
        return self._doc_id

    @property
    def text_doc_ids(self) -> bool:
        """Whether the doc ids are held as text (not as numbers: :attr:`doc_id` would
        write them out)."""
        return bool(self._doc_id.dtype == pl.String)

    def doc_ids_at(self, rows: np.ndarray) -> pl.Series:
        """The doc ids of the rows ``rows`` (as text)."""
        out = self.doc_values_at(rows)
        return out if out.dtype == pl.String else out.cast(pl.String)

    def doc_values_at(self, rows: np.ndarray) -> pl.Series:
        """The doc ids of the rows ``rows`` as held: text, or numbers (not written out)."""
        return self._doc_id.gather(rows)

    @property
    def query_id(self) -> pl.Series:
        """The query id of every row (built on demand)."""
        return per_row(self.block_ids, self.block_lengths)

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
        nq += len(self.empty_queries)
        return f"Run({self.source!r}, {nq} queries, {len(self)} rows)"


#: :attr:`Run.doc_id` of a run holding its doc ids as numbers
_DOC_TEXT: Slot[pl.Series] = Slot("doc ids as text")


def _checked(frame: pl.DataFrame, columns: tuple[str, str, str], what: str,
             source: str) -> pl.DataFrame:
    """``frame``'s ``columns`` (two id columns, then a numeric one), checked by the rules
    of :mod:`ranklens._ingest.columns`; frames already in shape pass through unchanged."""
    if not isinstance(frame, pl.DataFrame):
        raise ParameterError(
            f"{what}(frame): expected a polars DataFrame with columns {list(columns)}, got "
            f"a {type(frame).__name__}; ranklens.load_{what.lower()} reads every other form")
    absent = [c for c in columns if c not in frame.columns]
    if absent:
        raise InputError(f"expected a {absent[0]!r} column, found columns {frame.columns}",
                         source=source)
    qid, did, value = columns
    out = pl.DataFrame({qid: ids(frame[qid], source), did: ids(frame[did], source),
                        value: numeric(frame[value], value, source)})
    no_nulls(out, source)
    if value == "score":
        check_scores(out[value], source)
    else:
        check_relevance(out[value], source)
    if frame.columns == list(columns) and frame.dtypes == out.dtypes:
        return frame  # unchanged: the caller's frame itself
    return out


@dataclass(frozen=True, eq=False)
class PrefJudgments:
    """Preference judgments (trec_eval's ``-R prefs`` / ``qrels_prefs``): columns
    ``query_id``, ``jg`` (judgment group), ``jsg`` (sub-group), ``doc_id`` (str) and
    ``level`` (f64), one row per judgment line, in file order. Read by
    :func:`ranklens._ingest.io._prefs.load_prefs`."""

    frame: pl.DataFrame
    source: str = "<prefs>"

    @property
    def query_ids(self) -> list[str]:
        """The judged topics, byte-wise ascending (trec_eval's order)."""
        return sorted(set(self.frame["query_id"].to_list()))
