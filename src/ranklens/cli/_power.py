"""``ranklens power``: queries needed, detectable difference and simulated power from a
pilot's per-query scores."""

from __future__ import annotations

from typing import Any

import click

from .._base.draws import MAX_DRAWS
from .._base.lazy import polars as pl
from .._surfaces.compare.render import COMPARE_FORMATS
from .._surfaces.power import MAX_QUERIES, power
from ._evaluate import evaluate_given, write_frame
from ._options import evaluated_inputs, inputs_and_measures, output_option, read_given

__all__ = ["power_cmd"]


@click.command("power")
@inputs_and_measures("Measure of the pilot")
@click.option("--min-diff", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Smallest true difference to detect, in the measure's units.")
@click.option("--queries", type=click.IntRange(2, MAX_QUERIES), default=None,
              help="Test-set size to assess (default: the pilot's).")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True),
              default=0.05, show_default=True, help="Two-sided significance level.")
@click.option("--power", "wanted", type=click.FloatRange(0, 1, min_open=True, max_open=True),
              default=0.8, show_default=True, help="Power to reach.")
@click.option("--simulations", type=click.IntRange(0, MAX_DRAWS), default=0,
              show_default=True, help="Test sets resampled from the pilot to simulate the "
                                      "randomization test's power (needs --min-diff).")
@click.option("--permutations", type=click.IntRange(1, MAX_DRAWS), default=999,
              show_default=True, help="Sign patterns per simulated test.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the resampling.")
@output_option(formats=COMPARE_FORMATS)
@evaluated_inputs
def power_cmd(qrels: str | None, runs: tuple[str, ...], names: tuple[str, ...],
              measures: tuple[str, ...], min_diff: float | None, queries: int | None,
              alpha: float, wanted: float, simulations: int, permutations: int, seed: int,
              fmt: str, output: str | None, fuse_method: str | None = None,
              **params: Any) -> int:
    """How many queries a paired test needs, from a pilot: QRELS and RUNS, or --pairs.

    One run: the sd of a difference is sqrt(2) times the run's (Sakai's design). Several:
    the sd of each run's differences from the first, pooled.

    \b
    ranklens power qrels.txt bm25.run -m nDCG@10 --min-diff 0.02
    ranklens power qrels.txt a.run b.run -m AP --min-diff 0.01 --simulations 1000
    """
    given = read_given(qrels, runs, names, measures, params, output, fuse=fuse_method)
    results = evaluate_given(given, fuse_method)
    rows = []
    for measure in given.measures:
        p = power(results.values(measure), min_diff=min_diff, queries=queries, alpha=alpha,
                  power=wanted, simulations=simulations, permutations=permutations,
                  seed=seed)
        # not simulated: an empty cell, as the other values not asked for
        rows.append({"measure": measure, **vars(p), "simulated": p.simulated if simulations
                     else None})
    note = f"Paired t-test design at alpha {alpha:g}, power {wanted:g} (Sakai 2016)."
    write_frame(output, pl.DataFrame(rows), note, fmt)
    return 0
