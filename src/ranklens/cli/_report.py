"""``ranklens report``: one self-contained HTML file comparing runs."""

from __future__ import annotations

from typing import Any

import click

from .._surfaces.compare.api import CORRECTIONS, TESTS
from ._judges import scale_options, scales
from ._options import (
    baseline_name,
    evaluating,
    inputs_and_measures,
    output_option,
    read_given,
    refuse_unread_context,
    split_name,
)
from ._segments import refuse_writing_over_groups, segment_groups, segments_options

__all__ = ["report_cmd"]


@click.command("report")
@inputs_and_measures("Measure of the summary and per-query views")
@output_option(required=True, metavar="FILE.html",
               help="Write the report to this file (- for standard output).")
@click.option("--baseline", type=str, default=None, metavar="RUN",
              help="The run the others are compared with (its name, or its RUN argument "
                   "as given; default: the first).")
@click.option("--title", type=str, default="ranklens report", show_default=True,
              help="Title of the page.")
@click.option("--max-k", type=click.IntRange(1, 1000), default=100, show_default=True,
              help="Largest cutoff of the metric@k curves.")
@click.option("--top-k", type=click.IntRange(1, 1000), default=10, show_default=True,
              help="Depth of the grade panel.")
@click.option("--test", type=click.Choice(TESTS), default=None,
              help="Significance test of the summary's marks (as ranklens compare; "
                   "default: t).")
@click.option("--correction", type=click.Choice(CORRECTIONS), default=None,
              help="Multiple-testing correction of the marks (as ranklens compare; "
                   "default: holm).")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True),
              default=0.05, show_default=True, help="Significance level of the marks.")
@click.option("--judges", "other", type=str, default=None, metavar="[NAME=]QRELS",
              help="Another judge's labels (e.g. an LLM's): add a section comparing them "
                   "with QRELS, as ranklens judges (NAME=PATH names the judge).")
@scale_options("--judge-columns")
@segments_options("Add each run's mean with its interval, and box plots,")
@evaluating
def report_cmd(qrels: str | None, runs: tuple[str, ...], names: tuple[str, ...], output: str,
               measures: tuple[str, ...], baseline: str | None, title: str, max_k: int,
               top_k: int, test: str | None, correction: str | None, alpha: float,
               other: str | None, maps: tuple[str, ...], judge_columns: tuple[str, ...],
               grades: str | None, segments: str | None, segment_edges: str | None,
               fuse_method: str | None = None, **params: Any) -> int:
    """Write an HTML report on RUNS against QRELS: summary, precision-recall and metric@k
    curves, per-query differences with the baseline, judgment coverage, a per-query table.

    \b
    ranklens report qrels.txt bm25.run dense.run -o report.html
    ranklens report qrels.txt a.run b.run -m nDCG@10 -m AP --baseline b -o r.html
    ranklens report qrels.txt BM25=runs/1.run.gz SPLADE=runs/2.run.gz -o r.html
    ranklens report --pairs bm25.jsonl --pairs hybrid.jsonl -o rag.html
    ranklens report qrels.txt bm25.run dense.run --fuse rrf -o r.html
    ranklens report test.qrels a.run b.run --train train.tsv --items items.tsv -o r.html
    ranklens report people.qrels a.run b.run --judges llm.qrels -o r.html
    ranklens report qrels.txt a.run b.run --segments derived:relevant -o r.html

    With --train, a beyond-accuracy panel: the popularity of the recommended items against
    the catalogue's, Coverage, Gini, ARP, APLT and Novelty at --top-k.
    """
    from .._surfaces.report import report
    from ._evaluate import unique, write_stdout
    from ._progress import loading

    if other is None and (maps or judge_columns or grades is not None):
        raise click.UsageError("--map, --judge-columns and --grades apply to --judges; give "
                               "--judges QRELS")
    judge_names = None
    if other is not None:  # --judges NAME=PATH names the judge; the reference is QRELS's file
        from .._ingest.io._run_names import name_runs

        judge, other = split_name(other)
        reference, default = name_runs([qrels, other])
        judge_names = (reference or "judge1", str(judge or default))
        if judge_names[0] == judge_names[1]:
            raise click.UsageError(f"--judges names the judge {judge!r}, the reference's name "
                                   "too; give it another (--judges NAME=PATH)")
    given = read_given(qrels, runs, names, measures, params, output, fuse=fuse_method)
    measures = tuple(given.measures)  # with --coverage's measures
    refuse_writing_over_groups(output, segments, other)
    tables, options, pairs, labels, paths = (given.context, given.options, given.pairs,
                                             given.labels, given.paths)
    if "train" not in tables:  # with --train, the panel reads the item tables
        refuse_unread_context(tables, given.measures,
                              " or, with --train, the report's beyond-accuracy panel")
    baseline = baseline_name(baseline, labels, list(pairs) or list(runs),
                             "--pairs files" if pairs else "runs")
    unique(paths, "--pairs file" if pairs else "run")
    to = None if output == "-" else output  # -o -: the page on standard output
    settings: dict[str, Any] = {"baseline": baseline, "output": to, "title": title, "max_k": max_k,
                "top_k": top_k, "test": test, "correction": correction, "alpha": alpha,
                "options": options, "judges": other,
                "judges_options": {**scales(maps, judge_columns, grades, "--judge-columns"),
                                   "names": judge_names} if other else None,
                "segments": segment_groups(segments, segment_edges, qrels, tables)}
    with loading([*([qrels] if qrels is not None else []), *paths, *tables.values()]):
        judged: Any = given.judgments()
        extra: dict[str, Any] = {}  # the item tables, for QRELS and RUNS as given
        if pairs:
            from .._ingest.io._pairs import load_pairs_runs

            judged, named = load_pairs_runs(paths, duplicates=options.duplicates, names=labels)
        elif fuse_method is not None:
            from ._fused import fused_beside

            named = fused_beside(labels, paths, fuse_method, given.columns)[1]
        else:
            named, extra = given.runs(), dict(tables)
        text = report(judged, named, list(measures) or None, **settings, **extra)
    if to is None:
        write_stdout(text)
    else:
        click.echo(f"wrote {output}", err=True)
    return 0
