"""``ranklens.optimize_fusion``: a fusion's parameters chosen on training queries and
judged on held-out ones (k-fold cross-validation over queries).

The queries of the judgments are shuffled with ``seed`` and split into ``folds`` parts. For
each fold, every point of the grid is scored by the measure's mean over the *other* folds'
queries, and the best point (the first in grid order on a tie) fuses that fold's queries.
The folds' fused queries, put together, make one run, evaluated once: its value is on
held-out queries only, each scored by parameters chosen without it.

Each grid point's fused run is computed and evaluated once for all queries: a query's value
depends on that query alone, so the mean over a fold's training queries is the mean of their
per-query values. Supervised methods follow a nested protocol (no held-out judgment read
to learn or to choose): see :mod:`ranklens._surfaces.fusion.tuning_supervised`.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from ..._base.errors import ParameterError
from ..._base.validate import Integer, check
from ..._ingest.io._load import load_qrels
from ..._ingest.tables import Run
from ..._results.result import Result
from ..evaluate import evaluate
from .fuse import _to_run, _weights, at_least_two, candidates_of, checked_options, fuse_candidates
from .norms import DEFAULT_NORM
from .registry import lookup
from .training import fold_mean

__all__ = ["FoldChoice", "FusionTuning", "default_grid", "optimize_fusion"]


@dataclass(frozen=True)
class FoldChoice:
    """One fold: its held-out queries, the parameters chosen on the others, the training
    mean of the measure with them and the held-out queries' mean."""

    queries: tuple[str, ...]
    params: dict[str, Any]
    train_value: float
    test_value: float


@dataclass(frozen=True)
class FusionTuning:
    """The result of :func:`optimize_fusion`.

    Attributes
    ----------
    value : float
        The measure's mean over every held-out query (the folds' fused runs together).
    folds : tuple of FoldChoice
        Each fold's queries and chosen parameters.
    run : Run
        The held-out fused run: each fold's queries fused with that fold's parameters.
    result : Result
        ``run`` evaluated (every measure given, per query).
    grid : tuple of dict
        The grid points, in the order ties are broken.
    """

    value: float
    folds: tuple[FoldChoice, ...]
    run: Run
    result: Result
    grid: tuple[dict[str, Any], ...]

    def __repr__(self) -> str:
        return (f"<FusionTuning: held-out {self.result.names[0]}={self.value:.4f} over "
                f"{len(self.folds)} folds, {len(self.grid)} grid points>")

    def _repr_html_(self) -> str:
        from ..render.frames import frame_table, rows_frame
        from ..render.notebook import html_table
        from ..render.results import convention_line

        frame = rows_frame(((str(f.params), i, len(f.queries), f.train_value, f.test_value)
                            for i, f in enumerate(self.folds, 1)),
                           "parameters", "fold queries", "train test")
        frame = frame.select("fold", "queries", "parameters", "train", held_out="test")
        table = frame_table(frame.rename({"held_out": "held out"}), convention_line([self.result]))
        return html_table(repr(self)[1:-1], table)


def default_grid(method: str, n_runs: int) -> dict[str, list[Any]]:
    """The grid used when none is given: weights on the simplex in steps of 0.1 for the
    weighted methods (ranx's ``optimize_fusion`` default), ``k`` for RRF, ``phi`` for RBC,
    ``gamma`` for CombGMNZ, ``sigma`` for logN-ISR, ``n_segments`` for ProbFuse and ``w``
    for SlideFuse (1 to 100, as ranx tunes them).

    Raises
    ------
    ParameterError
        A method with nothing to tune.
    """
    m = lookup(method)
    grid: dict[str, list[Any]] = {}
    if m.weights:
        steps = range(11)
        grid["weights"] = [[s / 10 for s in combo] for combo in
                           itertools.product(steps, repeat=n_runs) if sum(combo) == 10]
    defaults: dict[str, list[Any]] = {"k": [1, 5, 10, 20, 40, 60, 80, 100],
                "phi": [0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99],
                "gamma": [0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0],
                "sigma": [0.001, 0.01, 0.1, 0.5, 1.0],
                # ranx's optimize_fusion range for ProbFuse and SlideFuse
                "n_segments": list(range(1, 101)), "w": list(range(1, 101))}
    for p in m.params:
        if p.name in defaults:  # not a supervised method's rel or cross-fitting options
            grid[p.name] = defaults[p.name]
    if not grid:
        raise ParameterError(f"the fusion method {m.name!r} has nothing to tune (no weights "
                             "and no parameter)")
    return grid


def optimize_fusion(qrels: Any, runs: Any, method: str = "wsum",
                    measure: str = "nDCG@10", *, grid: Mapping[str, Sequence[Any]] | None = None,
                    folds: int = 5, seed: int = 0, norm: str | None = DEFAULT_NORM,
                    depth: int | None = None, convention: str | None = None,
                    **options: Any) -> FusionTuning:
    """Choose a fusion's weights or parameters by k-fold cross-validation over queries.

    Parameters
    ----------
    qrels : judgments
        Any form :func:`ranklens.evaluate` reads.
    runs : several runs
        As :func:`ranklens.fuse` takes them.
    method : str, default "wsum"
        The fusion method (see :func:`ranklens.fuse`).
    measure : str, default "nDCG@10"
        The measure to maximise (its mean over queries); a lower-is-better measure is
        minimised.
    grid : mapping, optional
        ``{"weights": [[w1, w2, ...], ...], "k": [...], ...}``: every combination is a grid
        point, in the order of the mapping and of each list (the first best point wins a
        tie). Default: :func:`default_grid`.
    folds : int, default 5
        Number of folds over the judged queries (at least 2; at least 3 for a supervised
        method, whose models are learned without the held-out fold's judgments and, to
        choose its parameters, without the judgments of the queries they are scored on:
        see ``docs/fusion.md``).
    seed : int, default 0
        Seed of the shuffle that assigns queries to folds.
    norm, depth, convention
        As :func:`ranklens.fuse`.
    **options
        Evaluation options (``convention``-free: ``missing``, ``ties``, ...), as
        :func:`ranklens.evaluate` takes them.

    Returns
    -------
    FusionTuning
        The held-out value, the parameters each fold chose, the held-out fused run.

    Examples
    --------
    >>> import ranklens
    >>> qrels = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"a": 1}, "q4": {"b": 1}}
    >>> x = {q: {"a": 2.0, "b": 1.0} for q in qrels}
    >>> y = {q: {"b": 2.0, "a": 1.0} for q in qrels}
    >>> tuned = ranklens.optimize_fusion(qrels, {"x": x, "y": y}, "wsum", "RR",
    ...                                  grid={"weights": [[1, 0], [0, 1]]}, folds=2)
    >>> tuned.value, [f.params for f in tuned.folds]
    (0.5, [{'weights': [0, 1]}, {'weights': [1, 0]}])

    ``x`` is right on q1 and q3, ``y`` on q2 and q4: each fold's weights, chosen on the other
    fold's queries, are wrong on its own, and the held-out value says so.
    """
    m = lookup(method)
    check("folds", folds, Integer(2))
    check("seed", seed, Integer(0))
    norm_name = checked_options(norm, depth, convention)
    several = at_least_two(runs)
    sign = -1.0 if lookup_lower_is_better(measure) else 1.0  # a bad name fails here, early
    points = _points(grid if grid is not None else default_grid(m.name, len(several)), m,
                     len(several))
    q = load_qrels(qrels)
    c = candidates_of(several, convention, depth)
    queries = np.array(sorted(set(q.frame["query_id"].to_list())))
    if queries.size < folds:
        raise ParameterError(f"the 'folds' option must be at most the number of judged "
                             f"queries ({queries.size}); got {folds}")
    parts = np.array_split(np.random.default_rng(seed).permutation(queries), folds)
    if m.supervised:
        from .tuning_supervised import supervised_runs

        fused, held_out_run = supervised_runs(q, c, m, norm_name, points, parts)
    else:
        fused = held_out_run = _unsupervised_runs(c, m, norm_name, points)
    trains = [[x for g, part in enumerate(parts) if g != f for x in part.tolist()]
              for f in range(len(parts))]
    means = np.empty((len(points), len(parts)))
    last: tuple[Run | None, dict[str, float]] = (None, {})
    for i, f in itertools.product(range(len(points)), range(len(parts))):
        run = fused(f, i)  # one run for every fold (unsupervised): evaluated once
        if run is not last[0]:
            last = (run, evaluate(q, run, [measure], **options).per_query(measure))
        means[i, f] = fold_mean(last[1], trains[f])
    choices, pieces = [], []
    for f, part in enumerate(parts):  # the first best point wins a tie
        best = max(range(len(points)), key=lambda i: (sign * means[i][f], -i))
        choices.append((part, best, means[best][f]))
        pieces.append(held_out_run(f, best).frame.filter(pl.col("query_id").is_in(
            sorted(part.tolist()))).select("query_id", "doc_id", "score"))
    frame = pl.concat(pieces).sort("query_id", maintain_order=True)
    held_out = Run(frame, source=f"<held-out fused {m.name}>", name=m.name)
    result = evaluate(q, held_out, [measure], **options)
    per_query = result.per_query(measure)
    folds_out = tuple(FoldChoice(tuple(sorted(part.tolist())), dict(points[best]),
                                 float(train_v), fold_mean(per_query, part.tolist()))
                      for part, best, train_v in choices)
    return FusionTuning(float(result[measure]), folds_out, held_out, result, tuple(points))


def _unsupervised_runs(c: Any, m: Any, norm_name: str, points: list[dict[str, Any]]
                       ) -> Callable[[int, int], Run]:
    """The fused run of a (fold, point): the point's, fused once for all queries."""
    @functools.cache
    def fused(i: int) -> Run:
        weights = _weights(m, points[i].get("weights"), c.runs)
        params = {k: v for k, v in points[i].items() if k != "weights"}
        scores, rank = fuse_candidates(c, m, norm_name, weights, m.resolve(params))
        return _to_run(c, scores, rank, m.name, m)
    return lambda f, i: fused(i)


def lookup_lower_is_better(measure: str) -> bool:
    """Whether a smaller value of ``measure`` is better (Unjudged, fallout)."""
    from ..._names import parse_measure

    return bool(parse_measure(measure).definition.lower_is_better)


def _points(grid: Mapping[str, Sequence[Any]], m: Any, n_runs: int) -> list[dict[str, Any]]:
    if not isinstance(grid, Mapping) or not grid:
        raise ParameterError(f"the 'grid' option must be a non-empty mapping of parameter "
                             f"names to lists of values; got {grid!r}")
    # a supervised method's cross-fitting options are the tuning's own folds and seed
    known = ({p.name for p in m.params} - {"folds", "seed", "allow_leakage"}
             | ({"weights"} if m.weights else set()))
    unknown = sorted(set(grid) - known)
    if unknown:
        raise ParameterError(f"the 'grid' option names {unknown[0]!r}, which the method "
                             f"{m.name!r} does not take (it takes "
                             f"{', '.join(sorted(known)) or 'nothing'})")
    for key, values in grid.items():
        if isinstance(values, str | bytes | Mapping) or not isinstance(values, Sequence) \
                or not values:
            raise ParameterError(f"the 'grid' option's {key!r} must be a non-empty list of "
                                 f"values to try (e.g. {{{key!r}: [{_example(key)}]}}); "
                                 f"got {values!r}")
    keys = list(grid)
    points = [dict(zip(keys, combo, strict=True)) for combo in
              itertools.product(*(list(grid[k]) for k in keys))]
    for point in points:  # every point checked before any fusion
        _weights(m, point.get("weights"), n_runs)
        m.resolve({k: v for k, v in point.items() if k != "weights"})
    return points


def _example(key: str) -> str:
    return "[0.5, 0.5], [0.7, 0.3]" if key == "weights" else "20, 60"

