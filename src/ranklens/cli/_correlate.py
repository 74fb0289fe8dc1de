"""``ranklens correlate``: do two sets of judgments (or two measures) rank the runs alike?"""

from __future__ import annotations

import warnings
from typing import Any

import click

from .._base.errors import ParameterError, RanklensWarning
from .._base.outputs import refuse_overwriting_inputs
from .._names import parse_measure
from .._surfaces.correlation import rank_correlation
from .._surfaces.correlation.coefficients import CORRELATION_METHODS
from .._surfaces.correlation.render import CORRELATE_FORMATS, render_correlations
from ._evaluate import evaluate_files, write_text
from ._options import (
    NAME_HELP,
    judgment_options,
    name_systems,
    output_option,
    refuse,
    split_measures,
    split_options,
)

__all__ = ["correlate_cmd"]

#: the methods shown when --method is not given
DEFAULT_METHODS = ("kendall", "tau_ap", "spearman")


@click.command("correlate")
@click.argument("runs", nargs=-1, required=True, type=str)
@click.option("--qrels-a", "qrels_a", required=True, metavar="QRELS",
              help="Judgments of evaluation A, the reference (tau_AP's true ordering).")
@click.option("--qrels-b", "qrels_b", default=None, metavar="QRELS",
              help="Judgments of evaluation B (default: those of A, with --measure-b).")
@click.option("-m", "--measure", "measure", required=True, metavar="MEASURE",
              help="The measure whose aggregate orders the runs, e.g. AP or nDCG@10.")
@click.option("--measure-b", "measure_b", default=None, metavar="MEASURE",
              help="The measure ordering the runs in B (default: the -m measure).")
@click.option("--method", "methods", multiple=True, type=click.Choice(CORRELATION_METHODS),
              help="Correlation (repeatable). Default: kendall, tau_ap and spearman; tau_ap "
                   "is left out, with a warning, when aggregates tie.")
@click.option("--name", "names", multiple=True, metavar="NAME", help=NAME_HELP)
@output_option(formats=CORRELATE_FORMATS)
@judgment_options
def correlate_cmd(runs: tuple[str, ...], qrels_a: str, qrels_b: str | None, measure: str,
                  measure_b: str | None, methods: tuple[str, ...], names: tuple[str, ...],
                  fmt: str, output: str | None, **params: Any) -> int:
    """Correlate the orderings of RUNS by two evaluations: two sets of judgments, two
    measures, or both. Kendall's tau-b, tau_AP (Yilmaz et al. 2008; B judged against A)
    and Spearman's rho, with the number of swapped pairs of runs.

    \b
    ranklens correlate --qrels-a old.qrels --qrels-b llm.qrels a.run b.run c.run -m AP
    ranklens correlate --qrels-a qrels.txt a.run b.run c.run -m AP --measure-b nDCG@10
    ranklens correlate --qrels-a A.qrels --qrels-b B.qrels *.run -m P@10 --method tau_ap
    """
    options, _ = split_options(params)
    refuse((len(split_measures((measure,))) != 1,
            f"-m takes one measure for correlate; got {measure!r}"),
           (measure_b is not None and len(split_measures((measure_b,))) != 1,
            f"--measure-b takes one measure; got {measure_b!r}"),
           (len(runs) < 2, f"give at least two RUNS to correlate; got {len(runs)}"))
    if (qrels_b is None or qrels_b == qrels_a) and (
            measure_b is None or parse_measure(measure_b) == parse_measure(measure)):
        raise click.UsageError("nothing to correlate: evaluations A and B are the same; give "
                               "--qrels-b, or --measure-b another measure")
    labels, paths = name_systems(runs, names)
    refuse_overwriting_inputs(output, [qrels_a, qrels_b, *paths])
    second = measure if measure_b is None else measure_b
    same_qrels = qrels_b is None or qrels_b == qrels_a
    if same_qrels:
        wanted = list(dict.fromkeys([measure, second]))
        a = b = evaluate_files(qrels_a, paths, wanted, options, names=labels)
    else:
        a = evaluate_files(qrels_a, paths, [measure], options, names=labels)
        b = evaluate_files(qrels_b, paths, [second], options,  # type: ignore[arg-type]
                           names=labels)
    out = []
    for method in dict.fromkeys(methods or DEFAULT_METHODS):  # a repeated --method once
        try:
            out.append(rank_correlation(a, b, measure, method, measure_b=second))
        except ParameterError as exc:
            if methods or "tau_AP is defined for orderings without ties" not in str(exc):
                raise
            warnings.warn(f"tau_ap left out: {exc}", RanklensWarning, stacklevel=1)
    text = render_correlations(out, fmt, a=qrels_a, b=qrels_a if same_qrels else str(qrels_b))
    write_text(output, text)
    return 0
