"""The one index of measure spellings: the tables that read a spelling as a measure.

Every table is built here, once, when the package is imported, from the registry's
declarations (``MeasureDef.name``, ``aliases``, ``variants``, ``trec``, ``trec_cut``): the
registry is complete by then, since importing :mod:`ranklens._measures` registers every
measure module. The tables hold measure names, never definitions, so a definition replaced
in the registry is read afresh by whoever looks it up.

Three tables, three namespaces:

- ``names``: canonical names, aliases (ranx's ``mrr``, ir_measures' ``P_IA``, ...) and
  variants (ranx's ``ndcg_burges`` = ``nDCG(gain=exp2)``), lower-cased, each to a
  :class:`Reading`;
- ``trec``: trec_eval's name of a measure by itself (``map``, ``set_P``);
- ``trec_cut``: trec_eval's name of a cutoff family (``map_cut``, ``P``).

The collision rule: within a table a spelling has one reading. The same reading may be
declared more than once (``nDCG`` and its alias ``ndcg`` both lower to ``ndcg``); two
different readings of one spelling are an error when the index is built, as a measure name
registered twice is, so no table depends on registration order. One spelling in two tables
is no collision: the parser's order decides between the tables (trec_eval's first, so
``P_5`` is trec_eval's P family; :mod:`ranklens._names.parse`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, TypeVar

from .._measures import REGISTRY, MeasureDef

__all__ = ["SPELLINGS", "Reading", "Spellings", "build"]


@dataclass(frozen=True)
class Reading:
    """What a name in the ``names`` table reads as: a measure and the parameters the name
    fixes (a variant's: ``ndcg_burges`` fixes ``gain=exp2``)."""

    name: str
    fixed: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Spellings:
    """The spelling tables (see the module docstring); build them with :func:`build`.

    Attributes
    ----------
    names : lower-cased canonical name, alias or variant -> its :class:`Reading`.
    trec : trec_eval's name of a measure by itself -> the measure's name.
    trec_cut : trec_eval's name of a cutoff family -> the measure's name.
    trec_longest_first : the names of ``trec``, longest first (for prefix matches).
    """

    names: Mapping[str, Reading]
    trec: Mapping[str, str]
    trec_cut: Mapping[str, str]
    trec_longest_first: tuple[str, ...]

    def reading(self, name: str) -> Reading | None:
        """The reading of a canonical name, alias or variant, in any case; None if none.

        Examples
        --------
        >>> SPELLINGS.reading("NDCG_Burges")
        Reading(name='nDCG', fixed=(('gain', 'exp2'),))
        """
        return self.names.get(name.lower())

    def trec_case(self, name: str, table: Mapping[str, str]) -> str | None:
        """The one name of ``table`` (:attr:`trec` or :attr:`trec_cut`) that ``name`` spells
        in another case (``NDCG_cut`` is ``ndcg_cut``); None if there is none, or several.

        Examples
        --------
        >>> SPELLINGS.trec_case("NDCG_CUT", SPELLINGS.trec_cut), SPELLINGS.trec_case("x", {})
        ('ndcg_cut', None)
        """
        found = [te for te in table if te.lower() == name.lower()]
        return found[0] if len(found) == 1 else None

    def trec_spellings(self) -> Iterator[tuple[str, str]]:
        """Every trec_eval name, of a measure by itself or of a cutoff family, with the
        measure's name (a name in both tables comes once per table)."""
        yield from self.trec.items()
        yield from self.trec_cut.items()

    def trec_prefix(self, text: str) -> str | None:
        """The longest trec_eval name of a measure by itself that ``text`` starts with,
        followed by ``_`` or ``.`` (``set_F`` in ``set_F.1.0,0.5``); None if there is none.

        Examples
        --------
        >>> SPELLINGS.trec_prefix("set_F.1.0,0.5"), SPELLINGS.trec_prefix("ndcg_cut_10")
        ('set_F', 'ndcg')
        """
        return next((te for te in self.trec_longest_first
                     if text.startswith(te) and text[len(te):len(te) + 1] in ("_", ".")),
                    None)


V = TypeVar("V")


def _claim(table: dict[str, V], spelling: str, reading: V, what: str) -> None:
    """Enter ``spelling`` -> ``reading``; the same spelling read otherwise is an error."""
    if table.setdefault(spelling, reading) != reading:
        raise RuntimeError(f"the {what} {spelling!r} names both {table[spelling]} and "
                           f"{reading}: a spelling names one measure")


def build(registry: Mapping[str, MeasureDef]) -> Spellings:
    """The spelling tables of ``registry``, refusing a spelling with two readings.

    Examples
    --------
    >>> from ranklens._measures import REGISTRY
    >>> tables = build(REGISTRY)
    >>> tables.trec["map"], tables.trec_cut["map_cut"], tables.reading("MRR")
    ('AP', 'AP', Reading(name='RR', fixed=()))
    """
    names: dict[str, Reading] = {}
    trec: dict[str, str] = {}
    trec_cut: dict[str, str] = {}
    for name, defn in registry.items():
        _claim(names, name.lower(), Reading(name), "name")
        for alias in defn.aliases:
            _claim(names, alias.lower(), Reading(name), "name")
        for variant, fixed in defn.variants:
            _claim(names, variant.lower(), Reading(name, tuple(fixed)), "name")
        if defn.trec.name:
            _claim(trec, defn.trec.name, name, "trec_eval name")
        if defn.trec.cut:
            _claim(trec_cut, defn.trec.cut, name, "trec_eval cutoff family")
    return Spellings(MappingProxyType(names), MappingProxyType(trec),
                     MappingProxyType(trec_cut), tuple(sorted(trec, key=len, reverse=True)))


#: The tables of the registry, built once: every reader of spellings uses these.
SPELLINGS = build(REGISTRY)
