"""Measure values, their parameter declarations, and the registry that drives everything.

A :class:`Measure` is a hashable value such as ``nDCG(gain=exp2)@10``: a registered name,
the parameters that differ from their defaults, and an optional cutoff. Its ``str`` is the
canonical name, which parses back to an equal value. A :class:`MeasureDef` holds what the
registry knows about a name: its kernel, parameters, cutoff kind, aggregation and docs, and
groups the rest by who reads it: how trec_eval spells and prints the measure
(:class:`TrecSpelling`), how it handles tied scores (:class:`TieSupport`), the kernels of a
measure that reads the beyond-accuracy tables (:class:`ItemKernels`) and the facts the
engine, the conventions and the renderers need (:class:`Facts`). Nothing outside a
measure's own module lists measure names.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from .._base.errors import MeasureError
from .._base.params import Param, Spelled, find_param, non_default_params, params_text
from .._base.params import format_number as _fmt_number
from .._base.registry import Registry
from .._model.aligned import Aligned
from .._model.items import ItemContext, ItemCounts, RankedItems
from .._model.policies import TIES as _TIE_POLICIES

__all__ = ["REGISTRY", "Aggregate", "CutoffKind", "Facts", "ItemKernels", "Measure", "MeasureDef",
           "OrderFree", "Param", "Spelled", "Table", "TieSupport", "TrecSpelling", "known_names",
           "register", "suggest"]


#: how per-query values become one: ``catalogue`` reads the items recommended over every
#: query (:class:`ItemKernels`), ``none`` is per-query text only
Aggregate = Literal["mean", "sum", "gmean", "catalogue", "none"]
#: ``int``: a rank depth; ``float``: a recall level, a multiple of R
CutoffKind = Literal["int", "float"]
#: whether the ranking order matters: never, or only through a cutoff
OrderFree = Literal["never", "always", "without_cutoff"]
#: a beyond-accuracy table (a key of :data:`ranklens._model.items.TABLES`)
Table = Literal["train", "catalogue", "features", "groups", "propensity"]

Kernel = Callable[[Aligned, "Measure"], np.ndarray]
# (aligned, measure, tied groups) -> the value under ties="average"; see _ties
ClosedForm = Callable[[Aligned, "Measure", Any], np.ndarray]
# (aligned, measure, tied groups, optimistic) -> the value under ties="pessimistic" /
# "optimistic"; see _ties
TieBound = Callable[[Aligned, "Measure", Any, bool], np.ndarray]
# (aligned, measure, ranked items) -> one value per query, for the measures that read the
# beyond-accuracy tables (popularity, the catalogue, features, groups)
ContextKernel = Callable[[Aligned, "Measure", RankedItems], np.ndarray]
# (aligned, measure, ranked items) -> how often each item was recommended (a block's tally)
ItemTally = Callable[[Aligned, "Measure", RankedItems], ItemCounts]
# (the merged tally, measure, context) -> the catalogue-level value
ItemFinish = Callable[[ItemCounts, "Measure", ItemContext], float]
#: a fact that is a constant or a predicate of the measure's parameters
Flag = bool | Callable[["Measure"], bool]


@dataclass(frozen=True)
class TrecSpelling:
    """How trec_eval names and prints the measure.

    Attributes
    ----------
    name : trec_eval name (``ndcg``); None when trec_eval has none.
    cut : trec_eval name of the cutoff family (``ndcg_cut``).
    cutoffs : the family's default cutoffs.
    integer : trec_eval prints it as an integer (``%ld``).
    per_query : trec_eval prints it on per-query (``-q``) lines.
    reset : trec_eval blanks it on the empty rankings ``-c`` adds.
    comma : what a comma list after ``name`` means in ``evaluate`` and ``ranklens
        evaluate -m``: ``"parameters"``, the one measure's parameters (``utility_2,-1,0,0``:
        four coefficients), or ``"measures"``, one measure per value (``set_F.1.0,0.5``: F
        at beta 1.0 and at 0.5). (A cutoff family's list, ``P_5,10``, is always one measure
        per cutoff; ``ranklens trec_eval -m`` reads lists as trec_eval does: set_F takes the
        first value.)
    """

    name: str | None = None
    cut: str | None = None
    cutoffs: tuple[float, ...] = ()
    integer: bool = False
    per_query: bool = True
    reset: bool = False
    comma: Literal["parameters", "measures"] = "parameters"


@dataclass(frozen=True)
class TieSupport:
    """How the measure's value is found under the tie policies.

    Attributes
    ----------
    closed_form : ``f(aligned, measure, groups) -> ndarray``, the value under
        ``ties="average"`` on the queries that have tied groups (``groups`` is a
        :class:`~ranklens._measures._ties.TiedGroups`); it may raise
        :class:`~ranklens._measures._ties.NoClosedForm` for parameter values it does not
        cover. None: averaged by enumerating tied orders.
    bound : ``f(aligned, measure, groups, optimistic) -> ndarray``, the value under
        ``ties="pessimistic"`` (``optimistic`` False) or ``"optimistic"``: each (relevant)
        document ranked after, or before, everything it ties with (the definition is the
        :data:`~ranklens._model.policies.Ties` docstring's). It raises
        :class:`~ranklens._measures._ties.NoBound` for a policy or parameter the definition
        does not cover. None: both policies refused, unless the order never matters.
    order_free : ``"never"``, ``"always"`` (the ranking order never matters) or
        ``"without_cutoff"`` (it matters only through a cutoff). Such measures skip the
        tie averaging altogether.
    """

    closed_form: ClosedForm | None = None
    bound: TieBound | None = None
    order_free: OrderFree = "never"


@dataclass(frozen=True)
class ItemKernels:
    """The kernels of a measure that reads the beyond-accuracy tables.

    Attributes
    ----------
    needs : the tables the measure reads (or a function of the measure giving them); the
        evaluation refuses it, naming the argument, when one is absent.
    context : ``f(aligned, measure, ranked_items) -> ndarray``, the per-query values
        (the definition's ``kernel`` then only refuses).
    tally, finish : a catalogue-level measure (``aggregate="catalogue"``):
        ``tally(aligned, measure, ranked_items)`` counts each item's recommendations over a
        block of queries (:class:`~ranklens._model.items.ItemCounts`, merged by addition),
        ``finish(counts, measure, context)`` turns the merged counts into the value. Its
        per-query values are NaN.
    """

    needs: tuple[Table, ...] | Callable[[Measure], tuple[Table, ...]] = ()
    context: ContextKernel | None = None
    tally: ItemTally | None = None
    finish: ItemFinish | None = None

    def tables(self, measure: Measure) -> tuple[Table, ...]:
        """The tables ``measure`` reads (``needs``, resolved for its parameters)."""
        return self.needs(measure) if callable(self.needs) else self.needs


@dataclass(frozen=True)
class Facts:
    """What the engine and the conventions need to know about the measure's value.

    Attributes
    ----------
    needs_unretrieved : whether the value counts or ranks judged documents that were not
        retrieved (R, the ideal ranking); a predicate of the measure when a parameter
        decides. A ranked label matrix shows only the retrieved items, so
        ``evaluate_arrays`` warns for these. (RBP's gain rescaling reads the top judged
        level, a scale rather than a document, and RBP is False.)
    nonpositive_not_hit : under the ``nonpositive="unjudged"`` option (the torchmetrics
        convention's), a document scored <= 0 is never a hit in this measure: it keeps its
        rank, and a relevant one still counts among the relevant (torchmetrics >= 1.7.4's
        AP, RR, P and R; its nDCG and HitRate read every document as given).
    zero_grade_unread : the value is the same whether a document judged 0 is judged or
        unjudged, at any relevance level >= 1 (no count of judged documents, no gain for
        grade 0); a predicate of the measure when a parameter decides (``judged_only``, a
        gain map). ``ranklens.Accumulator`` then leaves labels of 0 out of the judgments it
        builds, except under ties="average". tests/unit/test_zero_grades.py holds every
        declaration to it: bit for bit, but for a value averaged over tied orders by
        enumeration (AP(denom=hits) under ties="average"), whose sum may round differently
        in the last bit (hence the accumulator's exception).
    unit_range : every per-query value lies in [0, 1] whatever the judgments, conventions
        and parameters (a fraction of documents or of relevance: P, R, AP, RR, ...), so a
        difference lies in [-1, 1] and ``compare`` clips its intervals there; or a predicate
        of the measure where its parameters decide (nDCG: in [0, 1] unless a gain map gives
        a level a negative gain). False (the default) where weights or a parameter can leave
        [0, 1] (ERR, RBP, utility, the diversity measures) or nobody has checked.
    convention_params : the parameters a :class:`~ranklens.Convention` may set on it
        (``denom``, ``gain``, ``ideal``).
    reads_judgments : whether the value depends on the judgments; the empty-query policy
        (``empty``) leaves the values of a measure that does not (novelty, popularity,
        diversity) as computed.
    residual : ``ranklens.residual`` may judge its unjudged retrieved documents: it reads
        each retrieved document's relevance and nothing else about an unjudged one (no
        judged-only list, no count of judged non-relevant documents), so judging them
        non-relevant leaves it as computed.
    """

    needs_unretrieved: Flag = True
    nonpositive_not_hit: bool = False
    zero_grade_unread: Flag = False
    unit_range: Flag = False
    convention_params: tuple[str, ...] = ()
    reads_judgments: bool = True
    residual: bool = False


def _resolve(flag: Flag, measure: Measure) -> bool:
    return bool(flag(measure)) if callable(flag) else flag


@dataclass(frozen=True)
class MeasureDef:
    """What the registry knows about one measure name.

    Attributes
    ----------
    name : canonical name (``nDCG``).
    kernel : ``f(aligned, measure) -> ndarray`` of one value per evaluated query.
    doc : one-line definition.
    params : declared parameters.
    cutoff : ``None`` (no cutoff), ``"int"`` (rank depth) or ``"float"`` (recall level,
        multiple of R).
    cutoff_required : whether a cutoff must be given.
    aggregate : how the per-query values become one (:data:`Aggregate`).
    aliases : other accepted names (ranx and common spellings), lower-case matched.
    variants : other names meaning this measure with parameters fixed, as
        ``(name, ((param, value), ...))`` pairs (ranx's ``ndcg_burges`` = ``nDCG(gain=exp2)``).
    family : the module's group, for listings.
    text : the per-query value is a string (relstring), never averaged.
    lower_is_better : smaller values are better (Unj, RBP's residual); renderers bold the
        minimum.
    subtopics : it reads subtopic judgments (a diversity measure: ``load_qrels(...,
        kind="subtopic")``); the others read plain ones.
    weight : ``f(aligned, measure) -> ndarray``, each query's weight in the mean (None: 1
        each); GAUC weighs each query's AUC by its relevant documents, and 0 where AUC is
        undefined.
    trec, ties, items, facts : the sub-records (:class:`TrecSpelling`,
        :class:`TieSupport`, :class:`ItemKernels`, :class:`Facts`).
    """

    name: str
    kernel: Kernel
    doc: str
    params: tuple[Param, ...] = ()
    cutoff: CutoffKind | None = None
    cutoff_required: bool = False
    aggregate: Aggregate = "mean"
    aliases: tuple[str, ...] = ()
    variants: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()
    family: str = ""
    text: bool = False
    lower_is_better: bool = False
    subtopics: bool = False
    weight: Kernel | None = None
    trec: TrecSpelling = TrecSpelling()
    ties: TieSupport = TieSupport()
    items: ItemKernels = ItemKernels()
    facts: Facts = Facts()

    def reads_unretrieved(self, measure: Measure) -> bool:
        """``facts.needs_unretrieved`` for ``measure`` (resolving a predicate)."""
        return _resolve(self.facts.needs_unretrieved, measure)

    def reads_zero_grades(self, measure: Measure) -> bool:
        """Whether ``measure`` may tell a document judged 0 from an unjudged one (the
        negation of ``facts.zero_grade_unread``, a predicate resolved)."""
        return not _resolve(self.facts.zero_grade_unread, measure)

    def in_unit_range(self, measure: Measure) -> bool:
        """``facts.unit_range`` for ``measure`` (resolving a predicate of its parameters)."""
        return _resolve(self.facts.unit_range, measure)

    def ignores_order(self, measure: Measure) -> bool:
        """Whether ``measure``'s value is the same for every order of the ranked documents."""
        if self.ties.order_free == "always":
            return True
        return self.ties.order_free == "without_cutoff" and measure.cutoff is None

    def param(self, name: str) -> Param:
        return find_param(self.name, self.params, name)


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
        ``Facts.unit_range``)."""
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


#: the deepest rank cutoff (or pool depth) read: more rows than a ranking of one query can
#: hold; every measure, agreement and pool bounds its depth by it
MAX_CUTOFF = 2**31 - 1


def integer_cutoff(owner: str, cutoff: Any) -> int:
    """``cutoff`` as an integer from 1 to :data:`MAX_CUTOFF` (a whole float accepted), else
    a MeasureError."""
    value = int(cutoff) if isinstance(cutoff, float) and cutoff.is_integer() else cutoff
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise MeasureError(f"the cutoff of {owner} must be an integer >= 1, got {cutoff!r}")
    if value > MAX_CUTOFF:
        raise MeasureError(f"the cutoff of {owner} must be at most {MAX_CUTOFF} (2**31 - 1), "
                           f"got {cutoff!r}")
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
    name: str, doc: str, *, params: Sequence[Param] = (), cutoff: CutoffKind | None = None,
    cutoff_required: bool = False, aggregate: Aggregate = "mean", aliases: tuple[str, ...] = (),
    variants: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = (), family: str = "",
    text: bool = False, lower_is_better: bool = False, subtopics: bool = False,
    weight: Kernel | None = None,
    # TrecSpelling
    trec: str | None = None, trec_cut: str | None = None, trec_cutoffs: tuple[float, ...] = (),
    trec_integer: bool = False, trec_per_query: bool = True, trec_reset: bool = False,
    trec_comma: Literal["parameters", "measures"] = "parameters",
    # TieSupport
    closed_form: ClosedForm | None = None, tie_bound: TieBound | None = None,
    order_free: OrderFree = "never",
    # ItemKernels
    needs: tuple[Table, ...] | Callable[[Measure], tuple[Table, ...]] = (),
    context_kernel: ContextKernel | None = None,
    item_tally: ItemTally | None = None, finish_items: ItemFinish | None = None,
    # Facts
    needs_unretrieved: Flag = True, nonpositive_not_hit: bool = False,
    zero_grade_unread: Flag = False, unit_range: Flag = False,
    convention_params: tuple[str, ...] = (), reads_judgments: bool = True, residual: bool = False,
) -> Callable[[Kernel], Kernel]:
    """Decorator: register ``kernel`` under ``name`` with its declarations: the fields of
    :class:`MeasureDef`, then of its sub-records (``trec_cut`` is ``TrecSpelling.cut``,
    ``tie_bound`` is ``TieSupport.bound``, ``context_kernel`` is ``ItemKernels.context``)."""

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
                  convention_params, reads_judgments, residual)), aliases)
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
    names = set(REGISTRY.spellings())
    for defn in REGISTRY.values():
        names.update(variant for variant, _ in defn.variants)
        names.update(n for n in (defn.trec.name, defn.trec.cut) if n)
    return sorted(names)


def suggest(text: str, n: int = 3) -> str:
    """The closest valid names to ``text``, formatted for an error message."""
    base = re.split(r"[@(]", text, maxsplit=1)[0]
    suffix = text[len(base):].strip()
    # a canonical name wins over an alias that differs only in case (nDCG over ndcg)
    close = REGISTRY.suggest(base, n * 2, 0.5, known_names())
    picks: list[str] = []
    for name in close:
        if name in REGISTRY and suffix and ("@" not in suffix or REGISTRY[name].cutoff):
            name += suffix
        if name not in picks:
            picks.append(name)
    picks = picks[:n] or ["nDCG@10", "AP", "P@10"]
    return " or ".join(repr(p) for p in picks)
