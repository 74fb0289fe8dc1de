"""The C/W/L family as cwl-eval computes it: SDCG, INST, INSQ, BPM and NERR8-11.

C/W/L (Moffat et al. 2013; Azzopardi, Thomas and Moffat, SIGIR 2019, "cwl_eval") describes a
measure by C_i, the chance that a user who has read rank i goes on to rank i + 1. The weight
of rank i is ``W_i = prod_{j<i} C_j / sum_r prod_{j<r} C_j`` and the measure is the expected
utility per document read, ``sum_i W_i g_i``. Values follow cwl-eval 1.0.12 (the package
behind ir_measures' ``cwl_eval`` provider), with ir_measures' gains:

- a grade becomes the gain ``g = (clip(max(grade, 0), min_rel, max_rel) - min_rel) /
  (max_rel - min_rel)``, in [0, 1]; an unjudged document has gain 0 (cwl-eval's lower
  bound);
- the ranking is cut at 1000 documents and padded with gain-0 documents to 1000 (cwl-eval's
  ``max_n``): W is spread over those 1000 ranks, so a short ranking is not rewarded for
  stopping early;
- every document costs 1 (no cost file);
- ir_measures requires ``min_rel < max_rel``; here ``max_rel <= min_rel`` gives binary
  gains (1 at grades >= max_rel), so that every parameter value has a value.

The continuation probabilities (r the 1-based rank, G_r the gain summed to rank r):

========  ==============================================================================
SDCG@k    ``log2(r + 1) / log2(r + 2)`` for r < k, else 0 (so W_r is DCG's discount
          ``1/log2(r + 1)`` normalised over the top k: nDCG scaled as if k documents of
          top grade existed; Jarvelin and Kekalainen 2002)
INST      ``((r + T + T_r - 1) / (r + T + T_r))^2``, ``T_r = T - G_r`` (Moffat et al. 2015)
INSQ      ``((r + 2T - 1) / (r + 2T))^2`` (Moffat, Scholer and Thomas 2012)
BPM@K     1 while ``G_r < T`` and ``r < K``, else 0 (static Bejeweled Player Model,
          Zhang et al. 2017)
NERR8@k   ``1 - g_r`` for r < k, else 0 (Azzopardi, Mackenzie and Moffat 2021, eq. 8)
NERR9@k   ``r / (r + 1) (1 - g_r)`` for r < k, else 0 (eq. 9)
NERR10    ``p (1 - g_r)`` (eq. 10)
NERR11    ``((r + 2T - 1) / (r + 2T))^2 (1 - g_r)`` (eq. 11)
========  ==============================================================================

The arithmetic repeats cwl-eval's step for step (the same products in the same order), so
values agree to the last bits. Under ``ties="average"`` the tied orders are enumerated.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._model.aligned import Aligned
from ._registry import Measure, Param, Spelled, register

#: cwl-eval's ``max_n``: rankings are cut, and padded with gain-0 documents, to this depth
DEPTH = 1000
#: queries per block of the dense (queries x DEPTH) gain matrix, bounding its memory
_BLOCK = 256

_MIN_REL = Param("min_rel", Spelled("float"), 0.0, "grade of gain 0 (ir_measures' min_rel)")
_MAX_REL = Param("max_rel", Spelled("float"), 1.0, "grade of gain 1; grades are clipped to "
                 "[min_rel, max_rel] and scaled to [0, 1] (ir_measures' max_rel; when it is not "
                 "above min_rel, gain 1 at grades >= max_rel, else 0)")
_T = Param("T", Spelled("float", minimum=0), 1.0, "total gain the user wants (cwl-eval's T)")
_P = Param("p", Spelled("float", minimum=0), 0.9, "persistence: chance of going on from a gain-0 "
           "document (a chance: above 1 counts as 1)")

Continuation = Callable[[np.ndarray, Measure], np.ndarray]


def _gains(d: Aligned, m: Measure) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Query, rank and scaled gain of the judged documents in the top ``DEPTH``."""
    lo, hi = float(m.get("min_rel")), float(m.get("max_rel"))
    idx, grade = d.judged_within(DEPTH)
    grade = np.maximum(grade, 0.0)
    if hi > lo:
        gain = (np.clip(grade, lo, hi) - lo) / (hi - lo)
    else:  # no scale left between them: binary gains, as ir_measures' rel= cutoff gives
        gain = (grade >= hi).astype(np.float64)
    return d.qidx_at(idx), d.rank_at(idx), gain


def _expected_utility(a: Aligned, m: Measure, continuation: Continuation) -> np.ndarray:
    q, rank, gain = _gains(a, m)
    out = np.zeros(a.nq)
    for lo in range(0, a.nq, _BLOCK):
        hi = min(lo + _BLOCK, a.nq)
        inside = (q >= lo) & (q < hi)
        g = np.zeros((hi - lo, DEPTH))
        g[q[inside] - lo, rank[inside] - 1] = gain[inside]
        c = continuation(g, m)
        # W as cwl-eval's w_vector: the running product of C before each rank, over its sum
        reach = np.ones_like(g)
        reach[:, 1:] = np.cumprod(c[:, :-1], axis=1)
        w = reach * (1.0 / reach.sum(axis=1))[:, None]
        out[lo:hi] = (w * g).sum(axis=1)
    return out


def _ranks() -> np.ndarray:
    return np.arange(1.0, DEPTH + 1.0)


def _before_cutoff(m: Measure) -> np.ndarray:
    """Ranks r < k (cwl-eval stops continuing at the k-th document)."""
    return _ranks() < float(m.cutoff if m.cutoff is not None else DEPTH + 1)


def _sdcg(g: np.ndarray, m: Measure) -> np.ndarray:
    r = _ranks()
    c = (np.log(r + 1.0) / np.log(2.0)) / (np.log(r + 2.0) / np.log(2.0))
    return np.broadcast_to(np.where(_before_cutoff(m), c, 0.0), g.shape)


def _inst(g: np.ndarray, m: Measure) -> np.ndarray:
    t = float(m.get("T"))
    left = t - np.cumsum(g, axis=1)
    base = (_ranks() + t) + left
    # base reaches 0 only for T = 0 with a gain of 1 at rank 1: the user, wanting nothing,
    # has it, and stops (cwl-eval divides by zero there)
    safe = np.where(base > 0, base, 1.0)
    return np.where(base > 0, ((safe - 1.0) / safe) ** 2.0, 0.0)


def _insq_factor(m: Measure) -> np.ndarray:
    base = _ranks() + 2.0 * float(m.get("T"))
    return ((base - 1.0) / base) ** 2.0


def _insq(g: np.ndarray, m: Measure) -> np.ndarray:
    return np.broadcast_to(_insq_factor(m), g.shape)


def _bpm(g: np.ndarray, m: Measure) -> np.ndarray:
    # gains are >= 0, so "G_r < T" holds on a prefix, as cwl-eval's while loop reads it
    wants_more = np.cumsum(g, axis=1) < float(m.get("T"))
    return (wants_more & (_ranks() < float(m.cutoff or 0))).astype(np.float64)


def _nerr8(g: np.ndarray, m: Measure) -> np.ndarray:
    return np.where(_before_cutoff(m), 1.0 - g, 0.0)


def _nerr9(g: np.ndarray, m: Measure) -> np.ndarray:
    r = _ranks()
    return np.where(_before_cutoff(m), (1.0 * r / (r + 1.0)) * (1.0 - g), 0.0)


def _nerr10(g: np.ndarray, m: Measure) -> np.ndarray:
    return min(float(m.get("p")), 1.0) * (1.0 - g)


def _nerr11(g: np.ndarray, m: Measure) -> np.ndarray:
    return _insq_factor(m) * (1.0 - g)


def _kernel(continuation: Continuation) -> Callable[[Aligned, Measure], np.ndarray]:
    def kernel(a: Aligned, m: Measure) -> np.ndarray:
        return _expected_utility(a, m, continuation)

    kernel.__name__ = continuation.__name__.lstrip("_")
    return kernel


_SCALE = (_MIN_REL, _MAX_REL)
_COMMON: dict[str, Any] = {"family": "cwl", "needs_unretrieved": False}

register("SDCG", "scaled DCG (C/W/L, cwl-eval): DCG@k with linear gains scaled to [0, 1] by "
         "max_rel, divided by the DCG of k top-grade documents", params=_SCALE, cutoff="int",
         cutoff_required=True, aliases=("sdcg",), **_COMMON)(_kernel(_sdcg))
register("INST", "INST (Moffat et al. 2015, cwl-eval): expected gain per document read by a "
         "user who wants T gain, C_r = ((r + T + T_r - 1) / (r + T + T_r))^2",
         params=(_T, *_SCALE), aliases=("inst",), **_COMMON)(_kernel(_inst))
register("INSQ", "INSQ (Moffat et al. 2012, cwl-eval): C_r = ((r + 2T - 1) / (r + 2T))^2",
         params=(_T, *_SCALE), aliases=("insq",), **_COMMON)(_kernel(_insq))
register("BPM", "Bejeweled Player Model, static (Zhang et al. 2017, cwl-eval): the user reads "
         "on while the gain so far is below T and fewer than K (the cutoff) documents are read",
         params=(_T, *_SCALE), cutoff="int", cutoff_required=True, aliases=("bpm",),
         **_COMMON)(_kernel(_bpm))
register("NERR8", "not-but-nearly ERR, eq. 8 (Azzopardi et al. 2021, cwl-eval): C_r = 1 - g_r "
         "for r < k", params=_SCALE, cutoff="int", cutoff_required=True, aliases=("nerr8",),
         **_COMMON)(_kernel(_nerr8))
register("NERR9", "not-but-nearly ERR, eq. 9 (cwl-eval): C_r = r / (r + 1) (1 - g_r) for r < k",
         params=_SCALE, cutoff="int", cutoff_required=True, aliases=("nerr9",),
         **_COMMON)(_kernel(_nerr9))
register("NERR10", "not-but-nearly ERR, eq. 10 (cwl-eval): C_r = p (1 - g_r)",
         params=(_P, *_SCALE), aliases=("nerr10",), **_COMMON)(_kernel(_nerr10))
register("NERR11", "not-but-nearly ERR, eq. 11 (cwl-eval): C_r = ((r + 2T - 1) / (r + 2T))^2 "
         "(1 - g_r)", params=(_T, *_SCALE), aliases=("nerr11",), **_COMMON)(_kernel(_nerr11))
