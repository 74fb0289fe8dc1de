"""trec_eval names that carry raw parameters: ``utility_2,-1,0,0``, ``ndcg_1=3,2=9,4=4.5``.

trec_eval prints a single-value measure given non-default parameters as
``name_<params as typed>`` and accepts ``-m name.<params>``; both spellings parse here into
the registered measure with the equivalent ranklens parameters.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .._errors import MeasureError
from ._registry import Measure

__all__ = ["parse_trec_params"]

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
