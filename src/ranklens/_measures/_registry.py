"""Measure values, their parameter declarations, and the registry that drives everything.

A :class:`Measure` is a hashable value such as ``nDCG(gain=exp2)@10``: a registered name,
the parameters that differ from their defaults, and an optional cutoff. Its ``str`` is the
canonical name, which parses back to an equal value. A :class:`MeasureDef` holds what the
registry knows about a name: its kernel, parameters, cutoff kind, aggregation, docs, and
every fact the engine, the renderers and the conventions need about it (its closed form under
averaged ties, whether the order matters, whether it reads unretrieved judgments, which way is
better). Nothing outside a measure's own module lists measure names.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .._base.errors import MeasureError
from .._base.params import Param, Spelled, find_param
from .._base.params import format_number as _fmt_number
from .._base.registry import Registry, close_matches
from .._model.policies import TIES as _TIE_POLICIES
from ._definition import (
    Aggregate,
    ClosedForm,
    ContextKernel,
    CutoffKind,
    Facts,
    Flag,
    ItemFinish,
    ItemKernels,
    ItemTally,
    Kernel,
    MeasureDef,
    OrderFree,
    Table,
    TieBound,
    TieSupport,
    TrecSpelling,
)

__all__ = ["REGISTRY", "Measure", "MeasureDef", "Param", "Spelled", "known_names", "register",
           "suggest"]


@dataclass(frozen=True)
class Measure:
    """A measure value: registered name, non-default parameters, optional cutoff.

    Examples
    --------
    >>> from ranklens import Measure
    >>> m = Measure("nDCG", cutoff=10)
    >>> str(m)
    'nDCG@10'
    >>> str(Measure("AP")(denom="min") @ 3)
    'AP(denom=min)@3'
    """

    name: str
    params: tuple[tuple[str, Any], ...] = field(default=())
    cutoff: int | float | None = None

    def __post_init__(self) -> None:
        defn = REGISTRY.get(self.name)
        if defn is None:
            raise MeasureError(f"unknown measure {self.name!r}; did you mean {suggest(self.name)}?")
        object.__setattr__(self, "params", non_default_params(self.name, defn.params,
                                                              self.params))
        if self.cutoff is not None:
            object.__setattr__(self, "cutoff", _check_cutoff(defn, self.cutoff))
        elif defn.cutoff_required:
            raise MeasureError(f"{self.name} needs a cutoff, e.g. {self.name}@{_example(defn)}")

    @property
    def definition(self) -> MeasureDef:
        return REGISTRY[self.name]

    @property
    def reads_unretrieved(self) -> bool:
        """Whether the value depends on judged documents that were not retrieved."""
        return self.definition.reads_unretrieved(self)

    @property
    def ignores_order(self) -> bool:
        """Whether the value is the same for every order of the ranked documents."""
        return self.definition.ignores_order(self)

    @property
    def in_unit_range(self) -> bool:
        """Whether every per-query value lies in [0, 1], whatever the judgments (see
        ``MeasureDef.unit_range``)."""
        return self.definition.in_unit_range(self)

    def get(self, name: str, fallback: Any = None) -> Any:
        """The parameter's value: as given, else its default, else ``fallback``."""
        for key, value in self.params:
            if key == name:
                return value
        default = self.definition.param(name).default
        return fallback if default is None else default

    def __call__(self, **params: Any) -> Measure:
        merged = dict(self.params)
        merged.update(params)
        return Measure(self.name, tuple(merged.items()), self.cutoff)

    def __matmul__(self, cutoff: float) -> Measure:
        return Measure(self.name, self.params, cutoff)

    def __str__(self) -> str:
        out = self.name + params_text(self.definition.param, self.params)
        if self.cutoff is not None:
            out += "@" + _fmt_number(self.cutoff)
        return out

    def __repr__(self) -> str:
        return str(self)


def _example(defn: MeasureDef) -> str:
    if defn.trec.cutoffs:
        return _fmt_number(defn.trec.cutoffs[0])
    return "0.5" if defn.cutoff == "float" else "10"


def non_default_params(owner: str, params: Sequence[Param],
                       given: Sequence[tuple[str, Any]]) -> tuple[tuple[str, Any], ...]:
    """``given`` (name, value) pairs checked against ``owner``'s declared ``params``, those
    equal to their default left out (so equal measures compare and print equal), sorted."""
    clean: dict[str, Any] = {}
    for key, value in given:
        p = find_param(owner, params, key)
        value = p.check(value, owner)
        if value != p.default:
            clean[key] = value
    return tuple(sorted(clean.items()))


def params_text(param: Callable[[str], Param], params: Sequence[tuple[str, Any]]) -> str:
    """``(name=value,...)`` as a measure's name spells its ``params`` (each value formatted
    by its declared ``param(name)``); empty without parameters."""
    if not params:
        return ""
    return "(" + ",".join(f"{k}={param(k).format(v)}" for k, v in params) + ")"


def integer_cutoff(owner: str, cutoff: Any) -> int:
    """``cutoff`` as an integer >= 1 (a whole float accepted), else a MeasureError."""
    value = int(cutoff) if isinstance(cutoff, float) and cutoff.is_integer() else cutoff
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise MeasureError(f"the cutoff of {owner} must be an integer >= 1, got {cutoff!r}")
    return value


def _check_cutoff(defn: MeasureDef, cutoff: Any) -> int | float:
    if defn.cutoff is None:
        raise MeasureError(f"{defn.name} takes no cutoff, got @{cutoff}")
    if defn.cutoff == "int":
        return integer_cutoff(defn.name, cutoff)
    try:
        value = float(cutoff)
    except (TypeError, ValueError):
        raise MeasureError(f"the cutoff of {defn.name} must be a number, got {cutoff!r}") from None
    if not math.isfinite(value) or value < 0:
        raise MeasureError(f"the cutoff of {defn.name} must be a finite number >= 0, "
                           f"got {cutoff!r}")
    return value


#: every measure by its canonical name, in registration order (its aliases and other
#: spellings are read by :data:`ranklens._names.index.SPELLINGS`)
REGISTRY: Registry[MeasureDef] = Registry("measure")


def register(
    name: str,
    doc: str,
    *,
    params: Sequence[Param] = (),
    cutoff: CutoffKind | None = None,
    cutoff_required: bool = False,
    aggregate: Aggregate = "mean",
    aliases: tuple[str, ...] = (),
    variants: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = (),
    family: str = "",
    text: bool = False,
    lower_is_better: bool = False,
    subtopics: bool = False,
    weight: Kernel | None = None,
    trec: str | None = None,
    trec_cut: str | None = None,
    trec_cutoffs: tuple[float, ...] = (),
    trec_integer: bool = False,
    trec_per_query: bool = True,
    trec_reset: bool = False,
    trec_comma: Literal["parameters", "measures"] = "parameters",
    closed_form: ClosedForm | None = None,
    tie_bound: TieBound | None = None,
    order_free: OrderFree = "never",
    needs: tuple[Table, ...] = (),
    context_kernel: ContextKernel | None = None,
    item_tally: ItemTally | None = None,
    finish_items: ItemFinish | None = None,
    needs_unretrieved: Flag = True,
    nonpositive_not_hit: bool = False,
    zero_grade_unread: Flag = False,
    unit_range: Flag = False,
    convention_params: tuple[str, ...] = (),
    reads_judgments: bool = True,
    residual: bool = False,
) -> Callable[[Kernel], Kernel]:
    """Decorator: register ``kernel`` under ``name`` with its declarations (the fields of
    :class:`MeasureDef` and of its sub-records: ``trec_*`` those of its
    :class:`TrecSpelling`, ``closed_form``, ``tie_bound`` and ``order_free`` its
    :class:`TieSupport`'s, ``needs``, ``context_kernel``, ``item_tally`` and
    ``finish_items`` its :class:`ItemKernels`', the rest after ``finish_items`` its
    :class:`Facts`)."""

    def deco(kernel: Kernel) -> Kernel:
        declared = tuple(params)
        # every measure accepts ties=..., so nDCG(ties=average) overrides the evaluation's
        if not any(p.name == "ties" for p in declared):
            declared += (TIES,)
        REGISTRY.add(name, MeasureDef(
            name, kernel, doc, declared, cutoff, cutoff_required, aggregate, aliases,
            variants, family, text, lower_is_better, subtopics, weight,
            TrecSpelling(trec, trec_cut, trec_cutoffs, trec_integer, trec_per_query,
                         trec_reset, trec_comma),
            TieSupport(closed_form, tie_bound, order_free),
            ItemKernels(needs, context_kernel, item_tally, finish_items),
            Facts(needs_unretrieved, nonpositive_not_hit, zero_grade_unread, unit_range,
                  convention_params, reads_judgments, residual)))
        return kernel

    return deco


# Parameters shared by many measures: declared once so every measure documents them alike.
REL = Param("rel", Spelled("int", minimum=0), None, "minimum relevance level counted as "
            "relevant (default: the evaluation's rel option, 1)")
JUDGED_ONLY = Param("judged_only", Spelled("bool"), None, "drop unjudged documents before "
                    "ranking (trec_eval -J)")


def all_judged_read(m: Measure) -> bool:
    """A ``zero_grade_unread`` predicate: True unless the measure drops unjudged documents
    (``judged_only=true``), which then tells a document judged 0 from an unjudged one."""
    return not m.get("judged_only")


TIES = Param("ties", Spelled("choice", _TIE_POLICIES), None, "order of equally scored "
             "documents: docid = doc id descending (trec_eval), input = the order given, "
             "average = expected value over every order of each tied group (McSherry-Najork, "
             "sklearn's nDCG), pessimistic = each document after everything it ties with "
             "(sklearn's average_precision_score and LRAP on tied scores), optimistic = each "
             "relevant document before everything it ties with, worst / best = a tied group's "
             "documents by grade, ascending / descending (default: the evaluation's ties "
             "option)")


def known_names() -> list[str]:
    """Every accepted bare name: canonical, aliases, variants and trec_eval names."""
    names = set(REGISTRY)
    for defn in REGISTRY.values():
        names.update(defn.aliases)
        names.update(variant for variant, _ in defn.variants)
        names.update(n for n in (defn.trec.name, defn.trec.cut) if n)
    return sorted(names)


def suggest(text: str, n: int = 3) -> str:
    """The closest valid names to ``text``, formatted for an error message."""
    base = re.split(r"[@(]", text, maxsplit=1)[0]
    suffix = text[len(base):].strip()
    # a canonical name wins over an alias that differs only in case (nDCG over ndcg)
    close = close_matches(base, [*known_names(), *REGISTRY], n * 2, 0.5, str.lower)
    picks: list[str] = []
    for name in close:
        if name in REGISTRY and suffix and ("@" not in suffix or REGISTRY[name].cutoff):
            name += suffix
        if name not in picks:
            picks.append(name)
    picks = picks[:n] or ["nDCG@10", "AP", "P@10"]
    return " or ".join(repr(p) for p in picks)
