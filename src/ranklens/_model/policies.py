"""The option values every evaluation takes, as types and validated in one place."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from .._base.errors import InputError
from .._base.validate import Boolean, Choice, Integer, check
from .._base.vocabulary import IR, Vocabulary

__all__ = [
    "DUPLICATES",
    "EMPTY",
    "EMPTY_RANKING",
    "MISSING",
    "TIES",
    "Duplicates",
    "Empty",
    "EmptyRanking",
    "Missing",
    "Policies",
    "Ties",
    "check_coverage",
]

#: Order of documents with equal scores (docs/conventions.md, section "Ties").
#:
#: - ``docid``: doc id descending, byte-wise (trec_eval); ``input``: the order given.
#: - ``average``: the expected value over every order of each tied group (McSherry-Najork;
#:   scikit-learn's ``ndcg_score`` and ``dcg_score`` with ``ignore_ties=False``).
#: - ``pessimistic`` (scikit-learn's ``average_precision_score``,
#:   ``label_ranking_average_precision_score``, ``coverage_error``, ``label_ranking_loss``):
#:   each document is ranked after everything it ties with. It stands at its group's last
#:   position (its rank is the number of documents scored at least as high), and every
#:   document of its group, the other relevant ones included, is at or above it: a group is
#:   inside a cutoff only when all of it is, and the relevant documents at or above a
#:   relevant one count its whole group.
#: - ``optimistic``: each relevant document is ranked before everything it ties with. It
#:   stands at its group's first position, and of its group only itself is at or above it.
#:   Defined for the measures that read, for each relevant document, its position and the
#:   relevant documents at or above it (AP, RR, Success, AUC); refused (ParameterError) for
#:   those that count the documents within a cutoff (P@k, nDCG, RBP, ERR, ...), where a
#:   group's relevant documents would all share one position.
#: - ``worst`` / ``best``: each tied group ordered by grade, ascending / descending
#:   (unjudged documents as grade 0): the worst and the best order, real rankings defined for
#:   every measure.
#:
#: A measure whose registry entry does not define ``pessimistic`` / ``optimistic`` refuses
#: them with a ParameterError naming the measure and the policy.
Ties = Literal["docid", "input", "average", "pessimistic", "optimistic", "worst", "best"]
#: Judged queries absent from the run.
Missing = Literal["zero", "skip", "error"]
#: A document twice in one ranking (or in one query's judgments).
Duplicates = Literal["error", "first"]
#: Queries without a relevant judgment.
Empty = Literal["zero", "skip", "one", "nan", "error"]
#: Judged queries given with an empty ranking (in the run, without rows): scored on it
#: (``zero``, trec_eval's and ranx's), NaN and left out of the averages (LensKit's), or left
#: out of the evaluation (``skip``, as ``missing="skip"`` leaves out an absent query).
EmptyRanking = Literal["zero", "nan", "skip"]

TIES: tuple[str, ...] = get_args(Ties)
MISSING: tuple[str, ...] = get_args(Missing)
DUPLICATES: tuple[str, ...] = get_args(Duplicates)
EMPTY: tuple[str, ...] = get_args(Empty)
EMPTY_RANKING: tuple[str, ...] = get_args(EmptyRanking)


@dataclass(frozen=True)
class Policies:
    """The conventions alignment applies (see :func:`ranklens.evaluate`)."""

    rel: int = 1
    missing: Missing = "zero"
    duplicates: Duplicates = "error"
    depth: int | None = None
    judged_only: bool = False
    ties: Ties = "docid"
    collection_size: int = 0
    warn_missing: bool = True
    #: ``missing`` was given by the caller: an explicit "zero" scores every judged query
    #: even when the run shares none of them (left unset, that is an error)
    missing_given: bool = False
    #: the ranked documents are matched to the judgments (False: no measure of the plan
    #: reads them, and neither does ``judged_only``; nothing judged is then found)
    match: bool = True

    def __post_init__(self) -> None:
        for name, constraint in _CONSTRAINTS.items():
            check(name, getattr(self, name), constraint)


_CONSTRAINTS = {
    "rel": Integer(0), "missing": Choice(MISSING), "duplicates": Choice(DUPLICATES),
    "depth": Integer(0, none=True), "judged_only": Boolean(), "ties": Choice(TIES),
    "collection_size": Integer(0),
}


def check_coverage(policies: Policies, *, judged: int, retrieved: int,
                   missing: tuple[int, list[str]], ignored: list[str], run_source: str,
                   qrels_source: str, words: Vocabulary = IR) -> str | None:
    """The policies that read the whole evaluation's queries, checked in one place (by the
    alignment of a whole run, and by the assembly of merged blocks or Spark buckets).

    Parameters
    ----------
    judged, retrieved : the judged queries, and those of them the run has.
    missing : how many judged queries the run lacks, and (some of) their ids, sorted.
    ignored : (some of) the run's queries without judgments, sorted.
    words : the words of the messages (a recommender's for user and item tables).

    Returns
    -------
    str or None
        Under ``missing="skip"``, when nothing is left to evaluate (no judgments, or no
        query in common): the warning to give with the empty result (pytrec_eval and
        ir_measures give an empty result too). None otherwise.

    Raises
    ------
    InputError
        No judgments; no query in common (unless ``missing="zero"`` was given: then every
        judged query is scored on an empty ranking, as trec_eval -c and ir_measures do;
        left unset, that is most likely the wrong run); a missing query under
        ``missing="error"``. Under ``missing="skip"`` the first two give an empty result.
    """
    skip, w = policies.missing == "skip", words
    if judged == 0:
        if skip:
            return (f"the {w.qrels} ({qrels_source}) hold no judgments: nothing was "
                    "evaluated (missing='skip'), the result is empty")
        raise InputError(f"the {w.qrels} hold no judgments; nothing to evaluate",
                         source=qrels_source)
    count, some = missing
    share = (f"the {w.run} ({run_source}) and the {w.qrels} ({qrels_source}) share no "
             f"{w.query} ({w.run} has e.g. {ignored[:3]}, {w.qrels} {some[:3]})")
    if retrieved == 0 and skip:
        return (f"{share}: every {w.judged_query} was left out (missing='skip'), the "
                "result is empty")
    if retrieved == 0 and not (policies.missing == "zero" and policies.missing_given):
        raise InputError(share)
    if count and policies.missing == "error":
        raise InputError(
            f"{count} {w.judged_queries} are absent from the {w.run} ({run_source}), e.g. "
            f"{some[:5]}; pass missing='zero' to score them 0 or 'skip' to leave them out")
    return None
