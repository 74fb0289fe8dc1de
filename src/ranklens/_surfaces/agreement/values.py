"""Run-vs-run measure values and their names.

An :class:`AgreementMeasure` is to two runs what :class:`ranklens.Measure` is to a run and
its judgments: a registered name, the parameters that differ from their defaults, and a
cutoff. Its ``str`` is the canonical name (``RBO(form=min,p=0.8)@100``), which
:func:`parse_agreement` reads back to an equal value.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..._base.errors import MeasureError, ParameterError
from ..._base.params import non_default_params, params_text
from ..._measures._registry import integer_cutoff
from . import rbo, sets  # noqa: F401  (each registers its measures on import)
from .measures import AGREEMENT, AgreementDef

__all__ = ["AgreementMeasure", "parse_agreement", "parse_agreements"]


def _suggest(name: str) -> str:
    close = AGREEMENT.suggest(name, 3, 0.4)
    return " or ".join(repr(c) for c in (close or ["RBO", "Overlap@10"]))


@dataclass(frozen=True)
class AgreementMeasure:
    """A run-vs-run measure: registered name, non-default parameters, optional cutoff.

    Examples
    --------
    >>> from ranklens import AgreementMeasure
    >>> str(AgreementMeasure("RBO", (("p", 0.8),), 100))
    'RBO(p=0.8)@100'
    >>> str(AgreementMeasure("Jaccard", cutoff=10))
    'Jaccard@10'
    """

    name: str
    params: tuple[tuple[str, Any], ...] = field(default=())
    cutoff: int | None = None

    def __post_init__(self) -> None:
        defn = AGREEMENT.lookup(self.name)
        if defn is None:
            raise MeasureError(f"unknown agreement measure {self.name!r}; did you mean "
                               f"{_suggest(self.name)}?")
        object.__setattr__(self, "name", defn.name)
        object.__setattr__(self, "params", non_default_params(defn.name, defn.params,
                                                              self.params))
        if self.cutoff is None:
            if defn.cutoff_required:
                raise MeasureError(f"{defn.name} needs a cutoff, e.g. {defn.name}@10")
            return
        object.__setattr__(self, "cutoff", integer_cutoff(defn.name, self.cutoff))

    @property
    def definition(self) -> AgreementDef:
        return AGREEMENT[self.name]

    @property
    def lower_is_better(self) -> bool:
        flag = self.definition.lower_is_better
        return bool(flag(self)) if callable(flag) else flag

    def get(self, name: str) -> Any:
        """The parameter's value: as given, else its default."""
        given = dict(self.params)
        return given[name] if name in given else self.definition.param(name).default

    def __str__(self) -> str:
        return (self.name + params_text(self.definition.param, self.params)
                + ("" if self.cutoff is None else f"@{self.cutoff}"))

    __repr__ = __str__


_NAME = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*(?:\((.*)\))?\s*(?:@\s*(\S+))?\s*$")


def parse_agreement(spec: str | AgreementMeasure) -> AgreementMeasure:
    """Read one run-vs-run measure name (``RBO``, ``RBO(p=0.8,form=min)@100``,
    ``Overlap@10``, ``jaccard@5``); MeasureError naming what is wrong.

    Examples
    --------
    >>> from ranklens import parse_agreement
    >>> parse_agreement("rbo(p=0.95)")
    RBO(p=0.95)
    >>> parse_agreement("KendallTau@10")
    KendallTau@10
    """
    if isinstance(spec, AgreementMeasure):
        return spec
    if not isinstance(spec, str):
        raise MeasureError(f"an agreement measure is a name such as 'RBO(p=0.9)'; got "
                           f"{spec!r}")
    match = _NAME.match(spec)
    if match is None:
        raise MeasureError(f"cannot read the agreement measure {spec!r}: write it as "
                           f"Name(param=value,...)@k, e.g. 'RBO(p=0.9)' or 'Overlap@10'")
    name, body, cut = match.groups()
    defn = AGREEMENT.lookup(name)
    if defn is None:
        raise MeasureError(f"unknown agreement measure {spec!r}; did you mean "
                           f"{_suggest(name)}?")
    params: list[tuple[str, Any]] = []
    for part in filter(str.strip, (body or "").split(",")):
        key, eq, text = part.partition("=")
        if not eq:
            raise MeasureError(f"parameter {part.strip()!r} of {spec!r} must be written "
                               "name=value")
        p = defn.param(key.strip())
        params.append((p.name, p.parse(text, defn.name)))
    cutoff: int | None = None
    if cut is not None:
        try:
            cutoff = int(cut)
        except ValueError:
            raise MeasureError(f"the cutoff of {defn.name} must be an integer >= 1, got "
                               f"{cut!r}") from None
    return AgreementMeasure(defn.name, tuple(params), cutoff)


def parse_agreements(specs: str | AgreementMeasure
                     | Sequence[str | AgreementMeasure]) -> list[AgreementMeasure]:
    """Each of ``specs`` (one name or several) read by :func:`parse_agreement`."""
    if isinstance(specs, (str, AgreementMeasure)):
        specs = [specs]
    elif not isinstance(specs, Sequence):
        raise ParameterError("the 'measures' argument must be an agreement measure or a list "
                             f"of them, e.g. 'RBO(p=0.9)' or ['Overlap@10']; got {specs!r}")
    out = [parse_agreement(s) for s in specs]
    if not out:
        raise MeasureError("give at least one agreement measure, e.g. 'RBO(p=0.9)'")
    return out
