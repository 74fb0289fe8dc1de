"""The ``ranklens`` command: evaluate, trec_eval, measures, demo.

Every problem is reported as one line on standard error (``ranklens: error: ...``) with a
non-zero exit status; ``--debug`` shows the traceback instead. Warnings about the user's data
(:class:`~ranklens.RanklensWarning`) print as ``ranklens: warning: ...``; other warnings raised
in ranklens's own code as ``ranklens: <Category>: ...``. Warnings raised inside the libraries
ranklens uses (pyspark's about the pandas version, a deprecation in polars) are none of the
user's business and not shown; ``--debug`` shows them in Python's own format.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sys
import warnings
from collections.abc import Sequence
from typing import Any, ClassVar

import click

from .._base.errors import RanklensError, RanklensWarning

__all__ = ["cli", "main"]

_STATE: dict[str, bool] = {"debug": False}


_OPTION_HINT = re.compile(r"\b(duplicates|missing|empty|ties|depth|rel)=('?)([\w.]+)\2")


_TWICE = re.compile(r"(--\w+ [\w.]+) \(\1\)")


def _as_cli(message: str) -> str:
    """One line, with the library's ``missing='skip'`` hints spelled as CLI options."""
    text = " ".join(message.split())
    text = _OPTION_HINT.sub(lambda m: f"--{m.group(1)} {m.group(3)}", text)
    # a message naming both spellings, "rel=4 (--rel 4)", names the option once
    return _TWICE.sub(r"\1", text)


def _err(message: str) -> None:
    click.echo(f"ranklens: error: {_as_cli(message)}", err=True)


_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _from_ranklens(filename: str) -> bool:
    """Whether a warning was raised (as attributed by its stack level) in ranklens's code."""
    try:
        path = os.path.abspath(filename)
    except (TypeError, ValueError):
        return False
    return path == _PACKAGE or path.startswith(_PACKAGE + os.sep)


def _show_warning(message: Any, category: type[Warning], filename: str, lineno: int,
                  file: Any = None, line: str | None = None) -> None:
    if not issubclass(category, RanklensWarning) and not _from_ranklens(filename):
        # a dependency's own warning (pyspark's pandas FutureWarning): not the user's data
        if _STATE["debug"]:
            click.echo(warnings.formatwarning(message, category, filename, lineno, line)
                       .rstrip("\n"), err=True)
        return
    text = _as_cli(str(message))
    label = "warning" if issubclass(category, RanklensWarning) else category.__name__
    click.echo(f"ranklens: {label}: {text}", err=True)


class _Interrupted(Exception):
    """A Ctrl-C inside a command, told to main past click."""


class _LazyGroup(click.Group):
    """A group whose commands are imported when one is run or listed, not at start-up:
    ``ranklens evaluate`` then loads neither the comparison statistics nor the report,
    trec_eval or the measure listing (and a Ctrl-C meets main's guard, not an import)."""

    #: command name -> (module of ranklens.cli, attribute)
    lazy: ClassVar[dict[str, tuple[str, str]]] = {
        "agree": ("._agree", "agree_cmd"),
        "compare": ("._compare", "compare_cmd"),
        "correlate": ("._correlate", "correlate_cmd"),
        "demo": ("._demo", "demo"),
        "evaluate": ("._evaluate", "evaluate_cmd"),
        "fuse": ("._fuse", "fuse_cmd"),
        "judges": ("._judges", "judges_cmd"),
        "judge-export": ("._judging", "judge_export_cmd"),
        "judge-merge": ("._judging", "judge_merge_cmd"),
        "measures": ("._measures", "measures_cmd"),
        "pool": ("._agree", "pool_cmd"),
        "power": ("._power", "power_cmd"),
        "report": ("._report", "report_cmd"),
        "sampled": ("._sampled", "sampled_cmd"),
        "trec_eval": ("._trec_cmd", "trec_eval_cmd"),
        "rollup": ("._rollup", "rollup_cmd"),
        "off-policy": ("._off_policy", "off_policy_cmd"),
        "exposure": ("._off_policy", "exposure_cmd"),
    }

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(self.commands) | set(self.lazy))

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:  # click would print a blank line before main's one line
            raise _Interrupted from None

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy:
            import importlib

            module, attr = self.lazy[cmd_name]
            self.add_command(getattr(importlib.import_module(module, __name__), attr))
        return self.commands.get(cmd_name)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ranklens", prog_name="ranklens")
@click.option("--debug", is_flag=True, help="Show the full traceback of an error.")
def cli(debug: bool) -> None:
    """Exact, fast evaluation of ranked results (trec_eval semantics by default).

    \b
    ranklens evaluate qrels.txt run.txt              nDCG@10, AP, RR@10, P@10, R@100, R@1000
    ranklens evaluate qrels.txt a.run b.run -m AP    systems side by side
    ranklens compare qrels.txt a.run b.run -m AP     paired significance tests
    ranklens agree a.run b.run -m "RBO(p=0.9)"       rankings compared, no judgments
    ranklens pool a.run b.run --depth 10 -o p.txt    the pairs to judge
    ranklens judge-export a.run --qrels q -o req.jsonl  pairs for an LLM judge
    ranklens judge-merge q labels.jsonl -o new.qrels    its labels merged, provenance kept
    ranklens correlate --qrels-a A --qrels-b B RUNS  do two qrels order the runs alike?
    ranklens judges people.qrels llm.qrels -r a.run -r b.run  can the judges be trusted?
    ranklens trec_eval -m all_trec -q qrels run      trec_eval's exact output
    ranklens measures ndcg                           what each measure computes
    ranklens report qrels a.run b.run -o r.html      an HTML report comparing runs
    ranklens fuse a.run b.run -o fused.run           fuse runs (RRF, CombMNZ, ...)
    ranklens rollup segments.run -o docs.run         segments to documents (MaxP)
    ranklens demo                                    a worked example on bundled data
    """
    _STATE["debug"] = debug


def _error_status(exc: Exception) -> int:
    """Print the one line an error gives, and return the exit status it gives."""
    if isinstance(exc, click.ClickException):
        where = getattr(exc, "ctx", None)
        hint = f" (see '{where.command_path} --help')" if where and where.command_path else ""
        click.echo("ranklens: error: " + " ".join(exc.format_message().split()) + hint,
                   err=True)
        return exc.exit_code
    if isinstance(exc, RanklensError):
        _err(str(exc))
        return 2
    if isinstance(exc, OSError):
        # a full disk, a failing device: the system's words, on one line
        where = f" {exc.filename}" if exc.filename else ""
        _err(f"cannot read or write{where}: {exc.strerror or exc}")
    else:
        _err(f"unexpected {type(exc).__name__}: {' '.join(str(exc).split())} "
             "(run with --debug for the traceback)")
    return 1


def main(argv: Sequence[str] | None = None) -> None:
    """Console-script entry point; exits with the command's status."""
    args = list(sys.argv[1:] if argv is None else argv)
    _STATE["debug"] = "--debug" in args[: args.index("trec_eval")] if "trec_eval" in args \
        else "--debug" in args
    previous = warnings.showwarning
    warnings.showwarning = _show_warning
    warnings.simplefilter("always", RanklensWarning)
    stdout = sys.stdout
    try:
        if not [a for a in args if a != "--debug"]:
            # bare `ranklens`: the help, as `ranklens --help` prints it (click would give it
            # as one squeezed error line)
            with click.Context(cli, info_name="ranklens", **cli.context_settings) as ctx:
                click.echo(ctx.get_help())
            status = 0
        else:
            status = cli.main(args=args, prog_name="ranklens", standalone_mode=False)
    except SystemExit:
        # click itself exits 1 when the reader of stdout goes away (`ranklens ... | head`),
        # after replacing sys.stdout by a wrapper that ignores the broken pipe; that is no
        # error, as for BrokenPipeError below. Compared by identity: the wrapper's class is
        # private from click 8.5 on and removed in click 9.
        if sys.stdout is stdout:
            raise
        status = 0
    except click.exceptions.Exit as exc:
        status = exc.exit_code
    except (click.exceptions.Abort, _Interrupted, KeyboardInterrupt):  # a Ctrl-C
        _err("interrupted")
        status = 130
    except BrokenPipeError:
        status = 0  # `ranklens ... | head` closed the pipe: not an error
    except Exception as exc:
        if _STATE["debug"]:
            raise
        status = _error_status(exc)
    finally:
        warnings.showwarning = previous
    sys.exit(status if isinstance(status, int) else 0)


def run() -> None:
    """The installed ``ranklens`` command: :func:`main`, then end the process at once.

    Tearing the interpreter down frees every array and module one object at a time, a
    tenth of a second after a large evaluation, for memory the exit returns anyway.
    """
    try:
        # the entry point's quiet Ctrl-C (_ranklens_entry) gives way to main's guard here
        signal.signal(signal.SIGINT, signal.default_int_handler)
        main()
        status = 0
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
    except KeyboardInterrupt:  # between main's own guard and here
        status = 130
    try:
        sys.stdout.flush()
    except (BrokenPipeError, ValueError):
        pass  # a closed pipe or stream: nothing left to write to
    except OSError as exc:  # a full disk, found as the last buffered output is written
        _err(f"cannot write to standard output: {exc.strerror or exc}")
        status = status or 1
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.flush()
    os._exit(status)
