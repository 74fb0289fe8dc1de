"""Do two evaluations rank the same systems the same way?

``coefficients``  Kendall's tau-b, Spearman's rho, tau_AP: :func:`rank_correlation`
``render``        correlations as a table, in the formats of ``ranklens correlate``
"""

from __future__ import annotations

from .coefficients import CORRELATION_METHODS, CorrelationMethod, RankCorrelation, rank_correlation

__all__ = ["CORRELATION_METHODS", "CorrelationMethod", "RankCorrelation", "rank_correlation"]
