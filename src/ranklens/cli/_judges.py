"""``ranklens judges``: can these judgments be trusted? Agreement and leaderboard survival."""

from __future__ import annotations

from typing import Any

import click
from click.core import ParameterSource

from .._base.draws import MAX_DRAWS
from .._base.outputs import refuse_overwriting_inputs
from .._surfaces.compare.options import CORRECTIONS, TESTS
from .._surfaces.judges.report import JUDGES_FORMATS
from ._evaluate import write_text
from ._options import judgment_options, name_systems, output_option, refuse, split_options, stacked

__all__ = ["judges_cmd", "scale_options", "scales"]


def _mapping(values: tuple[str, ...]) -> dict[str, dict[float, float]]:
    """``--map JUDGE:FROM=TO[,FROM=TO...]`` values as ``{judge: {from: to}}``."""
    out: dict[str, dict[float, float]] = {}
    for value in values:
        judge, _, rules = value.rpartition(":")
        try:
            pairs = [rule.split("=") for rule in rules.split(",")]
            out.setdefault(judge, {}).update({float(a): float(b) for a, b in pairs})
        except ValueError:
            raise click.UsageError(f"--map takes JUDGE:FROM=TO[,FROM=TO...], e.g. "
                                   f"llm:4=3,3=2; got {value!r}") from None
        if not judge:
            raise click.UsageError(f"--map names no judge in {value!r}; write JUDGE:FROM=TO")
    return out


def _judge_value(value: str, flag: str) -> tuple[str, str]:
    judge, _, rest = value.partition(":")
    if not judge or not rest:
        raise click.UsageError(f"{flag} takes JUDGE:VALUE, e.g. llm:qid,_,docid,rel,_,_; got "
                               f"{value!r}")
    return judge, rest


def _grades(value: str | None) -> list[int] | None:
    if value is None:
        return None
    try:
        return [int(g) for g in value.split(",")]
    except ValueError:
        raise click.UsageError(f"--grades takes integers separated by commas, e.g. "
                               f"0,1,2,3; got {value!r}") from None


def scale_options(flag: str = "--columns") -> Any:
    """``--map``, ``--columns`` and ``--grades``: how each judge's file is read and scaled
    (``judges``; ``report --judges`` names the columns ``--judge-columns``, its
    ``--columns`` being the runs')."""
    return stacked(
        click.option("--map", "maps", multiple=True, metavar="JUDGE:FROM=TO,...",
                     help="Rewrite a judge's grades first (repeatable), e.g. llm:4=3."),
        click.option(flag, "judge_columns", multiple=True, metavar="JUDGE:COLUMNS",
                     help="A headerless judgments file's columns (repeatable), e.g. the TREC "
                          "RAG 2025 participant file: llm:qid,_,docid,rel,_,_; UMBRELA's outputs: "
                          "llm:umbrela:REQUESTS.jsonl."),
        click.option("--grades", default=None, metavar="G,G,...",
                     help="The common grade scale, e.g. 0,1,2,3 (default: the grades given)."))


def scales(maps: tuple[str, ...], columns: tuple[str, ...], grades: str | None,
           flag: str = "--columns") -> dict[str, Any]:
    """The scale options as :func:`ranklens.judges` takes them."""
    return {"grades": _grades(grades), "mapping": _mapping(maps),
            "columns": dict(_judge_value(c, flag) for c in columns)}


@click.command("judges")
@click.argument("qrels", nargs=-1, metavar="REFERENCE OTHER [OTHER...]")
@click.option("-r", "--run", "runs", multiple=True, metavar="RUN",
              help="A run to order under each judge's labels (repeatable; NAME=PATH names it).")
@click.option("-m", "--measure", default="nDCG@10", show_default=True,
              help="The measure ordering the runs.")
@scale_options()
@click.option("--resamples", type=click.IntRange(0, MAX_DRAWS), default=1000,
              show_default=True, help="Bootstrap resamples over queries (0: no intervals).")
@click.option("--seed", type=click.IntRange(0, 2 ** 63 - 1), default=0, show_default=True,
              help="Seed of the resamples.")
@click.option("--confidence", type=click.FloatRange(0, 1, min_open=True, max_open=True),
              default=0.95, show_default=True, help="Level of the intervals.")
@click.option("--test", type=click.Choice(TESTS), default="t", show_default=True,
              help="Paired test of the significance decisions.")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True),
              default=0.05, show_default=True, help="Significance level of the decisions.")
@click.option("--correction", type=click.Choice(CORRECTIONS), default="holm",
              show_default=True, help="Multiple-testing correction of the decisions.")
@click.option("-q", "--per-query", is_flag=True, default=False,
              help="Each query's statistics too.")
@output_option(formats=JUDGES_FORMATS)
@judgment_options
def judges_cmd(qrels: tuple[str, ...], runs: tuple[str, ...], measure: str,
               maps: tuple[str, ...], judge_columns: tuple[str, ...], grades: str | None,
               resamples: int, seed: int, confidence: float, test: str, alpha: float,
               correction: str, per_query: bool, fmt: str, output: str | None,
               **params: Any) -> int:
    """Agreement between judges over the pairs both judged, and whether the runs'
    leaderboard and significance decisions survive a change of judge. The first QRELS is
    the reference (the people).

    \b
    ranklens judges people.qrels llm.qrels
    ranklens judges people.qrels llm.qrels -r a.run -r b.run -r c.run -m nDCG@10
    ranklens judges A=nist.qrels B=umbrela.qrels C=gpt.qrels --map B:4=3 -f jsonl
    """
    from .._surfaces.judges import judges

    refuse((len(qrels) < 2, f"give at least two QRELS to compare; got {len(qrels)}"),
           (len(runs) == 1, "give at least two --run to order, or none"))
    if not runs:  # what orders the runs, given without runs, is not silently ignored
        ctx = click.get_current_context()
        for name in ("measure", "test", "alpha", "correction", *params):
            if ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE:
                flag = next(p.opts[-1] for p in ctx.command.params if p.name == name)
                raise click.UsageError(f"{flag} applies to the runs; give two --run or more")
    options, _ = split_options(params)
    names, paths = name_systems(qrels, (), what="judge")
    run_names, run_paths = name_systems(runs, ())
    refuse_overwriting_inputs(output, [*paths, *run_paths])
    report = judges(dict(zip(names, paths, strict=True)),
                    dict(zip(run_names, run_paths, strict=True)) if runs else None, measure,
                    **scales(maps, judge_columns, grades), resamples=resamples, seed=seed,
                    confidence=confidence, test=test, alpha=alpha,
                    correction=correction, options=options)
    write_text(output, report.render(fmt, per_query=per_query))
    return 0
