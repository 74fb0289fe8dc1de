"""The canonical grammar, ``Name(param=value,...)@k``, and the measure a name builds.

This is the one parser of parameters written in a name: what a name sets is read here and
recorded in :class:`Parsed` (:attr:`Parsed.written`), which conventions consult to leave a
written parameter alone (``AP(denom=rel)@10`` keeps ``rel`` under ``convention="kaggle"``,
though ``rel`` is the default and the :class:`~ranklens.Measure` drops it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .._base.errors import MeasureError
from .._measures import REGISTRY, Measure
from .._measures._registry import MAX_CUTOFF
from .index import Reading

__all__ = ["Named", "Parsed", "build", "cutoff_value", "split"]

_CANONICAL = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_\-]*)\s*(?:\((.*)\))?\s*(?:@\s*([^@\s]+))?\s*$")


@dataclass(frozen=True)
class Named:
    """A name in the canonical grammar, split but not read: ``nDCG(gain=exp2)@10`` is
    ``Named("nDCG", "gain=exp2", "10")``. The parameter list is read by :func:`build`,
    once the name is known to be a measure's."""

    name: str
    params: str | None
    cutoff: str | None


@dataclass(frozen=True)
class Parsed:
    """A parsed measure name: the measure, and every parameter the name sets.

    ``written`` holds the parameters the name sets whatever their value: those in its
    parameter list (even at their default, which ``measure`` drops) and those its
    spelling fixes (a variant's, ranx's ``-l2``). Of trec_eval's raw parameters
    (``ndcg_1=3,2=9``) it holds those ``measure`` keeps: read, they cannot be told from
    the defaults.
    """

    measure: Measure
    written: frozenset[str] = frozenset()


def split(text: str) -> Named | None:
    """``text`` split as ``Name(params)@k``, or None when it does not have that shape.

    Examples
    --------
    >>> split("nDCG(gain=exp2)@10")
    Named(name='nDCG', params='gain=exp2', cutoff='10')
    >>> split("P@5@6") is None
    True
    """
    match = _CANONICAL.match(text)
    if match is None:
        return None
    name, params, cutoff = match.groups()
    return Named(name, params, cutoff)


def _pairs(text: str) -> list[tuple[str, str]]:
    out = []
    for part in text.split(","):
        if not part.strip():
            continue
        key, eq, value = part.partition("=")
        if not eq:
            raise MeasureError(f"expected name=value in parameter list, got {part.strip()!r}")
        out.append((key.strip(), value.strip()))
    return out


def cutoff_value(text: str, name: str) -> int | float:
    """The cutoff ``text`` of measure ``name``: an int for a rank depth, else a float."""
    integral = REGISTRY[name].cutoff == "int"
    if integral and text.isdigit():  # exactly as written, however many digits
        return int(text)
    try:
        value = float(text)
    except ValueError:
        raise MeasureError(f"the cutoff of {name} must be a number, got {text!r}") from None
    # a float past the bound stays one, for the measure's bound check to print as written
    return int(value) if value.is_integer() and integral and value <= MAX_CUTOFF else value


def build(reading: Reading, named: Named, written: str) -> Parsed:
    """The measure ``reading`` with ``named``'s parameters and cutoff (a parameter in the
    list overrides one the spelling fixes); ``written`` is the name as given, for errors.

    Examples
    --------
    >>> parsed = build(Reading("AP"), Named("AP", "denom=rel", "10"), "AP(denom=rel)@10")
    >>> parsed.measure, sorted(parsed.written)
    (AP@10, ['denom'])
    """
    name = reading.name
    defn = REGISTRY[name]
    params = dict(reading.fixed)
    if named.params:
        for key, value in _pairs(named.params):
            try:
                param = defn.param(key)
            except MeasureError as exc:
                raise MeasureError(f"in {written!r}: {exc}") from None
            params[key] = param.parse(value, name)
    cutoff = cutoff_value(named.cutoff, name) if named.cutoff is not None else None
    return Parsed(Measure(name, tuple(params.items()), cutoff), frozenset(params))
