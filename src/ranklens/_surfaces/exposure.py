"""Exposure fairness of stochastic rankings: expected exposure (Diaz et al., CIKM 2020, as
its reference code expeval computes it) and AWRF (as the TREC Fair Ranking 2021 code
computes it), over several sampled rankings per query."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .._base.errors import ParameterError
from .._base.lazy import polars as pl
from .._base.validate import Boolean, Choice, Interval, check
from .render.frames import rows_frame

__all__ = ["USER_MODELS", "awrf", "expected_exposure", "group_exposure"]

USER_MODELS = ("gerr", "rbp")
#: Most sampled rankings: each is read and held while the exposures are summed.
MAX_SAMPLES = 100_000


def _samples(samples: Any) -> pl.DataFrame:
    """Every sample's rows: ``query_id``, ``doc_id``, ``sample`` and ``rank`` (from 0; score
    descending, ties by doc id descending, trec_eval's order)."""
    from .._ingest.io._load import load_run

    if not isinstance(samples, Sequence) or isinstance(samples, (str, bytes)):
        samples = [samples]
    if not 1 <= len(samples) <= MAX_SAMPLES:
        raise ParameterError(f"the 'samples' option must hold 1 to {MAX_SAMPLES:,} rankings "
                             f"(MAX_SAMPLES); got {len(samples)}")
    return pl.concat([load_run(sample).frame.sort(
        ["query_id", "score", "doc_id"], descending=[False, True, True]).select(
        "query_id", "doc_id", sample=pl.lit(i, pl.Int64),
        rank=pl.int_range(pl.len(), dtype=pl.Int64).over("query_id"))
        for i, sample in enumerate(samples)])


def _exposures(ranked: pl.DataFrame, judged: Mapping[str, Mapping[str, float]], user: str,
               p: float, u: float) -> dict[str, dict[str, float]]:
    """{query: {doc: exposure}}, averaged over the samples that rank the query."""
    relevant = pl.DataFrame([(q, d) for q, docs in judged.items() for d, g in docs.items()
                             if g > 0], schema={"query_id": pl.String, "doc_id": pl.String},
                            orient="row").with_columns(rel=pl.lit(1, pl.Int64))
    rows = ranked.join(relevant, on=["query_id", "doc_id"], how="left", maintain_order="left")
    rel = pl.col("rel").fill_null(0)
    above = (rel.cum_sum().over("sample", "query_id") - rel) if user == "gerr" else pl.lit(0)
    exposure = (pl.lit(p) ** pl.col("rank") * pl.lit(1 - u) ** above
                / pl.col("sample").n_unique().over("query_id"))
    per_doc = rows.with_columns(e=exposure).group_by("query_id", "doc_id").agg(
        pl.col("e").sum())  # windows first: in an aggregation they would see one doc's rows
    out: dict[str, dict[str, float]] = {}
    for q, d, e in per_doc.iter_rows():
        out.setdefault(q, {})[d] = e
    return out


def _target(grades: Mapping[str, float], user: str, p: float, u: float) -> dict[str, float]:
    """Each judged document's target exposure: the documents of a grade share equally the
    exposure of the ranks an ideal ranking gives that grade."""
    levels = sorted(set(grades.values()), reverse=True)
    per, b = {}, 0
    for g in levels:
        m = sum(1 for v in grades.values() if v == g)
        pp = p * (1 - u) if user == "gerr" and g > 0 else p
        scale = (1 - u) ** b if user == "gerr" and g <= 0 else 1.0
        per[g], b = scale * (pp ** b - pp ** (b + m)) / (m * (1 - pp)), b + m
    return {d: per[g] for d, g in grades.items()}


def _geometric(x: float, n: float) -> float:
    return 1 / (1 - x) if math.isinf(n) else (1 - x ** n) / (1 - x)


def _bounds(target: dict[str, float], levels: int, user: str, p: float, u: float,
            n: float) -> tuple[tuple[float, float], ...]:
    """expeval's (lower, upper) bounds of disparity, relevance and difference."""
    pp = p if user == "rbp" else p * u  # expeval's own choice of the worst case's patience
    t = np.sort(np.fromiter(target.values(), np.float64))
    ranks = pp ** np.arange(t.size)
    finite = not math.isinf(n)
    disparity = (_geometric(pp, n) ** 2 / n if finite else 0.0, _geometric(p * p, n))
    relevance = (float(ranks @ t) if finite else 0.0, float(t @ t) or math.inf)
    if levels <= 1:
        relevance = (0.0, 0.0)
    difference = (0.0, float(np.sum((ranks - t) ** 2)) if finite
                  else float(t @ t) + _geometric(pp, n))
    return disparity, relevance, difference


def _metrics(run: dict[str, float], target: dict[str, float]) -> tuple[float, float, float]:
    """Disparity ||e||^2, relevance e.t (no factor 2) and difference ||e - t||^2."""
    docs = set(run) | set(target)
    e = np.array([run.get(d, 0.0) for d in docs])
    t = np.array([target.get(d, 0.0) for d in docs])
    return float(e @ e), float(e @ t), float((e - t) @ (e - t))


def _grouped(values: dict[str, float], groups: Mapping[str, str]) -> dict[str, float]:
    """Exposures summed per group (documents without a group left out)."""
    out: dict[str, float] = {}
    for d, v in values.items():
        if d in groups:
            out[groups[d]] = out.get(groups[d], 0.0) + v
    return out


def _judged(qrels: Any, complete: bool, binarize: bool) -> dict[str, dict[str, float]]:
    """{query: {doc: grade}}: relevant documents only unless ``complete``."""
    from .._ingest.io._load import load_qrels

    out: dict[str, dict[str, float]] = {}
    for q, d, g in load_qrels(qrels).frame.select("query_id", "doc_id", "relevance").rows():
        if g > 0 or complete:
            out.setdefault(q, {})[d] = min(g, 1) if binarize and g > 0 else g
    return out


def _groups_of(item_groups: Any) -> dict[str, str]:
    from .._ingest.io._items import load_item_groups

    frame = load_item_groups(item_groups).frame
    return dict(zip(frame["item_id"].to_list(), frame["group"].to_list(), strict=True))


def _check_user(user: str, patience: float, utility: float) -> None:
    check("user", user, Choice(USER_MODELS))
    check("patience", patience, Interval(0, 1))
    check("utility", utility, Interval(0, 1))


def expected_exposure(qrels: Any, samples: Any, *, user: str = "gerr", patience: float = 0.5,
                      utility: float = 0.5, complete: bool = False, binarize: bool = False,
                      normalise: bool | None = None, item_groups: Any = None) -> pl.DataFrame:
    """Expected exposure of each query's documents over sampled rankings, against the
    exposure an ideal stochastic ranker gives them (expeval's metrics).

    Parameters
    ----------
    qrels : any qrels form
        The judgments (see :func:`load_qrels`).
    samples : run or sequence of runs
        One run per sampled ranking (any run form); a query's exposure is averaged over
        the samples that rank it.
    user : {"gerr", "rbp"}, default "gerr"
        The browsing model. ``rbp``: a document at 0-based rank i gets ``patience**i``.
        ``gerr`` (expeval's default): ``patience**i * (1 - utility)**r``, with r the
        relevant documents above it.
    patience, utility : float, default 0.5
        The models' parameters, strictly between 0 and 1.
    complete : bool, default False
        Give judged non-relevant documents a target too, with finite-ranking bounds
        (expeval's ``-C``, reranking). Default: relevant documents only (retrieval).
    binarize : bool, default False
        Every relevant grade counts as 1 (expeval's ``-B``).
    normalise : bool, optional
        Each value as ``(v - lower) / (upper - lower)`` with expeval's bounds. Default: True
        without ``item_groups``; normalised group values are not offered.
    item_groups : item groups, optional
        Sum exposures per group first (expeval's ``-G``; documents without a group are left
        out); see :func:`load_item_groups`.

    Returns
    -------
    polars.DataFrame
        One row per judged query: ``query_id``, ``disparity`` (EE-D, ``||e||^2``),
        ``relevance`` (``e.t``; the paper's EE-R is twice it) and ``difference`` (EE-L,
        ``||e - t||^2``). A query no sample ranks gets expeval's values: the disparity's
        upper bound, the relevance's lower bound and the relevance's upper bound.

    Examples
    --------
    >>> import ranklens
    >>> qrels = {"q1": {"d1": 2, "d2": 1, "d3": 1, "d4": 0}}
    >>> s1 = {"q1": {"d1": 4, "d2": 3, "d4": 2, "d3": 1}}
    >>> s2 = {"q1": {"d2": 4, "d3": 3, "d1": 2, "d4": 1}}
    >>> ee = ranklens.expected_exposure(qrels, [s1, s2], user="rbp", normalise=False)
    >>> [round(ee[c][0], 6) for c in ("disparity", "relevance", "difference")]
    [1.085938, 1.023438, 0.320312]
    """
    _check_user(user, patience, utility)
    check("complete", complete, Boolean())
    check("binarize", binarize, Boolean())
    if normalise is not None:
        check("normalise", normalise, Boolean())
    if normalise and item_groups is not None:
        raise ParameterError("the 'normalise' option must be False or None with "
                             "'item_groups': expeval's group bounds are not reproduced")
    normalise = item_groups is None if normalise is None else normalise
    groups = None if item_groups is None else _groups_of(item_groups)
    judged = _judged(qrels, complete, binarize)
    exposures = _exposures(_samples(samples), judged, user, patience, utility)
    rows = []
    for q, grades in judged.items():
        target = _target(grades, user, patience, utility)
        n = len(grades) if complete else math.inf
        bounds = _bounds(target, len(set(grades.values())), user, patience, utility, n)
        run = exposures.get(q, {})
        if groups is not None:
            run, target = _grouped(run, groups), _grouped(target, groups)
        values: tuple[float, ...] = _metrics(run, target) if run else \
            (bounds[0][1], bounds[1][0], bounds[1][1])  # expeval: unranked query
        if normalise:
            defaults = (0.0, 1.0, 0.0)
            values = tuple(dv if hi == lo else (v - lo) / (hi - lo)
                           for v, (lo, hi), dv in zip(values, bounds, defaults, strict=True))
        rows.append((q, *values))
    return rows_frame(rows, "query_id", "", "disparity relevance difference")


def group_exposure(samples: Any, item_groups: Any, *, user: str = "rbp",
                   patience: float = 0.5, utility: float = 0.5,
                   qrels: Any = None) -> pl.DataFrame:
    """The attention each item group gets: its documents' exposure per query, summed, and
    its share of the query's exposure.

    Parameters
    ----------
    samples : run or sequence of runs
        Sampled rankings, as in :func:`expected_exposure`.
    item_groups : item groups
        A group per item (see :func:`load_item_groups`); other documents are left out.
    user, patience, utility
        The browsing model, as in :func:`expected_exposure` (``gerr`` needs ``qrels``).
    qrels : any qrels form, optional
        The judgments ``gerr`` reads.

    Returns
    -------
    polars.DataFrame
        ``query_id``, ``group``, ``exposure`` and ``share`` (of the query's grouped
        exposure), by query then group.

    Examples
    --------
    >>> import ranklens
    >>> run = {"q": {"a": 3, "b": 2, "c": 1}}
    >>> g = ranklens.group_exposure(run, {"a": "x", "b": "y", "c": "y"})
    >>> g["exposure"].to_list()
    [1.0, 0.75]
    """
    _check_user(user, patience, utility)
    if user == "gerr" and qrels is None:
        raise ParameterError("the 'qrels' option is needed with user='gerr' (it reads which "
                             "documents are relevant); or use user='rbp'")
    judged = {} if qrels is None else _judged(qrels, False, False)
    groups = _groups_of(item_groups)
    rows = []
    for q, docs in sorted(_exposures(_samples(samples), judged, user, patience,
                                     utility).items()):
        exposure = _grouped(docs, groups)
        total = sum(exposure.values())
        rows += [(q, g, e, e / total if total else math.nan)
                 for g, e in sorted(exposure.items())]
    return rows_frame(rows, "query_id group", "", "exposure share")


def awrf(samples: Any, item_groups: Any, target: Mapping[str, float] | None = None
         ) -> pl.DataFrame:
    """Attention-weighted rank fairness per query, as the TREC Fair Ranking 2021 code
    computes it: ``1 - JS(a, target)**2``.

    ``a`` is each group's discounted share of the ranking, a rank i (from 1) weighing
    ``1 / log2(max(i, 2))``; JS is scipy's Jensen-Shannon distance (natural log), so AWRF
    lies in ``[1 - ln 2, 1]``. Where rounding makes the divergence negative (two nearly equal
    distributions), scipy's distance is NaN; AWRF is then 1. Documents without a group weigh
    nothing; a ranking without a grouped document counts every group equally. Several
    samples: their mean.

    Parameters
    ----------
    samples : run or sequence of runs
        Rankings (any run form).
    item_groups : item groups
        A group per item (see :func:`load_item_groups`).
    target : mapping of group to weight, optional
        The fair distribution (normalised to sum 1). Default: every group of
        ``item_groups`` equally.

    Returns
    -------
    polars.DataFrame
        ``query_id`` and ``awrf``, by query.

    Examples
    --------
    >>> import ranklens
    >>> run = {"q": {"a": 2, "b": 1}}
    >>> ranklens.awrf(run, {"a": "x", "b": "y"})["awrf"].to_list()
    [1.0]
    """
    from scipy.spatial.distance import jensenshannon

    groups = _groups_of(item_groups)
    names = sorted(set(groups.values()) | set(target or ()))
    goal = np.array([(target or dict.fromkeys(names, 1.0)).get(g, 0.0) for g in names])
    share_of = goal / goal.sum() if np.isfinite(goal).all() and goal.sum() > 0 else goal
    # a share under 1e-300 underflows in the Jensen-Shannon midpoint and gives -inf
    if not (np.all(goal >= 0) and goal.sum() > 0 and np.isfinite(goal).all()
            and np.all((share_of == 0) | (share_of >= 1e-300))):
        raise ParameterError(f"the 'target' option must give finite weights >= 0, one of them "
                             f"> 0, each other one 0 or at least 1e-300 of their sum; got "
                             f"{dict(target or {})!r}")
    at = {g: i for i, g in enumerate(names)}
    ranked = _samples(samples).with_columns(
        key=pl.struct("query_id", "sample").rank("dense") - 1,
        group=pl.col("doc_id").replace_strict(groups, default=None).replace_strict(
            at, default=None, return_dtype=pl.Int64))
    keys = ranked.group_by("key").agg(pl.col("query_id").first()).sort("key")
    share = np.zeros((keys.height, len(names)))
    take = ranked.filter(pl.col("group").is_not_null())
    np.add.at(share, (take["key"].to_numpy(), take["group"].to_numpy()),
              1 / np.log2(np.maximum(take["rank"].to_numpy() + 1, 2)))
    share[share.sum(axis=1) == 0] = 1.0  # the TREC code's answer to no grouped document
    with np.errstate(invalid="ignore"):
        js = jensenshannon(share, np.broadcast_to(goal, share.shape), axis=1)
    value = 1 - np.where(np.isnan(js), 0.0, js) ** 2  # NaN: the root of a rounding-negative JS
    return keys.select("query_id", awrf=value).group_by("query_id").agg(
        pl.col("awrf").mean()).sort("query_id")
