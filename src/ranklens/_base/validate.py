"""Declarative checks of option values: a constraint is a value, checked in one place.

Every option of every surface (evaluation options, compare's tests, the report's cutoffs,
Spark's buckets) declares a constraint; :func:`check` raises the one
:class:`~ranklens.ParameterError` form that names the option, the constraint and the value
given: ``the 'depth' option must be an integer >= 0 or None; got -1``. (scikit-learn's
``validate_params`` is the model: the constraint is data, not code in each function.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Integral, Real

from .errors import ParameterError

__all__ = ["Boolean", "Choice", "Constraint", "Integer", "Interval", "Number", "Text", "check"]


class Constraint:
    """What a value must be; ``describe()`` completes "the 'x' option must be ...".

    A constraint whose values are also written as text (a measure's parameters in its name,
    ``nDCG(gain=exp2)``) reads them with ``parse``, brings a Python value to its one form
    with ``normalise`` and writes it back with ``format``.
    """

    def accepts(self, value: object) -> bool:
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError

    def parse(self, text: str) -> object:
        """The value ``text`` spells; ValueError when it spells none."""
        raise ValueError(text)

    def normalise(self, value: object) -> object:
        """``value`` in the one form equal values share; TypeError or ValueError when it
        has none."""
        return value

    def format(self, value: object) -> str:
        """``value`` written as ``parse`` reads it."""
        return str(value)


@dataclass(frozen=True)
class Choice(Constraint):
    """One of ``values`` (optionally None)."""

    values: tuple[object, ...]
    none: bool = False

    def accepts(self, value: object) -> bool:
        if value is None:
            return self.none
        # a bool is not a choice among strings, and 1 is not "1"
        return any(type(value) is type(v) and value == v for v in self.values)

    def describe(self) -> str:
        return "one of " + ", ".join(map(str, self.values)) + (" or None" if self.none else "")


@dataclass(frozen=True)
class Integer(Constraint):
    """An integer (not a bool) within ``[low, high]`` (either bound open-ended when None)."""

    low: int | None = None
    high: int | None = None
    none: bool = False

    def accepts(self, value: object) -> bool:
        if value is None:
            return self.none
        if isinstance(value, bool) or not isinstance(value, Integral):
            return False
        v = int(value)
        return (self.low is None or v >= self.low) and (self.high is None or v <= self.high)

    def describe(self) -> str:
        if self.low is not None and self.high is not None:
            text = f"an integer from {self.low} to {self.high}"
        elif self.low == 1:
            text = "a positive integer"
        elif self.low is not None:
            text = f"an integer >= {self.low}"
        elif self.high is not None:
            text = f"an integer <= {self.high}"
        else:
            text = "an integer"
        return text + (" or None" if self.none else "")


@dataclass(frozen=True)
class Number(Constraint):
    """A real number (not a bool, not NaN) in ``[low, high]``, either end open when
    ``open_low`` / ``open_high``, unbounded when None."""

    low: float | None = None
    high: float | None = None
    open_low: bool = False
    open_high: bool = False

    def accepts(self, value: object) -> bool:
        if isinstance(value, bool) or not isinstance(value, Real) or math.isnan(value):
            return False
        value = float(value)
        low = self.low is None or value > self.low or (value == self.low and not self.open_low)
        return low and (self.high is None or value < self.high
                        or (value == self.high and not self.open_high))

    def describe(self) -> str:
        left, right = "(" if self.open_low else "[", ")" if self.open_high else "]"
        if self.low is not None and self.high is not None:
            return f"a number in {left}{self.low:g}, {self.high:g}{right}"
        if self.low is not None:
            return f"a number {'>' if self.open_low else '>='} {self.low:g}"
        if self.high is not None:
            return f"a number {'<' if self.open_high else '<='} {self.high:g}"
        return "a number"


@dataclass(frozen=True)
class Interval(Number):
    """A real number (not a bool, not NaN) strictly between ``low`` and ``high``: a
    :class:`Number` open at both ends, described as the interval it is."""

    open_low: bool = True
    open_high: bool = True

    def describe(self) -> str:
        return f"between {self.low:g} and {self.high:g}"


@dataclass(frozen=True)
class Boolean(Constraint):
    """True or False (not 0 or 1)."""

    def accepts(self, value: object) -> bool:
        return isinstance(value, bool)

    def describe(self) -> str:
        return "True or False"


@dataclass(frozen=True)
class Text(Constraint):
    """A string (optionally None)."""

    none: bool = False

    def accepts(self, value: object) -> bool:
        return isinstance(value, str) or (value is None and self.none)

    def describe(self) -> str:
        return "a string" + (" or None" if self.none else "")


def check(name: str, value: object, constraint: Constraint) -> None:
    """Raise :class:`ParameterError` unless ``constraint`` accepts ``value``.

    Examples
    --------
    >>> check("depth", 5, Integer(0, none=True))
    >>> check("depth", -1, Integer(0, none=True))
    Traceback (most recent call last):
    ...
    ranklens._base.errors.ParameterError: the 'depth' option must be an integer >= 0 or None; got -1
    """
    if not constraint.accepts(value):
        raise ParameterError(
            f"the {name!r} option must be {constraint.describe()}; got {value!r}")
