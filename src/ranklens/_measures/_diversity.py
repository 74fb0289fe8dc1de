"""What the diversity measures share: subtopic hits of a ranking, novelty gains, ideal gains.

The measures are those of ``ndeval``, the TREC Web track's diversity script (2009-2014,
version 4.5, also behind ir_measures' pyndeval provider), and follow its rules:

- a document is relevant to a subtopic when its grade for it is >= ``rel`` (ndeval reads
  every positive grade as 1: ``rel=1``); its grade is not used otherwise;
- M, the number of subtopics of a query, counts only those with a relevant document
  (ndeval's "actual subtopics"); a query without any scores 0 on every measure;
- novelty: the k-th relevant document of a subtopic (counting down the ranking) gains
  ``(1 - alpha)^(k-1)`` for it, and a document gains the sum over its subtopics;
- the ideal ranking of alpha-nDCG is ndeval's greedy one: at each rank the judged
  document of largest gain, ties to the largest doc id (byte-wise).

Each measure's own module gives its formula.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from .._base.errors import MeasureError
from .._base.groups import ranges
from .._model.aligned import Aligned
from .._model.subtopics import Subtopics
from ._common import divide, rel_level
from ._registry import REL, Measure, Param, Spelled, register

__all__ = ["ALPHA", "BETA", "DIVERSITY", "NOVELTY_AT_K", "PATIENT", "REL", "Discounted", "Hits",
           "alpha_of", "hits", "ideal_gains", "log_discounted", "n_subtopics", "novelty_gains",
           "novelty_measure", "novelty_sum", "over_greedy_ideal", "over_ideal_ideal",
           "patience_discounted", "rank_discounted", "rank_gains", "subtopic_sizes", "subtopics_of"]

ALPHA = Param("alpha", Spelled("float", minimum=0, maximum=1), 0.5, "redundancy penalty: each "
              "earlier document relevant to a subtopic multiplies its gain by 1 - alpha (ndeval: "
              "0.5)")
BETA = Param("beta", Spelled("float", minimum=0), 0.5, "patience: the chance of reading on to the "
             "next rank (ndeval: 0.5)")

# What the diversity measures' registry entries share (each module adds its own facts).
#: every diversity measure: its family, and subtopic judgments to read
DIVERSITY: dict[str, Any] = {"family": "diversity", "subtopics": True}
#: the novelty measures at a depth k that must be given (alpha-DCG, alpha-nDCG, ERR-IA,
#: nERR-IA)
NOVELTY_AT_K: dict[str, Any] = {"params": (ALPHA, REL), "cutoff": "int",
                                "cutoff_required": True, **DIVERSITY}
#: the novelty measures of a patient user, over the whole ranking (NRBP, nNRBP)
PATIENT: dict[str, Any] = {"params": (ALPHA, BETA, REL), **DIVERSITY}


def subtopics_of(a: Aligned, m: Measure) -> Subtopics:
    """The alignment's subtopic judgments (compute checks the kind before any kernel)."""
    if a.subtopics is None:
        raise MeasureError(f"{m} needs subtopic judgments: load them with "
                           "ranklens.load_qrels(path, kind='subtopic')")
    return a.subtopics


def alpha_of(m: Measure) -> float:
    """The ``alpha`` parameter (in [0, 1]: the parameter's declaration checks it)."""
    return float(m.get("alpha"))


class Hits:
    """The (ranked document, subtopic) pairs of the rankings where the document is relevant
    to the subtopic, by query then rank: ``q``, ``rank``, ``sub`` (one entry per pair)."""

    def __init__(self, q: np.ndarray, rank: np.ndarray, sub: np.ndarray) -> None:
        self.q, self.rank, self.sub = q, rank, sub


def hits(a: Aligned, m: Measure, cutoff: float | None) -> Hits:
    """The relevant (document, subtopic) pairs ranked at ``cutoff`` or above."""
    s = subtopics_of(a, m)
    rel = rel_level(a, m)
    pos, docs = a.judged_at, s.judged_doc
    if cutoff is not None:
        inside = a.rank_at(pos) <= cutoff
        pos, docs = pos[inside], docs[inside]
    counts = np.diff(s.pair_offsets)[docs]
    pairs = ranges(s.pair_offsets[docs], counts)
    owner = np.repeat(np.arange(pos.size, dtype=np.int64), counts)
    keep = s.pair_grade[pairs] >= rel
    pairs, owner = pairs[keep], owner[keep]
    return Hits(a.qidx_at(pos)[owner], a.rank_at(pos)[owner], s.pair_sub[pairs])


def n_subtopics(a: Aligned, m: Measure) -> np.ndarray:
    """M of each query: its subtopics with at least one relevant document (float64)."""
    keys, width = _relevant_pair_keys(a, m)
    seen = np.unique(keys)
    return np.bincount(seen // width, minlength=a.nq).astype(np.float64)


def _relevant_pair_keys(a: Aligned, m: Measure) -> tuple[np.ndarray, int]:
    """One key ``query * width + subtopic`` per judged (document, subtopic) pair at or
    above the relevance level, and ``width``."""
    s = subtopics_of(a, m)
    doc_q = np.repeat(np.arange(a.nq, dtype=np.int64), np.diff(s.doc_offsets))
    pair_q = np.repeat(doc_q, np.diff(s.pair_offsets))
    keep = s.pair_grade >= rel_level(a, m)
    width = int(s.n_sub.max()) + 1 if s.n_sub.size else 1
    return pair_q[keep] * width + s.pair_sub[keep], width


def subtopic_sizes(a: Aligned, m: Measure, q: np.ndarray, sub: np.ndarray) -> np.ndarray:
    """The number of judged documents relevant to subtopic ``sub`` of query ``q``, for each
    pair given (float64)."""
    pair_keys, width = _relevant_pair_keys(a, m)
    keys, counts = np.unique(pair_keys, return_counts=True)
    at = np.searchsorted(keys, q * width + sub)
    return counts[at].astype(np.float64)


def novelty_gains(h: Hits, alpha: float) -> np.ndarray:
    """Each hit's gain, ``(1 - alpha)^n`` with n the earlier hits of its query's subtopic."""
    if not h.q.size:
        return np.zeros(0)
    order = np.lexsort((h.rank, h.sub, h.q))
    q, sub = h.q[order], h.sub[order]
    start = np.ones(q.size, dtype=bool)
    start[1:] = (q[1:] != q[:-1]) | (sub[1:] != sub[:-1])
    idx = np.arange(q.size)
    seen = idx - np.maximum.accumulate(np.where(start, idx, 0))
    gains = np.empty(q.size)
    gains[order] = (1.0 - alpha) ** seen
    return gains


def rank_gains(h: Hits, gains: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Query, rank and summed gain of each ranked document with a hit (hits come by query
    then rank, a document's subtopics together)."""
    if not h.q.size:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0)
    start = np.ones(h.q.size, dtype=bool)
    start[1:] = (h.q[1:] != h.q[:-1]) | (h.rank[1:] != h.rank[:-1])
    group = np.cumsum(start) - 1
    # summed in subtopic order, as ndeval sums a document's gains
    total = np.bincount(group, weights=gains)
    return h.q[start], h.rank[start], total


# (gains, ranks, measure) -> each gain discounted at its rank (ranks from 1): how a novelty
# measure weighs the documents of a ranking, and of the rankings it is divided by
Discounted = Callable[[np.ndarray, np.ndarray, Measure], np.ndarray]


def log_discounted(gains: np.ndarray, ranks: np.ndarray, m: Measure) -> np.ndarray:
    """alpha-DCG's weighing: each gain times ndeval's discount ``log(2) / log(rank + 1)``."""
    return gains * (np.log(2.0) / np.log(np.asarray(ranks, dtype=np.float64) + 1.0))


def rank_discounted(gains: np.ndarray, ranks: np.ndarray, m: Measure) -> np.ndarray:
    """ERR-IA's weighing: each gain divided by its rank."""
    return gains / ranks


def patience_discounted(gains: np.ndarray, ranks: np.ndarray, m: Measure) -> np.ndarray:
    """NRBP's weighing: each gain times ``beta^(rank - 1)``, ``beta`` being ``m``'s."""
    return gains * float(m.get("beta")) ** (ranks - 1.0)


def novelty_sum(a: Aligned, m: Measure, discounted: Discounted) -> np.ndarray:
    """Per query, the sum of the novelty gains of its ranking (those in ``m``'s top k, if
    it has a cutoff), each discounted at its rank."""
    h = hits(a, m, m.cutoff)
    q, rank, gain = rank_gains(h, novelty_gains(h, alpha_of(m)))
    return np.bincount(q, weights=discounted(gain, rank, m), minlength=a.nq)


def over_ideal_ideal(a: Aligned, m: Measure, discounted: Discounted) -> np.ndarray:
    """:func:`novelty_sum` at ``m``'s depth k with ndeval's collection-independent ("ideal
    ideal") normalisation: divided by M times the sum of a ranking whose every document is
    relevant to every subtopic, ``sum over r <= k of (1 - alpha)^(r-1)`` discounted; 0
    where M is 0. At k = 1 the sum is left undivided, as ndeval leaves it."""
    total = novelty_sum(a, m, discounted)
    k = int(m.cutoff) if m.cutoff is not None else 0
    if k == 1:  # ndeval's normalisation loop starts at its second rank
        return total
    r = np.arange(1, k + 1)
    every = float(np.sum(discounted((1.0 - alpha_of(m)) ** (r - 1.0), r, m)))
    return divide(total, n_subtopics(a, m) * every)


def over_greedy_ideal(a: Aligned, m: Measure, discounted: Discounted) -> np.ndarray:
    """:func:`novelty_sum` divided by the same sum over ndeval's greedy ideal ranking of the
    judged documents, cut at ``m``'s depth (without one, the whole ideal: it ends where
    every remaining gain is 0); 0 where either is 0."""
    depth = None if m.cutoff is None else int(m.cutoff)
    ideal = np.array([float(np.sum(discounted(g[:depth], np.arange(1, g[:depth].size + 1), m)))
                      for g in ideal_gains(a, m, alpha_of(m), depth)])
    return divide(novelty_sum(a, m, discounted), ideal)


def novelty_measure(module: str, name: str, doc: str, aliases: tuple[str, ...],
                    normalised: Callable[..., np.ndarray],
                    discounted: Discounted, facts: dict[str, Any] = NOVELTY_AT_K) -> None:
    """Register, as measure module ``module``'s own, a measure of the novelty gains (at depth
    k, unless ``facts`` are another's): ``normalised`` (one of the ideals above) with the
    discount ``discounted``."""
    def kernel(a: Aligned, m: Measure) -> np.ndarray:
        return normalised(a, m, discounted)

    kernel.__module__ = module  # the registry finds each measure by its module
    register(name, doc, aliases=aliases, **facts)(kernel)


def ideal_gains(a: Aligned, m: Measure, alpha: float,
                depth: int | None) -> list[np.ndarray]:
    """Per query, the gains at ranks 1.. of ndeval's greedy ideal ranking of the judged
    documents, at least up to ``depth`` (None: all; they stop where every remaining gain
    is 0).

    Built once per alignment, alpha and relevance level to depth 20 or more (ndeval's
    cutoffs, 5, 10 and 20, then share it)."""
    s = subtopics_of(a, m)
    rel = rel_level(a, m)
    want = math.inf if depth is None else max(depth, 20)
    key = ("ideal", alpha, rel)
    kept = s.kept(key, lambda: (0, []))
    if kept[0] < want:
        kept = (want, _greedy(s, a.nq, alpha, rel, None if depth is None else int(want)))
        s.keep(key, kept)
    out: list[np.ndarray] = kept[1]
    return out


def _greedy(s: Subtopics, nq: int, alpha: float, rel: int,
            depth: int | None) -> list[np.ndarray]:
    out: list[np.ndarray] = []
    for q in range(nq):
        lo, hi = int(s.doc_offsets[q]), int(s.doc_offsets[q + 1])
        n, width = hi - lo, int(s.n_sub[q])
        relevant = np.zeros((n, width), dtype=bool)
        plo, phi = int(s.pair_offsets[lo]), int(s.pair_offsets[hi])
        keep = s.pair_grade[plo:phi] >= rel
        doc = np.repeat(np.arange(n), np.diff(s.pair_offsets[lo:hi + 1]))
        relevant[doc[keep], s.pair_sub[plo:phi][keep]] = True
        useful = relevant.any(axis=1)
        relevant = relevant[useful]  # documents of no relevant subtopic only gain 0
        gain = np.ones(width)
        left = np.ones(relevant.shape[0], dtype=bool)
        picked: list[float] = []
        steps = relevant.shape[0] if depth is None else min(depth, relevant.shape[0])
        for _ in range(steps):
            score = np.zeros(relevant.shape[0])
            for j in range(width):  # subtopic by subtopic, as ndeval adds them up
                np.add(score, gain[j], out=score, where=relevant[:, j])
            score[~left] = -1.0
            best = float(score.max())
            if best <= 0.0:
                break
            # ties: the largest doc id (documents are in doc id order)
            pick = int(np.flatnonzero(score == best)[-1])
            picked.append(best)
            left[pick] = False
            gain[relevant[pick]] *= 1.0 - alpha
        out.append(np.array(picked))
    return out
