"""``ranklens sampled``: metrics from ranks among sampled negatives, naive and corrected."""

from __future__ import annotations

import os

import click

from .._surfaces.compare.render import COMPARE_FORMATS
from .._surfaces.sampled.api import ESTIMATORS
from .._surfaces.sampled.estimators import SAMPLINGS
from ._evaluate import write_frame
from ._options import output_option

__all__ = ["sampled_cmd"]


@click.command("sampled")
@click.argument("files", nargs=-1, required=True)
@click.option("-m", "--measure", "measures", multiple=True,
              help="Recall@k, nDCG@k, AP or AUC; several separated by spaces "
                   "(default: Recall@10 nDCG@10).")
@click.option("-e", "--estimator", "estimators", multiple=True, type=click.Choice(ESTIMATORS),
              help="naive, rescaled, corrected (repeat; default: all three).")
@click.option("--sampling", type=click.Choice(SAMPLINGS), default="binomial",
              show_default=True, help="Negatives drawn with replacement (binomial) or not.")
@click.option("--gamma", type=click.FloatRange(0, 1), default=1.0, show_default=True,
              help="The correction's variance weight: 1 the posterior mean, 0 minimal bias.")
@click.option("--show", type=click.Choice(("summary", "paired", "values")), default="summary",
              show_default=True, help="Means (and the consistency report), paired "
                                      "comparisons of the files, or every case's values.")
@output_option(formats=COMPARE_FORMATS)
def sampled_cmd(files: tuple[str, ...], measures: tuple[str, ...],
                estimators: tuple[str, ...], sampling: str, gamma: float, show: str,
                fmt: str, output: str | None) -> int:
    """Metrics from sampled ranks: one FILE per system, a row per held-out item.

    Columns: user_id sampled_rank negatives catalogue [full_rank].

    \b
    ranklens sampled personal.tsv -m "Recall@10 nDCG@10"
    ranklens sampled personal.tsv popular.tsv -e corrected --show paired
    """
    from .._base.errors import ParameterError
    from .._base.outputs import refuse_overwriting_inputs
    from .._surfaces.sampled import sampled

    refuse_overwriting_inputs(output, files)
    names = [os.path.basename(f).split(".")[0] for f in files]
    if len(set(names)) < len(names):
        raise ParameterError(f"the files {list(files)} share a name: give each system's file "
                             "its own name (the name before the first dot)")
    result = sampled(dict(zip(names, files, strict=True)),
                     [m for given in measures for m in given.split()] or ("Recall@10",
                                                                         "nDCG@10"),
                     estimators=estimators or ESTIMATORS, sampling=sampling, gamma=gamma)
    frame = getattr(result, show)
    note = {"summary": f"Sampling {sampling}, gamma {gamma:g}, uniform prior.",
            "paired": "Paired t-test on the cases both files hold; 95% interval.",
            "values": ""}[show]
    write_frame(output, frame, note, fmt)
    return 0
