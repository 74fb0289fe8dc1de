"""Every evaluation option, declared once: :class:`EvaluateOptions`.

Each field carries its declaration (constraint, command-line flag, help) in its metadata.
``evaluate``, ``evaluate_arrays``, ``compare``, ``report``, ``ranklens.spark.evaluate``
and the trec_eval surface take their options from this value; the command line generates
the options of ``evaluate``, ``compare`` and ``report`` from :func:`declared`, so every
command has every option with the same help text (tests/cli/test_cli_options.py holds
them equal), and ``evaluate``'s docstring documents them from the same declarations
(:func:`with_options_doc`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal, TypedDict, TypeVar

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

__all__ = ["DEFAULT_MEASURES", "NONPOSITIVE", "OPTIONS_DOC", "Declared", "EvaluateOptions",
           "Nonpositive", "OptionKwargs", "declared", "options_of", "parameters_doc",
           "with_options_doc"]

F = TypeVar("F", bound=Callable[..., Any])

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
    #: the command line's choices when they differ from the constraint's (conventions)
    choices: tuple[str, ...] | None = None
    #: what the Python docstrings add to ``help`` (:func:`parameters_doc`)
    details: str = ""
    #: the command-line flag, the field's name spelled ``--judged-only`` (:func:`declared`);
    #: a Boolean option is a flag without value
    flag: str = ""
    #: the command line's type, when not the constraint's (which checks the value after)
    kind: type | None = None


def _option(default: Any, constraint: Constraint, help: str,
            choices: tuple[str, ...] | None = None, details: str = "") -> Any:
    return field(default=default, metadata={"declared": Declared(constraint, help, choices,
                                                                 details)})


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

    rel: int = _option(1, Integer(0),
        "Minimum judged level counted as relevant (trec_eval -l).",
        details="A measure's own ``rel=`` parameter overrides it. Graded measures use the "
        "grades themselves.")
    missing: Missing | None = _option(None, Choice(MISSING, none=True),
        "Judged queries absent from a run: score 0 (default, with a warning), leave out, "
        "or fail.",
        details="A query scored 0 is scored on an empty ranking (trec_eval ``-c``); the "
        ":class:`RanklensWarning` names them, and passing ``missing`` explicitly silences "
        "it. Under ``\"skip\"``, judgments without a row or a run sharing no query with them "
        "give an empty result (no query, every aggregate NaN) and a warning, not an error.")
    duplicates: Duplicates = _option("error", Choice(DUPLICATES),
        "A document twice in one query: fail, or keep the first.",
        details="In a ranking or in the judgments: an error naming the first query's "
        "duplicate (byte-wise) and counting the duplicated pairs, or the first occurrence "
        "kept (the highest-ranked in a ranking, the first in file order in judgments).")
    depth: int | None = _option(None, Integer(0, none=True),
        "Keep only the top N documents of each query (trec_eval -M).",
        details="N is ``depth``, counted after sorting.")
    judged_only: bool = _option(False, Boolean(),
        "Drop unjudged documents before evaluating (trec_eval -J).",
        details="A document is judged when it has a judgment >= 0.")
    ties: Ties | None = _option(None, Choice(TIES, none=True),
        "Equal scores: doc id descending (trec_eval; default), input order, averaged over "
        "all orders, each document after / before its ties, or by grade (worst / best case "
        "first).",
        details="The input order is the order the documents were given in (a file's line "
        "order, a frame's row order, a mapping's item order; a run file's rank column is "
        "not read); the average is the expected value over every order of each tied group "
        "(McSherry and Najork 2008; sklearn's nDCG). A measure's own ``ties=`` parameter "
        "(``nDCG(ties=average)``) overrides it. ``pessimistic``: each document ranked after "
        "everything it ties with, at its group's last position (scikit-learn's "
        "``average_precision_score``, ``label_ranking_average_precision_score`` and "
        "``label_ranking_loss`` on tied scores); ``optimistic``: each relevant document "
        "before everything it ties with (AP, RR, Success and AUC only); both refused, with "
        "a ParameterError, by measures their definition does not cover "
        "(docs/conventions.md). ``worst`` / ``best`` order each tied group by grade, "
        "ascending / descending.")
    empty: Empty | None = _option(None, Choice(EMPTY, none=True),
        "Queries without any relevant judgment: 0 (default), left out, 1, NaN, or fail.",
        details="Relevant at the measure's ``rel`` level. 0 is the value as computed (0 for "
        "nearly all measures; trec_eval), and NaN is left out too (torchmetrics' "
        "``empty_target_action`` neg / skip / pos / error). Count measures (NumQ, NumRel, "
        "...) are never changed.")
    nonpositive: Nonpositive | None = _option(None, Choice(NONPOSITIVE, none=True),
        "Documents scored <= 0: judged as given (default), or never a hit in AP, RR, P and "
        "R (torchmetrics >= 1.7.4; the torchmetrics convention's default).",
        details="Never a hit: they keep their ranks, and a relevant one still counts in "
        "recall's denominator (``\"judged\"`` turns the torchmetrics convention's default "
        "off). nDCG and the others read them as given, as torchmetrics does.")
    empty_ranking: EmptyRanking = _option("zero", Choice(EMPTY_RANKING),
        "Judged queries given with an empty ranking: scored on it (0; default), NaN and "
        "left out of the averages (LensKit), or left out of the evaluation.",
        details="An empty ranking is ``{\"q\": {}}`` or an empty retrieved list: scored on "
        "it as trec_eval and ranx do, or left out as ``missing=\"skip\"`` leaves a query "
        "out. It wins over ``empty``.")
    collection_size: int = _option(0, Integer(0),
        "Documents in the collection (trec_eval -N; used by Utility only).")
    convention: str | Convention = _option("trec", _Conventions(),
        "Named bundle of defaults (AP denominator, ideal DCG, ties, ...); explicit options "
        "win.", choices=tuple(CONVENTIONS),
        details="It sets ``ties``, ``empty``, ``missing`` and the measures' ``denom``, "
        "``gain`` and ``ideal`` parameters (see :data:`ranklens.CONVENTIONS` and "
        "docs/conventions.md); parameters written in a measure name win over it too. "
        "``result.conventions`` records what was in force.")

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


def declared(of: Any = EvaluateOptions) -> dict[str, Declared]:
    """``{option name: its declaration}`` of the options dataclass ``of``, in declaration
    order; a field without help is not on the command line."""
    return {f.name: replace(f.metadata["declared"], flag="--" + f.name.replace("_", "-"))
            for f in fields(of) if f.metadata["declared"].help}


#: the line of a docstring that :func:`with_options_doc` replaces by the options' parameters
OPTIONS_DOC = "    <the evaluation options: EvaluateOptions' declarations>\n"


def parameters_doc() -> str:
    """The numpydoc ``Parameters`` entries of every option, in declaration order: the type
    and default from the field, the text from its ``help`` and ``details``."""
    import textwrap

    out = []
    for f in fields(EvaluateOptions):
        decl: Declared = f.metadata["declared"]
        c = decl.constraint
        if isinstance(c, Boolean):
            kind = "bool"
        elif isinstance(c, Integer):
            kind = "int"
        else:
            values = decl.choices or c.values  # type: ignore[attr-defined]
            kind = "{" + ", ".join(f'"{v}"' for v in values) + "}"
            kind += " or Convention" if isinstance(c, _Conventions) else ""
        default = "optional" if f.default is None else (
            f'default "{f.default}"' if isinstance(f.default, str) else f"default {f.default}")
        text = f"{decl.help} {decl.details}".strip()
        out.append(f"    {f.name} : {kind}, {default}\n"
                   + textwrap.fill(text, 92, initial_indent=" " * 8,
                                   subsequent_indent=" " * 8) + "\n")
    return "".join(out)


def with_options_doc(fn: F) -> F:
    """``fn`` with its docstring's :data:`OPTIONS_DOC` line replaced by
    :func:`parameters_doc`: a surface's option docs are the options' own declarations."""
    if fn.__doc__:  # None under python -OO
        if OPTIONS_DOC not in fn.__doc__:
            raise ValueError(f"{fn.__qualname__}'s docstring has no options line")
        fn.__doc__ = fn.__doc__.replace(OPTIONS_DOC, parameters_doc())
    return fn


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


