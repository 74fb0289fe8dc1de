"""trec_eval's spellings of several measures: ``P_5,10``, ``set_F.1.0,0.5``, ``official``.

``ranklens.evaluate`` and ``ranklens evaluate -m`` expand each into the one-measure names
it stands for before parsing them. The nicknames and trec_eval's output order are the data
of :mod:`ranklens._measures._trec_table`, shared with ``ranklens trec_eval``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .._base.errors import MeasureError
from .._measures import REGISTRY, Measure
from .._measures._sets import expand_set
from .._measures._trec_table import NICKNAMES, ORDER
from .index import SPELLINGS
from .parse import parse_measure, read
from .trec import cutoff_name, one_per_value

__all__ = ["expand_trec_lists", "names_in", "parse_measures", "split_names"]

_TREC_LIST = re.compile(r"^([A-Za-z_]\w*?)[._](\d*\.?\d+(?:,\d*\.?\d+)+)$")


def split_names(text: str) -> list[str]:
    """``text`` split into names at whitespace outside parentheses, as ir_measures' command
    line reads ``-m "nDCG@10 AP P@5"`` (a name holds no space but, perhaps, within its
    parameter list); a blank ``text`` gives no name.

    Examples
    --------
    >>> split_names("nDCG@10 AP  nDCG(gain=exp2, discount=jk)@5")
    ['nDCG@10', 'AP', 'nDCG(gain=exp2, discount=jk)@5']
    """
    out: list[str] = []
    depth, name = 0, ""
    for char in text + " ":
        if char.isspace() and depth <= 0:
            if name:
                out.append(name)
            name = ""
            continue
        depth += (char == "(") - (char == ")")
        name += char
    return out


def names_in(text: str) -> list[str]:
    """The measure names ``text`` holds, read alike in Python and on the command line:
    ``text`` itself when it reads as one name (``nDCG @ 10``, ``AP (rel=2)``), else
    :func:`split_names`.

    Examples
    --------
    >>> names_in("nDCG@10 AP"), names_in("nDCG @ 10")
    (['nDCG@10', 'AP'], ['nDCG @ 10'])
    """
    names = split_names(text)
    if len(names) > 1:
        try:
            read(text)
        except MeasureError:
            return names
        return [text]
    return names


def _expand_nickname(nickname: str) -> list[str | Measure]:
    """The names trec_eval prints for ``-m nickname``, in its output order.

    A member that is a measure by itself (``map``, ``set_P``, ``relstring``) stays as it
    is; a cutoff family (``P``, ``recall``, ``success``, ``ndcg_cut``) gives trec_eval's
    default cutoffs, as trec_eval prints them (``P_5`` ... ``P_1000``: in a nickname ``P``
    is trec_eval's P family, never ranklens's ``P``). ``runid`` is a label, not a value.
    """
    plain, cut = SPELLINGS.trec, SPELLINGS.trec_cut
    members = set(NICKNAMES[nickname]) - {"runid"}
    out: list[str | Measure] = []
    unsupported: list[str] = []
    for te in ORDER:
        if te not in members:
            continue
        if te in plain:
            out.append(te)
        elif te in cut and REGISTRY[cut[te]].trec.cutoffs:
            out.extend(cutoff_name(te, cut[te], c) for c in REGISTRY[cut[te]].trec.cutoffs)
        else:
            unsupported.append(te)
    if unsupported:
        raise MeasureError(
            f"trec_eval's nickname {nickname!r} names measures that ranklens.evaluate does "
            f"not compute ({', '.join(unsupported[:3])}"
            f"{', ...' if len(unsupported) > 3 else ''}): they need trec_eval's preference or "
            f"judgment-group qrels; use `ranklens trec_eval -m {nickname}` "
            f"(ranklens.trec_eval) for them"
        )
    return out


def expand_trec_lists(spec: str | Measure) -> list[str | Measure]:
    """The one-measure names a trec_eval ``-m`` list spelling stands for.

    ``P_5,10`` and ``ndcg_cut.5,10`` (a cutoff family with several cutoffs) give one name
    per cutoff (``P_5``, ``P_10``); a comma list after the trec_eval name of a measure whose
    registry entry says so (``trec_comma="measures"``) gives one name per value
    (``set_F.1.0,0.5``: ``set_F_1.0``, ``set_F_0.5``), while for every other measure it is
    that one measure's parameters (``utility_2,-1,0,0``); a bare cutoff family that is no
    measure by itself (``ndcg_cut``, ``map_cut``) gives trec_eval's default cutoffs.
    Anything else is returned as it is. ``P`` alone stays ranklens's ``P`` (precision of everything
    retrieved, trec_eval's ``set_P``): write ``P_5,10,15,20,30,100,200,500,1000`` for
    trec_eval's P family.

    trec_eval's nicknames (``official``, ``set``, ``all_trec``) give the names trec_eval
    prints for them, in its output order; there ``P`` is trec_eval's P family (``P_5`` ...
    ``P_1000``), as in trec_eval. ``prefs``, ``all_prefs`` and ``qrels_jg`` need
    trec_eval's own qrels formats: a :class:`~ranklens.MeasureError` points to
    ``ranklens trec_eval``.

    Examples
    --------
    >>> expand_trec_lists("P_5,10")
    ['P_5', 'P_10']
    >>> expand_trec_lists("set_F.1.0,0.5")
    ['set_F_1.0', 'set_F_0.5']
    >>> expand_trec_lists("utility_2,-1,0,0")
    ['utility_2,-1,0,0']
    >>> expand_trec_lists("map_cut")[:3]
    ['map_cut_5', 'map_cut_10', 'map_cut_15']
    >>> expand_trec_lists("official")[:6]
    ['num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'map', 'gm_map']
    """
    if not isinstance(spec, str):
        return [spec]
    names = names_in(spec)
    if len(names) > 1:  # "nDCG@10 AP", as the command line reads it
        return [m for name in names for m in expand_trec_lists(name)]
    text = spec.strip()
    if text in NICKNAMES:
        return _expand_nickname(text)
    if (members := expand_set(text)) is not None:  # BEIR, MTEB, TREC-RAG
        return list(members)
    cut = SPELLINGS.trec_cut
    listed = _TREC_LIST.match(text)
    base = listed and (listed.group(1) if listed.group(1) in cut
                       else SPELLINGS.trec_case(listed.group(1), cut))
    if listed and base:
        return [cutoff_name(base, cut[base], float(v)) for v in listed.group(2).split(",")]
    per_value = one_per_value(text)
    if per_value is not None:  # set_F.1.0,0.5: the registry says one measure per value
        te, _, values = per_value
        return [f"{te}_{v}" for v in values]
    if text in cut and REGISTRY[cut[text]].trec.cutoffs:
        try:
            parse_measure(text)
        except MeasureError:  # no measure by itself: the family at its default cutoffs
            return [cutoff_name(text, cut[text], c) for c in REGISTRY[cut[text]].trec.cutoffs]
    return [spec]


def parse_measures(specs: str | Measure | Iterable[str | Measure]) -> list[Measure]:
    """Parse several measure names, as :func:`ranklens.evaluate` reads its ``measures``.

    Every name :func:`~ranklens.parse_measure` reads is accepted, and so are trec_eval's
    ``-m`` spellings of several measures, which :func:`expand_trec_lists` expands: a list
    of cutoffs (``P_5,10``, ``P.5,10``, ``ndcg_cut.5,10``), a bare cutoff family
    (``map_cut``) and a nickname (``official``). Every bad name is reported at once, in
    a single :class:`~ranklens.MeasureError`.

    Parameters
    ----------
    specs : str, Measure or an iterable of them
        The names (a single name or :class:`~ranklens.Measure` is a list of one).

    Returns
    -------
    list of Measure
        One measure per one-measure name, in the order written: a list spelling gives
        one per measure it names (``P_5,10``: ``P@5`` and ``P@10``), so the list may be
        longer than ``specs``. Duplicates are kept (:func:`ranklens.evaluate` computes
        a measure once).

    Raises
    ------
    MeasureError
        A name is unknown or malformed (every bad name is reported at once).

    Examples
    --------
    >>> parse_measures(["nDCG@10", "map"])
    [nDCG@10, AP]
    >>> parse_measures(["P_5,10", "ndcg_cut.5,10"])
    [P@5, P@10, nDCG@5, nDCG@10]
    >>> parse_measures("P.5,10")
    [P@5, P@10]
    """
    if isinstance(specs, (str, Measure)):
        specs = [specs]
    out: list[Measure] = []
    problems: list[str] = []
    for spec in specs:
        try:
            out.extend(parse_measure(one) for one in expand_trec_lists(spec))
        except MeasureError as exc:
            problems.append(str(exc))
    if problems:
        raise MeasureError("; ".join(problems))
    return out
