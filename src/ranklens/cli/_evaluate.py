"""``ranklens evaluate``: one or more runs against judgments, in any output format."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from .._render import FORMATS

if TYPE_CHECKING:
    from .._result import Result

__all__ = ["evaluate_cmd", "evaluate_files", "write_output"]

DEFAULT_MEASURES = ("nDCG@10", "AP", "RR@10", "P@10", "R@100", "R@1000")


def evaluate_files(qrels_path: str, run_paths: Sequence[str], measures: Sequence[str],
                   options: dict[str, Any]) -> list[Result]:
    """Load the judgments once and evaluate each run; results are named by their argument."""
    from .._evaluate import evaluate
    from .._io._load import load_qrels, load_run
    from .._names import parse_measures
    from ._progress import loading

    parse_measures(list(measures))  # every bad name is reported before any file is read
    if sum(1 for p in run_paths if p == "-") + (qrels_path == "-") > 1:
        from .._errors import ParameterError

        raise ParameterError("standard input ('-') can be used for only one file")
    with loading([qrels_path, *run_paths]):
        qrels = load_qrels(qrels_path)
        results = []
        for path in run_paths:
            run = load_run(path, name=path)
            results.append(evaluate(qrels, run, list(measures), **options))
    return results


def write_output(results: Sequence[Result], fmt: str, per_query: bool, output: str | None,
                 names: Sequence[str]) -> None:
    """Render and write: a rich table on a terminal, plain text everywhere else."""
    from .._render import render

    if fmt == "table" and output is None and sys.stdout.isatty():
        from rich.console import Console

        from .._render import rich_table

        Console().print(rich_table(results, per_query=per_query, run_names=names))
        return
    text = render(results, fmt, per_query=per_query, run_names=names)
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        try:
            with open(output, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
        except OSError as exc:
            from .._errors import ParameterError

            raise ParameterError(f"cannot write {output}: {exc.strerror}") from None


@click.command("evaluate")
@click.argument("qrels", type=str)
@click.argument("runs", nargs=-1, required=True, type=str)
@click.option("-m", "--measure", "measures", multiple=True, metavar="MEASURE",
              help="Measure to compute (repeatable), e.g. nDCG@10, AP(rel=2), map_cut_10. "
                   f"Default: {', '.join(DEFAULT_MEASURES)}.")
@click.option("--per-query", is_flag=True, help="Also show one row per query.")
@click.option("-f", "--format", "fmt", type=click.Choice(FORMATS), default="table",
              show_default=True, help="Output format.")
@click.option("-o", "--output", type=str, default=None, help="Write to this file.")
@click.option("--rel", type=int, default=1, show_default=True,
              help="Minimum judged level counted as relevant (trec_eval -l).")
@click.option("--missing", type=click.Choice(["zero", "skip", "error"]), default=None,
              help="Judged queries absent from a run: score 0 (default, with a warning), "
                   "leave out, or fail.")
@click.option("--judged-only", is_flag=True,
              help="Drop unjudged documents before evaluating (trec_eval -J).")
@click.option("--depth", type=click.IntRange(min=0), default=None,
              help="Keep only the top N documents of each query (trec_eval -M).")
@click.option("--duplicates", type=click.Choice(["error", "first"]), default="error",
              show_default=True, help="A document twice in one query: fail, or keep the first.")
@click.option("--ties", type=click.Choice(["docid", "input", "average"]), default="docid",
              show_default=True,
              help="Equal scores: doc id descending (trec_eval), input order, or averaged "
                   "over all orders.")
@click.option("--empty", type=click.Choice(["zero", "skip", "one", "nan", "error"]),
              default="zero", show_default=True,
              help="Queries without any relevant judgment: 0, left out, 1, NaN, or fail.")
def evaluate_cmd(qrels: str, runs: tuple[str, ...], measures: tuple[str, ...], per_query: bool,
                 fmt: str, output: str | None, rel: int, missing: str | None,
                 judged_only: bool, depth: int | None, duplicates: str, ties: str,
                 empty: str) -> int:
    """Evaluate RUNS against QRELS (TREC, CSV, TSV, Parquet or JSON Lines; .gz/.bz2/.xz;
    '-' for standard input).

    \b
    ranklens evaluate qrels.txt run.txt
    ranklens evaluate qrels.txt bm25.run dense.run -m nDCG@10 -m AP --format markdown
    ranklens evaluate qrels.txt run.txt --per-query --format jsonl -o scores.jsonl
    """
    chosen = list(measures) or list(DEFAULT_MEASURES)
    options = {"rel": rel, "missing": missing, "judged_only": judged_only, "depth": depth,
               "duplicates": duplicates, "ties": ties, "empty": empty}
    results = evaluate_files(qrels, runs, chosen, options)
    write_output(results, fmt, per_query, output, list(runs))
    return 0
