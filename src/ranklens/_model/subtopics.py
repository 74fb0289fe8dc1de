"""Subtopic judgments, aligned: what the diversity kernels read beside the usual arrays.

Subtopic judgments reach the kernels without a second alignment path. Their documents are
judged documents like any other: each judged (query, doc) once, graded by its highest
grade over the subtopics (:meth:`SubtopicQrels.documents`), and the one alignment path
matches them, so ranking, ties, missing queries, duplicates, depth and judged-only behave
as for plain judgments. A second matching against the same documents, graded by their row
in the document table instead, says which document each judged position is;
:class:`Subtopics` then holds, in the alignment's query numbering, every document's
subtopic judgments. Kernels read it as ``aligned.subtopics`` (an accessor of the kernel
contract, see :mod:`ranklens._model.aligned`); it is None for plain judgments.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import get_args

import numpy as np

from .._base.errors import InputError
from .._base.groups import group_offsets, ranges
from .._base.lazy import polars as pl
from .._ingest.columns import shared_keys, twice_error
from .._ingest.tables import Qrels, Slot, SubtopicQrels
from .policies import Duplicates

__all__ = ["DOC_TABLE", "DocTable", "IdealGains", "IdealKey", "Subtopics", "doc_table"]

#: an ideal ranking kept for the diversity kernels (see :meth:`Subtopics.kept`): how deep
#: it was built, and per query the gains at ranks 1..
IdealGains = tuple[float, list[np.ndarray]]
#: what it is kept under: ``("ideal", alpha, relevance level)``
IdealKey = tuple[str, float, int]


@dataclass(frozen=True, eq=False)
class Subtopics:
    """The subtopic judgments of an alignment's queries (every array read-only).

    Attributes
    ----------
    doc_offsets : ``doc_offsets[i]:doc_offsets[i+1]`` are query i's judged documents
        (rows), in doc id order (byte-wise ascending, as ndeval breaks ties by doc id).
    pair_offsets : ``pair_offsets[d]:pair_offsets[d+1]`` are document d's subtopic
        judgments in ``pair_sub`` (the subtopic, numbered 0.. within its query) and
        ``pair_grade``.
    n_sub : the number of subtopics judged for each query.
    judged_doc : the document row of each judged position of the alignment (parallel to
        its ``judged_at``).
    """

    doc_offsets: np.ndarray
    pair_offsets: np.ndarray
    pair_sub: np.ndarray
    pair_grade: np.ndarray
    n_sub: np.ndarray
    judged_doc: np.ndarray
    #: the ideal rankings kept by :meth:`kept` and :meth:`keep`
    _ideal: dict[IdealKey, IdealGains] = field(default_factory=dict, init=False, repr=False,
                                               compare=False)

    def __post_init__(self) -> None:
        for arr in (self.doc_offsets, self.pair_offsets, self.pair_sub, self.pair_grade,
                    self.n_sub, self.judged_doc):
            arr.flags.writeable = False

    def kept(self, key: IdealKey, build: Callable[[], IdealGains]) -> IdealGains:
        """The ideal ranking kept under ``key`` (``build()`` kept there on first use): work
        on the judgments alone that several kernels share (the ideal ranking of alpha-nDCG,
        ``ranklens._measures._diversity.ideal_gains``)."""
        if key not in self._ideal:
            self._ideal[key] = build()
        return self._ideal[key]

    def keep(self, key: IdealKey, value: IdealGains) -> None:
        """Keep ``value`` under ``key`` in place of what is there (a deeper ideal ranking)."""
        self._ideal[key] = value

    def taking(self, kept: np.ndarray) -> Subtopics:
        """These judgments for the judged positions ``kept`` (a mask over them) only."""
        return Subtopics(self.doc_offsets, self.pair_offsets, self.pair_sub,
                         self.pair_grade, self.n_sub, self.judged_doc[kept])

    def regrouped(self, owners: np.ndarray, judged_owner: np.ndarray,
                  judged_index: np.ndarray) -> Subtopics:
        """The judgments of virtual queries (see ``Aligned.regrouped``): virtual query v has
        query ``owners[v]``'s; ``judged_owner`` and ``judged_index`` give, for each judged
        position of the virtual alignment, its virtual query and its index among this
        alignment's judged positions."""
        counts = np.diff(self.doc_offsets)[owners]
        docs = ranges(self.doc_offsets[owners], counts)  # old row of each new row
        doc_offsets = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
        pair_counts = np.diff(self.pair_offsets)[docs]
        pairs = ranges(self.pair_offsets[docs], pair_counts)
        old = self.judged_doc[judged_index]
        judged_doc = doc_offsets[judged_owner] + old - self.doc_offsets[owners[judged_owner]]
        return Subtopics(doc_offsets,
                         np.concatenate(([0], np.cumsum(pair_counts))).astype(np.int64),
                         self.pair_sub[pairs], self.pair_grade[pairs], self.n_sub[owners],
                         judged_doc.astype(np.int64))


@dataclass(frozen=True, eq=False)
class DocTable:
    """The judged documents of some subtopic judgments, in trec_eval query order.

    Attributes
    ----------
    graded : the documents as plain judgments graded by their highest grade.
    coded : the same documents graded by their row here (what says, after matching,
        which document a judged position is).
    query_ids : the judged queries, byte-wise ascending; ``doc_offsets`` their rows.
    pair_offsets, pair_sub, pair_grade, n_sub : as in :class:`Subtopics`, in this order.
    """

    graded: Qrels
    coded: Qrels
    query_ids: list[str]
    doc_offsets: np.ndarray
    pair_offsets: np.ndarray
    pair_sub: np.ndarray
    pair_grade: np.ndarray
    n_sub: np.ndarray

    def subtopics(self, query_ids: np.ndarray, coded_grade: np.ndarray) -> Subtopics:
        """The judgments of an alignment's queries (``query_ids``, in its numbering), whose
        judged positions the coded matching graded ``coded_grade``."""
        where = {q: i for i, q in enumerate(self.query_ids)}
        owners = np.array([where[q] for q in query_ids.tolist()], dtype=np.int64)
        counts = np.diff(self.doc_offsets)[owners]
        docs = ranges(self.doc_offsets[owners], counts)
        new_of_old = np.full(int(self.doc_offsets[-1]), -1, dtype=np.int64)
        new_of_old[docs] = np.arange(docs.size)
        pair_counts = np.diff(self.pair_offsets)[docs]
        pairs = ranges(self.pair_offsets[docs], pair_counts)
        return Subtopics(
            doc_offsets=np.concatenate(([0], np.cumsum(counts))).astype(np.int64),
            pair_offsets=np.concatenate(([0], np.cumsum(pair_counts))).astype(np.int64),
            pair_sub=self.pair_sub[pairs],
            pair_grade=self.pair_grade[pairs],
            n_sub=self.n_sub[owners],
            judged_doc=new_of_old[coded_grade.astype(np.int64)],
        )


#: where subtopic judgments keep their :class:`DocTable` under each duplicates policy
DOC_TABLE: dict[str, Slot[DocTable]] = {
    duplicates: Slot(f"doc table, duplicates={duplicates}")
    for duplicates in get_args(Duplicates)}


def doc_table(qrels: SubtopicQrels, duplicates: str) -> DocTable:
    """The :class:`DocTable` of ``qrels``, kept on it (built on first use); a document
    judged twice for one subtopic is an InputError under ``duplicates="error"``, else its
    first judgment counts."""
    return qrels._derived.get(DOC_TABLE[duplicates], lambda: _build(qrels, duplicates))


def _build(qrels: SubtopicQrels, duplicates: str) -> DocTable:
    if qrels.frame.height == 0:
        raise InputError("the subtopic qrels hold no judgments; nothing to evaluate",
                         source=qrels.source)
    frame = qrels.frame
    twice = shared_keys(frame, "query_id", "subtopic", "doc_id")
    if twice.height and duplicates == "error":
        raise twice_error(twice, "document {doc_id} is judged more than once for subtopic "
                          "{subtopic} of query {query_id}", "pass duplicates='first' to keep "
                          "only the first judgment", qrels.source)
    if twice.height:
        frame = frame.unique(subset=["query_id", "subtopic", "doc_id"], keep="first",
                             maintain_order=True)
    docs = (frame.group_by("query_id", "doc_id").agg(pl.col("relevance").max())
            .sort("query_id", "doc_id").with_row_index("row"))
    # subtopics numbered in ndeval's order (numeric ids, as it reads them): a document's
    # gains are summed in that order, and the greedy ideal compares those sums exactly
    numeric = frame["subtopic"].cast(pl.Int64, strict=False)
    order = pl.col("subtopic").cast(pl.Int64) if not numeric.null_count() else pl.col(
        "subtopic")
    pairs = (frame.join(docs.select("query_id", "doc_id", "row"), on=["query_id", "doc_id"])
             .with_columns(order.rank("dense").over("query_id").alias("sub"))
             .sort("row", "sub"))
    n_docs = docs.height
    query_ids = docs["query_id"].unique(maintain_order=True)
    q_code = docs["query_id"].rank("dense").to_numpy().astype(np.int64) - 1
    doc_offsets = group_offsets(q_code, query_ids.len())
    pair_row = pairs["row"].to_numpy().astype(np.int64)
    pair_sub = pairs["sub"].to_numpy().astype(np.int64) - 1
    n_sub = np.zeros(query_ids.len(), dtype=np.int64)
    np.maximum.at(n_sub, q_code[pair_row], pair_sub + 1)
    return DocTable(
        graded=Qrels(docs.select("query_id", "doc_id", "relevance"), qrels.source),
        coded=Qrels(docs.select("query_id", "doc_id",
                                pl.col("row").cast(pl.Float64).alias("relevance")),
                    qrels.source),
        query_ids=query_ids.to_list(),
        doc_offsets=doc_offsets,
        pair_offsets=group_offsets(pair_row, n_docs),
        pair_sub=pair_sub,
        pair_grade=pairs["relevance"].to_numpy().astype(np.float64),
        n_sub=n_sub,
    )
