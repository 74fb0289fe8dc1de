"""One comparison of two systems on one measure: :class:`PairComparison`."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PairComparison"]


@dataclass(frozen=True)
class PairComparison:
    """One measure, one system against its baseline (or the other system of a pair).

    Differences are ``system - baseline``, paired by query id.

    Attributes
    ----------
    measure : the measure's requested name.
    system, baseline : the two runs' names.
    n : queries compared (both systems have a value).
    excluded : queries left out because one of the two has no value (``missing="skip"``,
        ``empty="skip"``/``"nan"``); 0 under the default policies.
    mean_system, mean_baseline : means over the ``n`` queries.
    difference : ``mean_system - mean_baseline``.
    ci_low, ci_high : confidence interval of the difference (t or bootstrap).
    effect_size : d_z = mean(d) / sd(d) (for Tukey HSD, Sakai's ES_E = diff / sqrt(V_E)).
    wins, ties, losses : queries where the system is above, equal to (float noise snapped),
        below the baseline.
    p_value : the test's two-sided p-value (NaN when it cannot be computed).
    p_adjusted : after the correction (Tukey HSD's p is family-wise already).
    significant : ``p_adjusted < alpha``.
    direction : +1 (system significantly higher), -1 (significantly lower), 0 (not
        significant): the sign of ``difference`` (of wins - losses if that is 0).
    exact : False when the p-value was estimated by sampling (Monte Carlo randomization,
        randomised Tukey, the bootstrap test); True when every pattern was counted and for
        the tests with a formula (t, Wilcoxon, sign, Tukey HSD).
    """

    measure: str
    system: str
    baseline: str
    n: int
    excluded: int
    mean_system: float
    mean_baseline: float
    difference: float
    ci_low: float
    ci_high: float
    effect_size: float
    wins: int
    ties: int
    losses: int
    p_value: float
    p_adjusted: float
    significant: bool
    direction: int
    exact: bool = True
