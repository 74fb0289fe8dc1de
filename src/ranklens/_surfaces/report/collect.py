"""Everything the report shows, as plain numbers, from one evaluation of every run.

The curves are ordinary measures evaluated beside the requested ones (one alignment per run):
``P@k``, ``R@k``, ``nDCG@k`` and ``Judged@k`` for k = 1..max_k, ``IPrec@x`` at the recall
levels 0, 0.01, ..., 1 (the 11-point curve is every tenth level), and ``Hits(rel=g)@k``,
``Judged(denom=k)@k`` and ``NumRet`` for the grades in the top k. The curves counting
relevance (``P``, ``R``, ``IPrec``) are drawn at each requested measure's relevance level
(:func:`curve_rels`), one set per level. Nothing here knows how it is drawn: :mod:`.specs`
turns a :class:`ReportData` into Vega-Lite specs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..._base.errors import ParameterError
from ..._base.vocabulary import IR, Vocabulary
from ..._results.results import Results
from .beyond import BeyondData

__all__ = ["CI_LEVEL", "CURVES", "PR_LEVELS", "ReportData", "collect", "curve_measures",
           "curve_rels", "grade_levels"]

#: The metric@k curves and Judged@k: label -> measure name pattern (``{rel}``: ``(rel=2)``
#: or nothing).
CURVES = {"P@k": "P{rel}@{k}", "R@k": "R{rel}@{k}", "nDCG@k": "nDCG@{k}", "Judged@k": "Judged@{k}"}
#: The curves that count relevance from a level: drawn again at each further level.
_LEVELLED = ("P@k", "R@k")
#: Recall levels of the full interpolated precision-recall curve (every tenth: 11-point).
PR_LEVELS = tuple(round(i / 100, 2) for i in range(101))
#: Grade levels shown one by one in the top-k panel; more distinct grades would be noise.
MAX_GRADES = 10
#: The level of the summary's t intervals (the ± beside each mean).
CI_LEVEL = 0.95


@dataclass(frozen=True)
class ReportData:
    """The numbers behind every part of the report (one column per run throughout).

    Attributes
    ----------
    run_names : the runs, in the order given.
    baseline : the run the others are compared with (the first unless chosen).
    measures : the requested measures, in order (the summary and per-query parts).
    query_ids : every query, on one axis (trec_eval order).
    per_query : measure -> ``(queries, runs)`` values; NaN where a run lacks the query.
    aggregates : measure -> each run's aggregate.
    half_widths : measure -> each run's half-width of the :data:`CI_LEVEL` t interval of
        its mean over the queries it was evaluated on (unclipped, so mean ± half-width is
        the t interval; NaN for a measure that is not a mean, or a run with < 2 queries).
    ks : 1..max_k.
    at_k : curve label (``P@k``, ``R@k``, ``nDCG@k``, ``Judged@k``) -> ``(k, runs)`` means.
    pr : ``(levels, runs)`` mean interpolated precision at :data:`PR_LEVELS`, at the first
        of ``rels``.
    top_k : the depth of the grade panel.
    grades : category label -> mean documents per query of that category in the top k,
        per run (grade levels from the highest down, then judged negative, not in the qrels,
        and ranks left empty because fewer than k were retrieved).
    conventions : the options in force.
    beyond : the beyond-accuracy panel's numbers (None without training interactions).
    rels : the relevance levels the curves are drawn at (:func:`curve_rels`); the curves at
        the further levels are ``at_k``'s ``"P@k (rel 2)"``... and ``more_pr``.
    more_pr : level -> ``(levels, runs)`` as ``pr``, for each of ``rels`` but the first.
    vocabulary : the words of its labels (users for a recommender's inputs).
    """

    run_names: tuple[str, ...]
    baseline: str
    measures: tuple[str, ...]
    query_ids: tuple[str, ...]
    per_query: dict[str, np.ndarray]
    aggregates: dict[str, np.ndarray]
    half_widths: dict[str, np.ndarray]
    ks: tuple[int, ...]
    at_k: dict[str, np.ndarray]
    pr: np.ndarray
    top_k: int
    grades: dict[str, np.ndarray]
    conventions: dict[str, Any]
    beyond: BeyondData | None = None
    rels: tuple[int, ...] = (1,)
    more_pr: dict[int, np.ndarray] = field(default_factory=dict)
    vocabulary: Vocabulary = IR


def grade_levels(relevance: np.ndarray) -> list[int]:
    """The integer grades >= 0 judged (highest first), at most :data:`MAX_GRADES` of them
    (the lowest merged into the last one listed)."""
    finite = relevance[np.isfinite(relevance) & (relevance >= 0)]
    levels = sorted({int(v) for v in np.floor(finite).tolist()}, reverse=True)
    return [*levels[:MAX_GRADES - 1], min(levels)] if len(levels) > MAX_GRADES else levels


def curve_rels(rels: list[int], rel: int) -> tuple[int, ...]:
    """The relevance levels the curves are drawn at: those of the requested measures that
    count relevance (``rels``, in request order), the evaluation's ``rel`` first when used
    or when none does."""
    return tuple(dict.fromkeys(sorted(rels, key=lambda r: r != rel) or [rel]))


def _at(rel: int, base: int) -> str:
    """A curve measure's parameters: ``(rel=2)``, or nothing at the evaluation's level."""
    return "" if rel == base else f"(rel={rel})"


def _names(max_k: int, rels: tuple[int, ...], base: int) -> dict[tuple[str, int], list[str]]:
    """``(label, rel)`` -> the names of one curve's measures, for k = 1..max_k or at
    :data:`PR_LEVELS` (label ``"pr"``)."""
    out = {}
    for i, rel in enumerate(rels):
        for label, pattern in CURVES.items():
            if i == 0 or label in _LEVELLED:
                out[label, rel] = [pattern.format(rel=_at(rel, base), k=k)
                                   for k in range(1, max_k + 1)]
        out["pr", rel] = [f"IPrec{_at(rel, base)}@{level:.2f}" for level in PR_LEVELS]
    return out


def curve_measures(max_k: int, top_k: int, levels: list[int],
                   rels: tuple[int, ...] = (1,), base: int = 1) -> list[str]:
    """Every measure the curves and panels read, in canonical spelling (``rels``: the
    levels the curves are drawn at, ``base``: the evaluation's)."""
    names = [n for group in _names(max_k, rels, base).values() for n in group]
    names += [f"Hits(rel={g})@{top_k}" for g in levels if g > 0]
    names += [f"Hits(rel=0)@{top_k}", f"Judged(denom=k)@{top_k}", "NumRet"]
    return names


def collect(results: Results, measures: list[str], *, baseline: str | None, max_k: int,
            top_k: int, levels: list[int], rels: tuple[int, ...] = (1,),
            base: int = 1) -> ReportData:
    """Read a :class:`Results` evaluated on ``measures`` plus :func:`curve_measures`."""
    names = results.run_names
    if baseline is None:
        baseline = names[0]
    elif baseline not in names:
        raise ParameterError(f"the 'baseline' option must name one of the runs "
                             f"({', '.join(names)}); got {baseline!r}")

    def means(name: str) -> np.ndarray:
        return _mean(results.values(name))

    ks = tuple(range(1, max_k + 1))
    curves = {key: np.array([means(n) for n in names])
              for key, names in _names(max_k, rels, base).items()}
    at_k = {label if rel == rels[0] else f"{label} (rel {rel})": values
            for (label, rel), values in curves.items() if label != "pr"}
    return ReportData(
        run_names=names, baseline=baseline, measures=tuple(measures),
        query_ids=tuple(results.query_ids.tolist()),
        per_query={m: results.values(m) for m in measures},
        aggregates={m: results.aggregates(m) for m in measures},
        half_widths={m: _half_widths(results, m) for m in measures},
        ks=ks, at_k=at_k, pr=curves["pr", rels[0]], top_k=top_k,
        grades=_grades(results, top_k, levels, means),
        conventions=_conventions(results, measures, rels), rels=rels,
        more_pr={rel: curves["pr", rel] for rel in rels[1:]}, vocabulary=results.vocabulary,
    )


def _conventions(results: Results, measures: list[str],
                 rels: tuple[int, ...]) -> dict[str, Any]:
    """The options in force; ``rel`` also names the measures counting relevance from
    another grade (``AP(rel=2)``), and the levels the curves are drawn at."""
    out = dict(results.conventions[0])
    own = {m: dict(results.measures[m].params).get("rel") for m in measures}
    other = [f"{m} {rel}" for m, rel in own.items() if rel is not None and rel != out.get("rel")]
    if other or rels != (out.get("rel"),):
        drawn = " and ".join(str(r) for r in rels)
        out["rel"] = ", ".join([str(out.get("rel")), *other]) + \
            f" (curves drawn at rel {drawn}{': one set per level' if len(rels) > 1 else ''})"
    return out


def _half_widths(results: Results, measure: str) -> np.ndarray:
    """Each run's t interval half-width of ``measure``'s mean (NaN where there is none)."""
    if results.measures[measure].definition.aggregate != "mean":
        return np.full(len(results), np.nan)
    return np.array([r.interval(measure, "t", CI_LEVEL, clip=False).half_width
                     for r in results])


def _mean(values: np.ndarray) -> np.ndarray:
    """Column means over the queries each run has (NaN elsewhere); 0 for a run with none."""
    have = ~np.isnan(values)
    total = np.where(have, values, 0.0).sum(axis=0)
    return total / np.maximum(have.sum(axis=0), 1)


def _grades(results: Results, k: int, levels: list[int], means: Any) -> dict[str, np.ndarray]:
    """Mean documents per query in the top k by grade, then the unjudged and empty ranks."""
    out: dict[str, np.ndarray] = {}
    higher = np.zeros(len(results))
    for g in [*(g for g in levels if g > 0), 0]:
        at_least = means(f"Hits(rel={g})@{k}")
        out[f"grade {g}"] = at_least - higher
        higher = at_least
    judged = means(f"Judged(denom=k)@{k}") * k
    retrieved = _mean(np.minimum(results.values("NumRet"), k))
    out["judged < 0"] = judged - higher
    out["not in qrels"] = retrieved - judged
    out["nothing retrieved"] = k - retrieved
    # float noise of the differences (1e-16 below zero) would draw as slivers
    return {label: np.clip(v, 0.0, None) for label, v in out.items()}
