"""``ranklens demo``: two systems on a small bundled data set, and how to read the table."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from .._results.result import Result
    from .._surfaces.render import Format

__all__ = ["demo", "demo_files", "recs_files"]

_EXPLAIN = (
    "Each row is a system and each column a measure averaged over the {nq} queries "
    "(higher is better): nDCG@10 rewards putting the most relevant documents (graded 0-3) "
    "first, AP and RR@10 reward finding relevant documents early, P@10, R@100 and R@1000 "
    "count them in the top 10, 100 and 1000. {verdict}"
)
_COMMAND = "ranklens evaluate QRELS RUN [RUN ...] [-m MEASURE ...] [--per-query] [--format F]"


def demo_files() -> tuple[Path, dict[str, Path]]:
    """Paths of the bundled demo judgments and runs (``bm25``, ``dense``)."""
    base = resources.files("ranklens") / "data"
    qrels = Path(str(base / "demo.qrels"))
    runs = {name: Path(str(base / f"demo-{name}.run")) for name in ("bm25", "dense")}
    return qrels, runs


def recs_files() -> dict[str, Path]:
    """Paths of the bundled recommender demo (scripts/make_demo_recs.py): ``qrels`` (one
    held-out item per user), the runs ``popular`` and ``personal``, ``train`` (training
    interactions), ``items`` (the catalogue, with a head/tail ``group`` column) and
    ``embeddings`` (8-dimensional item embeddings)."""
    base = resources.files("ranklens") / "data"
    names = {"qrels": "demo-recs.qrels", "popular": "demo-recs-popular.run",
             "personal": "demo-recs-personal.run", "train": "demo-recs-train.txt",
             "items": "demo-recs-items.tsv", "embeddings": "demo-recs-embeddings.txt"}
    return {key: Path(str(base / name)) for key, name in names.items()}


def _verdict(results: Sequence[Result], names: list[str]) -> str:
    a, b = results
    wins = [m for m in a.names if b[m] > a[m]]
    if len(wins) == len(a.names):
        return f"Here '{names[1]}' beats '{names[0]}' on every measure."
    if not wins:
        return f"Here '{names[0]}' is at least as good as '{names[1]}' on every measure."
    return f"Here '{names[1]}' is better on {', '.join(wins)}."


@click.command("demo")
@click.option("-f", "--format", "fmt", default="table", show_default=True,
              type=click.Choice(["table", "markdown", "jsonl", "csv", "tsv", "latex", "trec"]),
              help="Output format of the table.")
def demo(fmt: Format) -> int:
    """Evaluate two systems on a small bundled data set (40 queries, graded judgments)."""
    from .._pipeline.options import EvaluateOptions
    from ._evaluate import evaluate_files, write_output
    from ._options import DEFAULT_MEASURES

    qrels, runs = demo_files()
    results = evaluate_files(str(qrels), [str(p) for p in runs.values()],
                             list(DEFAULT_MEASURES), EvaluateOptions(missing="zero"),
                             names=list(runs))
    write_output(results, fmt, False, None, list(runs))
    if fmt in ("table", "markdown"):
        click.echo("")
        click.echo(textwrap.fill(_EXPLAIN.format(nq=len(results[0].query_ids),
                                                 verdict=_verdict(list(results), list(runs)))))
        click.echo("")
        click.echo("Run it on your own files:")
        click.echo(f"  {_COMMAND}")
        click.echo(f"  e.g. ranklens evaluate {qrels} {runs['dense']}")
    return 0
