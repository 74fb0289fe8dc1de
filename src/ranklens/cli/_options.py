"""The evaluation options of every command that evaluates (evaluate, compare, report),
and ``--columns`` of every command that reads runs (also agree, pool and fuse),
generated from one declaration: :class:`~ranklens._pipeline.options.EvaluateOptions`'s
fields, plus ``--pairs`` (RAG records in place of QRELS and RUNS). Each command has every
option, with the same flag, choices, default and help text."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import reduce
from typing import Any, TypeVar

import click

from .._base.outputs import refuse_overwriting_inputs
from .._base.validate import Boolean, Choice, Integer
from .._pipeline.options import DEFAULT_MEASURES, Declared, EvaluateOptions, declared

__all__ = ["CONTEXT_OPTIONS", "DEFAULT_MEASURES", "FUSE_HELP", "JOBS_HELP",
           "MEMORY_LIMIT_HELP", "NAME_HELP", "PAIRS_HELP", "Given", "baseline_name",
           "columns_option", "context_options", "declared_options", "engine_options",
           "evaluated_inputs", "evaluating", "evaluation_options", "fuse_option", "inputs",
           "inputs_and_measures", "judgment_options", "name_systems", "output_option",
           "read_given", "read_qrels", "refuse", "refuse_unread_context", "run_columns",
           "runs_by_name", "split_context", "split_measures", "split_name", "split_options",
           "stacked"]

F = TypeVar("F", bound=Callable[..., Any])


def stacked(*options: Callable[[F], F]) -> Callable[[F], F]:
    """One decorator adding ``options`` as if each were written above the command, in this
    order (the first is the first in ``--help``)."""
    return lambda command: reduce(lambda c, option: option(c), reversed(options), command)

PAIRS_HELP = ("RAG-style records instead of QRELS and RUNS (repeatable: one file per "
              "system, NAME=FILE.jsonl names it): one JSON object per line with "
              "query_id, retrieved (ids in rank order) and relevant (gold ids or "
              "id-to-grade).")

NAME_HELP = ("Name of a run in tables, CSV, LaTeX and the report (repeatable: one per RUN, "
             "or per --pairs file, in order). RUN may also be written NAME=PATH. Default: "
             "the file name without directory and suffixes (.gz/.bz2/.xz, .run, .trec, "
             ".txt, .tsv, .csv, .parquet, .jsonl, ...), with the directories that tell two "
             "alike apart.")


MEMORY_LIMIT_HELP = (
    "Evaluate in bounded memory: when the files would take more than SIZE in memory "
    "(e.g. 2GB, 512MiB), they are split by query into chunks in a temporary directory and "
    "evaluated chunk by chunk, with the same values (docs/scale.md).")

JOBS_HELP = (
    "Cores to use (default: all): in memory, polars' threads and a second thread reading "
    "each run file ahead of its turn (two runs in memory at once); under --memory-limit, "
    "worker processes evaluating chunks. --jobs 1 keeps everything on one core. Values "
    "do not depend on it.")


COLUMNS_HELP = ("RUNS are headerless files with these columns, e.g. qid,docid,score or "
                "qid,docid,rank (_ skips one; docs/cli.md).")


def output_option(help: str = "Write to this file (- for standard output).",
                  formats: Sequence[str] | None = None, **kwargs: Any) -> Callable[[F], F]:
    """``-o/--output FILE``: one declaration for every command that writes (each refuses,
    with :func:`refuse_overwriting_inputs`, to write over one of its inputs); with
    ``formats``, ``-f/--format`` (default table) before it."""
    output = click.option("-o", "--output", type=str, help=help, **kwargs)
    if formats is None:
        return output
    fmt = click.option("-f", "--format", "fmt", type=click.Choice(formats), default="table",
                       show_default=True, help="Output format.")
    return lambda command: fmt(output(command))


#: ``--columns NAMES`` (the RUNS are headerless files with these columns): one declaration
#: for every command that reads runs
columns_option = click.option("--columns", "columns", type=str, default=None, metavar="NAMES",
                              help=COLUMNS_HELP)


def run_columns(columns: str | None) -> tuple[str, ...] | None:
    """``--columns`` as the roles of the RUNS' columns, in order (None: not given)."""
    from .._ingest.io.headerless import column_names

    return column_names(columns, "--columns")


def runs_by_name(labels: Sequence[str], paths: Sequence[str],
                 columns: tuple[str, ...] | None) -> dict[str, Any]:
    """The RUNS by name: their paths (read by the function given them), or with
    ``columns`` the runs read with those columns."""
    if columns is None:
        return dict(zip(labels, paths, strict=True))
    from .._ingest.io._load import load_run

    return {label: load_run(path, name=label, columns=columns)
            for label, path in zip(labels, paths, strict=True)}


def engine_options(command: F) -> F:
    """Add ``--memory-limit`` and ``--jobs`` (how the local engine runs, not what it
    computes) to ``command``."""
    command = click.option("--jobs", "jobs", type=click.IntRange(min=1), default=None,
                           metavar="N", help=JOBS_HELP)(command)
    return click.option("--memory-limit", "memory_limit", type=str, default=None,
                        metavar="SIZE", help=MEMORY_LIMIT_HELP)(command)


def _click_option(name: str, decl: Declared, default: Any) -> Callable[[F], F]:
    """The click option of one declared option."""
    c = decl.constraint
    if isinstance(c, Boolean):
        return click.option(decl.flag, name, is_flag=True, help=decl.help)
    if decl.kind is not None:
        kind: Any = decl.kind
    elif isinstance(c, Integer):
        kind = click.IntRange(min=c.low, max=c.high)
    elif decl.choices is not None or isinstance(c, Choice):
        values = decl.choices if decl.choices is not None else c.values  # type: ignore[attr-defined]
        kind = click.Choice([str(v) for v in values])
    else:  # pragma: no cover - every declared option is one of the kinds above
        raise TypeError(f"no command-line form for the {name!r} option")
    return click.option(decl.flag, name, type=kind, default=default,
                        show_default=default is not None, help=decl.help)


def declared_options(of: Any = EvaluateOptions) -> Callable[[F], F]:
    """Add every option the options dataclass ``of`` declares with a help text (every
    evaluation option by default; not ``--pairs``), in declaration order."""
    fields = of.__dataclass_fields__
    return stacked(*(_click_option(name, decl, fields[name].default)
                     for name, decl in declared(of).items()))


#: every evaluation option (not ``--pairs``), in declaration order
judgment_options = declared_options()


def evaluation_options(command: F) -> F:
    """Add every evaluation option (and ``--pairs``) to ``command``, in declaration order."""
    return click.option("--pairs", "pairs", multiple=True, metavar="FILE.jsonl",
                        help=PAIRS_HELP)(judgment_options(command))


#: the beyond-accuracy tables, as ``evaluate``'s keyword -> (flag, help); each a file in
#: any format ranklens reads (docs/beyond-accuracy.md)
CONTEXT_OPTIONS: dict[str, tuple[str, str]] = {
    "train": ("--train", "Training interactions (user item [weight] lines, or a CSV, TSV or "
              "Parquet file with user_id and item_id columns): item popularity and user "
              "history for Novelty@k, ARP@k, APLT@k, Serendipity@k, ..."),
    "items": ("--items", "The item catalogue (one item id per line, or a file with an "
              "item_id column and an optional group column), for Coverage@k and Gini@k "
              "(default: the items of --train)."),
    "item_features": ("--item-features", "Item features: item x1 x2 ... lines (embeddings, "
                      "compared by cosine) or item feature lines (categorical, compared by "
                      "Jaccard), or a columnar file; for ILD@k, ILS@k, Unexpectedness@k."),
    "item_groups": ("--item-groups", "Item groups (item group lines, or a file with item_id "
                    "and group columns); the group 'tail' is the long tail of APLT@k and "
                    "ACLT@k."),
}


def context_options(command: F) -> F:
    """Add the beyond-accuracy table options (:data:`CONTEXT_OPTIONS`) to ``command``."""
    return stacked(*(click.option(flag, name, type=str, default=None, metavar="FILE", help=text)
                     for name, (flag, text) in CONTEXT_OPTIONS.items()))(command)


def split_context(params: dict[str, Any]) -> dict[str, str]:
    """Take the beyond-accuracy table files given out of a command's parameters."""
    taken = {name: params.pop(name, None) for name in CONTEXT_OPTIONS}
    return {name: path for name, path in taken.items() if path is not None}


def _given_tables(context: dict[str, str]) -> str:
    """The table options given, and the verb that follows: ``--train, --items are``."""
    flags = ", ".join(CONTEXT_OPTIONS[n][0] for n in context)
    return f"{flags} {'is' if len(context) == 1 else 'are'}"


def refuse(*rules: tuple[bool, str]) -> None:
    """A UsageError with the message of the first ``(broken, message)`` rule broken: the
    options a command refuses together, declared in the order they are checked."""
    message = next((message for broken, message in rules if broken), None)
    if message is not None:
        raise click.UsageError(message)


def refuse_unread_context(context: dict[str, str], measures: Sequence[str],
                          also: str = "") -> None:
    """A UsageError when beyond-accuracy tables are given but no measure reads one: they
    would be read and silently left unused. ``also``: what else would read them, for the
    message."""
    from .._names import parse_measures
    from .._pipeline.context import reads_context

    if not context or any(reads_context(m) for m in parse_measures(measures)):
        return
    raise click.UsageError(
        f"{_given_tables(context)} read by beyond-accuracy measures "
        f"(Novelty@k, ARP@k, Coverage@k, ILD@k, APLT@k, ...){also}; none of the measures "
        f"given reads {'it' if len(context) == 1 else 'them'}")


FUSE_HELP = ("Also evaluate the runs fused by this method (rrf, sum, mnz, ...; ranklens fuse "
             "--help) as one more run named after the method. Parameters follow a colon: "
             "rbc:phi=0.8, rrf:k=20.")


#: ``--fuse METHOD``: the fused run beside the inputs of an evaluating command
fuse_option = click.option("--fuse", "fuse_method", default=None, metavar="METHOD[:K=V,...]",
                           help=FUSE_HELP)


def split_options(params: dict[str, Any]) -> tuple[EvaluateOptions, tuple[str, ...]]:
    """Take the evaluation options and ``--pairs`` out of a command's parameters."""
    names = declared()
    given = {name: params.pop(name) for name in list(params) if name in names}
    return EvaluateOptions(**given), tuple(params.pop("pairs", ()))


def split_measures(values: tuple[str, ...]) -> tuple[str, ...]:
    """Each ``-m`` value split into names at whitespace outside parentheses, as ir_measures'
    command line reads ``-m "nDCG@10 AP P@5"``, unless it reads as one name (``nDCG @ 10``):
    :func:`~ranklens._names.lists.names_in`, as ``ranklens.evaluate`` reads its measures.

    Examples
    --------
    >>> split_measures(("nDCG@10 AP", "nDCG(gain=exp2, discount=jk)@5  P_5,10"))
    ('nDCG@10', 'AP', 'nDCG(gain=exp2, discount=jk)@5', 'P_5,10')
    """
    from .._names.lists import names_in

    return tuple(name for value in values for name in names_in(value))


def _measures_given(_ctx: click.Context, _param: click.Parameter,
                    values: tuple[str, ...]) -> tuple[str, ...]:
    """The ``-m`` values split into names; a blank value is refused (it names nothing)."""
    if any(not value.strip() for value in values):
        raise click.UsageError("-m/--measure was given an empty value; give a measure name, "
                               "e.g. -m nDCG@10 (ranklens measures lists them)")
    return split_measures(values)


def inputs_and_measures(what: str) -> Callable[[F], F]:
    """QRELS and RUNS (optional: ``--pairs`` may replace them), ``-m``, whose help begins
    with ``what`` ("Measure to compute", ...), and ``--name`` (see :func:`name_systems`)."""
    return stacked(
        click.argument("qrels", type=str, required=False),
        click.argument("runs", nargs=-1, required=False, type=str),
        click.option(
            "-m", "--measure", "measures", multiple=True, metavar="MEASURE",
            callback=_measures_given,
            help=f"{what} (repeatable; one value may list several, separated by spaces), "
                 f"e.g. nDCG@10, AP(rel=2), map_cut_10, \"nDCG@10 AP P@5\". "
                 f"Default: {', '.join(DEFAULT_MEASURES)}."),
        click.option("--name", "names", multiple=True, metavar="NAME", help=NAME_HELP))


def split_name(arg: str) -> tuple[str | None, str]:
    """``(name, path)`` of a RUN argument: ``NAME=PATH`` names its run when ``arg`` is not an
    existing file and NAME is a plausible name (not empty, no ``/`` or ``\\``, no space at
    either end) and PATH is not empty; anything else is a path, unnamed (None)."""
    if "=" not in arg or os.path.exists(arg):
        return None, arg
    name, path = arg.split("=", 1)
    if (not name or name != name.strip() or "/" in name or "\\" in name or not path):
        return None, arg
    return name, path


def name_systems(args: Sequence[str], names: Sequence[str],
                 what: str = "RUN") -> tuple[list[str], list[str]]:
    """The names and paths of the RUN arguments (or ``--pairs`` files) ``args``, named by
    ``--name`` (``names``, one per argument, in order), by ``NAME=PATH``, or else by
    :func:`~ranklens._ingest.io._run_names.name_runs`: the one place every command names its runs.

    Raises
    ------
    click.UsageError
        ``--name`` given another number of times than there are ``args``, a run named both
        ways, an empty name, or two runs sharing a name.
    """
    from .._ingest.io._run_names import name_runs

    split = [split_name(a) for a in args]
    paths = [p for _, p in split]
    if names:
        if len(names) != len(args):
            raise click.UsageError(
                f"--name is given {len(names)} time{'s' if len(names) != 1 else ''} for "
                f"{len(args)} {what}{'s' if len(args) != 1 else ''}; give one --name per "
                f"{what}, in order")
        twice = next((a for a, (n, _) in zip(args, split, strict=True) if n is not None),
                     None)
        if twice is not None:
            raise click.UsageError(f"{twice!r} is named twice, by NAME=PATH and by --name; "
                                   "use one form")
        given: list[str | None] = list(names)
    else:
        given = [n for n, _ in split]
    if any(n is not None and not n.strip() for n in given):
        raise click.UsageError("a run name cannot be empty")
    defaults = name_runs(paths)
    final = [g if g is not None else d for g, d in zip(given, defaults, strict=True)]
    chosen = [str(n) for n in final]
    shared = next((n for n in chosen if chosen.count(n) > 1), None)
    if shared is not None:
        raise click.UsageError(f"two {what}s are named {shared!r}; give each its own name "
                               "(--name NAME or NAME=PATH)")
    return chosen, paths


def baseline_name(baseline: str | None, names: Sequence[str], args: Sequence[str],
                  what: str = "runs") -> str | None:
    """The name of the ``--baseline`` run: ``baseline`` is a run's name or, as before runs
    had names, its argument as given (``NAME=PATH`` or PATH); None stays None.

    Raises
    ------
    ParameterError
        ``baseline`` is neither.
    """
    if baseline is None or baseline in names:
        return baseline
    split = [split_name(a) for a in args]
    for name, arg, (_, path) in zip(names, args, split, strict=True):
        if baseline in (arg, path):
            return name
    from .._base.errors import ParameterError

    raise ParameterError(f"--baseline must name one of the {what} "
                         f"({', '.join(names)}); got {baseline!r}")


#: --format-in's names: how QRELS is read (the runs' forms are told apart by content)
QRELS_FORMATS = ("auto", "rag-judgments")


#: ``--format-in``: how QRELS is read
format_in_option = click.option(
    "--format-in", "format_in", type=click.Choice(QRELS_FORMATS), default="auto",
    show_default=True,
    help="How QRELS is read: auto (TREC qrels, CSV, TSV, Parquet, JSON Lines), or "
         "rag-judgments: TREC RAG 2025's six-column judgment file (its confidence and "
         "tag columns are set aside).")


def read_qrels(path: str, format_in: str) -> Any:
    """QRELS as ``--format-in`` names it: the path itself (read by the engine) or, for
    ``rag-judgments``, the judgments read from the six-column file."""
    if format_in == "auto":
        return path
    from .._ingest.io.rag import read_rag_judgments

    return read_rag_judgments(path).qrels


def evaluated_inputs(command: F) -> F:
    """Add what every evaluating command reads besides its inputs: the evaluation options,
    the beyond-accuracy tables, ``--fuse``, ``--columns`` and ``--format-in``."""
    return evaluation_options(context_options(fuse_option(columns_option(
        format_in_option(command)))))


def inputs(qrels: str | None, runs: Sequence[str], pairs: Sequence[str],
           at_least: int = 1) -> None:
    """UsageError unless the inputs are QRELS and ``at_least`` RUNS, or ``--pairs`` files
    (at least ``at_least``) alone."""
    if pairs:
        if qrels is not None:
            raise click.UsageError("--pairs replaces QRELS and RUNS; give one or the other")
        if len(pairs) < at_least:
            raise click.UsageError(f"give at least {at_least} --pairs files")
        return
    if qrels is None or not runs:  # click's own wording, as when the arguments were required
        raise click.UsageError(f"Missing argument '{'QRELS' if qrels is None else 'RUNS...'}'.")


@dataclass(frozen=True)
class Given:
    """What an evaluating command was given, read and checked by :func:`read_given`."""

    options: EvaluateOptions
    #: the ``--pairs`` files (empty: QRELS and RUNS)
    pairs: tuple[str, ...]
    #: the beyond-accuracy table files, by ``evaluate``'s keyword
    context: dict[str, str]
    #: the systems' names and paths (runs, or --pairs files)
    labels: list[str]
    paths: list[str]
    #: the measures asked for, or the default ones
    measures: list[str]
    #: the RUNS' columns (``--columns``), when they are headerless files
    columns: tuple[str, ...] | None = None
    #: how QRELS is read (``--format-in``)
    qrels_format: str = "auto"
    #: the QRELS argument (None: ``--pairs``)
    qrels: str | None = None

    def judgments(self) -> Any:
        """QRELS as ``--format-in`` names it (:func:`read_qrels`; None: ``--pairs``)."""
        return None if self.qrels is None else read_qrels(self.qrels, self.qrels_format)

    def runs(self) -> dict[str, Any]:
        """The RUNS by name (:func:`runs_by_name`)."""
        return runs_by_name(self.labels, self.paths, self.columns)


def read_given(qrels: str | None, runs: Sequence[str], names: Sequence[str],
               measures: Sequence[str], params: dict[str, Any], output: str | None,
               at_least: int = 1, fuse: str | None = None) -> Given:
    """The inputs of an evaluating command: its options and tables taken out of ``params``,
    QRELS and RUNS or ``--pairs`` files (:func:`inputs`), the systems named
    (:func:`name_systems`), ``output`` none of the inputs, and no tables nor ``--fuse``
    (``fuse``) with ``--pairs`` (the tables describe users and items, the fusion runs)."""
    coverage = params.pop("coverage", None)
    options, pairs = split_options(params)
    context = split_context(params)
    columns = run_columns(params.pop("columns", None))
    qrels_format = params.pop("format_in", "auto")
    inputs(qrels, runs, pairs, at_least)
    refuse((qrels_format != "auto" and bool(pairs), "--format-in names how QRELS is read; "
            "--pairs files carry their own judgments"),
           (columns is not None and bool(pairs), "--columns names the columns of RUNS; "
            "--pairs files have their own (query_id, retrieved, relevant)"),
           (bool(context and pairs), f"{_given_tables(context)} for QRELS and RUNS, not --pairs"),
           (fuse is not None and bool(pairs), "--fuse is for RUNS, not --pairs files"))
    labels, paths = name_systems(pairs or runs, names, "--pairs file" if pairs else "RUN")
    refuse_overwriting_inputs(output, [qrels, *paths, *context.values()])
    chosen = list(measures) or list(DEFAULT_MEASURES)
    if coverage is not None:
        from .._surfaces.coverage import coverage_measures

        chosen = coverage_measures(chosen, coverage)
    return Given(options, pairs, context, labels, paths, chosen, columns, qrels_format, qrels)


#: ``--coverage K`` of an evaluating command (evaluate, compare, report)
coverage_option = click.option(
    "--coverage", type=click.IntRange(1, 2 ** 31 - 1), default=None, metavar="K",
    help="Add Judged@K, Unj@K and each measure on condensed lists (judged documents "
         "only); warn when the two forms order two systems differently.")


def evaluating(command: F) -> F:
    """:func:`evaluated_inputs` and ``--coverage``: the inputs of evaluate, compare, report."""
    return evaluated_inputs(coverage_option(command))
