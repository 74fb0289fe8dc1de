"""``compare`` and ``compare_results``: per-query values -> tests -> corrections -> result."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..._base.errors import ParameterError
from ..._base.warn import warn_user
from ..._measures import Measure
from ..._pipeline.assemble import aggregate
from ..._results.results import Results
from . import paired
from .bootstrap import bootstrap_interval, bootstrap_test
from .corrections import Correction, adjust
from .differences import compared, wins_ties_losses
from .options import (
    CI_METHODS,
    CORRECTIONS,
    TESTS,
    TUKEY,
    CompareKwargs,
    CompareOptions,
    compare_options,
)
from .pair import PairComparison
from .randomization import TOLERANCE, randomization_p
from .result import Comparison
from .tukey import blocked_tukey, randomized_tukey

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from ..._pipeline.options import OptionKwargs

    class CompareAndEvaluateKwargs(CompareKwargs, OptionKwargs, total=False):
        """The keywords :func:`compare` takes: a comparison's and an evaluation's."""

        columns: str | Sequence[str] | None

__all__ = ["CI_METHODS", "CORRECTIONS", "TESTS", "compare", "compare_results"]

def compare(qrels: Any, runs: Any,
            measures: str | Measure | Iterable[str | Measure] | None = None,
            **kwargs: Unpack[CompareAndEvaluateKwargs]) -> Comparison:
    """Compare runs on the same queries: paired tests, corrections, intervals, effect sizes.

    Evaluates ``runs`` with :func:`ranklens.evaluate` (queries aligned by id, the
    ``missing`` policy applies: a judged query a run lacks scores 0 by default) and
    compares the per-query values: each run against ``baseline``, or every pair of runs.

    Parameters
    ----------
    qrels : path, mapping, DataFrame or Qrels
        Judgments, as for :func:`ranklens.evaluate`. Ignored when ``runs`` is a
        :class:`Results` (pass None).
    runs : mapping name -> run, list of runs or paths, or Results
        At least two runs. A :class:`Results` is compared as it is (see
        :func:`compare_results`).
    measures : str, Measure or list of them
        Measures to compare on (every numeric measure of a ``Results`` when None).
    baseline : str, optional
        Name of the baseline run: each other run is compared with it (k - 1 comparisons per
        measure). Default: every pair of runs (k(k - 1)/2).
    test : {"t", "randomization", "wilcoxon", "sign", "bootstrap", "tukey", \
"randomized-tukey"}
        Paired t-test (default); randomization (sign-flip) test, exact when
        ``2 ** nonzero <= permutations``; Wilcoxon signed-rank; sign test; bootstrap shift
        test (``resamples`` resamples); for three or more runs, the topic-blocked Tukey HSD
        or the randomised Tukey HSD (family-wise already).
    correction : {"holm", "bonferroni", "fdr_bh", "none"}
        Multiple-testing correction over each measure's comparisons (NaN p-values left out).
        Default: ``"holm"``, or for a Tukey test its own family-wise control.
        ``"tukey"`` / ``"randomized-tukey"`` without a ``test`` select that test; a Tukey
        name with a different explicit test or correction is a :class:`ParameterError`.
    alpha : float, default 0.05
        A difference is significant when its adjusted p is below ``alpha``.
    seed : int, default 0
        Seed of the randomization, randomised Tukey and bootstrap streams (0 to 2**63 - 1):
        the same seed gives bit-identical p-values and intervals whatever ``block_size``
        and the BLAS thread count.
    permutations : int, default 9999
        Sign patterns (randomization) or iterations (randomised Tukey) sampled when the test
        is not exact; p = (b + 1)/(m + 1). Use 100,000 for publication (Smucker et al. 2009).
    ci : {"t", "percentile", "basic", "bca", "bootstrap"}
        Interval of the difference: Student's t, or the paired bootstrap (``"bootstrap"`` is
        ``"bca"``).
    confidence : float, default 0.95
        Level of the intervals.
    resamples : int, default 9999
        Bootstrap resamples (``ci`` other than "t", and ``test="bootstrap"``).
    correction_scope : {"measure", "all"}
        One family per measure (as PyTerrier), or every comparison of every measure.
    block_size : int, default 512
        Random rows drawn per matrix product (memory only; results do not depend on it).
    options, **kwargs
        Evaluation options, as for :func:`ranklens.evaluate` (``missing``, ``rel``,
        ``ties``, ``convention``, ..., or one :class:`EvaluateOptions`); ``columns``
        reads run paths as headerless files, as it does there.

    Returns
    -------
    Comparison
        ``cmp.pairs``: a :class:`PairComparison` per measure and pair, with means,
        difference and interval, effect size d_z, wins/ties/losses, p and adjusted p.
        ``cmp.render("latex")`` gives the table.

    Examples
    --------
    >>> import ranklens
    >>> qrels = {f"q{i}": {"a": 1, "b": 1} for i in range(8)}
    >>> good = {f"q{i}": {"a": 2.0, "b": 1.0} for i in range(8)}
    >>> bad = {f"q{i}": {"x": 2.0, "a": 1.0} for i in range(8)}
    >>> cmp = ranklens.compare(qrels, {"bad": bad, "good": good}, "P@1", baseline="bad",
    ...                        test="randomization")
    >>> p = cmp.pair("P@1", "good", "bad")
    >>> p.difference, p.p_value, p.direction
    (1.0, 0.0078125, 1)
    """
    evaluation: dict[str, Any] = dict(kwargs)
    options = evaluation.pop("options", None)
    chosen, evaluation = compare_options(evaluation)
    if isinstance(runs, Results):
        if evaluation or options is not None:
            raise ParameterError(
                "evaluation options (" + ", ".join(evaluation or ["options"]) + ") apply "
                "when runs are evaluated; these Results are evaluated already")
        results = runs
    else:
        from ..evaluate import evaluate

        if measures is None:
            raise ParameterError("the 'measures' argument is required to evaluate runs")
        evaluated = evaluate(qrels, runs, measures, options=options, **evaluation)
        if not isinstance(evaluated, Results):
            raise ParameterError("compare needs several runs (a mapping name -> run, a list "
                                 "of runs or a Results); got one run")
        results = evaluated
    return _compared(results, measures if isinstance(runs, Results) else list(results.names),
                     chosen)


def _check(results: Results, options: CompareOptions) -> None:
    """What the options alone cannot tell: the runs, the baseline, a Tukey test's size."""
    if len(results) < 2:
        raise ParameterError(f"compare needs at least two runs; got {len(results)} "
                             f"({', '.join(results.run_names)})")
    baseline = options.baseline
    if baseline is not None and baseline not in results.run_names:
        raise ParameterError(f"the 'baseline' option must name one of the runs "
                             f"({', '.join(results.run_names)}); got {baseline!r}")
    if options.test in TUKEY and len(results) < 3:
        raise ParameterError(f"the {options.test!r} test compares three or more runs; got "
                             f"{len(results)} (use test='t' or 'randomization' for two)")


def compare_results(results: Results,
                    measures: str | Measure | Iterable[str | Measure] | None = None,
                    **kwargs: Unpack[CompareKwargs]) -> Comparison:
    """:func:`compare` on per-query values already computed (a :class:`Results`).

    Queries are paired by id on the Results' query axis. A query where either run has no
    value (``missing="skip"``, ``empty="skip"``) is left out of that pair, counted in
    ``excluded`` and named in a :class:`RanklensWarning`; nothing is dropped silently.

    Examples
    --------
    >>> import ranklens
    >>> qrels = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1}}
    >>> res = ranklens.evaluate(qrels, {"x": {"q1": {"a": 1.0}, "q2": {"b": 1.0}},
    ...                                 "y": {"q1": {"z": 1.0}, "q2": {"b": 1.0}}},
    ...                         ["P@1"], missing="zero")
    >>> cmp = ranklens.compare_results(res, baseline="x", test="sign")
    >>> cmp.pair("P@1", "y", "x").p_value
    1.0
    """
    chosen, unknown = compare_options(dict(kwargs))
    if unknown:
        raise ParameterError(f"unknown option {next(iter(unknown))!r}; compare_results "
                             f"takes {', '.join(CompareOptions.__dataclass_fields__)}")
    return _compared(results, measures, chosen)


def _compared(results: Results, measures: str | Measure | Iterable[str | Measure] | None,
              options: CompareOptions) -> Comparison:
    _check(results, options)
    o = options
    names = _measure_names(results, measures)
    runs = results.run_names
    if o.baseline is None:
        pairs = [(j, i) for i in range(len(runs)) for j in range(i + 1, len(runs))]
    else:
        b = runs.index(o.baseline)
        pairs = [(j, b) for j in range(len(runs)) if j != b]
    rows: list[dict[str, Any]] = []
    means: dict[str, dict[str, float]] = {}
    clipped: list[tuple[str, str, str]] = []
    excluded: dict[tuple[int, int, tuple[Any, ...]], list[str]] = {}
    for name in names:
        values = results.values(name)
        means[name] = _run_means(results, name, values)
        bounded = _unit_range(results.measures[name].in_unit_range, values)
        rows += _measure_rows(name, values, runs, pairs, o, results.query_ids,
                              bounded, clipped, excluded, means[name])
    _warn_excluded(runs, excluded, results.vocabulary.queries)
    _warn_unreachable(rows, o.test, o.alpha, o.permutations)
    _correct(rows, o.correction, o.correction_scope)
    out = []
    for row in rows:
        significant = bool(not math.isnan(row["p_adjusted"]) and row["p_adjusted"] < o.alpha)
        if not significant:
            row["direction"] = 0
        out.append(PairComparison(**row, significant=significant, source=results,
                                  together=o.test in TUKEY))
    random = o.test in ("randomization", "randomized-tukey")
    return Comparison(
        pairs=tuple(out), run_names=runs, measures=tuple(names), means=means,
        n_queries=len(results.query_ids), baseline=o.baseline, test=o.test,
        correction=o.correction, correction_scope=o.correction_scope, alpha=float(o.alpha),
        confidence=float(o.confidence), ci=o.ci,
        permutations=int(o.permutations) if random else None,
        resamples=int(o.resamples) if o.ci != "t" or o.test == "bootstrap" else None,
        seed=int(o.seed),
        lower_is_better=tuple(n for n in names
                              if results.measures[n].definition.lower_is_better),
        clipped=tuple(clipped), results=results)


def _unit_range(unit_range: bool, values: np.ndarray) -> bool:
    """Whether a difference of the measure lies in [-1, 1]: a measure the registry declares
    in [0, 1] (``Facts.unit_range``, for these parameters) whose every per-query value
    here does lie in [0, 1] (conservative: both must hold)."""
    if not unit_range:
        return False
    kept = values[~np.isnan(values)]
    return bool(kept.size == 0 or (kept.min() >= 0.0 and kept.max() <= 1.0))


def _measure_names(results: Results,
                   measures: str | Measure | Iterable[str | Measure] | None) -> list[str]:
    text = set(results.results[0].text_values)
    # a catalogue-level measure (Coverage@k, Gini@k) has one value for all queries
    whole = {n for n in results.names
             if results.measures[n].definition.aggregate == "catalogue"}
    if measures is None:
        return [n for n in results.names if n not in text and n not in whole]
    chosen = [measures] if isinstance(measures, (str, Measure)) else list(measures)
    names = [results._name(m) for m in chosen]
    if not names:
        raise ParameterError("the 'measures' argument is empty; give at least one measure")
    refused = [n for n in names if n in whole]
    if refused:
        raise ParameterError(
            f"{', '.join(refused)} {'is' if len(refused) == 1 else 'are'} catalogue-level: "
            "one value for all queries, no per-query values to test; compare per-query "
            "measures (Novelty@k, ARP@k, ILD@k, ...)")
    return names


def _mean(values: np.ndarray) -> float:
    """The mean of the values that are not NaN as ``evaluate`` computes an aggregate (a
    left-to-right sum in query order, then one division); NaN when there is none."""
    kept = ~np.isnan(values)
    return aggregate(values, "mean", keep=kept) if kept.any() else math.nan


def _run_means(results: Results, name: str, values: np.ndarray) -> dict[str, float]:
    """Each run's mean of ``name``: the Result's own aggregate (what ``evaluate`` prints)
    where it is a mean over every query of the axis, else :func:`_mean` of its values."""
    plain = results.measures[name].definition.aggregate == "mean"
    aggregates = results.aggregates(name)
    out = {}
    for j, run in enumerate(results.run_names):
        column = values[:, j]
        whole = plain and not np.isnan(column).any() \
            and len(results.results[j].query_ids) == column.size
        out[run] = float(aggregates[j]) if whole else _mean(column)
    return out


def _measure_rows(name: str, values: np.ndarray, runs: tuple[str, ...],
                  pairs: list[tuple[int, int]], options: CompareOptions,
                  query_ids: np.ndarray, bounded: bool, clipped: list[tuple[str, str, str]],
                  excluded: dict[tuple[int, int, tuple[Any, ...]], list[str]],
                  means: dict[str, float]) -> list[dict[str, Any]]:
    """Everything but the correction, for each pair of one measure.

    A pair with fewer than two shared queries gets no test: p, the interval and the effect
    size are NaN (a RanklensWarning names the pairs). With ``bounded`` (differences lie in
    [-1, 1]) an interval reaching past that range is clipped to it, and the pair is
    appended to ``clipped``.

    The means of a pair are over its queries, computed as ``evaluate`` computes an aggregate
    (``means``, the runs' means, when no query is left out), and ``difference`` is their
    difference: its sign is the means'. The tests, intervals and effect sizes read the
    per-query differences."""
    test, seed, ci, resamples = options.test, options.seed, options.ci, options.resamples
    confidence, block_size = options.confidence, options.block_size
    # a Tukey test is one test over all systems: the topics every system has a value for
    kept, diffs = compared(values, pairs, test in TUKEY)
    # under (pair, queries left out), the measures whose comparison left them out
    for (s, b), k in zip(pairs, kept, strict=True):
        if not k.all():
            excluded.setdefault((s, b, tuple(query_ids[~k].tolist())), []).append(name)
    p, exact, effects = _p_values(values, pairs, kept, diffs, test,
                                  resamples if test == "bootstrap" else options.permutations,
                                  seed, block_size)
    untested = [(runs[s], runs[b], int(d.size)) for (s, b), d in zip(pairs, diffs, strict=True)
                if d.size < 2]
    if untested:  # the key (-1, -1, pairs) holds the pairs with no test
        excluded.setdefault((-1, -1, tuple(untested)), []).append(name)
    rows = []
    for at, ((s, b), k, d) in enumerate(zip(pairs, kept, diffs, strict=True)):
        if d.size < 2:
            low = high = math.nan
        elif ci == "t":
            low, high = paired.t_interval(d, confidence)
        else:
            low, high = bootstrap_interval(d, method=ci, confidence=confidence,  # type: ignore[arg-type]
                                           resamples=resamples, seed=seed,
                                           block_size=block_size)
        if bounded and (low < -1.0 or high > 1.0):
            low, high = max(low, -1.0), min(high, 1.0)
            clipped.append((name, runs[s], runs[b]))
        tested = d.size >= 2
        wins, ties, losses = wins_ties_losses(d)
        whole = bool(k.all())
        mean_s = means[runs[s]] if whole else _mean(values[k, s])
        mean_b = means[runs[b]] if whole else _mean(values[k, b])
        # the systems agree on every query (float noise snapped): no difference
        mean = (mean_s - mean_b if d.any() else 0.0) if d.size else math.nan
        # the mean difference's sign, unless it is 0 up to rounding (then wins - losses: a
        # rank or sign test can reject with a mean of 0)
        level = TOLERANCE * float(np.mean(np.abs(d))) if d.size else 0.0
        trend = np.sign(mean) if abs(mean) > level else np.sign(wins - losses)
        rows.append({
            "measure": name, "system": runs[s], "baseline": runs[b], "n": int(d.size),
            "excluded": int(k.size - d.size), "mean_system": mean_s, "mean_baseline": mean_b,
            "difference": mean, "direction": int(trend),
            "ci_low": low, "ci_high": high,
            "effect_size": (math.nan if not tested else effects[at] if effects is not None
                            else paired.effect_size(d)),
            "wins": wins, "ties": ties, "losses": losses,
            "p_value": float(p[at]) if tested else math.nan,
            "p_adjusted": float(p[at]) if tested else math.nan, "exact": bool(exact[at]),
        })
    return rows


def _p_values(values: np.ndarray, pairs: list[tuple[int, int]], kept: list[np.ndarray],
              diffs: list[np.ndarray], test: str, permutations: int, seed: int,
              block_size: int) -> tuple[np.ndarray, np.ndarray, list[float] | None]:
    """Each pair's p-value, whether it is exact, and (Tukey) Sakai's ES_E per pair."""
    count = len(pairs)
    if test in ("t", "wilcoxon", "sign"):
        fn = {"t": paired.t_test, "wilcoxon": paired.wilcoxon_test,
              "sign": paired.sign_test}[test]
        return np.array([fn(d) for d in diffs]), np.ones(count, dtype=bool), None
    if test == "bootstrap":  # permutations here is the number of resamples
        return (np.array([bootstrap_test(d, permutations, seed, block_size) for d in diffs]),
                np.array([not d.any() for d in diffs]), None)
    if test == "randomization":
        # one matrix of differences on the full query axis; a left-out query is a 0
        matrix = np.zeros((values.shape[0], count))
        for j, (k, d) in enumerate(zip(kept, diffs, strict=True)):
            matrix[k, j] = d
        p, exact = randomization_p(matrix, permutations, seed, block_size)
        return p, exact, None
    complete = ~np.isnan(values).any(axis=1)
    scores = values[complete]
    if scores.shape[0] < 2:
        return np.full(count, math.nan), np.ones(count, dtype=bool), [math.nan] * count
    if test == "tukey":
        pm, es = blocked_tukey(scores)
        return (np.array([pm[s, b] for s, b in pairs]), np.ones(count, dtype=bool),
                [float(es[s, b]) for s, b in pairs])
    pm, was_exact = randomized_tukey(scores, permutations, seed, block_size)
    return (np.array([pm[s, b] for s, b in pairs]), np.full(count, was_exact),
            None)


def _warn_unreachable(rows: list[dict[str, Any]], test: str, alpha: float,
                      permutations: int) -> None:
    """Warn where no p-value the test can give is below ``alpha``.

    The rule: a p-value is significant when below ``alpha``, so a test whose smallest
    attainable p is ``>= alpha`` can never be. Sampled (Monte Carlo) randomization and
    randomised Tukey tests give p = (b + 1)/(m + 1) >= 1/(m + 1), with m = ``permutations``:
    when ``1/(m + 1) >= alpha``, nothing can be significant (one warning). The exact
    randomization test and the sign test on nz non-zero differences give p >= 2/2**nz (the
    observed sign pattern and its mirror image): a warning names each pair where that is
    ``>= alpha``. (The correction only raises p-values; the t-test, Wilcoxon's asymptotic
    branch and the bootstrap have no such floor and are not checked.)
    """
    sampled = [r for r in rows if not r["exact"] and not math.isnan(r["p_value"])]
    if test in ("randomization", "randomized-tukey") and sampled \
            and 1.0 / (permutations + 1) >= alpha:
        warn_user(
            f"the 'permutations' option {permutations} gives p-values of at least "
            f"1/({permutations} + 1) = {1.0 / (permutations + 1):.3g} >= alpha "
            f"{alpha:g}: no test can be significant at this alpha (use permutations >= "
            f"{math.floor(1.0 / alpha)})")
    if test not in ("randomization", "sign"):
        return
    floors = []
    for r in rows:
        nz = r["wins"] + r["losses"]
        if (r["exact"] and not math.isnan(r["p_value"]) and nz
                and 2.0 ** (1 - nz) >= alpha):
            floors.append(f"{r['measure']} {r['system']} vs {r['baseline']} ({nz} non-zero "
                          f"differences: p >= 2/2**{nz} = {2.0 ** (1 - nz):.3g})")
    if floors:
        warn_user(f"no test can be significant at alpha {alpha:g} for "
                      + "; ".join(floors[:5]) + (" ..." if len(floors) > 5 else ""))


def _warn_excluded(runs: tuple[str, ...],
                   excluded: dict[tuple[int, int, tuple[Any, ...]], list[str]],
                   queries: str = "queries") -> None:
    """One warning per pair and set of queries left out, and one per set of pairs with no
    test, each naming every measure concerned (not one per measure); ``queries``: the
    vocabulary's word for them."""
    for (s, b, left), names in excluded.items():
        if s < 0:  # pairs with no test (fewer than 2 shared queries)
            listed = ", ".join(f"{s} vs {b} (n = {n})" for s, b, n in left)
            warn_user(f"{', '.join(names)}: no test for {listed}: fewer than 2 shared "
                      f"{queries}")
            continue
        shown = ", ".join(map(str, left[:5])) + (", ..." if len(left) > 5 else "")
        warn_user(
            f"{', '.join(names)}: {len(left)} {queries} without a value for {runs[s]} or "
            f"{runs[b]} left out of their comparison ({shown}); missing='zero' scores them 0")


def _correct(rows: list[dict[str, Any]], correction: str, scope: str) -> None:
    if correction in TUKEY:
        return
    families: dict[str, list[int]] = {}
    for at, row in enumerate(rows):
        families.setdefault(row["measure"] if scope == "measure" else "", []).append(at)
    method: Correction = correction  # type: ignore[assignment]
    for members in families.values():
        adjusted = adjust(np.array([rows[i]["p_value"] for i in members]), method)
        for i, value in zip(members, adjusted, strict=True):
            rows[i]["p_adjusted"] = float(value)
