"""``ranklens compare``: paired significance tests between runs, as a table with marks."""

from __future__ import annotations

import sys
from dataclasses import asdict, replace
from typing import Any

import click

from .._surfaces.compare.api import compare_results
from .._surfaces.compare.options import CompareOptions, compare_options
from .._surfaces.compare.render import COMPARE_FORMATS, comparison_table, detail_table
from ._evaluate import evaluate_given, warn_coverage, write_frame, write_text
from ._gate import analysis_table, gate_baseline, one_table, run_gate
from ._options import (
    baseline_name,
    declared_options,
    evaluating,
    inputs_and_measures,
    output_option,
    read_given,
    refuse_unread_context,
)
from ._segments import (
    measures_context,
    refuse_writing_over_groups,
    segment_groups,
    segments_options,
)

__all__ = ["compare_cmd"]


@click.command("compare")
@inputs_and_measures("Measure to compare on")
@click.option("--baseline", type=str, default=None, metavar="RUN",
              help="Compare each run with this one (its name, or its RUN argument as "
                   "given). Default: every pair of runs.")
@declared_options(CompareOptions)
@click.option("-f", "--format", "fmt", type=click.Choice(COMPARE_FORMATS), default="table",
              show_default=True, help="Output format (csv, tsv, jsonl: one row per "
                                      "comparison, with intervals and effect sizes).")
@click.option("--details", is_flag=True, default=False,
              help="table, markdown, latex: one row per comparison (difference, interval, "
                   "effect size d_z, wins/ties/losses, p, adjusted p) instead of the means "
                   "with marks.")
@output_option()
@click.option("--risk", "risk_alpha", type=click.FloatRange(min=0), default=None,
              metavar="ALPHA", help="Write URisk, TRisk, ZRisk and GeoRisk per pair instead "
                                    "(a loss counts 1 + ALPHA times).")
@segments_options("Write each pair, corrected once across all, instead")
@click.option("--seeds", type=click.Path(exists=True, dir_okay=False), default=None,
              metavar="FILE", help="Write each system against the baseline's system instead "
                                   "(FILE: 'run system' lines; a paired t on per-query means).")
@click.option("--fail-if-worse", type=str, default=None, metavar="RUN",
              help="Exit 1 when a run is significantly worse than RUN by more than "
                   "--margin; 3 when the queries are too few to tell.")
@click.option("--margin", type=click.FloatRange(min=0), default=None,
              help="Regression --fail-if-worse tolerates, in the measure's units "
                   "[default: 0.01].")
@evaluating
def compare_cmd(qrels: str | None, runs: tuple[str, ...], names: tuple[str, ...],
                measures: tuple[str, ...], baseline: str | None, fmt: str, details: bool,
                output: str | None, risk_alpha: float | None, segments: str | None,
                seeds: str | None, fail_if_worse: str | None, margin: float | None,
                segment_edges: str | None, fuse_method: str | None = None,
                **params: Any) -> int:
    """Compare RUNS on the same queries of QRELS: paired tests, corrected, with intervals.

    \b
    ranklens compare qrels.txt bm25.run dense.run -m nDCG@10 -m AP
    ranklens compare qrels.txt a.run b.run c.run --baseline a --test randomization
    ranklens compare qrels.txt BM25=runs/1.run Dense=runs/2.run --baseline BM25
    ranklens compare qrels.txt a.run b.run c.run --test tukey --format latex
    ranklens compare qrels.txt a.run b.run --baseline a --details
    ranklens compare qrels.txt a.run b.run --baseline a --risk 1
    ranklens compare qrels.txt main.run new.run --fail-if-worse main --margin 0.01
    ranklens compare qrels.txt a1.run a2.run b1.run b2.run --seeds systems.txt
    ranklens compare qrels.txt a.run b.run --baseline a --segments derived:relevant
    ranklens compare --pairs bm25.jsonl --pairs hybrid.jsonl -m RR -m R@5
    ranklens compare qrels.txt bm25.run dense.run --fuse rrf --baseline bm25
    """
    from ._fused import with_fused_name

    # the test's options (CompareOptions' fields), checked before any file is read
    tested, params = compare_options(params)
    if params.get("coverage") is not None and (fail_if_worse or
                                               tested.correction_scope == "all"):
        raise click.UsageError("--coverage adds measures, which --fail-if-worse would gate on "
                               "and --correction-scope all would correct with yours; run "
                               "the coverage check in a separate compare")
    given = read_given(qrels, runs, names, measures, params, output, at_least=2,
                       fuse=fuse_method)
    refuse_writing_over_groups(output, segments, seeds)
    if len(given.paths) < 2:
        raise click.UsageError("give at least two RUNS to compare")
    fused = None if fuse_method is None else with_fused_name(given.labels, fuse_method)[-1]
    baseline = baseline if baseline is not None and baseline == fused else baseline_name(
        baseline, given.labels, list(given.pairs) or list(runs),
        "--pairs files" if given.pairs else "runs")
    one_table(risk_alpha, segments, details, seeds)
    groups = segment_groups(segments, segment_edges, qrels, given.context)
    context = measures_context(given.context, segments)
    refuse_unread_context(context, given.measures)
    baseline = gate_baseline(fail_if_worse, margin, baseline, given.labels, runs, given.pairs)
    chosen = given.measures
    results = evaluate_given(replace(given, context=context), fuse_method)
    warn_coverage(results, chosen)
    cmp = compare_results(results, chosen, **asdict(replace(tested, baseline=baseline)))
    if risk_alpha is not None or segments is not None or seeds is not None:
        write_frame(output, *analysis_table(cmp, risk_alpha, groups, seeds), fmt)
    elif fmt == "table" and output is None and sys.stdout.isatty():
        from rich.console import Console

        from .._surfaces.render.terminal import rich_table

        Console().print(rich_table((detail_table if details else comparison_table)(cmp)))
    else:
        write_text(output, cmp.render(fmt, details=details))
    return 0 if fail_if_worse is None else run_gate(cmp, baseline, margin)  # type: ignore[arg-type]
