"""``ranklens agree`` and ``ranklens pool``: comparing runs without judgments, and pools."""

from __future__ import annotations

from typing import Any

import click

from .._base.outputs import refuse_overwriting_inputs
from .._ingest.io._load import load_run
from .._surfaces.agreement.api import AGREE_FORMATS, AGREE_MISSING, AGREE_TIES, Agreement, agreement
from .._surfaces.agreement.rankings import MAX_DEPTH
from .._surfaces.agreement.values import parse_agreements
from .._surfaces.pool import POOL_FORMATS, pool
from ._evaluate import write_text
from ._options import columns_option, name_systems, output_option, refuse, run_columns

__all__ = ["TIES_OPTION", "agree_cmd", "pool_cmd", "pooled"]

#: ``--ties``: how agree, pool and judge-export order equally scored documents
TIES_OPTION = click.option(
    "--ties", type=click.Choice(AGREE_TIES), default="docid", show_default=True,
    help="Order of equally scored documents: doc id descending (trec_eval) or as given.")


@click.command("agree")
@click.argument("runs", nargs=-1, metavar="RUN_A RUN_B [RUN...]")
@click.option("-m", "--measure", "measures", multiple=True, metavar="MEASURE",
              help="Run-vs-run measure (repeatable): RBO(p=0.9), RBO(form=min), "
                   "RBO(ties=a), Overlap@10, Jaccard@10, KendallTau@10. Default: RBO.")
@click.option("--name", "names", multiple=True, metavar="NAME",
              help="Name of each RUN, in order (or write RUN as NAME=PATH).")
@TIES_OPTION
@click.option("--missing", type=click.Choice(AGREE_MISSING), default="error",
              show_default=True,
              help="Queries one run holds and another lacks: an error, or compare the "
                   "queries both hold (a warning counts the others).")
@click.option("-f", "--format", "fmt", type=click.Choice(AGREE_FORMATS), default="table",
              show_default=True, help="Output format (three runs or more: no trec).")
@click.option("-q", "--per-query", is_flag=True, default=False,
              help="Two runs: one row per query too.")
@output_option()
@columns_option
def agree_cmd(runs: tuple[str, ...], measures: tuple[str, ...], names: tuple[str, ...],
              ties: str, missing: str, fmt: str, per_query: bool,
              output: str | None, columns: str | None = None) -> int:
    """How alike RUNS' rankings are, query by query, without judgments.

    Two runs: each measure's mean (and per query with -q); three or more: a matrix of
    every pair's means per measure.

    \b
    ranklens agree old.run new.run -m "RBO(p=0.9)" -m Overlap@10
    ranklens agree exact.run ann.run -m Jaccard@100 -q -f csv
    ranklens agree a.run b.run c.run -m "RBO(p=0.95,form=min)"
    """
    refuse((len(runs) < 2, f"give at least two RUNS to compare; got {len(runs)}"),
           (len(runs) > 2 and fmt == "trec", "--format trec writes two runs' values; a "
            "matrix of three or more runs has no trec form"),
           (len(runs) > 2 and per_query, "--per-query is for two runs; a matrix of three "
            "or more runs holds each pair's means only"))
    roles = run_columns(columns)
    labels, paths = name_systems(runs, names)
    refuse_overwriting_inputs(output, paths)
    chosen = list(measures) or ["RBO"]
    parse_agreements(chosen)  # every bad name reported before any file is read
    loaded = {label: load_run(path, name=label, columns=roles)
              for label, path in zip(labels, paths, strict=True)}
    a, b = list(loaded.values()) if len(loaded) == 2 else (loaded, None)
    got = agreement(a, b, chosen, ties=ties, missing=missing)  # type: ignore[arg-type]
    write_text(output, got.render(fmt, per_query=per_query) if isinstance(got, Agreement)
               else got.render(fmt))
    return 0


def pooled(runs: tuple[str, ...], columns: str | None, output: str | None,
           *inputs: str | None) -> list[Any]:
    """The RUNS to pool (read with ``--columns`` when given), once ``output`` is known to be
    none of them nor of ``inputs``."""
    if not runs:
        raise click.UsageError("give at least one RUN to pool")
    roles = run_columns(columns)
    refuse_overwriting_inputs(output, [*runs, *inputs])
    return list(runs) if roles is None else [load_run(r, columns=roles) for r in runs]


@click.command("pool")
@click.argument("runs", nargs=-1, metavar="RUN...")
@click.option("--depth", "-k", type=click.IntRange(1, MAX_DEPTH), default=10, show_default=True,
              help="Each run's top DEPTH of each query enters the pool.")
@click.option("--qrels", type=str, default=None,
              help="Judgments: the pairs they hold are left out.")
@TIES_OPTION
@click.option("-f", "--format", "fmt", type=click.Choice(POOL_FORMATS), default="trec",
              show_default=True,
              help="trec: 'query 0 doc ?' lines (replace ? with the grade); csv: "
                   "query_id,doc_id,relevance with the relevance empty.")
@output_option()
@columns_option
def pool_cmd(runs: tuple[str, ...], depth: int, qrels: str | None, ties: str, fmt: str,
             output: str | None, columns: str | None = None) -> int:
    """The (query, document) pairs a depth-k pool of RUNS asks assessors to judge.

    \b
    ranklens pool a.run b.run c.run --depth 10 -o pool.txt
    ranklens pool a.run b.run --depth 20 --qrels qrels.txt -f csv -o todo.csv
    """
    got = pool(pooled(runs, columns, output, qrels), depth=depth, qrels=qrels, ties=ties)  # type: ignore[arg-type]
    write_text(output, got.render(fmt))  # type: ignore[arg-type]
    click.echo(got.summary(), err=True)  # the count, off the pool's own lines
    return 0
