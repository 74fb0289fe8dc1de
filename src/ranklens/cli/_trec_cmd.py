"""The click wrapper of ``ranklens trec_eval``: arguments are passed through untouched."""

from __future__ import annotations

import re

import click

from .._base.errors import InputError
from ._evaluate import write_stdout
from ._progress import loading
from ._trec_args import TrecEvalError, run_trec_eval

__all__ = ["trec_eval_cmd"]

_DUPLICATES_HINT = re.compile(r"; pass duplicates='first' to keep only the first[^;]*?"
                              r"occurrence( in file order)?")


@click.command(
    "trec_eval",
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True,
                      "help_option_names": []},
    add_help_option=False,
)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def trec_eval_cmd(args: tuple[str, ...]) -> int:
    """trec_eval 10.0 drop-in: same options, same output (see docs/trec_eval.md).

    \b
    ranklens trec_eval [-q] [-c] [-n] [-l N] [-M N] [-N N] [-J] [-m measure[.params]]...
                       [-R qrels|qrels_jg|prefs|qrels_prefs] [-Z zscores] qrels run
    """
    try:
        with loading(a for a in args if not a.startswith("-")):
            text = run_trec_eval(args)
    except TrecEvalError as exc:
        if exc.status == 0:
            click.echo(str(exc), err=True)
            return 0
        for line in _without_option_hint(str(exc)).rstrip("\n").split("\n")[:1]:
            click.echo(f"ranklens: error: {line}", err=True)
        return exc.status
    except InputError as exc:  # reported by the command line, as every other input error
        raise InputError(_without_option_hint(str(exc))) from exc
    write_stdout(text)
    return 0


def _without_option_hint(message: str) -> str:
    """The library's duplicates hint names evaluate's option, which trec_eval lacks."""
    return _DUPLICATES_HINT.sub("; trec_eval refuses it too (ranklens evaluate --duplicates "
                                "first keeps the first occurrence)", message)
