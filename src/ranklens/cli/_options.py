"""The evaluation options of every command that evaluates (evaluate, compare, report),
generated from one declaration: :class:`~ranklens._pipeline.options.EvaluateOptions`'s
fields, plus ``--pairs`` (RAG records in place of QRELS and RUNS). Each command has every
option, with the same flag, choices, default and help text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from .._pipeline.options import DEFAULT_MEASURES, Declared, EvaluateOptions, declared
from .._validate import Boolean, Choice, Integer

__all__ = ["DEFAULT_MEASURES", "PAIRS_HELP", "evaluation_options", "inputs_and_measures",
           "split_measures", "split_options"]

F = TypeVar("F", bound=Callable[..., Any])

PAIRS_HELP = ("RAG-style records instead of QRELS and RUNS (repeatable: one file per "
              "system): one JSON object per line with query_id, retrieved (ids in rank "
              "order) and relevant (gold ids or id-to-grade).")


def _click_option(name: str, decl: Declared) -> Callable[[F], F]:
    """The click option of one declared evaluation option."""
    c = decl.constraint
    default = EvaluateOptions.__dataclass_fields__[name].default
    if isinstance(c, Boolean):
        return click.option(decl.flag, name, is_flag=True, help=decl.help)
    if isinstance(c, Integer):
        kind: Any = click.IntRange(min=c.low, max=c.high)
    elif decl.choices is not None or isinstance(c, Choice):
        values = decl.choices if decl.choices is not None else c.values  # type: ignore[attr-defined]
        kind = click.Choice([str(v) for v in values])
    else:  # pragma: no cover - every declared option is one of the kinds above
        raise TypeError(f"no command-line form for the {name!r} option")
    return click.option(decl.flag, name, type=kind, default=default,
                        show_default=default is not None, help=decl.help)


def evaluation_options(command: F) -> F:
    """Add every evaluation option (and ``--pairs``) to ``command``, in declaration order."""
    for name, decl in reversed(list(declared().items())):
        command = _click_option(name, decl)(command)
    return click.option("--pairs", "pairs", multiple=True, metavar="FILE.jsonl",
                        help=PAIRS_HELP)(command)


def split_options(params: dict[str, Any]) -> tuple[EvaluateOptions, tuple[str, ...]]:
    """Take the evaluation options and ``--pairs`` out of a command's parameters."""
    names = declared()
    given = {name: params.pop(name) for name in list(params) if name in names}
    return EvaluateOptions(**given), tuple(params.pop("pairs", ()))


def split_measures(values: tuple[str, ...]) -> tuple[str, ...]:
    """Each ``-m`` value split into names at whitespace outside parentheses, as ir_measures'
    command line reads ``-m "nDCG@10 AP P@5"`` (a name holds no space but, perhaps, within
    its parameter list).

    Examples
    --------
    >>> split_measures(("nDCG@10 AP", "nDCG(gain=exp2, discount=jk)@5  P_5,10"))
    ('nDCG@10', 'AP', 'nDCG(gain=exp2, discount=jk)@5', 'P_5,10')
    """
    out: list[str] = []
    for value in values:
        depth, name = 0, ""
        for char in value:
            if char.isspace() and depth <= 0:
                if name:
                    out.append(name)
                name = ""
                continue
            depth += (char == "(") - (char == ")")
            name += char
        if name:
            out.append(name)
    return tuple(out)


def inputs_and_measures(what: str) -> Callable[[F], F]:
    """QRELS and RUNS (optional: ``--pairs`` may replace them) and ``-m``, whose help
    begins with ``what`` ("Measure to compute", ...)."""
    def decorate(command: F) -> F:
        command = click.option(
            "-m", "--measure", "measures", multiple=True, metavar="MEASURE",
            callback=lambda _ctx, _param, values: split_measures(values),
            help=f"{what} (repeatable; one value may list several, separated by spaces), "
                 f"e.g. nDCG@10, AP(rel=2), map_cut_10, \"nDCG@10 AP P@5\". "
                 f"Default: {', '.join(DEFAULT_MEASURES)}.")(command)
        command = click.argument("runs", nargs=-1, required=False, type=str)(command)
        return click.argument("qrels", type=str, required=False)(command)
    return decorate
