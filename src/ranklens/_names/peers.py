"""Other libraries' spellings: their bare names, and ranx's relevance-level suffix.

Their bare names (ranx's ``mrr``, ``hit_rate``, ``ndcg_burges``; ir_measures' ``P_IA``,
``StRecall``) are each measure's ``aliases`` and ``variants``, declared with the measure and
read case-insensitively through :data:`~ranklens._names.index.SPELLINGS`. What is left is
grammar: ranx writes a relevance level as a suffix, ``map@100-l2`` = ``AP(rel=2)@100``.
"""

from __future__ import annotations

import re

from .._base.errors import MeasureError
from .._measures import REGISTRY
from .index import Reading

__all__ = ["split_level", "with_level"]

_RANX_LEVEL = re.compile(r"^(.*?)-l(\d+)$")


def split_level(text: str) -> tuple[str, str | None]:
    """``text`` without ranx's ``-l<level>`` suffix, and the level (None without one).

    A name with a parameter list keeps its text: there ``rel=`` says it.

    Examples
    --------
    >>> split_level("map@100-l2"), split_level("nDCG(rel=2)@10")
    (('map@100', '2'), ('nDCG(rel=2)@10', None))
    """
    match = _RANX_LEVEL.match(text)
    if match is None or "(" in text:
        return text, None
    return match.group(1), match.group(2)


def with_level(reading: Reading, level: str, written: str) -> Reading:
    """``reading`` with ranx's relevance level ``level`` as its ``rel`` (``written`` is the
    name as given, for the error when the measure takes no ``rel``)."""
    if not any(p.name == "rel" for p in REGISTRY[reading.name].params):
        raise MeasureError(
            f"{written!r}: the -l{level} suffix sets a relevance level, which {reading.name} "
            "does not take (graded measures use the grades themselves)"
        )
    return Reading(reading.name, tuple(dict(reading.fixed, rel=int(level)).items()))
