"""Read a measure name: which spelling it is, in which order the spellings are tried.

A name is read as trec_eval's (``map``, ``P_5``, ``ndcg_1=3,2=9``: :mod:`.trec`) if it is
one, else in the canonical grammar (``nDCG(gain=exp2)@10``: :mod:`.canonical`), whose
name part may be a canonical name, an alias or a variant (``mrr``, ``ndcg_burges``) and
may carry ranx's relevance level (``map@100-l2``: :mod:`.peers`). Every table comes from
:data:`~ranklens._names.index.SPELLINGS`.
"""

from __future__ import annotations

import re

from .._base.errors import MeasureError
from .._measures import Measure
from .._measures._registry import known_names, suggest
from .canonical import Parsed, build, split
from .index import SPELLINGS
from .peers import split_level, with_level
from .trec import missing_cutoff, parse_trec, with_p_readings

__all__ = ["all_names", "parse_measure", "read", "written_params"]


def parse_measure(spec: str | Measure) -> Measure:
    """Parse one measure name into a :class:`Measure`.

    Accepts canonical names (``nDCG@10``, ``AP(rel=2)``, ``nDCG(gain=exp2,discount=jk)@5``),
    trec_eval names (``map``, ``map_cut_10``, ``ndcg_cut.10``, ``P_5``,
    ``iprec_at_recall_0.10``) and ranx names (``map@10``, ``ndcg_burges@10``, ``mrr``,
    ``hit_rate@5``, ``r-precision``, ``precision@10-l2``).

    Examples
    --------
    >>> parse_measure("ndcg_cut_10")
    nDCG@10
    >>> parse_measure("map@100-l2")
    AP(rel=2)@100
    """
    if isinstance(spec, Measure):
        return spec
    if not isinstance(spec, str):
        raise MeasureError(f"a measure must be a name or a Measure, got {type(spec).__name__}")
    return read(spec).measure


def read(spec: str) -> Parsed:
    """``spec`` parsed: the measure, and which parameters the name sets (see
    :class:`~ranklens._names.canonical.Parsed`).

    Examples
    --------
    >>> parsed = read("AP(denom=rel)@10")
    >>> parsed.measure, sorted(parsed.written)
    (AP@10, ['denom'])
    """
    try:
        return _read(spec)
    except MeasureError as exc:
        cased = _trec_cased(spec)
        if cased is not None:
            return _read(cased)
        swapped = _cutoff_last(spec)
        if swapped is not None:
            raise MeasureError(swapped) from None
        hinted = with_p_readings(spec, exc)
        if hinted is None:
            raise
        raise hinted from None


# a trec_eval name and its cutoff or parameters: NDCG_cut_10, iprec_at_recall_0.10, P.5
_TREC_AT = re.compile(r"^([A-Za-z_]+?)([._][\d.,]+)?$")


def _trec_cased(spec: str) -> str | None:
    """``spec`` with its trec_eval name in trec_eval's case (``NDCG_cut_10``:
    ``ndcg_cut_10``), when exactly one name matches and the result parses; else None."""
    match = _TREC_AT.match(spec.strip())
    if match is None:
        return None
    base, rest = match.group(1), match.group(2) or ""
    name = SPELLINGS.trec_case(base, SPELLINGS.trec_cut if rest else SPELLINGS.trec)
    if name is None or name == base:
        return None
    try:
        _read(name + rest)
    except MeasureError:
        return None
    return name + rest


# nDCG@10(gain=exp2): the cutoff written before the parameters
_CUTOFF_FIRST = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_\-]*)\s*@\s*([^@\s()]+)\s*\((.*)\)\s*$")


def _cutoff_last(spec: str) -> str | None:
    """The error for ``spec`` written with its cutoff before its parameters
    (``nDCG@10(gain=exp2)``): the spelling meant (``nDCG(gain=exp2)@10``) and, if that
    fails too, why; None when ``spec`` is not written so."""
    match = _CUTOFF_FIRST.match(spec)
    if match is None:
        return None
    name, cutoff, params = match.groups()
    swapped = f"{name}({params})@{cutoff}"
    hint = f"cannot parse measure {spec!r}; did you mean {swapped}? " \
           "(the cutoff comes after the parameters)"
    try:
        _read(swapped)
    except MeasureError as exc:
        return f"{hint}; {swapped}: {exc}"
    return hint


def written_params(spec: str | Measure) -> frozenset[str]:
    """The parameters a measure name sets, even those it sets to their default (a
    :class:`Measure`'s are those it holds).

    Examples
    --------
    >>> sorted(written_params("nDCG(gain=linear,ideal=qrels)@10"))
    ['gain', 'ideal']
    """
    if isinstance(spec, Measure):
        return frozenset(key for key, _ in spec.params)
    return read(spec).written


def _read(spec: str) -> Parsed:
    text = spec.strip()
    if not text:
        raise MeasureError("empty measure name")
    try:
        found = parse_trec(text)
    except MeasureError:
        # a registered alias that only looks like a trec_eval name (ir_measures' P_IA@10
        # is not P at cutoff "IA@10") is read as the alias
        named = split(text)
        if named is None or SPELLINGS.reading(named.name) is None:
            raise
        found = None
    if found is not None:
        return Parsed(found, frozenset(key for key, _ in found.params))
    text, level = split_level(text)
    named = split(text)
    if named is None:
        raise MeasureError(f"cannot parse measure {spec!r}; expected Name(param=value,...)@k, "
                           f"e.g. nDCG(gain=exp2)@10")
    reading = SPELLINGS.reading(named.name)
    if reading is None:
        raise (missing_cutoff(named.name, spec)
               or MeasureError(f"unknown measure {spec!r}; did you mean {suggest(text)}?"))
    if level is not None:
        reading = with_level(reading, level, spec)
    return build(reading, named, spec)


def all_names() -> list[str]:
    """Every accepted bare name: canonical, aliases, variants and trec_eval names."""
    return known_names()
