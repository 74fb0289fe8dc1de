"""The one parser of trec_eval measure parameters.

trec_eval accepts ``-m name.<params>`` (``-m P.5,10``, ``-m ndcg.1=3,2=9``) and prints a
single-value measure given non-default parameters as ``name_<params as typed>``
(``utility_2,-1,0,0``). Both spellings are read here, by the same rules, into registered
measures:

- ``L=G`` pairs with an integer level ``L`` are a gain map (the first pair of a level
  wins); a pair naming a numeric parameter (``p=0.95``) sets it; other pairs are ignored,
  as trec_eval ignores them (so rbp_resid takes rbp's parameters and ignores the gains);
- a list of numbers fills the measure's number-list parameter (11pt_avg's recall points)
  or, one each, its numeric parameters (utility's four coefficients, set_F's beta);
- one integer is a depth cutoff (``dcg.10``).

The spellings differ only in how a number is read: a printed name
(:func:`parse_trec_params`, behind ``ranklens.evaluate(..., ["utility_2,-1,0,0"])``) reads it
as Python does and a typo is a :class:`~ranklens.MeasureError`; ``-m`` parameters
(:func:`command_line_measure`, :func:`command_line_cutoffs`) are read as trec_eval's C code
reads them (``atof``/``atol``: ``P.5x`` is ``P.5``). Errors are :class:`TrecParamError`, a
MeasureError carrying trec_eval's exit status.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from .._base.c_numbers import c_atof, c_atol
from .._base.errors import MeasureError
from .._base.params import Param
from ._registry import REGISTRY, Measure, MeasureDef

__all__ = ["TrecParamError", "command_line_cutoffs", "command_line_measure", "parse_trec_params"]

def _kind(p: Param) -> str | None:
    """The kind of a parameter spelled in a measure's name (every measure's is)."""
    return getattr(p.constraint, "kind", None)


_INT = re.compile(r"^[+-]?[0-9]+$")
_NUMBER_LIST = re.compile(r"^[+-]?[0-9.eE+-]+(,[+-]?[0-9.eE+-]+)*$")

Number = Callable[[str], float]


class TrecParamError(MeasureError):
    """trec_eval parameters that do not parse, with the exit status trec_eval refuses them
    with (2, or 4 for a wrong number of utility coefficients)."""

    def __init__(self, message: str, status: int = 2):
        super().__init__(message)
        self.status = status


def _measure(te: str, defn: MeasureDef, raw: str, number: Number,
             command_line: bool = False) -> Measure:
    """The measure ``te`` with trec_eval parameters ``raw``, numbers read by ``number``.

    On the ``command_line`` (``-m te.raw``) more numbers than a measure has parameters are
    read as trec_eval 10.0 reads them: its parser keeps every value and set_F reads the
    first (``-m set_F.1.0,0.5`` prints ``set_F_1.0,0.5``, F at beta 1.0); utility checks
    its count."""
    kinds = {p.name: _kind(p) for p in defn.params}
    pieces = [p for p in raw.split(",") if p.strip()]
    values: dict[str, Any] = {}
    if any("=" in p for p in pieces):
        gains: dict[float, float] = {}
        for piece in pieces:
            key, eq, value = piece.partition("=")
            key = key.strip()
            if not eq or not value.strip():
                raise TrecParamError(f"malformed pair parameters in '{raw}' (expected "
                                     f"name=value pairs such as 1=3,2=9); cannot initialize "
                                     f"measure '{te}'")
            if _INT.match(key):
                gains.setdefault(float(int(key)), number(value))
            elif kinds.get(key) == "float":
                values.setdefault(key, number(value))
        if gains and "gain" in kinds:
            values["gain"] = tuple(sorted(gains.items()))
        elif gains and not any(kind == "float" for kind in kinds.values()):
            raise TrecParamError(f"'{te}' takes no gain parameters; cannot initialize "
                                 f"measure '{te}'")
        return _built(te, defn, values)
    list_param = next((p for p in defn.params if _kind(p) == "floats"), None)
    float_params = [p for p in defn.params if _kind(p) == "float"]
    int_params = [p for p in defn.params if _kind(p) == "int" and p.name != "rel"]
    if list_param is not None:
        values[list_param.name] = tuple(number(p) for p in pieces)
    elif float_params and len(pieces) == len(float_params):
        values.update((p.name, number(text)) for p, text in zip(float_params, pieces,
                                                                strict=True))
    elif te == "utility":  # trec_eval: too few coefficients exit 4, too many 2
        raise TrecParamError(f"utility takes exactly {len(float_params)} coefficients "
                             f"(a,b,c,d), got {len(pieces)} in '{raw}'",
                             4 if len(pieces) < len(float_params) else 2)
    elif command_line and float_params and len(pieces) > len(float_params):
        firsts = pieces[:len(float_params)]
        values.update((p.name, number(text)) for p, text in zip(float_params, firsts,
                                                                strict=True))
    elif int_params and len(pieces) == 1:
        values[int_params[0].name] = c_atol(pieces[0])
    elif defn.cutoff == "int" and len(pieces) == 1:
        return _built(te, defn, {}, c_atol(pieces[0]))
    else:
        raise TrecParamError(f"cannot use parameters '{raw}' for '{te}'; "
                             f"cannot initialize measure '{te}'")
    return _built(te, defn, values)


def _built(te: str, defn: MeasureDef, values: dict[str, Any],
           cutoff: int | None = None) -> Measure:
    try:
        return Measure(defn.name, tuple(values.items()), cutoff)
    except TrecParamError:
        raise
    except MeasureError as exc:
        raise TrecParamError(f"cannot initialize measure '{te}': {exc}") from None


def command_line_measure(te: str, defn: MeasureDef, raw: str) -> Measure:
    """The measure ``-m te.raw`` names, numbers read as trec_eval reads them.

    Examples
    --------
    >>> from ranklens._measures import REGISTRY
    >>> str(command_line_measure("utility", REGISTRY["Utility"], "2,-1,0,0"))
    'Utility(a=2)'
    >>> str(command_line_measure("ndcg", REGISTRY["nDCG"], "1=3,2=9x"))
    'nDCG(gain=1:3;2:9)'
    >>> str(command_line_measure("set_F", REGISTRY["F"], "0.5,1"))  # trec_eval: the first
    'F(beta2=0.5)'
    """
    return _measure(te, defn, raw, c_atof, command_line=True)


def command_line_cutoffs(te: str, defn: MeasureDef, raw: str | None) -> list[float]:
    """The cutoffs of ``-m te.raw`` (the registry's defaults without ``raw``), sorted.

    Examples
    --------
    >>> from ranklens._measures import REGISTRY
    >>> command_line_cutoffs("P", REGISTRY["P"], "10,5x")
    [5.0, 10.0]
    """
    if raw is None:
        return sorted(defn.trec.cutoffs)
    pieces = raw.split(",")
    if defn.cutoff == "float":
        values = sorted(c_atof(p) for p in pieces)
    else:
        values = sorted(float(c_atol(p)) for p in pieces)
        if any(v <= 0 for v in values):
            raise TrecParamError(f"negative cutoff detected in '{te}.{raw}'; "
                                 f"cannot initialize measure '{te}'")
    if len(set(values)) != len(values):
        raise TrecParamError(f"duplicate cutoffs detected in '{te}.{raw}'; "
                             f"cannot initialize measure '{te}'")
    return values


@functools.cache  # the registry is complete once the measure modules are imported
def _with_raw_params() -> tuple[tuple[str, MeasureDef], ...]:
    """(trec_eval name, definition) of the measures printed ``name_<params>``, longest
    names first (``ideal_dcg`` before ``dcg``, ``rbp_resid`` before ``rbp``)."""
    found = [(d.trec.name, d) for d in REGISTRY.values()
             if d.trec.name and any(_kind(p) in ("gain", "float", "floats") for p in d.params)]
    return tuple(sorted(found, key=lambda item: -len(item[0])))


def _looks_raw(defn: MeasureDef, rest: str) -> bool:
    """Whether ``rest`` is a raw parameter string of ``defn`` (so ``dcg_burges`` is not):
    pairs for any, a number list for a measure without a gain map."""
    if "=" in rest:
        return True
    has_gain = any(_kind(p) == "gain" for p in defn.params)
    return not has_gain and bool(_NUMBER_LIST.match(rest))


def _strict(written: str) -> Number:
    def number(text: str) -> float:
        try:
            return float(text)
        except ValueError:
            raise MeasureError(f"in {written!r}: expected a number, got {text.strip()!r}")\
                from None
    return number


def parse_trec_params(text: str) -> Measure | None:
    """The measure named by ``base_<raw>`` or ``base.<raw>``, or None if it is not one.

    Examples
    --------
    >>> str(parse_trec_params("ndcg_1=3,2=9,4=4.5"))
    'nDCG(gain=1:3;2:9;4:4.5)'
    >>> parse_trec_params("dcg_burges") is None
    True
    """
    for base, defn in _with_raw_params():
        for sep in ("_", "."):
            prefix = base + sep
            rest = text[len(prefix):]
            if text.startswith(prefix) and _looks_raw(defn, rest):
                return _measure(base, defn, rest, _strict(text))
    return None
