"""``ranklens measures``: every registered measure, generated from the registry."""

from __future__ import annotations

import sys
from dataclasses import dataclass

import click

from .._base.errors import MeasureError
from .._base.params import Spelled
from .._measures import REGISTRY, Measure, MeasureDef
from .._measures._sets import describe_set
from .._names import suggest

__all__ = ["MeasureInfo", "measure_infos", "measures_cmd", "render_infos", "render_markdown"]


@dataclass(frozen=True)
class MeasureInfo:
    """What ``ranklens measures`` shows for one registered measure."""

    name: str  # canonical, with @k when it takes a cutoff
    trec: tuple[str, ...]
    aliases: tuple[str, ...]
    params: tuple[str, ...]  # "name=default: doc"
    doc: str
    family: str
    facts: tuple[str, ...] = ()  # what the registry entry says beyond the definition

    def text(self) -> str:
        return " ".join([self.name, *self.trec, *self.aliases, self.doc]).lower()


def _facts(name: str, defn: MeasureDef) -> tuple[str, ...]:
    """The entry's declarations in words: order, tie averaging, unretrieved judgments."""
    out = []
    if defn.subtopics:
        out.append("needs subtopic judgments (load_qrels(..., kind=\"subtopic\"))")
    if defn.ties.order_free == "always":
        out.append("order-free")
    elif defn.ties.order_free == "without_cutoff":
        out.append("order-free without a cutoff")
    if not defn.text and defn.ties.order_free != "always":
        out.append("ties=average "
                   + ("in closed form" if defn.ties.closed_form else "by enumeration"))
    # a cutoff of the declared kind where one is required (SDCG@k needs an integer)
    example = 1 if defn.cutoff == "int" else 0.5
    sample = Measure(name, (), example if defn.cutoff_required else None)
    reads = sample.reads_unretrieved
    flips = [f"{p.name}={c}" for p in defn.params if p.name != "ties"
             and isinstance(p.constraint, Spelled) and p.constraint.kind == "choice"
             for c in p.constraint.choices if sample(**{p.name: c}).reads_unretrieved != reads]
    said = "reads unretrieved judgments" if reads else "reads only retrieved documents"
    if flips:
        said += f" (not with {', '.join(flips)})"
    elif callable(defn.facts.needs_unretrieved):
        said += " with its default parameters"
    out.append(said)
    if defn.lower_is_better:
        out.append("lower is better")
    return tuple(out)


def measure_infos() -> list[MeasureInfo]:
    """One entry per registry measure, in registration order (grouped by family)."""
    out = []
    for name, defn in REGISTRY.items():
        mark = {"int": "@k", "float": "@x"}.get(str(defn.cutoff), "")
        shown = name + (mark if defn.cutoff_required or not mark else f"[{mark}]")
        te = defn.trec
        trec = [te.name] if te.name else []
        if te.cut:
            sample = te.cutoffs[:3]
            cuts = ", ".join(f"{te.cut}_{c:3.2f}" if defn.cutoff == "float"
                             else f"{te.cut}_{int(c)}" for c in sample)
            trec.append(cuts + (", ..." if len(te.cutoffs) > 3 else "")
                        if sample else f"{te.cut}_k")
        params = tuple(f"{p.name}={p.format(p.default)}: {p.doc}"
                       for p in defn.params if p.default is not None)
        shared = [p.name for p in defn.params if p.default is None]
        if shared:
            # rel, judged_only, ties...: documented once, they default to the evaluation's
            params += (f"{', '.join(shared)}: per-measure overrides of the evaluation options",)
        aliases = tuple(a for a in defn.aliases if a not in (te.name, name.lower()))
        # the fixed parameters as a name writes them (a measure that needs a cutoff has none)
        aliases += tuple(f"{variant} = {name}(" + ",".join(
            f"{k}={defn.param(k).format(v)}" for k, v in fixed) + ")"
            for variant, fixed in defn.variants)
        out.append(MeasureInfo(shown, tuple(trec), aliases, params, defn.doc, defn.family,
                               _facts(name, defn)))
    return out + agreement_infos()


def agreement_infos() -> list[MeasureInfo]:
    """The run-vs-run measures (``ranklens agree``): two runs in, no judgments."""
    from .._surfaces.agreement.values import AGREEMENT

    out = []
    for name, defn in AGREEMENT.items():
        shown = name + ("@k" if defn.cutoff_required else "[@k]")
        params = tuple(f"{p.name}={p.format(p.default)}: {p.doc}" for p in defn.params
                       if p.default is not None)
        facts: tuple[str, ...] = (
            "compares two runs without judgments: ranklens agree, ranklens.agreement",)
        if defn.lower_is_better is True:
            facts += ("lower is better",)
        out.append(MeasureInfo(shown, (), defn.aliases, params, defn.doc, "agreement", facts))
    return out


def render_infos(infos: list[MeasureInfo]) -> str:
    """Plain text: one block per measure."""
    lines = []
    for info in infos:
        lines += [info.name, f"    {info.doc}"]
        if info.trec:
            lines.append(f"    trec_eval: {', '.join(info.trec)}")
        if info.aliases:
            lines.append(f"    aliases: {', '.join(info.aliases)}")
        lines += [f"    - {p}" for p in info.params]
        lines += [f"    {'; '.join(info.facts)}"] if info.facts else []
        lines.append("")
    return "\n".join(lines)


def render_markdown(infos: list[MeasureInfo]) -> str:
    """The measures reference page (docs/measures.md is this output, checked by a test)."""
    from importlib import resources

    # the page's head and the guide to adding a measure
    head = (resources.files("ranklens.cli") / "measures_header.md").read_text(encoding="utf-8")
    lines = head.split("\n")[:-1]
    for info in infos:
        lines += [f"## `{info.name}`", "", info.doc[0].upper() + info.doc[1:] + ".", ""]
        if info.trec:
            lines.append(f"- trec_eval: {', '.join(f'`{t}`' for t in info.trec)}")
        if info.aliases:
            lines.append(f"- also accepted: {', '.join(f'`{a}`' for a in info.aliases)}")
        lines += [f"- `{name}`: {doc}" for name, _, doc in (p.partition(": ")
                                                               for p in info.params)]
        lines += [f"- {'; '.join(info.facts)}", ""] if info.facts else [""]
    return "\n".join(lines)


@click.command("measures")
@click.argument("text", required=False)
@click.option("--format", "fmt", type=click.Choice(["text", "markdown"]), default="text",
              show_default=True, help="text (a table on a terminal) or the Markdown reference")
def measures_cmd(text: str | None, fmt: str = "text") -> int:
    """List every measure with its trec_eval and ranx names, parameters and definition.

    TEXT keeps only measures whose name, aliases or description contain it
    (case-insensitive), e.g. `ranklens measures ndcg`; a set's name (BEIR, MTEB,
    TREC-RAG, TREC-RAG24, TREC-RAG25) shows its measures.
    """
    described = describe_set(text) if text else None
    if described is not None:  # BEIR, MTEB, TREC-RAG: a set of measures, not one measure
        sys.stdout.write(described)
        return 0
    infos = measure_infos()
    if text:
        infos = [i for i in infos if text.lower() in i.text()]
        if not infos:
            raise MeasureError(f"no measure matches {text!r}; did you mean {suggest(text)}?")
    if fmt == "markdown":
        sys.stdout.write(render_markdown(infos))
    elif sys.stdout.isatty():
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
