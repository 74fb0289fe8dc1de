"""``ranklens judge-export`` and ``ranklens judge-merge``: the judging loop, no model inside."""

from __future__ import annotations

import click

from .._base.outputs import refuse_overwriting_inputs
from .._surfaces.agreement.rankings import MAX_DEPTH
from ._agree import TIES_OPTION, pooled
from ._evaluate import write_text
from ._options import columns_option, output_option

__all__ = ["judge_export_cmd", "judge_merge_cmd"]


@click.command("judge-export")
@click.argument("runs", nargs=-1, metavar="RUN...")
@click.option("--depth", "-k", type=click.IntRange(1, MAX_DEPTH), default=10, show_default=True,
              help="Each run's top DEPTH of each query enters the pool.")
@click.option("--qrels", type=str, default=None, help="Judgments: the pairs they hold are "
                                                      "left out.")
@click.option("--topics", type=str, default=None, metavar="FILE",
              help="The queries' text: 'qid<TAB>text' lines or JSON Lines (id, title).")
@click.option("--corpus", type=str, default=None, metavar="FILE",
              help="The passages: JSON Lines with docid and segment (or _id and text).")
@TIES_OPTION
@output_option(help="Write the requests to this file (- for standard output).")
@columns_option
def judge_export_cmd(runs: tuple[str, ...], depth: int, qrels: str | None, topics: str | None,
                     corpus: str | None, ties: str, output: str | None,
                     columns: str | None = None) -> int:
    """The unjudged pairs of a depth-k pool of RUNS as judge requests (JSON Lines, the
    request shape of ragnarok and UMBRELA).

    \b
    ranklens judge-export a.run b.run --qrels qrels.txt --depth 20 -o requests.jsonl
    ranklens judge-export a.run --topics topics.tsv --corpus corpus.jsonl -o requests.jsonl
    """
    from .._surfaces.judge_export import judge_requests

    got = judge_requests(pooled(runs, columns, output, qrels, topics, corpus), depth, qrels,
                         topics=topics, corpus=corpus, ties=ties)  # type: ignore[arg-type]
    write_text(output, got.render())
    click.echo(got.summary(), err=True)
    return 0


@click.command("judge-merge")
@click.argument("qrels", metavar="QRELS")
@click.argument("labels", nargs=-1, metavar="LABELS...")
@click.option("--requests", type=str, default=None, metavar="FILE",
              help="The requests the LABELS answer: labels without ids (UMBRELA's) are "
                   "joined to them by position.")
@output_option(required=True, metavar="FILE", help="Write the merged judgments here, and "
                                                   "their provenance to FILE.provenance.jsonl.")
def judge_merge_cmd(qrels: str, labels: tuple[str, ...], requests: str | None,
                    output: str) -> int:
    """Merge a judge's LABELS (JSON Lines) into QRELS, keeping who judged each pair.

    \b
    ranklens judge-merge qrels.txt labels.jsonl -o merged.qrels
    ranklens judge-merge qrels.txt umbrela-out.jsonl --requests requests.jsonl -o merged.qrels
    """
    from .._surfaces.judge_merge import SIDECAR, merge_labels

    if not labels:
        raise click.UsageError("give at least one LABELS file to merge")
    inputs = [qrels, qrels + SIDECAR, *labels, requests]
    refuse_overwriting_inputs(output, inputs)
    refuse_overwriting_inputs(output + SIDECAR, inputs)
    got = merge_labels(qrels, list(labels), requests=requests)
    got.write(output)
    click.echo(got.summary(), err=True)
    return 0
