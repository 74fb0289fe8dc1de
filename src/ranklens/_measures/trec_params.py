"""The one parser of trec_eval measure parameters.

trec_eval accepts ``-m name.<params>`` (``-m P.5,10``, ``-m ndcg.1=3,2=9``) and prints a
single-value measure given non-default parameters as ``name_<params as typed>``
(``utility_2,-1,0,0``). Both spellings parse here into registered measures:

- :func:`parse_trec_params` reads a printed name (``ranklens.evaluate(..., ["utility_2,-1,0,0"])``),
  numbers strictly as Python reads them: a typo is a :class:`~ranklens.MeasureError`.
- :func:`command_line_measure` and :func:`command_line_cutoffs` read ``-m`` parameters as
  trec_eval's C code does (``atof``/``atol``: ``P.5x`` is ``P.5``), for ``ranklens trec_eval``.
  Their errors carry trec_eval's exit status (:class:`TrecParamError`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .._errors import MeasureError
from .._io._lines import c_atof, c_atol
from ._registry import Measure, MeasureDef

__all__ = ["TrecParamError", "command_line_cutoffs", "command_line_measure", "parse_trec_params"]

_INT = re.compile(r"^[+-]?[0-9]+$")


def _numbers(raw: str, written: str) -> list[float]:
    try:
        return [float(p) for p in raw.split(",") if p.strip()]
    except ValueError:
        raise MeasureError(f"in {written!r}: expected comma-separated numbers, got {raw!r}")\
            from None


def _pairs(raw: str, written: str) -> list[tuple[str, float]]:
    out = []
    for part in raw.split(","):
        key, eq, value = part.partition("=")
        try:
            if not eq:
                raise ValueError(part)
            out.append((key.strip(), float(value)))
        except ValueError:
            raise MeasureError(f"in {written!r}: expected name=value pairs such as 1=3,2=9, "
                               f"got {part!r}") from None
    return out


def _gain_params(raw: str, written: str, extra: tuple[str, ...] = ()) -> dict[str, Any]:
    """``L=G`` pairs become a gain map (trec_eval ignores pairs whose L is not an integer,
    except the named ones in ``extra`` such as rbp's ``p``)."""
    params: dict[str, Any] = {}
    gains: dict[float, float] = {}
    for key, value in _pairs(raw, written):
        if key in extra:
            params.setdefault(key, value)
        elif _INT.match(key):
            gains.setdefault(float(int(key)), value)
    if gains:
        params["gain"] = tuple(sorted(gains.items()))
    return params


def _utility(raw: str, written: str) -> dict[str, Any]:
    coeffs = _numbers(raw, written)
    if len(coeffs) != 4:
        raise MeasureError(f"in {written!r}: utility takes exactly 4 coefficients "
                           f"(a,b,c,d), got {len(coeffs)}")
    return dict(zip(("a", "b", "c", "d"), coeffs, strict=True))


def _points(raw: str, written: str) -> dict[str, Any]:
    points = _numbers(raw, written)
    if not points:
        raise MeasureError(f"in {written!r}: 11pt_avg needs at least one recall level")
    return {"points": tuple(points)}


def _beta(raw: str, written: str) -> dict[str, Any]:
    values = _numbers(raw, written)
    if len(values) != 1:
        raise MeasureError(f"in {written!r}: set_F takes one parameter, got {raw!r}")
    return {"beta2": values[0]}


_Parser = Callable[[str, str], dict[str, Any]]


def _gains(raw: str, written: str) -> dict[str, Any]:
    return _gain_params(raw, written)


def _rbp(raw: str, written: str) -> dict[str, Any]:
    return _gain_params(raw, written, extra=("p",))


def _p_only(raw: str, written: str) -> dict[str, Any]:
    return {k: v for k, v in _gain_params(raw, written, extra=("p",)).items() if k == "p"}


# trec_eval base name -> (registered measure, parameter translation); longest bases first
_RAW: dict[str, tuple[str, _Parser]] = {
    "ideal_dcg": ("IdealDCG", _gains),
    "rbp_resid": ("RBPResid", _p_only),
    "ndcg_rel": ("nDCGRel", _gains),
    "11pt_avg": ("IPrecAvg", _points),
    "utility": ("Utility", _utility),
    "Rndcg": ("RnDCG", _gains),
    "set_F": ("F", _beta),
    "ndcg": ("nDCG", _gains),
    "dcg": ("DCG", _gains),
    "rbp": ("RBP", _rbp),
    "G": ("G", _gains),
}


_NUMBER_LIST = re.compile(r"^[+-]?[0-9.eE+-]+(,[+-]?[0-9.eE+-]+)*$")


def _looks_raw(parser: _Parser, rest: str) -> bool:
    """Whether ``rest`` is a raw parameter string for ``parser`` (so ``dcg_burges`` is not)."""
    if parser in (_utility, _points, _beta):
        return bool(_NUMBER_LIST.match(rest))
    return "=" in rest


def parse_trec_params(text: str) -> Measure | None:
    """The measure named by ``base_<raw>`` or ``base.<raw>``, or None if it is not one."""
    for base, (name, parser) in _RAW.items():
        for sep in ("_", "."):
            prefix = base + sep
            rest = text[len(prefix):]
            if text.startswith(prefix) and _looks_raw(parser, rest):
                params = parser(rest, text)
                return Measure(name, tuple(params.items()))
    return None


class TrecParamError(MeasureError):
    """A ``-m name.<params>`` trec_eval refuses, with the exit status it refuses it with."""

    def __init__(self, message: str, status: int = 2):
        super().__init__(message)
        self.status = status


def command_line_cutoffs(te: str, defn: MeasureDef, raw: str | None) -> list[float]:
    """The cutoffs of ``-m te.raw`` (the registry's defaults without ``raw``), sorted.

    Examples
    --------
    >>> from ranklens._measures import REGISTRY
    >>> command_line_cutoffs("P", REGISTRY["P"], "10,5x")
    [5.0, 10.0]
    """
    if raw is None:
        return sorted(defn.trec_cutoffs)
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


def command_line_measure(te: str, defn: MeasureDef, raw: str) -> Measure:
    """The measure ``-m te.raw`` names: ``L=G`` gains, ``p=0.95``, numbers or a cutoff.

    Examples
    --------
    >>> from ranklens._measures import REGISTRY
    >>> str(command_line_measure("utility", REGISTRY["Utility"], "2,-1,0,0"))
    'Utility(a=2)'
    """
    kinds = {p.name: p.kind for p in defn.params}
    values: dict[str, Any] = {}
    pieces = [p for p in raw.split(",") if p != ""]
    try:
        if any("=" in p for p in pieces):
            gains = []
            for piece in pieces:
                key, eq, value = piece.partition("=")
                if not eq or not value:
                    raise TrecParamError(f"malformed pair parameters in '{raw}'; "
                                         f"cannot initialize measure '{te}'")
                if _INT.match(key):
                    gains.append((float(key), c_atof(value)))
                elif key in kinds:
                    values[key] = c_atof(value) if kinds[key] == "float" else value
            if gains:
                if "gain" not in kinds:
                    raise TrecParamError(f"'{te}' takes no gain parameters")
                values["gain"] = tuple(sorted(gains))
            return Measure(defn.name, tuple(values.items()))
        floats_param = next((p for p in defn.params if p.kind == "floats"), None)
        float_params = [p for p in defn.params if p.kind == "float"]
        int_params = [p for p in defn.params if p.kind == "int" and p.name != "rel"]
        if floats_param is not None:
            values[floats_param.name] = tuple(c_atof(p) for p in pieces)
        elif float_params and len(pieces) <= len(float_params):
            if te == "utility" and len(pieces) != len(float_params):
                raise TrecParamError(f"utility needs {len(float_params)} parameters, "
                                     f"got '{raw}'", 4)
            for p, text in zip(float_params, pieces, strict=False):
                values[p.name] = c_atof(text)
        elif int_params and len(pieces) == 1:
            values[int_params[0].name] = c_atol(pieces[0])
        elif defn.cutoff == "int" and len(pieces) == 1:
            return Measure(defn.name, (), c_atol(pieces[0]))
        else:
            raise TrecParamError(f"cannot use parameters '{raw}' for '{te}'; "
                                 f"cannot initialize measure '{te}'")
        return Measure(defn.name, tuple(values.items()))
    except TrecParamError:
        raise
    except MeasureError as exc:
        raise TrecParamError(f"cannot initialize measure '{te}': {exc}") from None
