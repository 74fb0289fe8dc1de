"""``compare --fail-if-worse RUN --margin M``, ``--risk ALPHA`` and ``--segments FILE``: the
regression gate's options and verdict, and the analyses written instead of the comparison."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from .._base.errors import ParameterError
from ._options import baseline_name

if TYPE_CHECKING:
    from .._surfaces.compare.result import Comparison

__all__ = ["DEFAULT_MARGIN", "analysis_text", "gate_baseline", "one_table", "run_gate"]

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


def one_table(risk_alpha: float | None, segments: str | None, details: bool) -> None:
    """Refuse, before anything is read, two options that each choose the table written."""
    if sum((risk_alpha is not None, segments is not None, details)) > 1:
        raise click.UsageError("--details, --risk and --segments each choose the table "
                               "written; give one")


def analysis_text(cmp: Comparison, risk_alpha: float | None, segments: str | None,
                  fmt: str) -> str:
    """The risk rows (``--risk``) or each pair per group (``--segments``), in ``fmt``."""
    from .._surfaces.render.formats import write
    from .._surfaces.render.frames import frame_table
    from .._surfaces.risk import RISK_NOTE, risk
    from .._surfaces.segments import segments as per_group

    if risk_alpha is not None:
        return write(frame_table(risk(cmp, risk_alpha), RISK_NOTE.format(alpha=risk_alpha)),
                     fmt)
    seg = per_group(cmp, segments, correction=cmp.correction)  # type: ignore[arg-type]
    return write(frame_table(seg.pairs, f"{seg.correction} correction across every group, "
                             "measure and pair."), fmt)
