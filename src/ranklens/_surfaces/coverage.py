"""Judgment coverage: how much of each run's top k is judged, and whether it matters.

``coverage_measures`` adds ``Judged@k``, ``Unj@k`` and each measure's condensed-list form
(``judged_only=true``: unjudged documents dropped before ranking) beside the measures asked
for. ``order_flips`` is the rule of the low-coverage warning: two systems are ordered one way
by a measure's plain mean and the other way by its condensed-list mean. Judging the unjudged
documents would then decide which of the two is better.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from .._base.errors import RanklensWarning
from .._base.validate import Integer, check
from .._names import parse_measures

__all__ = ["coverage", "coverage_measures", "means_of", "order_flips", "warn_order_flips"]


def _condensed(measures: Sequence[str]) -> list[tuple[str, str]]:
    """(plain, condensed) names of the measures that have a condensed-list form; the plain
    one as given (results keep the spelling asked for)."""
    out = []
    for name in measures:
        parsed = parse_measures([name])  # P_5,10 is P_5 and P_10
        out += [(name if len(parsed) == 1 else str(m), str(m(judged_only=True)))
                for m in parsed if any(p.name == "judged_only" for p in m.definition.params)
                and not m.get("judged_only", False)]
    return out


def coverage_measures(measures: Sequence[str], k: int) -> list[str]:
    """``measures``, then ``Judged@k``, ``Unj@k`` and each one's condensed-list form.

    Examples
    --------
    >>> coverage_measures(["nDCG@10", "AP"], 20)
    ['nDCG@10', 'AP', 'Judged@20', 'Unj@20', 'nDCG(judged_only=true)@10', 'AP(judged_only=true)']
    """
    check("coverage", k, Integer(1))
    added = [f"Judged@{k}", f"Unj@{k}", *(c for _, c in _condensed(measures))]
    return list(measures) + [m for m in added if m not in measures]


def order_flips(means: Mapping[str, Mapping[str, float]], measures: Sequence[str]
                ) -> list[tuple[str, str, str]]:
    """(measure, system a, system b) for each pair whose plain mean ranks a above b and
    whose condensed-list mean ranks b above a, for each of ``measures`` evaluated in both
    forms (ties are no flip). ``means``: each system's ``{measure: mean}``."""
    flips = []
    for plain, cond in _condensed(measures):
        for a, b in combinations([n for n in means if {plain, cond} <= set(means[n])], 2):
            pa, pb, ca, cb = (means[r][n] for n in (plain, cond) for r in (a, b))
            if (pa - pb) * (ca - cb) < 0:
                flips.append((plain, *((a, b) if pa > pb else (b, a))))
    return flips


def warn_order_flips(means: Mapping[str, Mapping[str, float]], measures: Sequence[str]
                     ) -> None:
    """A :class:`~ranklens.RanklensWarning` when :func:`order_flips` finds a pair, with
    each system's unjudged share of the top k when ``Unj@k`` is among ``measures``."""
    if not any("judged_only" in m for m in measures):
        return  # no condensed form asked for: nothing to parse
    flips = order_flips(means, measures)
    if flips:
        plain, a, b = flips[0]
        unj = next((m for m in measures if m.startswith("Unj@")), None)
        share = "" if unj is None else f"; {unj} (unjudged share of the top k): " + ", ".join(
            f"{n} {v[unj]:.2f}" for n, v in means.items())
        warnings.warn(f"coverage: {plain} ranks {a} above {b}, but below it on condensed "
                      f"lists (judged documents only; {len(flips)} such pairs){share}; judge "
                      "the unjudged pairs (ranklens judge-export) before trusting this order",
                      RanklensWarning, stacklevel=2)


def means_of(results: Any) -> dict[str, dict[str, float]]:
    """Each run's ``{measure: mean}`` of a Results."""
    return {r.run_name: r.aggregates for r in results}


def coverage(qrels: Any, runs: Any, measures: Sequence[str] | None = None, k: int = 10,
             **options: Any) -> Any:
    """Evaluate ``runs`` with their judgment coverage beside the scores.

    Parameters
    ----------
    qrels, runs, options
        As for :func:`ranklens.evaluate`.
    measures : sequence of str, optional
        The measures (default: :func:`ranklens.evaluate`'s).
    k : int, default 10
        The depth of ``Judged@k`` (judged share of the top k) and ``Unj@k`` (unjudged share).

    Returns
    -------
    Results
        The measures, ``Judged@k``, ``Unj@k``, then each measure's condensed-list form.

    Warns
    -----
    RanklensWarning
        When two systems' order under a measure is reversed on condensed lists.

    Examples
    --------
    >>> import ranklens
    >>> qrels = {"q1": {"d1": 1, "d2": 1, "d3": 0}}
    >>> runs = {"a": {"q1": {"d1": 3.0, "d3": 2.0, "d2": 1.0}},
    ...         "b": {"q1": {"d9": 3.0, "d1": 2.0, "d2": 1.0}}}
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     r = ranklens.coverage(qrels, runs, ["AP"], k=3)
    >>> [round(x.aggregates[m], 3) for m in ("AP", "AP(judged_only=true)", "Unj@3") for x in r]
    [0.833, 0.583, 0.833, 1.0, 0.0, 0.333]
    >>> str(caught[0].message)[:58]
    'coverage: AP ranks a above b, but below it on condensed li'
    """
    from .._pipeline.options import DEFAULT_MEASURES
    from .evaluate import evaluate

    asked = list(measures) if measures is not None else list(DEFAULT_MEASURES)
    results = evaluate(qrels, runs, coverage_measures(asked, k), **options)
    warn_order_flips(means_of(results), coverage_measures(asked, k))
    return results
