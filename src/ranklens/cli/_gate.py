"""``compare --fail-if-worse RUN --margin M``, ``--risk ALPHA`` and ``--segments FILE``: the
regression gate's options and verdict, and the analyses written instead of the comparison."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from .._base.errors import ParameterError
from ._options import baseline_name

if TYPE_CHECKING:
    from .._surfaces.compare.result import Comparison

__all__ = ["DEFAULT_MARGIN", "analysis_table", "gate_baseline", "one_table", "run_gate"]

#: The regression the gate tolerates when no --margin is given.
DEFAULT_MARGIN = 0.01


def gate_baseline(fail_if_worse: str | None, margin: float | None, baseline: str | None,
                  labels: Sequence[str], runs: Sequence[str], pairs: Sequence[str]) -> str | None:
    """The comparison's baseline: ``--baseline``, or the gate's run (the two must agree)."""
    if fail_if_worse is None:
        if margin is not None:
            raise click.UsageError("--margin is for --fail-if-worse RUN; give both")
        return baseline
    try:
        gated = baseline_name(fail_if_worse, labels, list(pairs) or list(runs), "runs")
    except ParameterError as exc:
        raise click.UsageError(str(exc).replace("--baseline", "--fail-if-worse")) from None
    if baseline is not None and baseline != gated:
        raise click.UsageError(f"--fail-if-worse {fail_if_worse} and --baseline {baseline} "
                               "name different runs; give one of them")
    return gated


def run_gate(cmp: Comparison, baseline: str, margin: float | None) -> int:
    """Print the gate's lines on standard error; its exit status."""
    from .._surfaces.gate import gate

    status, lines = gate(cmp, baseline, DEFAULT_MARGIN if margin is None else margin)
    for line in lines:
        click.echo(f"ranklens: gate: {line}", err=True)
    return status


def one_table(risk_alpha: float | None, segments: str | None, details: bool,
              seeds: str | None = None) -> None:
    """Refuse, before anything is read, two options that each choose the table written."""
    if sum((risk_alpha is not None, segments is not None, details, seeds is not None)) > 1:
        raise click.UsageError("--details, --risk, --segments and --seeds each choose the "
                               "table written; give one")


def analysis_table(cmp: Comparison, risk_alpha: float | None, segments: Any,
                   seeds: str | None = None) -> tuple[Any, str]:
    """The risk rows (``--risk``), each pair per group (``--segments``) or each system of
    several runs against the baseline's (``--seeds``), and the note under them."""
    from .._surfaces.risk import RISK_NOTE, risk
    from .._surfaces.seeds import seeds as per_system
    from .._surfaces.segments import segments as per_group

    if risk_alpha is not None:
        return risk(cmp, risk_alpha), RISK_NOTE.format(alpha=risk_alpha)
    if seeds is not None:
        out = per_system(cmp.results, seeds, baseline=_system_of(cmp.baseline, seeds),  # type: ignore[arg-type]
                         measures=cmp.measures, correction=cmp.correction, alpha=cmp.alpha)
        return out.pairs, f"{out.correction} correction across every measure and system."
    seg = per_group(cmp, segments, correction=cmp.correction)
    return seg.pairs, f"{seg.correction} correction across every group, measure and pair."


def _system_of(run: str | None, path: str) -> str | None:
    """The system ``--baseline`` RUN belongs to in ``--seeds`` FILE (default: the first)."""
    from .._surfaces.segments import read_groups

    return None if run is None else next(iter(read_groups(path).get(run, [])), run)
