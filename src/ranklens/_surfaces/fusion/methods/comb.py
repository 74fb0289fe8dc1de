"""The score-combining methods of Fox & Shaw and their weighted kin (CombSUM, CombMNZ, ...).

``n(d)`` is the number of runs retrieving ``d``; ``s_r(d)`` run ``r``'s normalised score.
"""

from __future__ import annotations

import numpy as np

from ..registry import Inputs, Number, Param, register
from ._common import count, over_runs

GAMMA = Param("gamma", Number(), None, "the exponent of the number of runs")


@register("sum", aliases=("combsum", "comb_sum"))
def comb_sum(inputs: Inputs) -> np.ndarray:
    """CombSUM.

    ``score(d) = sum over runs r retrieving d of s_r(d)`` (a run without ``d`` adds 0).

    Fox & Shaw, "Combination of multiple searches", TREC-2, 1993.
    """
    return over_runs(inputs, inputs.score)


@register("mnz", aliases=("combmnz", "comb_mnz"))
def comb_mnz(inputs: Inputs) -> np.ndarray:
    """CombMNZ.

    ``score(d) = n(d) * sum over runs r retrieving d of s_r(d)``, ``n(d)`` the number of runs
    retrieving ``d``.

    Fox & Shaw, "Combination of multiple searches", TREC-2, 1993; Lee, "Analyses of multiple
    evidence combination", SIGIR 1997.
    """
    return over_runs(inputs, inputs.score) * count(inputs)


@register("max", aliases=("combmax", "comb_max"))
def comb_max(inputs: Inputs) -> np.ndarray:
    """CombMAX.

    ``score(d) = max over runs r retrieving d of s_r(d)``.

    Under ``convention="ranx"`` a run without ``d`` counts as the score ``-1e9`` (ranx's
    placeholder), which only matters when every present score is beyond it.

    Fox & Shaw, "Combination of multiple searches", TREC-2, 1993.
    """
    absent = -1e9 if inputs.candidates.ranx else -np.inf
    return np.where(inputs.present, inputs.score, absent).max(axis=1)


@register("min", aliases=("combmin", "comb_min"))
def comb_min(inputs: Inputs) -> np.ndarray:
    """CombMIN.

    ``score(d) = min over runs r retrieving d of s_r(d)``.

    Under ``convention="ranx"`` a run without ``d`` counts as the score ``1e9`` (ranx's
    placeholder), which only matters when every present score is beyond it.

    Fox & Shaw, "Combination of multiple searches", TREC-2, 1993.
    """
    absent = 1e9 if inputs.candidates.ranx else np.inf
    return np.where(inputs.present, inputs.score, absent).min(axis=1)


@register("med", aliases=("combmed", "comb_med"))
def comb_med(inputs: Inputs) -> np.ndarray:
    """CombMED.

    ``score(d) = median over runs r retrieving d of s_r(d)`` (the mean of the two middle
    scores for an even number of runs).

    Fox & Shaw, "Combination of multiple searches", TREC-2, 1993.
    """
    # absent scores sort last (inf); the middle of the n present ones is then read by index
    s = np.sort(np.where(inputs.present, inputs.score, np.inf), axis=1)
    n = count(inputs).astype(np.int64)
    rows = np.arange(s.shape[0])
    low = s[rows, np.maximum((n - 1) // 2, 0)]
    high = s[rows, np.maximum(n // 2, 0)]
    return np.where(n % 2 == 1, low, (low + high) / 2)


@register("anz", aliases=("combanz", "comb_anz"))
def comb_anz(inputs: Inputs) -> np.ndarray:
    """CombANZ.

    ``score(d) = (sum over runs r retrieving d of s_r(d)) / n(d)``: the mean over the runs that
    retrieve ``d``.

    Fox & Shaw, "Combination of multiple searches", TREC-2, 1993.
    """
    return over_runs(inputs, inputs.score) / count(inputs)


@register("gmnz", aliases=("combgmnz", "comb_gmnz"), params=(GAMMA,))
def comb_gmnz(inputs: Inputs, gamma: float) -> np.ndarray:
    """CombGMNZ.

    ``score(d) = n(d)^gamma * sum over runs r retrieving d of s_r(d)``: CombSUM at
    ``gamma = 0``, CombMNZ at ``gamma = 1`` (``gamma`` is required, as in ranx).

    Joon Ho Lee, "Analyses of multiple evidence combination", SIGIR 1997.
    """
    return over_runs(inputs, inputs.score) * count(inputs) ** gamma


@register("wsum", aliases=("weighted_sum", "combwsum"), weights=True)
def wsum(inputs: Inputs) -> np.ndarray:
    """Weighted sum (weighted CombSUM, linear combination).

    ``score(d) = sum over runs r of w_r * s_r(d)``, a run without ``d`` adding 0.

    Bartell, Cottrell & Belew, "Automatic combination of multiple ranked retrieval systems",
    SIGIR 1994.
    """
    return over_runs(inputs, inputs.weights * inputs.score)


@register("wmnz", aliases=("weighted_mnz",), weights=True)
def wmnz(inputs: Inputs) -> np.ndarray:
    """Weighted CombMNZ (WMNZ).

    ``score(d) = (sum over runs r retrieving d of s_r(d)) * (sum over runs r retrieving d of
    w_r)``: the count of CombMNZ replaced by the weights of the runs that retrieve ``d``.

    Wu, Bi & McClean, "Methods for ranking information retrieval systems without relevance
    judgments", SAC 2007 (as ranx implements it).
    """
    weights = np.broadcast_to(inputs.weights, inputs.score.shape)
    return over_runs(inputs, inputs.score) * over_runs(inputs, weights)


@register("mixed", weights=True)
def mixed(inputs: Inputs) -> np.ndarray:
    """Mixed.

    ``score(d) = sqrt(n(d)) * sum over runs r retrieving d of w_r * s_r(d)``.

    Wu, "Applying statistical principles to data fusion in information retrieval", Expert
    Systems with Applications 36, 2009.
    """
    return over_runs(inputs, inputs.score * inputs.weights) * np.sqrt(count(inputs))
