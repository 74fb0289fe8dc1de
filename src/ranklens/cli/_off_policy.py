"""``ranklens off-policy``: IPS, SNIPS and doubly robust estimates from a log file;
``ranklens exposure``: expected exposure and AWRF over sampled rankings."""

from __future__ import annotations

import click

from .._base.draws import MAX_DRAWS
from .._base.lazy import polars as pl
from .._base.outputs import refuse_overwriting_inputs
from .._surfaces.compare.render import COMPARE_FORMATS
from .._surfaces.exposure import USER_MODELS, awrf, expected_exposure
from .._surfaces.off_policy import DISCOUNTS, ESTIMATORS, WEIGHTS, compare_policies, off_policy
from ._options import output_option

__all__ = ["exposure_cmd", "off_policy_cmd"]


def _write(frame: object, note: str, fmt: str, output: str | None, inputs: list[str]) -> None:
    from ._evaluate import write_frame

    refuse_overwriting_inputs(output, inputs)
    write_frame(output, frame, note, fmt)


def _floats(text: str | None, option: str) -> list[float] | None:
    """A comma-separated list of numbers; UsageError naming the option otherwise."""
    try:
        return None if text is None else [float(v) for v in text.split(",")]
    except ValueError:
        raise click.UsageError(f"{option} must be numbers separated by commas; got "
                               f"{text!r}") from None


@click.command("off-policy")
@click.argument("log", type=str)
@click.option("-e", "--estimator", "estimators", type=click.Choice(ESTIMATORS),
              multiple=True, help="Estimator (repeatable; default ips and snips, or ips "
                                  "with --weights pbm).")
@click.option("-w", "--weights", type=click.Choice(WEIGHTS), default="item-position",
              show_default=True, help="Row weights: the propensities' model.")
@click.option("--propensities", type=str, default=None,
              help="pbm: examination propensities of positions 1, 2, ... (comma-separated).")
@click.option("--discount", type=click.Choice(DISCOUNTS), default="dcg", show_default=True,
              help="pbm: the target metric's weight of a rank.")
@click.option("--depth", type=click.IntRange(min=1), default=None,
              help="pbm: target ranks below it weigh 0.")
@click.option("--clip", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Largest row weight.")
@click.option("--level", type=click.FloatRange(0, 1, min_open=True, max_open=True),
              default=0.95, show_default=True, help="Confidence level of the interval.")
@click.option("--resamples", type=click.IntRange(0, MAX_DRAWS), default=999,
              show_default=True, help="Bootstrap resamples of slates (0: no interval).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the bootstrap.")
@click.option("--compare", "targets", multiple=True, metavar="NAME=COLUMN",
              help="Compare two target policies, each its target_pscore (pbm: target_rank) "
                   "column, paired per slate (give it twice; ips or dr).")
@output_option(formats=COMPARE_FORMATS)
def off_policy_cmd(log: str, estimators: tuple[str, ...], weights: str,
                   propensities: str | None, discount: str, depth: int | None,
                   clip: float | None, level: float, resamples: int, seed: int,
                   targets: tuple[str, ...], fmt: str, output: str | None) -> int:
    """Estimate a target policy's value from LOG, a log of another policy's rankings.

    LOG is a CSV, TSV, JSON Lines, Parquet or Arrow file with one row per shown
    (slate, position): columns slate, position, reward, pscore and target_pscore
    (reward_model and target_reward_model for dr; target_rank for pbm).

    \b
    ranklens off-policy log.csv
    ranklens off-policy log.jsonl -w cascade -e ips -e snips
    ranklens off-policy clicks.csv -w pbm --propensities 1,0.5,0.33
    ranklens off-policy log.csv --compare new=p_new --compare old=p_old
    """
    theta = _floats(propensities, "--propensities")
    if targets:
        pairs = dict(t.partition("=")[::2] for t in targets)
        if len(targets) != 2 or len(pairs) != 2 or not all(all(t.partition("=")[::2])
                                                            for t in targets):
            raise click.UsageError(f"--compare needs two NAME=COLUMN policies with different "
                                   f"names; got {' '.join(targets)!r}")
        rows = []
        for e in estimators or ("ips",):
            c = compare_policies(log, pairs, e, weights, propensities=theta,
                                 discount=discount, depth=depth, clip=clip, level=level)
            rows.append({"estimator": e, "weights": weights, "policy": " - ".join(c.names),
                         "value_1": c.values[0], "value_2": c.values[1],
                         "difference": c.difference, "p_value": c.p_value, "low": c.low,
                         "high": c.high, "slates": c.slates})
        note = f"Paired t-test and t interval over slates at level {level:g}."
        _write(pl.DataFrame(rows), note, fmt, output, [log])
        return 0
    rows = [vars(off_policy(log, e, weights, propensities=theta, discount=discount,
                            depth=depth, clip=clip, level=level, resamples=resamples,
                            seed=seed))
            for e in estimators or (("ips",) if weights == "pbm" else ("ips", "snips"))]
    note = f"Percentile bootstrap interval over slates at level {level:g}, {resamples} resamples."
    _write(pl.DataFrame(rows), note, fmt, output, [log])
    return 0


@click.command("exposure")
@click.argument("qrels", type=str)
@click.argument("samples", type=str, nargs=-1, required=True)
@click.option("--user", type=click.Choice(USER_MODELS), default="gerr", show_default=True,
              help="Browsing model (gerr: expeval's default).")
@click.option("--patience", type=click.FloatRange(0, 1, min_open=True, max_open=True),
              default=0.5, show_default=True, help="The model's patience.")
@click.option("--utility", type=click.FloatRange(0, 1, min_open=True, max_open=True),
              default=0.5, show_default=True, help="gerr: chance a relevant document ends "
                                                   "the browsing.")
@click.option("--complete", is_flag=True, help="Judged non-relevant documents get a target "
                                               "too (reranking).")
@click.option("--binarize", is_flag=True, help="Every relevant grade counts as 1.")
@click.option("--raw", is_flag=True, help="Values without expeval's normalisation.")
@click.option("--item-groups", type=str, default=None,
              help="Item groups: exposure summed per group (raw values), and AWRF.")
@click.option("--target", type=str, default=None,
              help="AWRF's fair distribution, group=weight pairs separated by commas "
                   "(default: every group equally).")
@output_option(formats=COMPARE_FORMATS)
def exposure_cmd(qrels: str, samples: tuple[str, ...], user: str, patience: float,
                 utility: float, complete: bool, binarize: bool, raw: bool,
                 item_groups: str | None, target: str | None, fmt: str,
                 output: str | None) -> int:
    """Expected exposure of QRELS's documents over SAMPLES, one run file per sampled
    ranking; with --item-groups, per group, with AWRF.

    \b
    ranklens exposure qrels.txt s1.run s2.run --user rbp
    ranklens exposure qrels.txt s1.run s2.run --item-groups groups.tsv
    """
    try:
        goal = None if target is None else {g: float(w) for g, w in (
            pair.split("=", 1) for pair in target.split(","))}
    except ValueError:
        raise click.UsageError(f"--target must be group=weight pairs separated by commas; "
                               f"got {target!r}") from None
    if target is not None and item_groups is None:
        raise click.UsageError("--target needs --item-groups (AWRF reads the groups)")
    frame = expected_exposure(qrels, list(samples), user=user, patience=patience,
                              utility=utility, complete=complete, binarize=binarize,
                              normalise=not raw and item_groups is None,
                              item_groups=item_groups)
    if item_groups is not None:
        frame = frame.join(awrf(list(samples), item_groups, goal), on="query_id", how="left")
    scale = "raw" if raw or item_groups is not None else "normalised (expeval's bounds)"
    note = (f"Expected exposure, {user} user model, patience {patience:g}; values {scale}; "
            "relevance is e.t (the paper's EE-R is twice it).")
    _write(frame, note, fmt, output, [qrels, *samples, item_groups or ""])
    return 0
