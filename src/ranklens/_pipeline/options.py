"""Every evaluation option, declared once: :class:`EvaluateOptions`.

Each field carries its declaration (constraint, command-line flag, help) in its metadata.
``evaluate``, ``evaluate_arrays``, ``compare``, ``report``, ``ranklens.spark.evaluate``
and the trec_eval surface take their options from this value; the command line generates
the options of ``evaluate``, ``compare`` and ``report`` from :func:`declared`, so every
command has every option with the same help text (tests/cli/test_cli_options.py holds
them equal).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Literal, TypedDict

from .._base.errors import ParameterError
from .._base.validate import Boolean, Choice, Constraint, Integer, check
from .._model.policies import (
    DUPLICATES,
    EMPTY,
    EMPTY_RANKING,
    MISSING,
    TIES,
    Duplicates,
    Empty,
    EmptyRanking,
    Missing,
    Ties,
)
from .._names.conventions import CONVENTIONS, Convention, get_convention

__all__ = ["DEFAULT_MEASURES", "NONPOSITIVE", "Declared", "EvaluateOptions", "Nonpositive",
           "OptionKwargs", "declared", "options_of"]

#: ``nonpositive``: a document scored <= 0 keeps its judgment, or is never a hit in the
#: convention's measures (torchmetrics >= 1.7.4's AP, RR, P and R).
Nonpositive = Literal["judged", "unjudged"]
NONPOSITIVE: tuple[Nonpositive, ...] = ("judged", "unjudged")

#: The measures computed when none is named: by every command (evaluate, compare, report,
#: demo) and by ``ranklens.report``.
DEFAULT_MEASURES = ("nDCG@10", "AP", "RR@10", "P@10", "R@100", "R@1000")


@dataclass(frozen=True)
class Declared:
    """One option's declaration: what it accepts and how the command line offers it."""

    constraint: Constraint
    help: str
    #: the command-line flag (``--judged-only``); a Boolean option is a flag without value
    flag: str
    #: the command line's choices when they differ from the constraint's (conventions)
    choices: tuple[str, ...] | None = None


def _option(default: Any, constraint: Constraint, flag: str, help: str,
            choices: tuple[str, ...] | None = None) -> Any:
    return field(default=default,
                 metadata={"declared": Declared(constraint, help, flag, choices)})


class _Conventions(Constraint):
    """A convention's name or a :class:`Convention` value."""

    def accepts(self, value: object) -> bool:
        if not isinstance(value, (str, Convention)):
            return False
        get_convention(value)  # an unknown name: its own error, naming the conventions
        return True

    def describe(self) -> str:
        return "a convention's name (" + ", ".join(CONVENTIONS) + ") or a Convention"


@dataclass(frozen=True)
class EvaluateOptions:
    """The options of an evaluation, checked when made.

    ``None`` (for ``missing``, ``ties``, ``empty`` and ``nonpositive``) leaves the choice to the
    convention; every other default is trec_eval's. See :func:`ranklens.evaluate` for
    what each option does.

    Examples
    --------
    >>> EvaluateOptions(depth=100, ties="average").depth
    100
    >>> EvaluateOptions(ties="random")
    Traceback (most recent call last):
    ...
    ranklens._base.errors.ParameterError: the 'ties' option must be one of docid, input, \
average, pessimistic, optimistic, worst, best or None; got 'random'
    """

    rel: int = _option(
        1, Integer(0), "--rel",
        "Minimum judged level counted as relevant (trec_eval -l).")
    missing: Missing | None = _option(
        None, Choice(MISSING, none=True), "--missing",
        "Judged queries absent from a run: score 0 (default, with a warning), leave out, "
        "or fail.")
    duplicates: Duplicates = _option(
        "error", Choice(DUPLICATES), "--duplicates",
        "A document twice in one query: fail, or keep the first.")
    depth: int | None = _option(
        None, Integer(0, none=True), "--depth",
        "Keep only the top N documents of each query (trec_eval -M).")
    judged_only: bool = _option(
        False, Boolean(), "--judged-only",
        "Drop unjudged documents before evaluating (trec_eval -J).")
    ties: Ties | None = _option(
        None, Choice(TIES, none=True), "--ties",
        "Equal scores: doc id descending (trec_eval; default), input order, averaged over "
        "all orders, each document after / before its ties, or by grade (worst / best case "
        "first).")
    empty: Empty | None = _option(
        None, Choice(EMPTY, none=True), "--empty",
        "Queries without any relevant judgment: 0 (default), left out, 1, NaN, or fail.")
    nonpositive: Nonpositive | None = _option(
        None, Choice(NONPOSITIVE, none=True), "--nonpositive",
        "Documents scored <= 0: judged as given (default), or never a hit in AP, RR, P and "
        "R (torchmetrics >= 1.7.4; the torchmetrics convention's default).")
    empty_ranking: EmptyRanking = _option(
        "zero", Choice(EMPTY_RANKING), "--empty-ranking",
        "Judged queries given with an empty ranking: scored on it (0; default), NaN and "
        "left out of the averages (LensKit), or left out of the evaluation.")
    collection_size: int = _option(
        0, Integer(0), "--collection-size",
        "Documents in the collection (trec_eval -N; used by Utility only).")
    convention: str | Convention = _option(
        "trec", _Conventions(), "--convention",
        "Named bundle of defaults (AP denominator, ideal DCG, ties, ...); explicit options "
        "win.", choices=tuple(CONVENTIONS))

    def __post_init__(self) -> None:
        for f in fields(self):
            check(f.name, getattr(self, f.name), f.metadata["declared"].constraint)

    @property
    def resolved(self) -> Convention:
        """The convention in force (its defaults fill ``missing``, ``ties``, ``empty``)."""
        return get_convention(self.convention)

    def given(self) -> dict[str, Any]:
        """The options that differ from their defaults, as keywords."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) != f.default}

    def as_kwargs(self) -> dict[str, Any]:
        """Every option as keywords (what ``evaluate(**kwargs)`` takes)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


class OptionKwargs(TypedDict, total=False):
    """:class:`EvaluateOptions`'s fields as keywords (``evaluate(..., **options)``); a test
    holds the two equal."""

    rel: int
    missing: Missing | None
    duplicates: Duplicates
    depth: int | None
    judged_only: bool
    ties: Ties | None
    empty: Empty | None
    nonpositive: Nonpositive | None
    empty_ranking: EmptyRanking
    collection_size: int
    convention: str | Convention
    options: EvaluateOptions | None


def declared() -> dict[str, Declared]:
    """``{option name: its declaration}``, in declaration order."""
    return {f.name: f.metadata["declared"] for f in fields(EvaluateOptions)}


def options_of(options: EvaluateOptions | None = None, /,
               **kwargs: Any) -> EvaluateOptions:
    """One :class:`EvaluateOptions` from a value, keywords, or both.

    Keywords set the options they name over ``options``; an option both in ``options``
    (set there to something other than its default) and in the keywords with another value
    is a conflict, never a silent override.

    Raises
    ------
    ParameterError
        An unknown option, a value outside its constraint, ``options`` that is not an
        :class:`EvaluateOptions`, or a conflict.
    """
    names = EvaluateOptions.__dataclass_fields__
    unknown = [k for k in kwargs if k not in names]
    if unknown:
        raise ParameterError(
            f"unknown option {unknown[0]!r}; the evaluation options are "
            f"{', '.join(names)}")
    if options is None:
        return EvaluateOptions(**kwargs)
    if not isinstance(options, EvaluateOptions):
        raise ParameterError("the 'options' argument must be an EvaluateOptions; got a "
                             f"{type(options).__name__}")
    given = options.given()
    for key, value in kwargs.items():
        if key in given and given[key] != value:
            raise ParameterError(
                f"the {key!r} option is given twice: {given[key]!r} in options and "
                f"{value!r} as a keyword; give it once")
    return EvaluateOptions(**{**options.as_kwargs(), **kwargs})


