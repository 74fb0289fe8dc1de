"""The words messages and tables use for the inputs: queries and documents, or users and items.

A recommender's tables (user and item columns) are read as judgments and a run like any
other, but their users read "users", "items", "test items" and "recommendations". The
readers record which kind a table is (``ReaderHints.users``); the plan carries the
:class:`Vocabulary` chosen from it, and every message and rendered table reads its words
from there.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["IR", "RECOMMENDER", "Vocabulary", "vocabulary_of"]


@dataclass(frozen=True)
class Vocabulary:
    """The words for each part of an evaluation's inputs.

    Attributes
    ----------
    query, queries : one evaluated unit and several.
    doc : one ranked thing.
    doc_ids : the ids of the ranked things.
    qrels : the judgments, as a table (``the qrels (qrels.txt)``).
    judgments : the judgments, as what they say (``match the judgments'``).
    judged_query, judged_queries : a query that has judgments, and several.
    judged_doc : one document that has a judgment.
    run : the ranked results, as a table (``the run (bm25)``).
    id_hint : what usually makes the run's ids miss the judgments'.
    """

    query: str = "query"
    queries: str = "queries"
    doc: str = "document"
    doc_ids: str = "doc ids"
    qrels: str = "qrels"
    judgments: str = "judgments"
    judged_query: str = "judged query"
    judged_queries: str = "judged queries"
    judged_doc: str = "judged document"
    run: str = "run"
    id_hint: str = "passage ids scored against document judgments, another id format"

    @property
    def users(self) -> bool:
        """Whether these are a recommender's words."""
        return self == RECOMMENDER


#: Information retrieval's words: trec_eval's and every IR input's.
IR = Vocabulary()
#: A recommender's words, for inputs read from user and item columns.
RECOMMENDER = Vocabulary(
    query="user", queries="users", doc="item", doc_ids="item ids",
    qrels="test items", judgments="test items",
    judged_query="user with test items", judged_queries="users with test items",
    judged_doc="test item", run="recommendations",
    id_hint="item ids of another catalogue, another id format")


def vocabulary_of(users: bool) -> Vocabulary:
    """:data:`RECOMMENDER` for inputs read from user and item columns, else :data:`IR`."""
    return RECOMMENDER if users else IR
