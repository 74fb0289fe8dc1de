"""Off-policy estimates of a ranking policy's value from logged rankings: IPS, SNIPS and
doubly robust, with slate, item-position, cascade or position-based (click) weights.

A log holds one row per shown (slate, position). Every estimate is a sum over rows divided
by the number of slates; it differs only in each row's weight (``weights``) and in how the
row values are normalised (``estimator``). docs/recsys-protocols.md has the formulas.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._base.draws import MAX_DRAWS
from .._base.errors import InputError, ParameterError
from .._base.lazy import polars as pl
from .._base.validate import Choice, Integer, Interval, Number, check
from .._ingest.columns import _at, no_nulls, numeric
from .._results.per_query import Shown

__all__ = ["ESTIMATORS", "WEIGHTS", "OffPolicy", "PolicyComparison", "compare_policies",
           "load_log", "off_policy"]

ESTIMATORS = ("ips", "snips", "dr")
WEIGHTS = ("item-position", "slate", "cascade", "pbm")
DISCOUNTS = ("dcg", "clicks")
#: Bootstrap means held at once: resamples x slates values in memory per block.
_BLOCK = 1 << 22
#: Most per-slate sums the bootstrap holds (slates x positions x 3 floats).
MAX_CELLS = 50_000_000
#: each column of a log: accepted names, canonical first
_COLUMNS = {"slate": ("slate", "slate_id", "impression", "query_id", "qid"),
            "position": ("position", "rank", "pos"), "reward": ("reward", "click", "clicks"),
            "pscore": ("pscore", "propensity", "logging_pscore"),
            "target_pscore": ("target_pscore", "evaluation_pscore"),
            "target_rank": ("target_rank",), "reward_model": ("reward_model",),
            "target_reward_model": ("target_reward_model",)}
_UNSEEN = (" (a logging propensity of 0 or none: the log cannot stand for what it never "
           "shows; drop the row or give its propensity)")


@dataclass(frozen=True)
class OffPolicy(Shown):
    """An off-policy estimate of the target policy's value.

    Attributes
    ----------
    estimator, weights : what was computed (see :func:`off_policy`).
    value : the estimate: expected reward summed over a slate's positions.
    se : its standard error, the standard deviation of the bootstrap estimates over slates
        (NaN without resamples).
    low, high : the percentile bootstrap interval at ``level``.
    level : the interval's confidence level.
    slates, rows : logged slates and rows.
    max_weight : the largest row weight (after clipping): a diagnostic of the variance.
    """

    estimator: str
    weights: str
    value: float
    se: float
    low: float
    high: float
    level: float
    slates: int
    rows: int
    max_weight: float


@dataclass(frozen=True)
class PolicyComparison(Shown):
    """Two target policies' estimates on one log, paired per logged slate.

    Attributes
    ----------
    estimator, weights : what was computed (see :func:`off_policy`).
    names : the two policies, in the order given.
    values : each policy's estimate.
    difference : the first's estimate minus the second's: the mean per-slate difference.
    p_value : the paired t-test's two-sided p over the per-slate differences.
    low, high : the t interval of the difference at ``level``.
    level : the interval's confidence level.
    slates : logged slates (the pairs).
    """

    estimator: str
    weights: str
    names: tuple[str, str]
    values: tuple[float, float]
    difference: float
    p_value: float
    low: float
    high: float
    level: float
    slates: int


def load_log(log: Any, canonical: bool = True) -> tuple[pl.DataFrame, str]:
    """The log as a frame with canonical column names (all its columns as read, with
    ``canonical=False``), and its source's name.

    ``log`` is a CSV, TSV, JSON Lines, Parquet or Arrow file, a pandas, polars or Arrow
    frame, or a mapping of column name to values.
    """
    from .._ingest.io._frames import read_frame
    from .._ingest.io._load import _columnar

    if isinstance(log, (str, os.PathLike)):
        source = os.fspath(log)
        if not os.path.exists(source):
            raise InputError("no such file (expected a log of logged rankings)", source=source)
        frame = _columnar(source)
        if frame is None:
            raise InputError("a log must be a .csv, .tsv, .jsonl, .parquet or .arrow file",
                             source=source)
    else:
        source = f"<{type(log).__name__}>"
        frame = (pl.DataFrame(dict(log)) if isinstance(log, Mapping)
                 else read_frame(log, "a log"))
    return (_canonical(frame) if canonical else frame), source


def _canonical(frame: pl.DataFrame) -> pl.DataFrame:
    """The columns of ``frame`` a log reads, under their canonical names."""
    lowered = {c.lower(): c for c in frame.columns}
    found = {key: next((lowered[a] for a in names if a in lowered), None)
             for key, names in _COLUMNS.items()}
    return frame.select([pl.col(c).alias(k) for k, c in found.items() if c is not None])


def _need(frame: pl.DataFrame, name: str, source: str, why: str) -> None:
    """InputError naming the column ``name`` (and its other names) when it is absent."""
    if name not in frame.columns:
        raise InputError(f"{why} needs a {name!r} column (or one of "
                         f"{', '.join(_COLUMNS[name][1:]) or 'no other name'}); found "
                         f"columns {frame.columns}", source=source)


def _column(frame: pl.DataFrame, name: str, source: str, why: str,
            within: tuple[float, float, bool] | None = None, hint: str = "") -> np.ndarray:
    """Column ``name`` as float64; InputError naming the column (absent), or the first row
    with a missing, non-numeric or out-of-range (``within``: low, high, low included)
    value."""
    _need(frame, name, source, why)
    v = numeric(frame[name], name, source).fill_null(math.nan).to_numpy()
    low, high, closed = within or (-math.inf, math.inf, True)
    bad = ~(((v >= low) if closed else (v > low)) & (v <= high) & np.isfinite(v))
    if bad.any():
        row = int(np.argmax(bad))
        what = "a finite number" if within is None else \
            f"a number in {'[' if closed else '('}{low:g}, {high:g}]"
        raise _at(row, f"column {name!r} must be {what}; got {frame[name][row]!r}{hint}",
                  source)
    return v


def _discount(rank: np.ndarray, discount: str, depth: int | None) -> np.ndarray:
    """The target metric's weight of each target rank (0: not ranked, or below ``depth``)."""
    shown = (rank >= 1) & (rank <= (depth or math.inf))
    weight = 1.0 / np.log2(np.maximum(rank, 1) + 1) if discount == "dcg" else np.ones_like(rank)
    return np.where(shown, weight, 0.0)


def _weights(frame: pl.DataFrame, source: str, weights: str, first: np.ndarray,
             position: np.ndarray, propensities: Sequence[float] | None, discount: str,
             depth: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Each row's weight and the weight of the row before it in its slate (1 at a slate's
    first position; 1 everywhere unless ``cascade``)."""
    why = f"the {weights!r} weights"
    if weights == "pbm":  # examination propensity of the logged position
        if propensities is None:
            theta = _column(frame, "pscore", source, why, (0.0, 1.0, False), _UNSEEN)
        else:
            table = np.asarray(propensities, dtype=np.float64)
            beyond = position > table.size
            if beyond.any():
                row = int(np.argmax(beyond))
                raise _at(row, f"position {int(position[row])} has no examination propensity "
                               f"('propensities' gives {table.size} positions); give one "
                               "for every logged position", source)
            theta = table[position.astype(np.int64) - 1]
        target = frame["target_rank"].fill_null(0) if "target_rank" in frame.columns else None
        if target is None:
            raise InputError(f"{why} need a 'target_rank' column (the rank the target "
                             f"policy gives the logged item; empty: not ranked); found "
                             f"columns {frame.columns}", source=source)
        rank = _column(frame.with_columns(target_rank=target), "target_rank", source, why)
        return _discount(rank, discount, depth) / theta, np.ones(len(frame))
    pscore = _column(frame, "pscore", source, why, (0.0, 1.0, False), _UNSEEN)
    w = _column(frame, "target_pscore", source, why, (0.0, 1.0, True)) / pscore
    if weights == "slate":
        start = np.maximum.accumulate(np.where(first, np.arange(first.size), 0))
        differ = ~np.isclose(w, w[start], rtol=1e-12, atol=0)
        if differ.any():
            row = int(np.argmax(differ))
            raise _at(row, "slate weights need one joint propensity per slate; this row's "
                           "'pscore' or 'target_pscore' differs from its slate's first row "
                           "(use weights='item-position' or 'cascade')", source)
    before = np.r_[1.0, w[:-1]]
    return w, np.where(first | (weights != "cascade"), 1.0, before)


def _estimate(sums: np.ndarray, estimator: str) -> np.ndarray:
    """The estimate from means over slates (last axis: value, weight, count per group)."""
    value, weight, count = sums[..., 0], sums[..., 1], sums[..., 2]
    if estimator == "snips":
        with np.errstate(divide="ignore", invalid="ignore"):
            value = np.where(weight > 0, value * count / weight, 0.0)
    return np.sum(value, axis=-1)


def _check(estimator: str, weights: str, discount: str, depth: int | None, level: float,
           clip: float | None, propensities: Sequence[float] | None) -> None:
    """ParameterError naming the first option out of its range."""
    check("estimator", estimator, Choice(ESTIMATORS))
    check("weights", weights, Choice(WEIGHTS))
    check("discount", discount, Choice(DISCOUNTS))
    check("depth", depth, Integer(1, none=True))
    check("level", level, Interval(0, 1))
    if clip is not None:
        check("clip", clip, Number(0, None, open_low=True))
    if weights == "pbm" and estimator != "ips":
        raise ParameterError(f"the 'estimator' option must be ips with weights='pbm' (the "
                             f"click estimator has no normalised or doubly robust form); got "
                             f"{estimator!r}")
    if weights != "pbm" and (propensities is not None or depth is not None):
        raise ParameterError("the 'propensities' and 'depth' options are for weights='pbm'; "
                             f"got weights={weights!r}")


def _rows(frame: pl.DataFrame, source: str, estimator: str, weights: str,
          propensities: Sequence[float] | None, discount: str, depth: int | None,
          clip: float | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each row's value and weight, whether it opens its slate, and its position (rows
    sorted by slate and position); InputError naming the input's row."""
    from .._ingest.io._load import at_file_row

    if frame.is_empty():
        raise InputError("the log has no rows; an estimate needs at least one slate",
                         source=source)
    rows_of = np.arange(len(frame))
    try:
        for needed in ("slate", "position"):
            _need(frame, needed, source, "a log")
        # rows of a slate in position order; errors name the input's own rows
        frame = frame.with_row_index("_row").sort("slate", "position", maintain_order=True)
        rows_of, frame = frame["_row"].to_numpy(), frame.drop("_row")
        position = _column(frame, "position", source, "a log")
        if (bad := (position < 1) | (position != np.floor(position))).any():
            raise _at(int(np.argmax(bad)), "column 'position' must be an integer >= 1; got "
                                          f"{frame['position'][int(np.argmax(bad))]!r}", source)
        no_nulls(frame.select("slate"), source)
        first = (frame["slate"] != frame["slate"].shift(1)).fill_null(True).to_numpy()
        reward = _column(frame, "reward", source, "a log")
        w, before = _weights(frame, source, weights, first, position, propensities,
                             discount, depth)
        if clip is not None:
            w, before = np.minimum(w, clip), np.minimum(before, clip)
        value = w * reward
        if estimator == "dr":
            q = _column(frame, "reward_model", source, "the doubly robust estimator")
            dm = _column(frame, "target_reward_model", source, "the doubly robust estimator")
            value = before * dm + w * (reward - q)
    except InputError as exc:  # a row of the sorted frame: name the input's own row
        if exc.row is None:
            raise
        row, detail = int(rows_of[exc.row]), exc.detail.removeprefix(f"row {exc.row}: ")
        raise (at_file_row(source, row, detail) if os.path.exists(source)
               else _at(row, detail, source)) from None
    return value, w, first, position


def off_policy(log: Any, estimator: str = "ips", weights: str = "item-position", *,
               propensities: Sequence[float] | None = None, discount: str = "dcg",
               depth: int | None = None, clip: float | None = None, level: float = 0.95,
               resamples: int = 999, seed: int = 0) -> OffPolicy:
    """Estimate a target policy's value from a log of another policy's rankings.

    Parameters
    ----------
    log : path, frame or mapping
        One row per shown (slate, position): columns ``slate``, ``position`` (from 1),
        ``reward`` and the weights' columns below. A file is CSV, TSV, JSON Lines, Parquet
        or Arrow.
    estimator : {"ips", "snips", "dr"}
        ``ips``: sum of weight x reward over rows, over slates. ``snips``: each row's value
        divided by the mean weight of its group (all rows for ``slate`` weights, rows at
        the same position otherwise; a group whose weights are all 0 adds 0). ``dr``:
        doubly robust, with columns ``reward_model`` (the model's reward of the logged
        item) and ``target_reward_model`` (its expected reward under the target policy at
        that position).
    weights : {"item-position", "slate", "cascade", "pbm"}
        Row weight ``target_pscore / pscore``: the marginal probability of the item at that
        position (item-position, IIPS), of the whole slate (slate, SIPS; one per slate) or of
        the slate's prefix up to that position (cascade, RIPS). ``pbm``: the position-based
        click model, ``discount(target_rank) / pscore`` with ``pscore`` the examination
        propensity of the logged position (Joachims et al., WSDM 2017; ``ips`` only).
    propensities : sequence of float, optional
        ``pbm`` only: examination propensity of positions 1, 2, ... (instead of a column).
    discount : {"dcg", "clicks"}
        ``pbm`` only: the target metric's weight of a rank, ``1 / log2(1 + rank)`` or 1.
    depth : int, optional
        ``pbm`` only: ranks below it weigh 0.
    clip : float, optional
        Largest row weight (larger ones are cut to it); None keeps every weight.
    level : float, default 0.95
        Confidence level of the bootstrap interval.
    resamples : int, default 999
        Bootstrap resamples of slates (0: no interval); at most ``MAX_DRAWS``.
    seed : int, default 0
        Seed of the bootstrap.

    Returns
    -------
    OffPolicy

    Raises
    ------
    InputError
        A column is absent, or a row has a missing value, a propensity that is not in
        (0, 1], or a position without an examination propensity (naming the row or line).

    Examples
    --------
    >>> import ranklens
    >>> log = {"slate": [1, 1, 2, 2], "position": [1, 2, 1, 2], "reward": [1, 0, 0, 1],
    ...        "pscore": [.5, .4, .5, .6], "target_pscore": [.7, .3, .4, .5]}
    >>> round(ranklens.off_policy(log).value, 6)
    1.116667
    """
    _check(estimator, weights, discount, depth, level, clip, propensities)
    check("resamples", resamples, Integer(0, MAX_DRAWS))
    from .._results.interval import bootstrap_means

    frame, source = load_log(log)
    value, w, first, position = _rows(frame, source, estimator, weights, propensities,
                                      discount, depth, clip)
    slate_of = np.cumsum(first) - 1  # the frame is sorted by slate
    group_of = np.unique(position, return_inverse=True)[1] if estimator == "snips" and \
        weights != "slate" else np.zeros(first.size, np.int64)
    n, groups = int(slate_of[-1]) + 1, int(group_of.max()) + 1
    columns = (value, w, np.ones_like(w))  # summed values, weights and rows per group
    estimate = float(_estimate(np.stack([np.bincount(group_of, c, groups) for c in columns],
                                        axis=1) / n, estimator))
    se = low = high = math.nan
    if resamples and n > 1:
        if n * groups * 3 > MAX_CELLS:
            raise ParameterError(f"the bootstrap holds slates x positions x 3 values, at most "
                                 f"{MAX_CELLS:,} (MAX_CELLS); got {n * groups * 3:,}: ask for "
                                 "resamples=0, or estimate on a sample of the slates")
        cells = np.zeros((n, groups, 3))
        for k, column in enumerate(columns):
            np.add.at(cells[..., k], (slate_of, group_of), column)
        step = max(1, _BLOCK // cells[0].size // n)  # memory: step x n x columns per block
        means = bootstrap_means(cells.reshape(n, -1), resamples, seed, step)
        draws = _estimate(means.reshape(resamples, *cells.shape[1:]), estimator)
        se = float(np.std(draws, ddof=1))
        low, high = (float(v) for v in np.quantile(draws, [(1 - level) / 2, (1 + level) / 2]))
    return OffPolicy(estimator, weights, estimate, se, low, high, float(level), n,
                     int(first.size), float(np.max(w)))


def compare_policies(log: Any, targets: Mapping[str, str | Mapping[str, str]],
                     estimator: str = "ips", weights: str = "item-position", *,
                     propensities: Sequence[float] | None = None, discount: str = "dcg",
                     depth: int | None = None, clip: float | None = None,
                     level: float = 0.95) -> PolicyComparison:
    """Compare two target policies' estimates on one log, paired per logged slate.

    Each policy's estimate is the mean over slates of a per-slate term (its rows' summed
    values); the paired t-test and t interval read the per-slate differences.

    Parameters
    ----------
    log : path, frame or mapping
        The log, as :func:`off_policy` reads it.
    targets : mapping of two names to a column, or to ``{canonical column: log column}``
        Each policy's own columns. A column name alone is its ``target_pscore``
        (``target_rank`` with ``weights="pbm"``); a mapping also names others, such as
        ``target_reward_model`` for ``dr``.
    estimator : {"ips", "dr"}
        As in :func:`off_policy`; ``snips`` has no per-slate term, its normaliser spans
        every slate.
    weights, propensities, discount, depth, clip, level
        As in :func:`off_policy`.

    Returns
    -------
    PolicyComparison

    Raises
    ------
    ParameterError
        ``targets`` does not name two policies, or an option is out of range.
    InputError
        A column is absent or a row is invalid (as :func:`off_policy`).

    Examples
    --------
    >>> import ranklens
    >>> log = {"slate": [1, 1, 2, 2], "position": [1, 2, 1, 2], "reward": [1, 0, 0, 1],
    ...        "pscore": [.5, .4, .5, .6], "new": [.7, .3, .4, .5], "old": [.5, .4, .5, .6]}
    >>> c = ranklens.compare_policies(log, {"new": "new", "old": "old"})
    >>> round(c.difference, 6), c.slates
    (0.116667, 2)
    """
    from .compare.paired import t_interval, t_test

    _check(estimator, weights, discount, depth, level, clip, propensities)
    if estimator == "snips":
        raise ParameterError("the 'estimator' option must be ips or dr to compare policies "
                             "(snips has no per-slate term: its normaliser spans every "
                             "slate); got 'snips'")
    if not isinstance(targets, Mapping) or len(targets) != 2:
        raise ParameterError("the 'targets' option needs two policies, {name: column}; got "
                             f"{targets!r}")
    raw, source = load_log(log, canonical=False)
    default = "target_rank" if weights == "pbm" else "target_pscore"
    terms = []
    for name, spec in targets.items():
        columns = {default: spec} if isinstance(spec, str) else dict(spec)
        absent = [c for c in columns.values() if c not in raw.columns]
        if absent or not set(columns) <= set(_COLUMNS):
            raise InputError(f"policy {name!r}: {columns} must map a log column name "
                             f"({', '.join(_COLUMNS)}) to a column of the log; found "
                             f"columns {raw.columns}", source=source)
        # the policy's columns stand in for the canonical ones
        frame = _canonical(raw).drop(*columns, strict=False)
        frame = frame.with_columns(raw[c].alias(k) for k, c in columns.items())
        try:
            value, _, first, _ = _rows(frame, source, estimator, weights, propensities,
                                       discount, depth, clip)
        except InputError as exc:  # name the log's own column behind the canonical one
            named = ", ".join(f"{k} is {c!r}" for k, c in columns.items())
            raise InputError(f"{exc.detail} (policy {name!r}: {named})", source=exc.source,
                             line=exc.line, row=exc.row) from None
        terms.append(np.bincount(np.cumsum(first) - 1, value))
    d = terms[0] - terms[1]
    low, high = t_interval(d, level)
    a, b = targets
    return PolicyComparison(estimator, weights, (a, b),
                            (float(np.mean(terms[0])), float(np.mean(terms[1]))),
                            float(np.mean(d)), t_test(d), low, high, float(level), d.size)
