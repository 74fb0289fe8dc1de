"""The evaluation options every command that evaluates takes (evaluate, compare, report),
declared once: their choices come from the engine's policy types, so no command offers a
value the engine lacks or misses one it has."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from .._conventions import CONVENTIONS
from .._model.policies import DUPLICATES, EMPTY, MISSING, TIES

__all__ = ["convention", "depth", "duplicates", "empty", "judged_only", "missing", "rel",
           "ties"]

F = TypeVar("F", bound=Callable[..., Any])


def convention(help: str = "Named bundle of defaults (AP denominator, ideal DCG, ties, ...); "
               "explicit options win.") -> Callable[[F], F]:
    return click.option("--convention", type=click.Choice(list(CONVENTIONS)), default="trec",
                        show_default=True, help=help)


def rel() -> Callable[[F], F]:
    return click.option("--rel", type=int, default=1, show_default=True,
                        help="Minimum judged level counted as relevant (trec_eval -l).")


def missing(help: str = "Judged queries absent from a run: score 0 (default, with a "
            "warning), leave out, or fail.") -> Callable[[F], F]:
    return click.option("--missing", type=click.Choice(MISSING), default=None, help=help)


def judged_only() -> Callable[[F], F]:
    return click.option("--judged-only", is_flag=True,
                        help="Drop unjudged documents before evaluating (trec_eval -J).")


def depth() -> Callable[[F], F]:
    return click.option("--depth", type=click.IntRange(min=0), default=None,
                        help="Keep only the top N documents of each query (trec_eval -M).")


def duplicates() -> Callable[[F], F]:
    return click.option("--duplicates", type=click.Choice(DUPLICATES), default="error",
                        show_default=True,
                        help="A document twice in one query: fail, or keep the first.")


def ties() -> Callable[[F], F]:
    return click.option("--ties", type=click.Choice(TIES), default=None,
                        help="Equal scores: doc id descending (trec_eval; default), input "
                             "order, averaged over all orders, or by grade (worst / best case "
                             "first).")


def empty() -> Callable[[F], F]:
    return click.option("--empty", type=click.Choice(EMPTY), default=None,
                        help="Queries without any relevant judgment: 0 (default), left out, "
                             "1, NaN, or fail.")
