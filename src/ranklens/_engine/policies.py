"""The option values every evaluation takes, as types and validated in one place."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from .._errors import ParameterError

__all__ = [
    "DUPLICATES",
    "EMPTY",
    "MISSING",
    "TIES",
    "Duplicates",
    "Empty",
    "Missing",
    "Policies",
    "Ties",
    "check_choice",
]

#: Order of documents with equal scores.
Ties = Literal["docid", "input", "average", "pessimistic", "optimistic"]
#: Judged queries absent from the run.
Missing = Literal["zero", "skip", "error"]
#: A document twice in one ranking (or in one query's judgments).
Duplicates = Literal["error", "first"]
#: Queries without a relevant judgment.
Empty = Literal["zero", "skip", "one", "nan", "error"]

TIES: tuple[str, ...] = get_args(Ties)
MISSING: tuple[str, ...] = get_args(Missing)
DUPLICATES: tuple[str, ...] = get_args(Duplicates)
EMPTY: tuple[str, ...] = get_args(Empty)


def check_choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    """ParameterError naming the option, its allowed values and the value given."""
    if value not in allowed:
        raise ParameterError(
            f"the {name!r} option must be one of {', '.join(allowed)}; got {value!r}"
        )


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

    def __post_init__(self) -> None:
        check_choice("missing", self.missing, MISSING)
        check_choice("duplicates", self.duplicates, DUPLICATES)
        check_choice("ties", self.ties, TIES)
        if self.depth is not None and (not isinstance(self.depth, int)
                                       or isinstance(self.depth, bool) or self.depth < 0):
            raise ParameterError(
                f"the 'depth' option must be an integer >= 0 or None, got {self.depth!r}"
            )
        if not isinstance(self.rel, int) or isinstance(self.rel, bool) or self.rel < 0:
            raise ParameterError(f"the 'rel' option must be an integer >= 0, got {self.rel!r}")
        if not isinstance(self.judged_only, bool):
            raise ParameterError(
                f"the 'judged_only' option must be True or False, got {self.judged_only!r}"
            )
        if (not isinstance(self.collection_size, int) or isinstance(self.collection_size, bool)
                or self.collection_size < 0):
            raise ParameterError(
                "the 'collection_size' option must be an integer >= 0, "
                f"got {self.collection_size!r}"
            )
