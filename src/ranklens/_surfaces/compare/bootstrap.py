"""Paired bootstrap intervals of mean(d): percentile, basic and BCa (scipy's definitions).

Resamples: ``rng = numpy.random.default_rng(seed)``; each block of rows is
``rng.integers(0, n, (rows, n))`` (the same numbers whatever the block size), and
``theta* = mean(d[idx])`` per row: what ``scipy.stats.bootstrap((d,), np.mean, rng=...)``
draws. BCa's bias correction is ``ndtri((#(theta* < theta) + #(theta* <= theta)) / 2B)``
and its acceleration comes from the jackknife, whose leave-one-out means are computed in
closed form, ``(sum(d) - d_i) / (n - 1)``, instead of scipy's n x (n - 1) matrix.

The bootstrap test (Efron and Tibshirani's shift method, as Smucker et al. 2007 ran it)
resamples the differences shifted to mean 0 from the same stream and counts the means at
least as far from 0 as the observed one: ``p = (b + 1) / (B + 1)``. It is known to be too
liberal on small topic sets (Smucker et al. 2009; Urbano et al. 2019).
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np

from ..._results.interval import bootstrap_means
from .differences import degenerate

__all__ = ["BootstrapMethod", "bootstrap_interval", "bootstrap_means", "bootstrap_test"]

BootstrapMethod = Literal["percentile", "basic", "bca"]


@degenerate(identical=(0.0, 0.0), too_few=(math.nan, math.nan))
def bootstrap_interval(d: np.ndarray, *, method: BootstrapMethod = "bca",
                       confidence: float = 0.95, resamples: int = 9999, seed: int = 0,
                       block_size: int = 512) -> tuple[float, float]:
    """Two-sided bootstrap confidence interval of mean(d).

    All differences 0 gives [0, 0]; fewer than two differences gives NaN.

    Examples
    --------
    >>> import numpy as np
    >>> d = np.array([0.1, 0.2, 0.3, -0.1, 0.0, 0.2])
    >>> low, high = bootstrap_interval(d, method="percentile", resamples=999)
    >>> bool(low < float(np.mean(d)) < high)
    True
    """
    from scipy.special import ndtr, ndtri

    n = d.size
    theta_b = bootstrap_means(d, resamples, seed, block_size)
    alpha = (1 - confidence) / 2
    theta = float(np.mean(d))
    if method == "bca":
        share = (np.count_nonzero(theta_b < theta) + np.count_nonzero(theta_b <= theta)) \
            / (2 * resamples)
        z0 = float(ndtri(share))
        jack = (np.sum(d) - d) / (n - 1)
        u = (n - 1) * (np.mean(jack) - jack)
        a_hat = 1 / 6 * (np.sum(u ** 3) / n ** 3) / (np.sum(u ** 2) / n ** 2) ** 1.5
        z_alpha = float(ndtri(alpha))
        low_z, high_z = z0 + z_alpha, z0 - z_alpha
        levels = [float(ndtr(z0 + low_z / (1 - a_hat * low_z))),
                  float(ndtr(z0 + high_z / (1 - a_hat * high_z)))]
    else:
        levels = [alpha, 1 - alpha]
    if any(math.isnan(v) for v in levels):
        return math.nan, math.nan
    low, high = (float(v) for v in np.quantile(theta_b, levels))
    if method == "basic":
        return 2 * theta - high, 2 * theta - low
    return low, high


@degenerate(identical=1.0, too_few=math.nan)
def bootstrap_test(d: np.ndarray, resamples: int = 9999, seed: int = 0,
                   block_size: int = 512) -> float:
    """Two-sided bootstrap shift test of mean(d) = 0.

    ``b = #{|mean(d0[idx])| >= |mean(d)| - tau}`` over the ``resamples`` rows of the stream
    (d0 = d - mean(d), tau = 1e-9 * mean |d|); p = (b + 1) / (B + 1). 1 when every d is 0,
    NaN with fewer than two.

    Examples
    --------
    >>> import numpy as np
    >>> d = np.array([0.1, 0.2, 0.3, -0.1, 0.0, 0.2, 0.4, 0.1])
    >>> p = bootstrap_test(d, resamples=999)
    >>> bool(1 / 1000 <= p < 0.05)
    True
    """
    from .randomization import TOLERANCE

    theta = float(np.mean(d))
    shifted = bootstrap_means(d - theta, resamples, seed, block_size)
    threshold = abs(theta) - TOLERANCE * float(np.mean(np.abs(d)))
    return (int(np.count_nonzero(np.abs(shifted) >= threshold)) + 1) / (resamples + 1)
