"""The one declared parameter: a name, a constraint, a default and a line of doc.

Measures, run-vs-run measures and fusion methods declare their parameters as
:class:`Param` values over the :mod:`~ranklens._base.validate` constraints. A measure's
parameters are also written in its name (``nDCG(gain=exp2)``): their constraint is a
:class:`Spelled` one, which reads, normalises and writes them back.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .errors import MeasureError
from .validate import Constraint

__all__ = ["Param", "Spelled", "find_param", "format_number", "non_default_params", "params_text"]


def format_number(x: float) -> str:
    """``x`` as a measure's name writes it: whole numbers without a decimal point."""
    if float(x).is_integer() and abs(x) < 1e15:
        return str(int(x))
    return repr(float(x))


#: ``gain``: ``linear``, ``exp2`` or a level map ``1:3;2:9``; ``floats``: a ``;``-list
SpelledKind = Literal["int", "float", "bool", "choice", "gain", "floats"]


def _level_map(value: Any) -> bool:
    """A non-empty tuple of (level, gain) pairs: finite numbers, each level once."""
    if not isinstance(value, tuple) or not value:
        return False
    levels = [k for k, _ in value]
    return (len(set(levels)) == len(levels)
            and all(math.isfinite(x) for pair in value for x in pair))


@dataclass(frozen=True)
class Spelled(Constraint):
    """A value of ``kind`` as a measure's name spells it, within ``[minimum, maximum]``
    (strictly between them when ``strict``), one of ``choices`` for ``kind="choice"``."""

    kind: SpelledKind
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    strict: bool = False

    def parse(self, text: str) -> Any:
        if self.kind == "int":
            return int(text)
        if self.kind == "float":
            return float(text)
        if self.kind == "bool":
            low = text.lower()
            if low in ("true", "1", "yes"):
                return True
            if low in ("false", "0", "no"):
                return False
            raise ValueError(text)
        if self.kind == "choice":
            if text not in self.choices:
                raise ValueError(text)
            return text
        if self.kind == "gain":
            if text in ("linear", "exp2"):
                return text
            pairs = []
            for part in text.split(";"):
                level, _, g = part.partition(":")
                pairs.append((float(level), float(g)))
            return tuple(sorted(pairs))
        return tuple(float(p) for p in text.split(";"))

    def normalise(self, value: Any) -> Any:
        if self.kind == "gain" and isinstance(value, dict):
            value = tuple(sorted((float(k), float(v)) for k, v in value.items()))
        elif self.kind == "gain" and isinstance(value, (list, tuple)):
            # pairs in any order: sorted, so equal maps give equal (hashable) measures
            value = tuple(sorted((float(k), float(v)) for k, v in value))
        if self.kind == "floats" and isinstance(value, (list, tuple)):
            value = tuple(float(v) for v in value)
        if self.kind == "int" and isinstance(value, float) and value.is_integer():
            value = int(value)
        if self.kind == "float" and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        return value

    def accepts(self, value: Any) -> bool:
        ok = {
            "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
            "float": lambda v: isinstance(v, float) and math.isfinite(v),
            "bool": lambda v: isinstance(v, bool),
            "choice": lambda v: v in self.choices,
            "gain": lambda v: v in ("linear", "exp2") or _level_map(v),
            "floats": lambda v: (isinstance(v, tuple) and len(v) > 0
                                 and all(math.isfinite(x) for x in v)),
        }[self.kind](value)
        if self.kind == "floats":
            return ok and (self.minimum is None or all(v >= self.minimum for v in value))
        if not ok or self.kind not in ("int", "float"):
            return ok
        if self.strict:
            return bool(self.minimum < value < self.maximum)
        return ((self.minimum is None or value >= self.minimum)
                and (self.maximum is None or value <= self.maximum))

    def describe(self) -> str:
        if self.strict:
            return (f"a number strictly between {format_number(self.minimum or 0)} and "
                    f"{format_number(self.maximum or 0)}")
        base = {
            "int": "an integer",
            "float": "a number",
            "bool": "true or false",
            "choice": "one of " + ", ".join(self.choices),
            "gain": "linear, exp2 or a level map such as 1:3;2:9",
            "floats": "a ;-separated list of numbers",
        }[self.kind]
        if self.minimum is not None:
            base += f" >= {format_number(self.minimum)}"
        if self.maximum is not None:
            base += f" and <= {format_number(self.maximum)}"
        return base

    def format(self, value: Any) -> str:
        if self.kind == "bool":
            return "true" if value else "false"
        if self.kind in ("int", "float"):
            return format_number(value)
        if self.kind == "gain" and isinstance(value, tuple):
            return ";".join(f"{format_number(a)}:{format_number(b)}" for a, b in value)
        if self.kind == "floats":
            return ";".join(format_number(v) for v in value)
        return str(value)


@dataclass(frozen=True)
class Param:
    """One declared parameter: what it must be (``constraint``), its default and its doc.

    What a ``default`` of None means is the declarer's: a measure's ``rel`` reads the
    evaluation's option of that name, a fusion method's parameter must be given.
    """

    name: str
    constraint: Constraint
    default: Any
    doc: str

    def parse(self, text: str, owner: str) -> Any:
        """The value ``text`` spells, checked; MeasureError naming ``owner`` if invalid."""
        text = text.strip()
        try:
            value = self.constraint.parse(text)
        except (ValueError, TypeError):
            raise self._invalid(owner, text) from None
        return self.check(value, owner)

    def check(self, value: Any, owner: str) -> Any:
        """``value`` normalised and checked; MeasureError naming ``owner`` if invalid."""
        try:
            value = self.constraint.normalise(value)
        except (TypeError, ValueError):
            raise self._invalid(owner, value) from None
        if not self.constraint.accepts(value):
            raise self._invalid(owner, value)
        return value

    def format(self, value: Any) -> str:
        return self.constraint.format(value)

    def _invalid(self, owner: str, value: Any) -> MeasureError:
        return MeasureError(f"parameter {self.name!r} of {owner} must be "
                            f"{self.constraint.describe()}, got {value!r}")


def find_param(owner: str, params: Sequence[Param], name: str) -> Param:
    """The parameter ``name`` among ``params``, declared by the measure ``owner``."""
    for p in params:
        if p.name == name:
            return p
    raise MeasureError(
        f"{owner} has no parameter {name!r}; it accepts "
        + (", ".join(p.name for p in params) or "no parameters")
    )


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
