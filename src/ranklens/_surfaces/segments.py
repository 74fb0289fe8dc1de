"""A comparison per segment (group of queries): per-group means with bootstrap intervals and
quantiles, per-group paired tests, one correction across every group x measure x pair."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .._base.draws import MAX_DRAWS
from .._base.errors import InputError, ParameterError
from .._base.lazy import polars as pl
from .._base.validate import Choice, Integer, check
from .._results.per_query import Shown
from .._results.results import Results
from .compare.api import _mean, _measure_rows
from .compare.bootstrap import bootstrap_interval
from .compare.corrections import adjust
from .compare.options import CORRECTIONS, TUKEY, CompareOptions
from .compare.pair import RECORD
from .compare.result import Comparison
from .render.frames import rows_frame

__all__ = ["Segments", "group_means", "memberships", "read_groups", "segments"]


@dataclass(frozen=True)
class Segments(Shown):
    """A comparison per group of queries.

    Attributes
    ----------
    means : one row per group, measure and run: ``group, measure, run, n, mean, ci_low,
        ci_high`` (bootstrap interval of the mean), ``p10, p50, p90``.
    pairs : one row per group and pair of the comparison: the fields of
        :class:`PairComparison` (tests and intervals as the comparison's, on the group's
        queries alone), ``p_adjusted`` corrected once across every row, with ``group`` first.
    correction : the correction applied across every row.
    """

    means: pl.DataFrame
    pairs: pl.DataFrame
    correction: str

    def __repr__(self) -> str:
        return (f"<Segments: {self.means['group'].n_unique()} groups, {self.pairs.height} "
                f"pair rows, {self.correction} correction>")


def read_groups(path: str | Path) -> dict[str, list[str]]:
    """``{query_id: [group, ...]}`` from a file of ``query_id group`` lines (whitespace
    separated; a query on several lines is in several groups; ``#`` starts a comment)."""
    out: dict[str, list[str]] = {}
    text = Path(path).read_text(encoding="utf-8")
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split(None, 1)
        if len(words) == 1:
            raise InputError(f"{path}, line {number}: expected 'query_id group'; got "
                             f"{line.strip()!r}")
        if words:
            out.setdefault(words[0], []).append(words[1].strip())
    return out


def _frame_groups(frame: Any) -> dict[str, list[str]]:
    """``{query_id: [group, ...]}`` from a frame's two columns: query id, group."""
    out: dict[str, list[str]] = {}
    for query, group in zip(*(frame[c] for c in frame.columns), strict=True):
        out.setdefault(str(query), []).append(str(group))
    return out


def memberships(groups: Mapping[Any, Any] | str | Path) -> list[tuple[str, str]]:
    """``(query_id, group)`` pairs of ``groups`` (as :func:`segments` takes them), groups
    first seen in this order."""
    mapping = read_groups(groups) if isinstance(groups, (str, Path)) else groups
    if hasattr(mapping, "columns") and len(mapping.columns) == 2:  # a polars/pandas frame
        mapping = _frame_groups(mapping)
    if not isinstance(mapping, Mapping):
        raise ParameterError("the 'groups' argument must map query ids to a group (or a "
                             f"list of groups), or be a file path; got {type(groups).__name__}")
    return [(str(query), str(name)) for query, names in mapping.items()
            for name in ([names] if isinstance(names, str) or not isinstance(names, Iterable)
                         else names)]


def _members(groups: Mapping[Any, Any] | str | Path, query_ids: np.ndarray,
             ) -> dict[str, np.ndarray]:
    """Each group's rows of the comparison's query axis, groups in first-seen order."""
    at = {str(q): i for i, q in enumerate(query_ids.tolist())}
    rows: dict[str, list[int]] = {}
    for query, name in memberships(groups):
        members = rows.setdefault(name, [])
        if query in at:
            members.append(at[query])
    return {g: np.array(sorted(r), dtype=np.int64) for g, r in rows.items()}


def segments(comparison: Comparison, groups: Mapping[Any, Any] | str | Path, *,
             correction: str = "holm", resamples: int = 9999) -> Segments:
    """The comparison on each group's queries alone, corrected once across all groups.

    Parameters
    ----------
    comparison : Comparison
        From :func:`ranklens.compare`; its test, interval, alpha and seed are used.
    groups : mapping, path or frame
        ``{query_id: group}`` or ``{query_id: [group, ...]}`` (groups may overlap), a file
        of ``query_id group`` lines, or a frame of two columns (query id, group: one row
        per membership). Queries of no group are left out.
    correction : {"holm", "bonferroni", "fdr_bh", "none"}
        Applied once to every group x measure x pair p-value.
    resamples : int, default 9999
        Bootstrap resamples of each group mean's interval (BCa), at most ``MAX_DRAWS``.

    Examples
    --------
    >>> import ranklens
    >>> qrels = {f"q{i}": {"a": 1} for i in range(6)}
    >>> runs = {"x": {f"q{i}": {"a": 1.0} for i in range(6)},
    ...         "y": {f"q{i}": {"a": float(i % 2), "z": 0.5} for i in range(6)}}
    >>> cmp = ranklens.compare(qrels, runs, ["P@1"], baseline="x")
    >>> seg = ranklens.segments(cmp, {f"q{i}": "odd" if i % 2 else "even" for i in range(6)})
    >>> seg.pairs.select("group", "difference").rows()
    [('even', -1.0), ('odd', 0.0)]
    """
    if comparison.results is None or comparison.test in TUKEY:
        raise ParameterError("segments need a comparison with its per-query values and a "
                             f"pairwise test; got test {comparison.test!r}")
    check("correction", correction, Choice(CORRECTIONS))
    check("resamples", resamples, Integer(1, MAX_DRAWS))
    results, runs = comparison.results, comparison.run_names
    options = CompareOptions(
        baseline=comparison.baseline, test=comparison.test, correction="none",  # type: ignore[arg-type]
        alpha=comparison.alpha, seed=comparison.seed, ci=comparison.ci,  # type: ignore[arg-type]
        confidence=comparison.confidence, permutations=comparison.permutations or 9999,
        resamples=comparison.resamples or resamples)
    pairs = list(dict.fromkeys((runs.index(p.system), runs.index(p.baseline))
                               for p in comparison.pairs))
    rows = []
    for group, members in _members(groups, results.query_ids).items():
        for measure in comparison.measures:
            values = np.asarray(results.values(measure))[members]
            means = {run: _mean(values[:, i]) for i, run in enumerate(runs)}
            rows += [{"group": group, **r} for r in _measure_rows(
                measure, values, runs, pairs, options, results.query_ids[members],
                False, [], {}, means)]
    p = np.array([r["p_value"] for r in rows], dtype=np.float64)
    for row, adjusted in zip(rows, adjust(p, correction), strict=True):  # type: ignore[arg-type]
        row["p_adjusted"] = float(adjusted)
        row["significant"] = bool(adjusted < comparison.alpha)
    frame = group_means(results, groups, measures=comparison.measures,
                        confidence=comparison.confidence, resamples=resamples,
                        seed=comparison.seed)
    columns = ["group", *(n for n in RECORD if n != "direction")]
    return Segments(frame, pl.DataFrame([{c: r[c] for c in columns} for r in rows]),
                    correction)


def group_means(results: Results, groups: Mapping[Any, Any] | str | Path, *,
                measures: Sequence[str] | None = None, confidence: float = 0.95,
                resamples: int = 9999, seed: int = 0) -> pl.DataFrame:
    """Each run's mean per group and measure, with a BCa bootstrap interval and quantiles.

    Parameters
    ----------
    results : Results
        From :func:`ranklens.evaluate`.
    groups : mapping, path or frame
        As :func:`segments` takes them (:func:`derived_groups` makes some).
    measures : list of str, optional
        Default: every measure of ``results``.
    confidence : float, default 0.95
        Of each interval.
    resamples : int, default 9999
        Bootstrap resamples of each interval, at most ``MAX_DRAWS``.
    seed : int, default 0
        Of the resampling.

    Returns
    -------
    polars.DataFrame
        ``group, measure, run, n, mean, ci_low, ci_high, p10, p50, p90``.

    Examples
    --------
    >>> import ranklens
    >>> qrels = {f"q{i}": {"a": 1} for i in range(4)}
    >>> run = {f"q{i}": {"a": 1.0} if i < 2 else {"b": 1.0} for i in range(4)}
    >>> res = ranklens.evaluate(qrels, {"x": run}, ["P@1"])
    >>> ranklens.group_means(res, {"q0": "g", "q1": "g", "q2": "h"})["mean"].to_list()
    [1.0, 0.0]
    """
    check("resamples", resamples, Integer(1, MAX_DRAWS))
    means = []
    for group, members in _members(groups, results.query_ids).items():
        for measure in measures or results.measures:
            values = np.asarray(results.values(measure))[members]
            for j, run in enumerate(results.run_names):
                x = values[:, j][~np.isnan(values[:, j])]
                m = float(np.mean(x)) if x.size else math.nan
                # centred: a group of equal values has its mean as interval, not BCa's 0/0
                low, high = bootstrap_interval(x - m, confidence=confidence,
                                               resamples=resamples, seed=seed)
                q = np.quantile(x, [0.1, 0.5, 0.9]) if x.size else [math.nan] * 3
                means.append((group, measure, run, int(x.size), m, low + m, high + m, *q))
    return rows_frame(means, "group measure run", "n", "mean ci_low ci_high p10 p50 p90")
