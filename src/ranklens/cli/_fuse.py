"""``ranklens fuse``: several runs fused into one TREC run (``--fuse METHOD`` of the
evaluating commands is in :mod:`._fused`)."""

from __future__ import annotations

import click

from .._base.errors import ParameterError
from .._base.outputs import refuse_overwriting_inputs
from ._options import columns_option, name_systems, output_option, run_columns, runs_by_name

__all__ = ["fuse_cmd", "parse_weights"]

def parse_weights(value: str | None) -> list[float] | None:
    """``--weights 0.7,0.3`` (commas or spaces) as numbers.

    Raises
    ------
    ParameterError
        A weight that is not a number.
    """
    if value is None:
        return None
    parts = [p for p in value.replace(",", " ").split() if p]
    try:
        return [float(p) for p in parts]
    except ValueError:
        raise ParameterError(f"the '--weights' option must be numbers separated by commas "
                             f"(one per run); got {value!r}") from None


@click.command("fuse")
@click.argument("runs", nargs=-1, required=True, type=str)
@click.option("--method", default="rrf", show_default=True, metavar="METHOD",
              help="Fusion method: rrf, isr, log_isr, logn_isr, sum, mnz, max, min, med, "
                   "anz, gmnz, wsum, wmnz, mixed, bordafuse, w_bordafuse, rbc, condorcet, "
                   "w_condorcet (ranx's names; CombSUM, CombMNZ, ... too); supervised, with "
                   "--train: probfuse, segfuse, slidefuse, posfuse, bayesfuse, mapfuse.")
@click.option("--norm", default="min-max", show_default=True, metavar="NORM",
              help="Score normalisation per run and query: min-max, min-max-inverted, max, "
                   "sum, zmuv, rank, borda, none.")
@click.option("--weights", default=None, metavar="W1,W2,...",
              help="One weight per RUN, in order, for wsum, wmnz, mixed, w_bordafuse, "
                   "w_condorcet.")
@click.option("--param", "params", multiple=True, metavar="NAME=VALUE",
              help="A parameter of the method (repeatable): k=60 (rrf), sigma=0.01 "
                   "(logn_isr), gamma=... (gmnz), phi=... (rbc), n_segments=... (probfuse), "
                   "w=... (slidefuse), rel=1, folds=5, seed=0 (supervised).")
@click.option("--train", default=None, metavar="QRELS",
              help="Training judgments, required by the supervised methods (probfuse, "
                   "segfuse, slidefuse, posfuse, bayesfuse, mapfuse) and refused by the "
                   "others. A judged query is fused by a model learned on the other folds "
                   "(--param folds=5, seed=0), never on its own judgments.")
@click.option("--allow-leakage", is_flag=True, default=False,
              help="Supervised methods: fuse judged queries with a model learned on all "
                   "of --train, their own judgments included (as ranx does).")
@click.option("--depth", type=click.IntRange(min=1), default=None,
              help="Fuse only each run's top DEPTH documents per query.")
@click.option("--convention", type=click.Choice(["ranklens", "ranx"]), default=None,
              help="Tie order: ranklens (default; fused ties keep equal scores) or ranx "
                   "(ranx's fused order).")
@click.option("--name", "name", default=None, help="The fused run's tag (default: the "
                                                    "method).")
@output_option(metavar="FILE", help="Write the fused TREC run to this file (default, or "
                                    "'-': standard output).")
@columns_option
def fuse_cmd(runs: tuple[str, ...], method: str, norm: str, weights: str | None,
             params: tuple[str, ...], train: str | None, allow_leakage: bool,
             depth: int | None, convention: str | None, name: str | None,
             output: str | None, columns: str | None = None) -> int:
    """Fuse RUNS (TREC, CSV, TSV, Parquet or JSON Lines; NAME=PATH names one) into one
    TREC run.

    \b
    ranklens fuse bm25.run dense.run -o hybrid.run
    ranklens fuse bm25.run dense.run splade.run --method mnz --norm zmuv -o mnz.run
    ranklens fuse bm25.run dense.run --method wsum --weights 0.3,0.7 -o wsum.run
    ranklens fuse bm25.run dense.run --method rrf --param k=20 --depth 100
    ranklens fuse bm25.run dense.run --method probfuse --param n_segments=10 --train q.qrels
    """
    from .._surfaces.fusion.fuse import fuse
    from .._surfaces.fusion.registry import lookup
    from .._surfaces.fusion.write import trec_run_text
    from ._evaluate import unique, write_text
    from ._fused import parse_params
    from ._progress import loading

    if len(runs) < 2:
        raise click.UsageError("give at least two RUNS to fuse")
    m = lookup(method)
    if m.supervised and train is None:
        raise ParameterError(f"the '--train' option must give the training judgments of the "
                             f"supervised method {m.name!r}; got none")
    if train is not None and not m.supervised:
        raise ParameterError(f"the '--train' option is for the supervised methods (probfuse, "
                             f"segfuse, slidefuse, posfuse, bayesfuse, mapfuse); got the "
                             f"method {m.name!r}, which learns nothing")
    if allow_leakage and not m.supervised:
        raise ParameterError(f"the '--allow-leakage' option is for the supervised methods; "
                             f"got the method {m.name!r}")
    roles = run_columns(columns)
    output = None if output == "-" else output  # '-' is standard output, as for inputs
    labels, paths = name_systems(runs, ())
    refuse_overwriting_inputs(output, [*paths, *([train] if train else [])])
    unique(paths)
    given = parse_params(params)
    if allow_leakage:
        given["allow_leakage"] = True
    with loading(paths):
        fused = fuse(runs_by_name(labels, paths, roles), method, norm=norm,
                     weights=parse_weights(weights), params=given, depth=depth,
                     convention=convention, name=name, train=train)
    text = trec_run_text(fused)
    write_text(output, text)
    return 0
