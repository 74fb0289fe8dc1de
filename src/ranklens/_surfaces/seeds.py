"""Several runs per system (seeds, folds): per-query means across a system's runs, the spread
across runs beside the spread across queries, and tests with the run-to-run variance counted."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .._base.errors import ParameterError
from .._base.lazy import polars as pl
from .._base.validate import Choice, check
from .._results.results import Results
from .compare.corrections import adjust
from .compare.options import CORRECTIONS
from .segments import read_groups

__all__ = ["SEED_TESTS", "Seeds", "seeds"]

#: The tests :func:`seeds` offers, by name.
SEED_TESTS = {"t": "paired t on per-query means",
              "anova": "two-way ANOVA system x query, runs as replicates"}


@dataclass(frozen=True)
class Seeds:
    """Systems of several runs each, compared with a baseline system.

    Attributes
    ----------
    spread : one row per system and measure: ``system, measure, runs, n, mean, sd_runs``
        (standard deviation of each run's mean over the queries) and ``sd_queries`` (of the
        per-query means across runs).
    pairs : one row per measure and system against the baseline: ``measure, system, baseline,
        n, difference, test, statistic, df, p_value, p_adjusted, significant``.
    correction : the correction applied across every row of ``pairs``.
    """

    spread: pl.DataFrame
    pairs: pl.DataFrame
    correction: str


def _systems(systems: Mapping[str, Sequence[str]] | str | Path, runs: Sequence[str],
             ) -> dict[str, list[int]]:
    """Each system's columns of the results, from ``{system: [run, ...]}`` or a file."""
    if isinstance(systems, (str, Path)):
        listed: dict[str, list[str]] = {}
        for run, names in read_groups(systems).items():
            for name in names:
                listed.setdefault(name, []).append(run)
        systems = listed
    out = {}
    for system, members in systems.items():
        members = [members] if isinstance(members, str) else list(members)
        unknown = [m for m in members if m not in runs]
        if unknown or not members:
            raise ParameterError(f"system {system!r}: runs {unknown or members} are not among "
                                 f"the evaluated runs {list(runs)}; name runs as evaluated")
        out[str(system)] = [runs.index(m) for m in members]
    return out


def _anova(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    """F, its error degrees of freedom and p for the system effect of two systems' scores
    (queries x runs each, as many runs each), the interaction in the model."""
    from scipy.stats import f

    if a.shape != b.shape or a.shape[1] < 2:
        raise ParameterError("the 'anova' test needs as many runs (at least 2) in each "
                             f"system; got {a.shape[1]} and {b.shape[1]}: use test='t'")
    cells, r = np.stack([a, b]), a.shape[1]  # system x query x run
    within = cells - cells.mean(axis=2, keepdims=True)
    df = cells.shape[1] * 2 * (r - 1)
    effect = cells.shape[1] * r * float(np.sum((cells.mean(axis=(1, 2)) - cells.mean()) ** 2))
    error = float(np.sum(within ** 2)) / df
    statistic = effect / error if error > 0 else math.nan
    return statistic, float(df), float(f.sf(statistic, 1, df))


def seeds(results: Results, systems: Mapping[str, Sequence[str]] | str | Path, *,
          baseline: str | None = None, measures: Sequence[str] | None = None,
          test: str = "t", correction: str = "holm", alpha: float = 0.05) -> Seeds:
    """Compare systems of several runs each (seeds, folds) with a baseline system.

    Each pair uses the queries every run of both systems has a value for.

    Parameters
    ----------
    results : Results
        From :func:`ranklens.evaluate`, one column per run.
    systems : mapping or path
        ``{system: [run, ...]}``, or a file of ``run system`` lines.
    baseline : str, optional
        The system the others are compared with (default: the first).
    measures : list of str, optional
        Default: every measure of ``results``.
    test : {"t", "anova"}
        ``"t"``: a paired t-test on the per-query means across runs. ``"anova"``: the system
        effect of a two-way ANOVA system x query with interaction, the runs as replicates
        (as many runs per system).
    correction : {"holm", "bonferroni", "fdr_bh", "none"}
        Applied once across every measure x system test.
    alpha : float, default 0.05
        Significance level of the adjusted p-values.

    Examples
    --------
    >>> import ranklens
    >>> qrels = {f"q{i}": {"a": 1} for i in range(4)}
    >>> runs = {f"{s}{k}": {f"q{i}": {"a": 1.0, "z": 2.0 if s == "x" or i + k < 3 else 0.5}
    ...         for i in range(4)} for s in "xy" for k in range(2)}
    >>> res = ranklens.evaluate(qrels, runs, ["RR"])
    >>> out = ranklens.seeds(res, {"x": ["x0", "x1"], "y": ["y0", "y1"]})
    >>> [(s, m, round(sd, 4)) for s, m, sd in out.spread.select("system", "mean", "sd_runs").rows()]
    [('x', 0.5, 0.0), ('y', 0.6875, 0.0884)]
    """
    from scipy.stats import ttest_rel

    check("test", test, Choice(tuple(SEED_TESTS)))
    check("correction", correction, Choice(CORRECTIONS))
    columns = _systems(systems, list(results.run_names))
    if len(columns) < 2:
        raise ParameterError(f"the 'systems' argument needs two systems or more; got "
                             f"{list(columns)}")
    baseline = next(iter(columns)) if baseline is None else baseline
    if baseline not in columns:
        raise ParameterError(f"baseline {baseline!r} is not a system; give one of "
                             f"{list(columns)}")
    spread, rows = [], []
    for measure in measures or results.measures:
        values = np.asarray(results.values(measure), dtype=np.float64)
        for system, at in columns.items():
            x = values[:, at][~np.isnan(values[:, at]).any(axis=1)]
            sd_runs = float(np.std(x.mean(axis=0), ddof=1)) if len(at) > 1 else math.nan
            spread.append((system, measure, len(at), len(x), float(np.mean(x)), sd_runs,
                           float(np.std(x.mean(axis=1), ddof=1))))
            if system == baseline:
                continue
            both = values[:, at + columns[baseline]]
            kept = values[~np.isnan(both).any(axis=1)]
            a, b = kept[:, at], kept[:, columns[baseline]]
            if test == "t":
                t = ttest_rel(a.mean(axis=1), b.mean(axis=1))
                stat, df, p = float(t.statistic), float(len(kept) - 1), float(t.pvalue)
            else:
                stat, df, p = _anova(a, b)
            rows.append((measure, system, baseline, len(kept),
                         float(a.mean() - b.mean()), SEED_TESTS[test], stat, df, p))
    adjusted = adjust(np.array([r[-1] for r in rows], dtype=np.float64),
                      correction)  # type: ignore[arg-type]
    names = ["system", "measure", "runs", "n", "mean", "sd_runs", "sd_queries"]
    pair_names = ["measure", "system", "baseline", "n", "difference", "test", "statistic",
                  "df", "p_value"]
    pairs = pl.DataFrame(rows, schema=pair_names, orient="row").with_columns(
        p_adjusted=pl.Series(adjusted, dtype=pl.Float64),
        significant=pl.Series(adjusted < alpha))
    return Seeds(pl.DataFrame(spread, schema=names, orient="row"), pairs, correction)
