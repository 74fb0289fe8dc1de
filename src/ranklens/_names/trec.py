"""trec_eval's spellings of one measure: ``map``, ``P_5``, ``ndcg_cut.10``, ``utility_2,-1,0,0``.

trec_eval names a measure by itself (``map``, ``set_P``: the ``trec`` table of
:data:`~ranklens._names.index.SPELLINGS`), a cutoff family at a cutoff (``P_5``, ``P.5``,
``iprec_at_recall_0.10``: the ``trec_cut`` table), or a measure with its raw parameters as
trec_eval prints them (``ndcg_1=3,2=9``, read by
:func:`ranklens._measures.trec_params.parse_trec_params`, the one parser of trec_eval
parameters). Lists of measures (``P_5,10``, nicknames) are :mod:`ranklens._names.lists`.
"""

from __future__ import annotations

import re

from .._base.errors import MeasureError
from .._measures import REGISTRY, Measure
from .._measures._registry import MAX_CUTOFF
from .._measures.trec_params import parse_trec_params
from .canonical import cutoff_value
from .index import SPELLINGS

__all__ = ["P_READINGS", "averaged_over_groups", "cutoff_name", "missing_cutoff",
           "one_per_value", "parse_trec", "with_p_readings"]

_CUT_AT = re.compile(r"^([A-Za-z_]+?)_(\d*\.?\d+)$")
_VALUES = re.compile(r"^[^,=]+(?:,[^,=]+)+$")
_P_FAMILY = re.compile(r"^\s*P[_.](?![A-Z])")
_GROUPS = "_avgjg"

# which reading of P applies: docs/conventions.md, "trec_eval's spellings"
P_READINGS = ("P_k (P.k, P_5,10) is trec_eval's P family, precision at cutoff k, e.g. P_5 "
              "or P@5; P alone is ranklens's P, trec_eval's set_P (precision of everything "
              "retrieved)")


def parse_trec(text: str) -> Measure | None:
    """The measure a trec_eval name means, or None when ``text`` is not one.

    Examples
    --------
    >>> parse_trec("ndcg_cut.10"), parse_trec("iprec_at_recall_0.10"), parse_trec("mrr")
    (nDCG@10, IPrec@0.1, None)
    """
    plain, cut = SPELLINGS.trec, SPELLINGS.trec_cut
    if text in plain:
        return Measure(plain[text])
    for sep in ("_", "."):
        # trec_eval splits "name.params" at the first dot: iprec_at_recall.0.5
        base, s, rest = text.partition(sep) if sep == "." else text.rpartition(sep)
        if not s:
            continue
        # iprec_at_recall_0.10 / Rprec_mult_0.20: the cutoff itself contains a dot
        if sep == "." and base.endswith(("_0", "_1")):
            continue
        if base in cut and rest and "," not in rest:
            name = cut[base]
            return Measure(name, (), cutoff_value(rest, name))
    m = _CUT_AT.match(text)
    if m and m.group(1) in cut:
        name = cut[m.group(1)]
        return Measure(name, (), cutoff_value(m.group(2), name))
    # utility_2,-1,0,0 / ndcg_1=3,2=9 / 11pt_avg_.25,.5 / rbp_p=0.95: raw trec_eval params
    try:
        return parse_trec_params(text)
    except MeasureError as exc:
        _one_value_per_measure(text, exc)
        raise


def one_per_value(text: str) -> tuple[str, str, list[str]] | None:
    """``(trec name, measure, values)`` when ``text`` is a comma list after the trec_eval
    name of a measure whose registry entry reads such a list as one measure per value
    (``trec_comma="measures"``: ``set_F.1.0,0.5``); else None (``utility_2,-1,0,0`` is one
    measure's parameters)."""
    te = SPELLINGS.trec_prefix(text)
    if te is None or REGISTRY[SPELLINGS.trec[te]].trec.comma != "measures":
        return None
    rest = text[len(te) + 1:]
    if not _VALUES.match(rest):
        return None
    return te, SPELLINGS.trec[te], rest.split(",")


def _one_value_per_measure(text: str, exc: MeasureError) -> None:
    """Say that ``set_F.1.0,0.5`` is several measures, which one name cannot parse into."""
    listed = one_per_value(text)
    if listed is None:
        return
    te, name, values = listed
    param = next(p.name for p in REGISTRY[name].params
                 if getattr(p.constraint, "kind", None) == "float")
    raise MeasureError(
        f"{text!r} names several measures, {te} at each {param} "
        f"({', '.join(f'{te}_{v}' for v in values)}): ranklens.evaluate and "
        f"`ranklens evaluate -m` read it so, and parse_measure reads one measure; write "
        f"{', '.join(f'{te}_{v}' for v in values)} "
        f"or {', '.join(f'{name}({param}={v})' for v in values)}"
    ) from exc


def with_p_readings(spec: str, exc: MeasureError) -> MeasureError | None:
    """``exc`` saying which reading of P applies, when ``spec`` looks like trec_eval's P
    family (``P``: the one name with two trec_eval readings); else None."""
    if _P_FAMILY.match(spec):
        return MeasureError(f"{exc}; {P_READINGS}")
    return None


def missing_cutoff(name: str, written: str) -> MeasureError | None:
    """The error for a cutoff family named without its cutoff (``ndcg_cut``), or None when
    ``name`` is no family's trec_eval name (``written`` is the name as given)."""
    family = SPELLINGS.trec_cut.get(name)
    if family is None:
        return None
    defn = REGISTRY[family]
    example = defn.trec.cutoffs[:1] or (10,)
    k = f"{example[0]:.2f}" if defn.cutoff == "float" else int(example[0])
    return MeasureError(f"{written!r} needs a cutoff, e.g. {name}_{k} or {family}@{k}")


def cutoff_name(te: str, name: str, cutoff: float) -> str:
    """How trec_eval prints ``te`` (a cutoff family of measure ``name``) at ``cutoff``.

    Examples
    --------
    >>> cutoff_name("P", "P", 10.0), cutoff_name("iprec_at_recall", "IPrec", 0.1)
    ('P_10', 'iprec_at_recall_0.10')
    """
    if REGISTRY[name].cutoff == "float":
        return f"{te}_{cutoff:.2f}"
    if cutoff > MAX_CUTOFF:  # not a name of a float's digits (P_1000000000000000000000)
        raise MeasureError(f"the cutoff of {te} must be at most {MAX_CUTOFF} (2**31 - 1), "
                           f"got {cutoff}")
    return f"{te}_{int(cutoff)}"


def averaged_over_groups(te: str) -> tuple[str, bool]:
    """The measure a judgment-group measure averages (trec_eval's ``<name>_avgjg`` is
    ``<name>`` averaged over a topic's judgment groups), and whether ``<name>`` is a
    cutoff family (printed at its cutoffs).

    Examples
    --------
    >>> averaged_over_groups("map_avgjg"), averaged_over_groups("P_avgjg")
    (('AP', False), ('P', True))
    """
    base = te.removesuffix(_GROUPS)
    if base != te and base in SPELLINGS.trec_cut:
        return SPELLINGS.trec_cut[base], True
    if base != te and base in SPELLINGS.trec:
        return SPELLINGS.trec[base], False
    raise MeasureError(f"{te!r} is no judgment-group measure (<trec_eval name>{_GROUPS})")
