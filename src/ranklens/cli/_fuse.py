"""``ranklens fuse``: several runs fused into one TREC run (``--fuse METHOD`` of the
evaluating commands is in :mod:`._fused`)."""

from __future__ import annotations

from collections.abc import Sequence

import click

from .._errors import ParameterError

__all__ = ["fuse_cmd", "parse_params", "parse_weights"]

def parse_params(values: Sequence[str]) -> dict[str, float]:
    """``--param k=60`` values as a mapping of numbers.

    Raises
    ------
    ParameterError
        A value that is not ``NAME=NUMBER``.
    """
    out: dict[str, float] = {}
    for value in values:
        name, sep, number = value.partition("=")
        try:
            if not sep or not name.strip():
                raise ValueError
            parsed = float(number)
        except ValueError:
            raise ParameterError(f"the '--param' option must be NAME=NUMBER (e.g. k=60); "
                                 f"got {value!r}") from None
        out[name.strip()] = int(parsed) if parsed.is_integer() and "." not in number \
            and "e" not in number.lower() else parsed
    return out


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
                   "w_condorcet (ranx's names; CombSUM, CombMNZ, ... too).")
@click.option("--norm", default=None, metavar="NORM",
              help="Score normalisation per run and query: min-max (default), "
                   "min-max-inverted, max, sum, zmuv, rank, borda, none.")
@click.option("--weights", default=None, metavar="W1,W2,...",
              help="One weight per RUN, in order, for wsum, wmnz, mixed, w_bordafuse, "
                   "w_condorcet.")
@click.option("--param", "params", multiple=True, metavar="NAME=VALUE",
              help="A parameter of the method (repeatable): k=60 (rrf), sigma=0.01 "
                   "(logn_isr), gamma=... (gmnz), phi=... (rbc).")
@click.option("--depth", type=click.IntRange(min=1), default=None,
              help="Fuse only each run's top DEPTH documents per query.")
@click.option("--convention", type=click.Choice(["ranklens", "ranx"]), default=None,
              help="Tie order: ranklens (default; fused ties keep equal scores) or ranx "
                   "(ranx's fused order).")
@click.option("--name", "name", default=None, help="The fused run's tag (default: the "
                                                    "method).")
@click.option("-o", "--output", type=str, default=None, metavar="FILE",
              help="Write the fused TREC run to this file (default: standard output).")
def fuse_cmd(runs: tuple[str, ...], method: str, norm: str | None, weights: str | None,
             params: tuple[str, ...], depth: int | None, convention: str | None,
             name: str | None, output: str | None) -> int:
    """Fuse RUNS (TREC, CSV, TSV, Parquet or JSON Lines; NAME=PATH names one) into one
    TREC run.

    \b
    ranklens fuse bm25.run dense.run -o hybrid.run
    ranklens fuse bm25.run dense.run splade.run --method mnz --norm zmuv -o mnz.run
    ranklens fuse bm25.run dense.run --method wsum --weights 0.3,0.7 -o wsum.run
    ranklens fuse bm25.run dense.run --method rrf --param k=20 --depth 100
    """
    from .._fusion.fuse import fuse
    from .._fusion.write import trec_run_text
    from .._outputs import refuse_overwriting_inputs, write_atomically
    from ._evaluate import unique, write_stdout
    from ._options import name_systems
    from ._progress import loading

    if len(runs) < 2:
        raise click.UsageError("give at least two RUNS to fuse")
    labels, paths = name_systems(runs, ())
    refuse_overwriting_inputs(output, paths)
    unique(paths)
    with loading(paths):
        fused = fuse(dict(zip(labels, paths, strict=True)), method, norm=norm,
                     weights=parse_weights(weights), params=parse_params(params),
                     depth=depth, convention=convention, name=name)
    text = trec_run_text(fused)
    if output is None:
        write_stdout(text)
    else:
        write_atomically(output, text)
    return 0
