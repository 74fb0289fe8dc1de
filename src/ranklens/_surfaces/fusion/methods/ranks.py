"""The rank-reading methods: reciprocal rank fusion, the inverse square ranks, RBC."""

from __future__ import annotations

import numpy as np

from ..registry import Inputs, Number, Param, register
from ._common import count, over_runs

K = Param("k", Number(0.0), 60, "RRF's constant: each rank r contributes 1 / (k + r)")
PHI = Param("phi", Number(0.0, 1.0, open_low=True, open_high=True), None,
            "RBC's persistence: rank r contributes (1 - phi) phi^(r - 1)")
SIGMA = Param("sigma", Number(0.0, 1.0), 0.01, "added to the count of runs in the logarithm")


@register("rrf", aliases=("reciprocal_rank_fusion",), params=(K,))
def rrf(inputs: Inputs, k: float) -> np.ndarray:
    """Reciprocal rank fusion (RRF).

    ``score(d) = sum over runs r retrieving d of 1 / (k + rank_r(d))``, ``k = 60`` by default.

    Cormack, Clarke & Buettcher, "Reciprocal rank fusion outperforms Condorcet and individual
    rank learning methods", SIGIR 2009.
    """
    with np.errstate(divide="ignore"):  # k = 0 at an absent document's rank 0: masked
        return over_runs(inputs, 1.0 / (k + inputs.rank))


def _inverse_squares(inputs: Inputs) -> np.ndarray:
    with np.errstate(divide="ignore"):  # an absent document's rank 0: masked
        return over_runs(inputs, 1.0 / inputs.rank.astype(np.float64) ** 2)


@register("isr", aliases=("inverse_square_rank",))
def isr(inputs: Inputs) -> np.ndarray:
    """Inverse square rank (ISR).

    ``score(d) = n(d) * sum over runs r retrieving d of 1 / rank_r(d)^2``, ``n(d)`` the number
    of runs retrieving ``d`` (CombMNZ of ``1 / rank^2``).

    Mourão, Martins & Magalhães, "Inverse square rank fusion for multimodal search", CBMI 2014.
    """
    return _inverse_squares(inputs) * count(inputs)


@register("log_isr", aliases=("logisr",))
def log_isr(inputs: Inputs) -> np.ndarray:
    """Logarithmic inverse square rank (log-ISR).

    ``score(d) = log(n(d)) * sum over runs r retrieving d of 1 / rank_r(d)^2``: a document one
    run alone retrieves scores 0.

    Mourão, Martins & Magalhães, "Multimodal medical information retrieval with unsupervised
    rank fusion", Computerized Medical Imaging and Graphics 39, 2015.
    """
    return _inverse_squares(inputs) * np.log(count(inputs))


@register("logn_isr", aliases=("lognisr",), params=(SIGMA,))
def logn_isr(inputs: Inputs, sigma: float) -> np.ndarray:
    """Log-normalised inverse square rank (logN-ISR).

    ``score(d) = log(n(d) + sigma) * sum over runs r retrieving d of 1 / rank_r(d)^2``,
    ``sigma = 0.01`` by default, so a document one run alone retrieves keeps a small score.

    Mourão, Martins & Magalhães, "Multimodal medical information retrieval with unsupervised
    rank fusion", Computerized Medical Imaging and Graphics 39, 2015.
    """
    with np.errstate(divide="ignore"):
        return _inverse_squares(inputs) * np.log(count(inputs) + sigma)


@register("rbc", aliases=("rank_biased_centroids",), params=(PHI,))
def rbc(inputs: Inputs, phi: float) -> np.ndarray:
    """Rank-biased centroids (RBC).

    ``score(d) = sum over runs r retrieving d of (1 - phi) * phi^(rank_r(d) - 1)`` (``phi``
    required, as in ranx; Bailey et al. use 0.8 to 0.99).

    Bailey, Moffat, Scholer & Thomas, "Retrieval consistency in the presence of query
    variations", SIGIR 2017.
    """
    return over_runs(inputs, (1 - phi) * phi ** (inputs.rank - 1).astype(np.float64))
