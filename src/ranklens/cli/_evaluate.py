"""``ranklens evaluate``: one or more runs against judgments, in any output format."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from contextlib import nullcontext
from dataclasses import replace
from typing import Any

import click

from .._base.draws import MAX_DRAWS
from .._base.errors import ParameterError, RanklensError
from .._base.outputs import write_atomically
from .._names import parse_measures
from .._pipeline.options import EvaluateOptions
from .._results.result import Result
from .._results.results import Results
from .._surfaces.render import FORMATS, Format, render_lines, rich_table
from ._fused import with_fused_name
from ._options import (
    Given,
    engine_options,
    evaluating,
    inputs_and_measures,
    output_option,
    read_given,
    read_qrels,
    refuse,
    refuse_unread_context,
    runs_by_name,
)
from ._segments import (
    measures_context,
    refuse_writing_over_groups,
    segment_groups,
    segments_options,
)

__all__ = [
    "chunked",
    "evaluate_cmd",
    "evaluate_files",
    "evaluate_given",
    "evaluate_pairs_files",
    "unique",
    "warn_coverage",
    "write_frame",
    "write_output",
    "write_stdout",
    "write_text",
]

def evaluate_files(qrels_path: str, run_paths: Sequence[str], measures: Sequence[str],
                   options: EvaluateOptions, subtopics: bool = False,
                   names: Sequence[str] | None = None,
                   context: dict[str, str] | None = None, fuse: str | None = None,
                   memory_limit: str | None = None, jobs: int | None = 1,
                   columns: tuple[str, ...] | None = None,
                   qrels_format: str = "auto") -> Results:
    """Load the judgments once and evaluate each run; results are named ``names`` (default:
    by their file names, :func:`~ranklens._ingest.io._run_names.name_runs`). ``subtopics``: the
    judgments are subtopic ones (ndeval format). ``context``: the beyond-accuracy tables'
    files, by ``evaluate``'s keyword (``train``, ``items``, ...). ``fuse``: a fusion method,
    whose fusion of the runs is evaluated last (named as
    :func:`~ranklens.cli._fuse.with_fused_name` says). ``memory_limit`` and ``jobs``: see
    :func:`ranklens.evaluate` (the other commands evaluate in memory, on one process).
    ``columns``: the runs' columns, read by ``load_run(..., columns=columns)``.
    ``qrels_format``: how the judgments are read (``--format-in``, :func:`read_qrels`)."""
    from .._surfaces.evaluate import evaluate
    from ._progress import loading

    # every bad name is reported before any file is read (P_5,10 is P_5 and P_10)
    parse_measures(measures)
    if sum(1 for p in run_paths if p == "-") + (qrels_path == "-") > 1:
        raise ParameterError("standard input ('-') can be used for only one file")
    unique(run_paths)
    # a chunked evaluation shows its own progress bar, not the reading spinner
    if qrels_format != "auto" and (subtopics or memory_limit is not None):
        raise ParameterError(f"--format-in {qrels_format} reads QRELS in memory: not with "
                             "--subtopics or --memory-limit")
    reading = loading([qrels_path, *run_paths]) if subtopics or context or not chunked(
        qrels_path, run_paths, measures, options, memory_limit, jobs) else nullcontext()
    with reading:
        qrels: Any = read_qrels(qrels_path, qrels_format)
        if subtopics:
            from .._ingest.io._load import load_qrels

            qrels = load_qrels(qrels_path, kind="subtopic")
        from .._ingest.io._run_names import name_runs

        labels = list(names) if names else [str(n) for n in name_runs(run_paths)]
        named: Any = runs_by_name(labels, run_paths, None)
        if fuse is not None:
            from ._fused import fused_beside

            _, named = fused_beside(labels, run_paths, fuse, columns)
        elif names is None and columns is None:
            named = list(run_paths)  # a list of paths: named by their file names
        tables: dict[str, Any] = context or {}  # train, items, ...: evaluate's keywords
        results: Results = evaluate(qrels, named, list(measures), options=options, **tables,
                                    memory_limit=memory_limit, jobs=jobs,
                                    columns=None if fuse is not None else columns)
        return results


def capped_jobs(jobs: int) -> int:
    """``--jobs`` at most the cores this process may use, with a note when it was more."""
    from .._surfaces.chunked.size import cores

    if jobs <= cores():
        return jobs
    click.echo(f"ranklens: note: --jobs {jobs} is more than the {cores()} cores this process "
               f"may use; using {cores()}", err=True)
    return cores()


def chunked(qrels_path: str, run_paths: Sequence[str], measures: Sequence[str],
            options: EvaluateOptions, memory_limit: str | None, jobs: int | None) -> bool:
    """Whether :func:`ranklens.evaluate` will evaluate these files by chunks."""
    from .._pipeline.plan import make_plan
    from .._surfaces.chunked.choose import chunking

    return chunking(make_plan(list(measures), options), qrels_path, run_paths,
                    memory_limit, jobs) is not None


def write_output(results: Results | Sequence[Result], fmt: Format, per_query: bool,
                 output: str | None, names: Sequence[str],
                 intervals: dict[str, Any] | None = None, segments: Any = None) -> None:
    """Render and write: a rich table on a terminal, plain text everywhere else.
    ``intervals``: :func:`~ranklens.render`'s ``ci``, ``ci_method``, ``seed`` and
    ``n_resamples``, when ``--ci`` is given; ``segments``: the per-group means instead."""
    extra = intervals or {}
    if segments is not None:
        from .._surfaces.segments import group_means

        means = group_means(results if isinstance(results, Results) else Results(
            tuple(results)), segments, confidence=extra.get("ci", 0.95),
            resamples=extra.get("n_resamples", 9999), seed=extra.get("seed", 0))
        write_frame(output, means, "BCa bootstrap intervals of each mean.", fmt)
        return
    if fmt == "table" and output in (None, "-") and sys.stdout.isatty():
        from rich.console import Console

        Console().print(rich_table(results, per_query=per_query, run_names=names, **extra))
        return
    # streamed: per-query rows are made as they are written (docs/scale.md)
    write_text(output, render_lines(results, fmt, per_query=per_query, run_names=names,
                                    **extra))


def write_text(output: str | None, text: str | Iterable[str]) -> None:
    """Write ``text`` (or its pieces, as they are made) to the file ``output``, whole or not
    at all, or to standard output (``output`` None or ``-``)."""
    if output is None or output == "-":
        write_stdout(text)
    else:
        write_atomically(output, text)


def write_frame(output: str | None, frame: Any, note: str, fmt: str) -> None:
    """Write the table ``frame`` with its ``note`` in the format ``fmt``
    (:func:`~ranklens._surfaces.render.frames.frame_table`), as :func:`write_text` does."""
    from .._surfaces.render.formats import write
    from .._surfaces.render.frames import frame_table

    write_text(output, write(frame_table(frame, note), fmt))


def write_stdout(text: str | Iterable[str]) -> None:
    """Write ``text`` to standard output; a full disk or a failing device is an error saying
    so (a closed pipe is left to the caller: it is no error)."""
    try:
        for piece in (text,) if isinstance(text, str) else text:
            sys.stdout.write(piece)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise RanklensError(f"cannot write to standard output: {exc.strerror or exc}") from None


class _Level(click.FloatRange):
    """A level strictly between 0 and 1; NaN, which every comparison refuses, is refused
    here, where the message names the option."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        level = super().convert(value, param, ctx)
        if level != level:
            self.fail(f"{value!r} is not a number between 0 and 1.", param, ctx)
        return level


_LEVEL = _Level(0, 1, min_open=True, max_open=True)


@click.command("evaluate")
@inputs_and_measures("Measure to compute")
@click.option("--per-query", is_flag=True, help="Also show one row per query.")
@output_option(formats=FORMATS)
@click.option("--ci", "ci", is_flag=False, flag_value=0.95, default=None, metavar="[LEVEL]",
              type=_LEVEL,
              help="Show each mean's confidence interval over queries (columns '<measure> "
                   "low' and '<measure> high'), at LEVEL (default 0.95); not with --format "
                   "trec. Give it after the RUNS, or with its LEVEL.")
@click.option("--ci-method", type=click.Choice(["t", "bootstrap"]), default="t",
              show_default=True, help="Interval of --ci: t, or a percentile bootstrap over "
                                      "queries.")
@click.option("--seed", type=click.IntRange(0, 2 ** 63 - 1), default=0, show_default=True,
              help="Seed of --ci bootstrap's resamples.")
@click.option("--resamples", type=click.IntRange(1, MAX_DRAWS), default=9999,
              show_default=True,
              help="Resamples of --ci bootstrap.")
@evaluating
@engine_options
@click.option("--subtopics", is_flag=True,
              help="QRELS are subtopic judgments (ndeval format: topic subtopic doc grade), "
                   "for the diversity measures (alpha-nDCG@k, ERR-IA@k, NRBP, P-IA@k, "
                   "S-recall@k, ...; docs/diversity.md).")
@click.option("--engine", type=click.Choice(["local", "spark"]), default="local",
              show_default=True,
              help="spark: read the files through Apache Spark and evaluate there; the table "
                   "is printed as with local, and with -o the per-query values are also "
                   "written as Parquet to that folder (needs ranklens[spark]).")
@click.option("--master", type=str, default=None, metavar="URL",
              help="Spark master for --engine spark: local[N], spark://host:7077, yarn, or "
                   "sc://host for Spark Connect (default: Spark's own).")
@segments_options("Write each run's mean, intervals and p10/p50/p90 instead")
@click.option("-v", "--verbose", is_flag=True,
              help="Say on standard error how the files were evaluated: in memory, or in "
                   "how many chunks by how many workers (docs/scale.md), and who judged "
                   "the judgments (their provenance file, docs/rag.md).")
def evaluate_cmd(qrels: str | None, runs: tuple[str, ...], names: tuple[str, ...],
                 measures: tuple[str, ...], per_query: bool, fmt: Format,
                 output: str | None, ci: float | None = None, ci_method: str = "t",
                 seed: int = 0, resamples: int = 9999, subtopics: bool = False,
                 engine: str = "local", master: str | None = None,
                 fuse_method: str | None = None, memory_limit: str | None = None,
                 jobs: int | None = None, verbose: bool = False, segments: str | None = None,
                 segment_edges: str | None = None, **params: Any) -> int:
    """Evaluate RUNS against QRELS (TREC, CSV, TSV, Parquet or JSON Lines; .gz/.bz2/.xz;
    '-' for standard input).

    \b
    ranklens evaluate qrels.txt run.txt
    ranklens evaluate qrels.txt bm25.run dense.run -m nDCG@10 -m AP --format markdown
    ranklens evaluate qrels.txt BM25=runs/a.run.gz Dense=runs/b.run.gz -f csv
    ranklens evaluate qrels.txt run.txt --per-query --format jsonl -o scores.jsonl
    ranklens evaluate qrels.txt bm25.run dense.run -m AP --ci 0.95 --ci-method bootstrap
    ranklens evaluate --pairs rag.jsonl -m RR -m R@5 -m nDCG@5
    ranklens evaluate --subtopics web.ndeval.qrels run.txt -m alpha-nDCG@20 -m ERR-IA@20
    ranklens evaluate test.qrels reco.run --train train.tsv --items items.txt -m Novelty@10
    ranklens evaluate qrels.txt bm25.run dense.run --fuse rrf
    ranklens evaluate qrels.txt huge.run.gz --memory-limit 2GB --jobs 2
    ranklens evaluate qrels.txt scores.tsv --columns qid,docid,score
    ranklens evaluate qrels.txt bm25.run dense.run -m AP --segments groups.txt
    ranklens evaluate qrels.txt bm25.run -m AP --segments derived:relevant --segment-edges 5,20
    ranklens evaluate qrels.txt bm25.run dense.run -m nDCG@10 --coverage 10
    """
    if jobs is not None:
        jobs = capped_jobs(jobs)
    if jobs is not None and "polars" not in sys.modules:
        # --jobs N uses N cores, polars' threads included: polars sizes its thread pool
        # once, when it is imported (--jobs 1: one core throughout)
        os.environ["POLARS_MAX_THREADS"] = str(jobs)
    given = read_given(qrels, runs, names, measures, params, output)
    refuse_writing_over_groups(output, segments)
    options, pairs, context, chosen = given.options, given.pairs, given.context, given.measures
    labels, paths, roles = given.labels, given.paths, given.columns
    context = measures_context(context, segments)
    refuse_unread_context(context, chosen)
    spark, busy = engine == "spark", memory_limit is not None or jobs is not None
    refuse((ci is not None and fmt == "trec", "--ci is not written in --format trec "
            "(trec_eval's rows); use another format"),
           (ci is None and (ci_method, seed, resamples) != ("t", 0, 9999), "--ci-method, "
            "--seed and --resamples set the intervals of --ci; give --ci too"),
           (segments is not None and (per_query or fmt == "trec" or spark), "--segments "
            "writes per-group means: not with --per-query, --format trec or --engine spark"))
    groups = segment_groups(segments, segment_edges, qrels, given.context)
    refuse((roles is not None and spark,
            "--columns is for the local engine; not with --engine spark"),
           (fuse_method is not None and (bool(pairs) or spark or subtopics),
            "--fuse is for RUNS on the local engine, without --subtopics"),
           (bool(pairs) and (spark or subtopics),
            "--pairs is for the local engine without --subtopics"),
           (bool(pairs) and busy, "--memory-limit and --jobs are for QRELS and RUNS files; "
            "--pairs files are evaluated in memory"),
           (spark and busy,
            "--memory-limit and --jobs are for the local engine (Spark sizes its own tasks)"),
           (spark and per_query, "--engine spark writes per-query values to Parquet with "
            "-o FOLDER; --per-query is for the local engine"),
           (spark and (subtopics or given.qrels_format != "auto"),
            "--subtopics and --format-in are for the local engine"),
           (spark and ci is not None,
            "--ci is for the local engine: the intervals need every query's value"),
           (not spark and master is not None, "--master is for --engine spark"),
           (fuse_method is not None and memory_limit is not None,
            "--fuse evaluates the fused run in memory; it is not for --memory-limit"))
    intervals = None if ci is None else {"ci": ci, "ci_method": ci_method, "seed": seed,
                                         "n_resamples": resamples}
    if spark:
        from ..spark._cli import evaluate_on_spark
        from ._progress import working

        assert qrels is not None  # --pairs is refused with --engine spark
        write_output(evaluate_on_spark(qrels, paths, chosen, options, master, output,
                                       labels, progress=working, context=context),
                     fmt, False, None, labels)
        return 0
    shown = labels if fuse_method is None else with_fused_name(labels, fuse_method)
    results = evaluate_given(replace(given, context=context), fuse_method, subtopics=subtopics,
                             memory_limit=memory_limit, jobs=jobs)
    warn_coverage(results, chosen)
    # -v names the engine with --fuse too (the fused run is evaluated by the same call)
    if verbose and qrels is not None:  # (--pairs: none)
        from .._pipeline.assemble import users_summary

        click.echo(f"ranklens: engine: {engine_words(results[0].engine)}", err=True)
        for line in filter(None, map(users_summary, results)):
            click.echo(f"ranklens: {line}", err=True)
        from .._surfaces.judge_merge import provenance_summary

        if (judged := provenance_summary(qrels)) is not None:
            click.echo(f"ranklens: {judged}", err=True)
    write_output(results, fmt, per_query, output, shown, intervals, groups)
    return 0


def warn_coverage(results: Results, measures: Sequence[str]) -> None:
    """The coverage warning, when a measure was evaluated on plain and condensed lists."""
    from .._surfaces.coverage import means_of, warn_order_flips

    warn_order_flips(means_of(results), measures)


def engine_words(engine: dict[str, Any]) -> str:
    """What ``Result.engine`` says, in words."""
    if engine.get("engine") != "chunked":
        return f"in memory, {engine.get('jobs', 1)} job(s)"
    return (f"chunked, {engine['chunks']} chunks, {engine['workers']} worker(s), "
            f"{engine['estimated_bytes'] / 1e6:.0f}MB estimated in memory")


def evaluate_given(given: Given, fuse: str | None = None, **engine: Any) -> Results:
    """What an evaluating command was given, evaluated: its ``--pairs`` files, or QRELS and
    its RUNS (with ``fuse``'s run last; ``engine``: :func:`evaluate_files`' ``subtopics``,
    ``memory_limit`` and ``jobs``)."""
    if given.pairs:
        return evaluate_pairs_files(given.paths, given.measures, given.options, given.labels)
    return evaluate_files(given.qrels, given.paths, given.measures,  # type: ignore[arg-type]
                          given.options, names=given.labels, context=given.context, fuse=fuse,
                          columns=given.columns, qrels_format=given.qrels_format, **engine)


def evaluate_pairs_files(paths: Sequence[str], measures: Sequence[str],
                         options: EvaluateOptions,
                         names: Sequence[str] | None = None) -> Results:
    """Evaluate JSON Lines files of RAG records (query_id, retrieved, relevant), one system
    each, against the judgments they carry (which must agree where they overlap); the
    systems are named ``names`` (default: by their file names, as runs are)."""
    from .._ingest.io._pairs import load_pairs_runs
    from .._surfaces.evaluate import evaluate

    parse_measures(measures)
    unique(paths, "--pairs file")
    qrels, runs = load_pairs_runs(paths, duplicates=options.duplicates, names=names)
    results: Results = evaluate(qrels, runs, list(measures), options=options)
    return results


def unique(paths: Sequence[str], what: str = "run") -> None:
    """ParameterError when a file is given twice, under one path or two (``run.txt`` and
    ``./run.txt``), or standard input for two files."""
    if sum(1 for p in paths if p == "-") > 1:
        raise ParameterError("standard input ('-') can be used for only one file")
    # two spellings of one file are one file: compared by their resolved paths
    resolved = [p if p == "-" else os.path.realpath(p) for p in paths]
    twice = next((p for p, r in zip(paths, resolved, strict=True) if resolved.count(r) > 1),
                 None)
    if twice is not None:
        same = [p for p, r in zip(paths, resolved, strict=True)
                if r == resolved[paths.index(twice)]]
        spelled = "" if len(set(same)) == 1 else f" (as {', '.join(same)})"
        raise ParameterError(f"each {what} can be given once; got {twice} {len(same)} "
                             f"times{spelled}")
