"""trec_eval 10.0's measure table: output order, nicknames, and which measures are marked.

Output order is always the order of trec_eval's measure table (``te_trec_measures`` in
``measures.c``), whatever the order of the request. Which ranklens measure computes each
name, and how trec_eval prints it, comes from the registry (``MeasureDef.trec``, a
``TrecSpelling``: ``name``, ``cut``, ``integer``, ...), or, for the preference measures,
from their own registry (:data:`ranklens._measures._prefs.PREF_REGISTRY`); the
judgment-group measures are described in ``qrels_jg``. The order and the nicknames
themselves are data shared with ``ranklens.evaluate``
(:mod:`ranklens._measures._trec_table`, read there by :mod:`ranklens._names.lists`).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..._measures import REGISTRY
from ..._measures._trec_table import JG, NICKNAMES, ORDER, PREFS
from ..._names import suggest
from ..._names.index import SPELLINGS
from .options import TrecEvalError

__all__ = ["JG", "NICKNAMES", "NO_SUMMARY", "ORDER", "PREFS", "select_measures"]

#: trec_eval names printed per query only: a measure whose value is text (``relstring``)
#: has no average, so no summary line
NO_SUMMARY = frozenset(te for te, name in SPELLINGS.trec_spellings() if REGISTRY[name].text)


def select_measures(requests: Iterable[str]) -> list[tuple[str, str | None]]:
    """(trec_eval name, raw parameters or None) of every requested measure, in table order.

    Each request is what ``-m`` takes: a name (``map``), a nickname (``official``) or a name
    with parameters (``P.5,10``). A measure requested twice keeps its first parameters,
    as trec_eval does.

    Examples
    --------
    >>> select_measures(["P.5,10", "map", "num_q"])
    [('num_q', None), ('map', None), ('P', '5,10')]
    """
    marked: set[str] = set()
    unknown: list[str] = []
    first: dict[str, str] = {}
    for request in requests:
        name, dot, raw = request.partition(".")
        if dot:
            if not raw:
                raise TrecEvalError(f"improper measure in parameter '{name}'; "
                                    f"illegal measure '{request}'", 1)
            first.setdefault(name, raw)
        if name in NICKNAMES:
            marked.update(NICKNAMES[name])
        elif name in ORDER:
            marked.add(name)
        else:
            unknown.append(name)
    if unknown:
        raise TrecEvalError("; ".join(
            f"illegal measure '{u}'; did you mean {suggest(u)}?" for u in unknown), 1)
    return [(name, first.get(name)) for name in ORDER if name in marked]
