"""``ranklens measures``: every registered measure, generated from the registry."""

from __future__ import annotations

import sys
from dataclasses import dataclass

import click

from .._measures._registry import Param

__all__ = ["MeasureInfo", "measure_infos", "measures_cmd", "render_infos"]


@dataclass(frozen=True)
class MeasureInfo:
    """What ``ranklens measures`` shows for one registered measure."""

    name: str  # canonical, with @k when it takes a cutoff
    trec: tuple[str, ...]
    aliases: tuple[str, ...]
    params: tuple[str, ...]  # "name=default: doc"
    doc: str
    family: str

    def text(self) -> str:
        return " ".join([self.name, *self.trec, *self.aliases, self.doc]).lower()


def _fmt_default(param: Param) -> str:
    return param.format(param.default)


def measure_infos() -> list[MeasureInfo]:
    """One entry per registry measure, in registration order (grouped by family)."""
    from .._measures import REGISTRY

    out = []
    for name, defn in REGISTRY.items():
        shown = name
        if defn.cutoff == "int":
            shown += "@k" if defn.cutoff_required else "[@k]"
        elif defn.cutoff == "float":
            shown += "@x" if defn.cutoff_required else "[@x]"
        trec = []
        if defn.trec:
            trec.append(defn.trec)
        if defn.trec_cut:
            sample = defn.trec_cutoffs[:3]
            if defn.cutoff == "float":
                cuts = ", ".join(f"{defn.trec_cut}_{c:3.2f}" for c in sample)
            else:
                cuts = ", ".join(f"{defn.trec_cut}_{int(c)}" for c in sample)
            trec.append(cuts + (", ..." if len(defn.trec_cutoffs) > 3 else "")
                        if sample else f"{defn.trec_cut}_k")
        params = tuple(f"{p.name}={_fmt_default(p)}: {p.doc}"
                       for p in defn.params if p.default is not None)
        shared = [p.name for p in defn.params if p.default is None]
        if shared:
            # rel, judged_only, ties...: documented once, they default to the evaluation's
            params += (f"{', '.join(shared)}: per-measure overrides of the evaluation options",)
        aliases = tuple(a for a in defn.aliases if a not in (defn.trec, name.lower()))
        out.append(MeasureInfo(shown, tuple(trec), aliases, params, defn.doc, defn.family))
    return out


def render_infos(infos: list[MeasureInfo]) -> str:
    """Plain text: one block per measure."""
    lines = []
    for info in infos:
        lines.append(info.name)
        lines.append(f"    {info.doc}")
        if info.trec:
            lines.append(f"    trec_eval: {', '.join(info.trec)}")
        if info.aliases:
            lines.append(f"    aliases: {', '.join(info.aliases)}")
        for p in info.params:
            lines.append(f"    - {p}")
        lines.append("")
    return "\n".join(lines)


@click.command("measures")
@click.argument("text", required=False)
def measures_cmd(text: str | None) -> int:
    """List every measure with its trec_eval and ranx names, parameters and definition.

    TEXT keeps only measures whose name, aliases or description contain it
    (case-insensitive), e.g. `ranklens measures ndcg`.
    """
    infos = measure_infos()
    if text:
        infos = [i for i in infos if text.lower() in i.text()]
        if not infos:
            from .._errors import MeasureError
            from .._names import suggest

            raise MeasureError(f"no measure matches {text!r}; did you mean {suggest(text)}?")
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.markup import escape
        from rich.table import Table

        table = Table(show_lines=False, header_style="bold")
        for col in ("measure", "trec_eval", "aliases", "definition and parameters"):
            table.add_column(col, overflow="fold")
        for i in infos:
            body = escape(i.doc) + "".join(f"\n[dim]{escape(p)}[/dim]" for p in i.params)
            table.add_row(f"[cyan]{escape(i.name)}[/cyan]", escape("\n".join(i.trec)),
                          escape(", ".join(i.aliases)), body)
        Console().print(table)
    else:
        sys.stdout.write(render_infos(infos))
    return 0
