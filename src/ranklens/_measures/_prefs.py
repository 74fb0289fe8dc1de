"""Preference measures (trec_eval's ``prefs_*``): kernels per judgment group, then per topic.

Preference judgments say "document a is preferred to document b" for some judgment group
(JG: one user), not "document a has grade g". A topic's judged documents are numbered by
their internal rank: retrieved ones ``0 .. njr-1`` in ranking order, the others ``njr ..
nj-1`` in doc id order (see :mod:`ranklens._pipeline.preferences`). A pair ``(a, b)`` with
``a`` preferred is *fulfilled* when ``a`` ranks above ``b``.

Two levels of kernels:

* a judgment-group kernel (:func:`group_counts`) turns one JG's judgments into its
  :class:`GroupCounts`: preferences fulfilled and possible among retrieved documents
  (``ret``), with exactly one of the two retrieved (``imp``), with neither
  (``notoccur``), and the JG's preference pairs added into the topic's pair-count matrix.
  A JG with one judgment sub-group (JSG) is a set of equivalence classes of equal level;
  one with several JSGs is a preference matrix closed under transitivity.
* a measure kernel (``kernel(topic) -> float``) reads a topic's :class:`PrefTopic` (its
  groups' counts and the pair-count matrix). Each measure is one entry of
  :data:`PREF_REGISTRY`, which states every fact trec_eval's table needs about it.

This follows trec_eval 10.0 (form_prefs_counts.c and m_prefs_*.c), quirks included
(``avgjg`` divides by every JG but is 0 unless the sum is positive; ``Rnonrel`` keeps the
first R non-relevant documents in internal-rank order), so that its outputs are reproduced
byte for byte. These measures are not entries of :data:`~ranklens._measures.REGISTRY`:
its kernels read an :class:`~ranklens._model.aligned.Aligned`, whose judged documents carry
one grade each, while a preference kernel needs each JG and JSG apart, and the identity of
unretrieved judged documents (their doc id order decides which non-relevant documents
``Rnonrel`` keeps, and the order of the pair sums). Hence a private module, imported by
its users (trec_eval's table and :mod:`ranklens._pipeline.preferences`) rather than found by
the discovery of :data:`~ranklens._measures.REGISTRY` modules.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Literal

import numpy as np

from .._base.errors import InputError
from .._base.registry import Registry

__all__ = ["PREF_REGISTRY", "GroupCounts", "PrefMeasureDef", "PrefTopic", "group_counts",
           "register_pref"]


@dataclass
class GroupCounts:
    """What one judgment group of one topic contributes: its preference counts, and what
    its ``Rnonrel`` recount reads (its equivalence classes, or its closed preference matrix
    and levels)."""

    ful_ret: int = 0
    poss_ret: int = 0
    ful_imp: int = 0
    poss_imp: int = 0
    notoccur: int = 0
    num_rel: int = 0
    num_rel_ret: int = 0
    num_nonrel: int = 0
    num_nonrel_ret: int = 0
    ecs: list[tuple[float, np.ndarray]] = field(default_factory=list)  # EC form
    pa: np.ndarray | None = None  # preference-array form
    rel_array: np.ndarray | None = None


@dataclass
class PrefTopic:
    """One topic's judgment groups (in JG order) and its pair counts.

    Attributes
    ----------
    groups : the :class:`GroupCounts` of each judgment group.
    counts : ``counts[i, j]``: the number of groups preferring document i to document j
        (internal ranks).
    njr : judged documents retrieved.
    nj : judged documents.
    """

    groups: list[GroupCounts]
    counts: np.ndarray
    njr: int
    nj: int


# one judgment group's rows, sorted by (jsg, level descending, internal rank):
# (jsg, level, internal rank, doc id)
GroupRows = list[tuple[str, float, int, str]]


def group_counts(rows: GroupRows, njr: int, nj: int, counts: np.ndarray) -> GroupCounts:
    """The judgment-group kernel: one JG's counts, its pairs added into ``counts``.

    Raises
    ------
    InputError
        A document with two levels in one sub-group, with both 0 and non-0 levels in one
        group, or preferences that contradict each other once closed.
    """
    if len({r[0] for r in rows}) > 1:
        return _pa_group(rows, njr, nj, counts)
    return _ec_group(rows, njr, counts)


def _ec_group(rows: GroupRows, njr: int, counts: np.ndarray) -> GroupCounts:
    jg = GroupCounts()
    for _, rel, rank, _ in rows:
        if not jg.ecs or jg.ecs[-1][0] != rel:
            jg.ecs.append((rel, np.array([rank], dtype=np.int64)))
        else:
            jg.ecs[-1] = (rel, np.append(jg.ecs[-1][1], rank))
    for k, (rel, ranks) in enumerate(jg.ecs):
        ret = int((ranks < njr).sum())
        if rel > 0.0:
            jg.num_rel_ret += ret
            jg.num_rel += ranks.size
        else:
            jg.num_nonrel_ret += ret
            jg.num_nonrel += ranks.size
        for _, lower in jg.ecs[k + 1:]:
            r1 = ranks[:, None]
            r2 = lower[None, :]
            if np.any(r1 == r2):
                raise InputError("a document occurs with different levels in the same "
                                 "judgment sub-group")
            np.add.at(counts, (np.broadcast_to(r1, (ranks.size, lower.size)),
                               np.broadcast_to(r2, (ranks.size, lower.size))), 1)
            good = r1 < r2
            jg.ful_ret += int((good & (r2 < njr)).sum())
            jg.ful_imp += int((good & (r2 >= njr) & (r1 < njr)).sum())
            jg.notoccur += int((good & (r1 >= njr) & (r2 >= njr)).sum())
            bad = ~good
            jg.poss_ret += int((bad & (r1 < njr)).sum())
            jg.poss_imp += int((bad & (r1 >= njr) & (r2 < njr)).sum())
            jg.notoccur += int((bad & (r1 >= njr) & (r2 >= njr)).sum())
    jg.poss_ret += jg.ful_ret
    jg.poss_imp += jg.ful_imp
    return jg


def _closure(pa: np.ndarray) -> np.ndarray:
    """The transitive closure of a preference matrix (the diagonal left False)."""
    base = pa.copy()
    np.fill_diagonal(base, True)
    m = base
    b = base.astype(np.int64)
    while True:
        nxt = (b @ m.astype(np.int64)) > 0
        if np.array_equal(nxt, m):
            break
        m = nxt
    out = m.copy()
    np.fill_diagonal(out, False)
    return out


def _pa_group(rows: GroupRows, njr: int, nj: int, counts: np.ndarray) -> GroupCounts:
    jg = GroupCounts()
    pa = np.zeros((nj, nj), dtype=bool)
    rel_array = np.full(nj, -1.0)
    for i, (jsg, rel, rank, docno) in enumerate(rows):
        prev = rel_array[rank]
        if (prev > 0.0 and rel == 0.0) or (prev == 0.0 and rel > 0.0):
            raise InputError(f"document {docno!r} has both 0 and non-0 levels in one "
                             "judgment group")
        rel_array[rank] = rel
        j = i + 1
        # documents of the same sub-group at a lower level are less preferred
        while j < len(rows) and rows[j][0] == jsg and rows[j][1] == rel:
            j += 1
        while j < len(rows) and rows[j][0] == jsg:
            pa[rank, rows[j][2]] = True
            j += 1
    a = _closure(pa)
    if np.any(a & a.T):
        raise InputError("inconsistent preferences within one judgment group")
    jg.pa, jg.rel_array = a, rel_array
    jg.num_rel_ret = int((rel_array[:njr] > 0.0).sum())
    jg.num_nonrel_ret = int((rel_array[:njr] == 0.0).sum())
    jg.num_rel = jg.num_rel_ret + int((rel_array[njr:] > 0.0).sum())
    jg.num_nonrel = jg.num_nonrel_ret + int((rel_array[njr:] == 0.0).sum())
    counts += a.astype(counts.dtype)
    top = a[:njr, :njr]
    jg.ful_ret = int(np.triu(top, 1).sum())
    jg.poss_ret = int(np.tril(top, -1).sum()) + jg.ful_ret
    jg.ful_imp = int(a[:njr, njr:].sum())
    jg.poss_imp = int(a[njr:, :njr].sum()) + jg.ful_imp
    jg.notoccur = int(a[njr:, njr:].sum())
    return jg


# -- the registry of preference measures ---------------------------------------------------

PrefKernel = Callable[[PrefTopic], float]


@dataclass(frozen=True)
class PrefMeasureDef:
    """What is known about one preference measure.

    Attributes
    ----------
    name : trec_eval's name (``prefs_simp``), which is also how it is requested.
    kernel : ``f(topic) -> float``, the topic's value.
    doc : one-line definition.
    aggregate : ``mean`` over topics, or ``sum`` (the counts).
    trec_integer : trec_eval prints it as an integer (``%ld``).
    """

    name: str
    kernel: PrefKernel
    doc: str
    aggregate: Literal["mean", "sum"] = "mean"
    trec_integer: bool = False


#: every preference measure, in trec_eval's table order (the order they are registered in)
#: requested by trec_eval's names exactly, so spellings are not folded
PREF_REGISTRY: Registry[PrefMeasureDef] = Registry("preference measure", fold=str)


def register_pref(name: str, doc: str, *, aggregate: Literal["mean", "sum"] = "mean",
                  trec_integer: bool = False) -> Callable[[PrefKernel], PrefKernel]:
    """Decorator: register ``kernel`` as the preference measure ``name``."""

    def deco(kernel: PrefKernel) -> PrefKernel:
        PREF_REGISTRY.add(name, PrefMeasureDef(name, kernel, doc, aggregate, trec_integer))
        return kernel

    return deco


# -- helpers of the measure kernels ----------------------------------------------------------

def _cdiv(a: float, b: float) -> float:
    """C double division: x/0 is inf, 0/0 is NaN (trec_eval then tests ``sum > 0``)."""
    if b == 0:
        return math.nan if a == 0 else math.copysign(math.inf, a)
    return a / b


def _ratio(ful: int, poss: int) -> float:
    return ful / poss if poss else 0.0


def _avg_over_groups(t: PrefTopic, parts: list[float]) -> float:
    """trec_eval's average over JGs: a sequential sum divided by every JG, 0 unless the
    sum is positive (a NaN part makes it 0)."""
    total = 0.0
    for p in parts:
        total += p
    return total / len(t.groups) if total > 0.0 else 0.0


#: the pairs a measure reads: both documents retrieved, at least one, or any
Region = Literal["ret", "imp", "all"]


def _ful(g: GroupCounts, region: Region) -> int:
    """The group's preferences fulfilled among the pairs of ``region``."""
    return g.ful_ret + (0 if region == "ret" else g.ful_imp)


def _poss(g: GroupCounts, region: Region) -> int:
    """The group's preferences possible among the pairs of ``region``."""
    return (g.poss_ret + (0 if region == "ret" else g.poss_imp)
            + (g.notoccur if region == "all" else 0))


def _simp(t: PrefTopic, region: Region) -> float:
    return _ratio(sum(_ful(g, region) for g in t.groups), sum(_poss(g, region) for g in t.groups))


def _avgjg(t: PrefTopic, region: Region) -> float:
    return _avg_over_groups(t, [_ful(g, region) / p for g in t.groups if (p := _poss(g, region))])


def _pairs(t: PrefTopic, block: str) -> float:
    """The mean over document pairs with a preference of the fraction of JGs the ranking
    fulfils (pairs with neither retrieved count, adding 0, for ``all``)."""
    c = t.counts
    njr, nj = t.njr, t.nj
    both = c + c.T
    total = 0.0
    n = 0
    regions: list[tuple[np.ndarray, np.ndarray, bool]] = []
    if block in ("ret", "imp", "all"):
        top_i, top_j = np.triu_indices(njr, 1)
        regions.append((top_i, top_j, True))
    if block in ("imp", "all"):
        # row-major (retrieved i, then unretrieved j): trec_eval's summation order
        mi, mj = np.meshgrid(np.arange(njr), np.arange(njr, nj), indexing="ij")
        regions.append((mi.ravel(), mj.ravel(), True))
    if block == "all":
        low_i, low_j = np.triu_indices(nj - njr, 1)
        regions.append((low_i + njr, low_j + njr, False))
    for i, j, adds in regions:
        keep = both[i, j] > 0
        n += int(keep.sum())
        if adds and keep.any():
            for v in (c[i, j][keep] / both[i, j][keep]).tolist():
                total += v
    return total / n if n else 0.0


def _ec_recount(jg: GroupCounts, njr: int, ret_only: bool) -> tuple[int, int]:
    """Preferences of an EC judgment group keeping only the first R non-relevant docs."""
    ecs = jg.ecs

    def ranks(a: np.ndarray) -> np.ndarray:
        return a[: int((a < njr).sum())] if ret_only else a

    keep_n = jg.num_rel_ret if ret_only else jg.num_rel
    new_nonrel = ranks(ecs[-1][1][:keep_n])
    ful = poss = 0

    def count(r1: np.ndarray, r2: np.ndarray) -> tuple[int, int]:
        good = r1[:, None] < r2[None, :]
        if not ret_only:
            good = good & (r1[:, None] < njr)
        g = int(good.sum())
        return g, good.size - g

    for k in range(len(ecs)):
        for k2 in range(k + 1, len(ecs) - 1):
            f, p = count(ranks(ecs[k][1]), ranks(ecs[k2][1]))
            ful += f
            poss += p
    for k in range(len(ecs)):
        f, p = count(ranks(ecs[k][1]), new_nonrel)
        ful += f
        poss += p
    return ful, poss + ful


def _pa_recount(jg: GroupCounts, njr: int, ret_only: bool) -> tuple[int, int]:
    """Preferences of a preference-array judgment group keeping only the first R
    non-relevant docs (in internal-rank order)."""
    if jg.pa is None or jg.rel_array is None:
        raise RuntimeError("internal error: a preference-array judgment group without its array")
    a, rel = jg.pa, jg.rel_array
    scan = njr if ret_only else a.shape[0]
    seen = 0
    first_discarded = scan
    for i in range(scan):
        if rel[i] == 0.0:
            seen += 1
            if seen == jg.num_rel + 1:
                first_discarded = i
                break
    idx = np.arange(a.shape[0])
    keep = ~((idx >= first_discarded) & (rel == 0.0))
    k = a & keep[:, None] & keep[None, :]
    top = k[:njr, :njr]
    ful = int(np.triu(top, 1).sum())
    poss = int(np.tril(top, -1).sum())
    if not ret_only:
        ful += int(k[:njr, njr:].sum())
        poss += int(k[njr:, :].sum())
    return ful, poss + ful


def _rnonrel(t: PrefTopic, ret_only: bool) -> float:
    parts = []
    for jg in t.groups:
        big_r = jg.num_rel_ret if ret_only else jg.num_rel
        big_n = jg.num_nonrel_ret if ret_only else jg.num_nonrel
        if big_r >= big_n:
            region: Region = "ret" if ret_only else "all"
            ful = _ful(jg, region) + jg.num_rel_ret * (big_r - big_n)
            poss = _poss(jg, region) + jg.num_rel * (big_r - big_n)
        elif jg.pa is None:
            ful, poss = _ec_recount(jg, t.njr, ret_only)
        else:
            ful, poss = _pa_recount(jg, t.njr, ret_only)
        parts.append(_cdiv(ful, poss))
    return _avg_over_groups(t, parts)


# -- the measures, in trec_eval's table order ------------------------------------------------

register_pref("prefs_num_prefs_poss", "preferences possible (summed over topics)",
              aggregate="sum", trec_integer=True)(
    lambda t: float(sum(_poss(g, "all") for g in t.groups)))
register_pref("prefs_num_prefs_ful", "preferences fulfilled (summed over topics)",
              aggregate="sum", trec_integer=True)(
    lambda t: float(sum(_ful(g, "all") for g in t.groups)))
register_pref("prefs_num_prefs_ful_ret", "preferences fulfilled among retrieved documents "
              "(summed over topics)", aggregate="sum", trec_integer=True)(
    lambda t: float(sum(_ful(g, "ret") for g in t.groups)))
register_pref("prefs_simp", "preferences fulfilled / preferences possible, over all JGs")(
    partial(_simp, region="all"))
register_pref("prefs_pair", "mean over preferred pairs of the fraction of JGs fulfilled")(
    partial(_pairs, block="all"))
register_pref("prefs_avgjg", "prefs_simp per JG, averaged over JGs")(partial(_avgjg, region="all"))
register_pref("prefs_avgjg_Rnonrel", "prefs_avgjg keeping only the first R non-relevant "
              "documents of each JG")(partial(_rnonrel, ret_only=False))
_OVER: tuple[tuple[Region, str], ...] = (("ret", "pairs of retrieved documents"),
                                         ("imp", "pairs with at least one retrieved document"))
for _region, _over in _OVER:
    register_pref(f"prefs_simp_{_region}", f"prefs_simp over {_over}")(
        partial(_simp, region=_region))
    register_pref(f"prefs_pair_{_region}", f"prefs_pair over {_over}")(
        partial(_pairs, block=_region))
    register_pref(f"prefs_avgjg_{_region}", f"prefs_avgjg over {_over}")(
        partial(_avgjg, region=_region))
    if _region == "ret":
        register_pref("prefs_avgjg_Rnonrel_ret", "prefs_avgjg_Rnonrel over retrieved "
                      "documents")(partial(_rnonrel, ret_only=True))
