"""``ranklens report``: one self-contained HTML file comparing runs."""

from __future__ import annotations

import click

from .._compare.api import CORRECTIONS, TESTS
from . import _options as evaluation

__all__ = ["report_cmd"]


@click.command("report")
@click.argument("qrels", type=str)
@click.argument("runs", nargs=-1, required=True, type=str)
@click.option("-o", "--output", type=str, required=True, metavar="FILE.html",
              help="Write the report to this file.")
@click.option("-m", "--measure", "measures", multiple=True, metavar="MEASURE",
              help="Measure of the summary and per-query views (repeatable). Default: "
                   "nDCG@10, AP, RR@10, P@10, R@100.")
@click.option("--baseline", type=str, default=None, metavar="RUN",
              help="The run the others are compared with (as given on the command line; "
                   "default: the first).")
@click.option("--title", type=str, default="ranklens report", show_default=True,
              help="Title of the page.")
@click.option("--max-k", type=click.IntRange(1, 1000), default=100, show_default=True,
              help="Largest cutoff of the metric@k curves.")
@click.option("--top-k", type=click.IntRange(1, 1000), default=10, show_default=True,
              help="Depth of the grade panel.")
@click.option("--test", type=click.Choice(TESTS), default="t", show_default=True,
              help="Significance test of the summary's marks (as ranklens compare).")
@click.option("--correction", type=click.Choice(CORRECTIONS), default="holm",
              show_default=True, help="Multiple-testing correction of the marks.")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True),
              default=0.05, show_default=True, help="Significance level of the marks.")
@evaluation.convention("Named bundle of defaults; explicit options win.")
@evaluation.rel()
@evaluation.missing()
@evaluation.judged_only()
@evaluation.depth()
@evaluation.ties()
@evaluation.empty()
def report_cmd(qrels: str, runs: tuple[str, ...], output: str, measures: tuple[str, ...],
               baseline: str | None, title: str, max_k: int, top_k: int, test: str,
               correction: str, alpha: float, convention: str,
               rel: int, missing: str | None, judged_only: bool, depth: int | None,
               ties: str | None, empty: str | None) -> int:
    """Write an HTML report on RUNS against QRELS: summary, precision-recall and metric@k
    curves, per-query differences with the baseline, judgment coverage, a per-query table.

    \b
    ranklens report qrels.txt bm25.run dense.run -o report.html
    ranklens report qrels.txt a.run b.run -m nDCG@10 -m AP --baseline b.run -o r.html
    """
    from .._errors import ParameterError
    from .._outputs import refuse_overwriting_inputs
    from .._report import report
    from ._progress import loading

    refuse_overwriting_inputs(output, [qrels, *runs])
    twice = sorted({p for p in runs if runs.count(p) > 1})
    if twice:
        raise ParameterError(f"each run can be given once; got {twice[0]} "
                             f"{runs.count(twice[0])} times")
    with loading([qrels, *runs]):
        report(qrels, {path: path for path in runs}, list(measures) or None,
               baseline=baseline, output=output, title=title, max_k=max_k, top_k=top_k,
               test=test, correction=correction, alpha=alpha, convention=convention,
               rel=rel, missing=missing, judged_only=judged_only, depth=depth, ties=ties,
               empty=empty)
    click.echo(f"wrote {output}", err=True)
    return 0
