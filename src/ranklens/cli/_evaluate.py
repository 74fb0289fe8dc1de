"""``ranklens evaluate``: one or more runs against judgments, in any output format."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from .._outputs import refuse_overwriting_inputs, write_atomically
from .._render import FORMATS, Format
from . import _options as evaluation

if TYPE_CHECKING:
    from .._result import Result
    from .._results import Results

__all__ = ["evaluate_cmd", "evaluate_files", "evaluate_pairs_file", "write_output",
           "write_stdout"]

DEFAULT_MEASURES = ("nDCG@10", "AP", "RR@10", "P@10", "R@100", "R@1000")


def evaluate_files(qrels_path: str, run_paths: Sequence[str], measures: Sequence[str],
                   options: dict[str, Any], subtopics: bool = False) -> Results:
    """Load the judgments once and evaluate each run; results are named by their argument.
    ``subtopics``: the judgments are subtopic ones (ndeval format)."""
    from .._errors import ParameterError
    from .._evaluate import evaluate
    from .._names import expand_trec_lists, parse_measures
    from ._progress import loading

    # every bad name is reported before any file is read (P_5,10 is P_5 and P_10)
    parse_measures([one for m in measures for one in expand_trec_lists(m)])
    if sum(1 for p in run_paths if p == "-") + (qrels_path == "-") > 1:
        raise ParameterError("standard input ('-') can be used for only one file")
    twice = sorted({p for p in run_paths if list(run_paths).count(p) > 1})
    if twice:
        raise ParameterError(f"each run can be given once; got {twice[0]} "
                             f"{list(run_paths).count(twice[0])} times")
    with loading([qrels_path, *run_paths]):
        qrels: Any = qrels_path
        if subtopics:
            from .._io._load import load_qrels

            qrels = load_qrels(qrels_path, kind="subtopic")
        return evaluate(qrels, {path: path for path in run_paths}, list(measures),
                        **options)


def write_output(results: Results | Sequence[Result], fmt: Format, per_query: bool,
                 output: str | None, names: Sequence[str]) -> None:
    """Render and write: a rich table on a terminal, plain text everywhere else."""
    from .._render import render

    if fmt == "table" and output is None and sys.stdout.isatty():
        from rich.console import Console

        from .._render import rich_table

        Console().print(rich_table(results, per_query=per_query, run_names=names))
        return
    text = render(results, fmt, per_query=per_query, run_names=names)
    if output is None:
        write_stdout(text)
    else:
        write_atomically(output, text)


def write_stdout(text: str) -> None:
    """Write ``text`` to standard output; a full disk or a failing device is an error saying
    so (a closed pipe is left to the caller: it is no error)."""
    from .._errors import RanklensError

    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise RanklensError(f"cannot write to standard output: {exc.strerror or exc}") from None


@click.command("evaluate")
@click.argument("qrels", type=str, required=False)
@click.argument("runs", nargs=-1, required=False, type=str)
@click.option("--pairs", type=str, default=None, metavar="FILE.jsonl",
              help="Evaluate RAG-style records instead of QRELS and RUNS: one JSON object per "
                   "line with query_id, retrieved (ids in rank order) and relevant (gold ids "
                   "or id-to-grade).")
@evaluation.convention()
@click.option("-m", "--measure", "measures", multiple=True, metavar="MEASURE",
              help="Measure to compute (repeatable), e.g. nDCG@10, AP(rel=2), map_cut_10. "
                   f"Default: {', '.join(DEFAULT_MEASURES)}.")
@click.option("--per-query", is_flag=True, help="Also show one row per query.")
@click.option("-f", "--format", "fmt", type=click.Choice(FORMATS), default="table",
              show_default=True, help="Output format.")
@click.option("-o", "--output", type=str, default=None, help="Write to this file.")
@evaluation.rel()
@evaluation.missing()
@evaluation.judged_only()
@evaluation.depth()
@evaluation.duplicates()
@evaluation.ties()
@evaluation.empty()
@click.option("--collection-size", type=click.IntRange(min=0), default=0, show_default=True,
              help="Documents in the collection (trec_eval -N; used by Utility only).")
@click.option("--subtopics", is_flag=True,
              help="QRELS are subtopic judgments (ndeval format: topic subtopic doc grade), "
                   "for the diversity measures (alpha-nDCG@k, ERR-IA@k, NRBP, P-IA@k, "
                   "S-recall@k, ...; docs/diversity.md).")
@click.option("--engine", type=click.Choice(["local", "spark"]), default="local",
              show_default=True,
              help="spark: read the files through Apache Spark and evaluate there; per-query "
                   "values are written as Parquet to the -o folder (needs ranklens[spark]).")
@click.option("--master", type=str, default=None, metavar="URL",
              help="Spark master for --engine spark: local[N], spark://host:7077, yarn, or "
                   "sc://host for Spark Connect (default: Spark's own).")
def evaluate_cmd(qrels: str | None, runs: tuple[str, ...], pairs: str | None, convention: str,
                 measures: tuple[str, ...], per_query: bool, fmt: Format, output: str | None,
                 rel: int, missing: str | None, judged_only: bool, depth: int | None,
                 duplicates: str, ties: str | None, empty: str | None,
                 collection_size: int, subtopics: bool = False, engine: str = "local",
                 master: str | None = None) -> int:
    """Evaluate RUNS against QRELS (TREC, CSV, TSV, Parquet or JSON Lines; .gz/.bz2/.xz;
    '-' for standard input).

    \b
    ranklens evaluate qrels.txt run.txt
    ranklens evaluate qrels.txt bm25.run dense.run -m nDCG@10 -m AP --format markdown
    ranklens evaluate qrels.txt run.txt --per-query --format jsonl -o scores.jsonl
    ranklens evaluate --pairs rag.jsonl -m RR -m R@5 -m nDCG@5
    ranklens evaluate --subtopics web.ndeval.qrels run.txt -m alpha-nDCG@20 -m ERR-IA@20
    """
    chosen = list(measures) or list(DEFAULT_MEASURES)
    options = {"rel": rel, "missing": missing, "judged_only": judged_only, "depth": depth,
               "duplicates": duplicates, "ties": ties, "empty": empty,
               "convention": convention, "collection_size": collection_size}
    refuse_overwriting_inputs(output, [qrels, *runs, pairs])
    if pairs is not None:
        if qrels is not None:
            raise click.UsageError("--pairs replaces QRELS and RUNS; give one or the other")
        write_output(evaluate_pairs_file(pairs, chosen, options), fmt, per_query, output,
                     [pairs])
        return 0
    if qrels is None or not runs:  # click's own wording, as when the arguments were required
        raise click.UsageError(f"Missing argument '{'QRELS' if qrels is None else 'RUNS...'}'.")
    if engine == "spark":
        from ..spark._cli import evaluate_on_spark

        if per_query:
            raise click.UsageError("--engine spark writes per-query values to Parquet (-o); "
                                   "--per-query is for the local engine")
        if subtopics:
            raise click.UsageError("--subtopics is for the local engine")
        write_output(evaluate_on_spark(qrels, runs, chosen, options, master, output), fmt,
                     False, None, list(runs))
        return 0
    if master is not None:
        raise click.UsageError("--master is for --engine spark")
    results = evaluate_files(qrels, runs, chosen, options, subtopics)
    write_output(results, fmt, per_query, output, list(runs))
    return 0


def evaluate_pairs_file(path: str, measures: Sequence[str],
                        options: dict[str, Any]) -> list[Result]:
    """Evaluate a JSON Lines file of RAG records (query_id, retrieved, relevant)."""
    from .._evaluate import evaluate
    from .._io._pairs import load_pairs
    from .._names import expand_trec_lists, parse_measures

    parse_measures([one for m in measures for one in expand_trec_lists(m)])
    qrels, run = load_pairs(path, duplicates=options["duplicates"])
    return [evaluate(qrels, run, list(measures), run_name=path, **options)]
