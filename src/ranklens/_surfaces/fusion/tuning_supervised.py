"""``optimize_fusion`` for the supervised methods: a nested k-fold protocol, so that no
judgment of a held-out query is read, neither to learn the models that fuse it nor to
choose the parameters they are learned with.

The judged queries are split into ``k`` folds as for the unsupervised methods. For held-out
fold ``f``, each grid point is scored on the other folds' queries, each query of fold
``g != f`` fused by a model learned on the folds other than ``f`` and ``g`` (cross-fitting
inside the training folds: ``k >= 3``); the best point (the first on a tie) then fuses fold
``f`` by a model learned on every fold but ``f``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ..._base.errors import ParameterError
from ..._base.tuning import CACHED_FUSION_ROWS as CACHED_ROWS
from ..._ingest.tables import Qrels, Run
from .candidates import Candidates
from .fuse import _to_run, prepared_inputs
from .registry import Method
from .training import Training, query_folds

__all__ = ["CACHED_ROWS", "supervised_runs"]


def supervised_runs(q: Qrels, c: Candidates, m: Method, norm: str,
                    points: Sequence[Mapping[str, Any]], parts: Sequence[np.ndarray]
                    ) -> tuple[Callable[[int, int], Run], Callable[[int, int], Run]]:
    """The run scoring a grid point on the training folds of fold ``f``: each other fold
    fused by a model learned without it and ``f``; and the held-out run of a (fold, point),
    the fold fused by a model learned on every other fold."""
    from .supervised import SUPERVISED

    if len(parts) < 3:
        raise ParameterError(
            f"the 'folds' option must be at least 3 for the supervised method {m.name!r} "
            f"(each fold's parameters are chosen with models learned on a third part); "
            f"got {len(parts)}")
    entry = SUPERVISED[m.name]
    own = {p.name for p in entry.params}
    inputs = prepared_inputs(c, norm, np.ones(c.runs), q)
    fold = query_folds(c.query_ids, list(parts))[c.query]
    judged = fold >= 0
    trainings: dict[int, Training] = {}

    def kernel_params(point: Mapping[str, Any]) -> tuple[Training, dict[str, Any]]:
        resolved = {k: v for k, v in m.resolve(point).items() if k in own}
        rel = int(resolved.get("rel", 1))
        if rel not in trainings:
            trainings[rel] = Training.of(entry, inputs, rel)
        return trainings[rel], resolved

    n = len(parts)
    fold_rows = [np.flatnonzero(fold == g) for g in range(n)]
    # each learning slice and fused slice made once per rel, not once per grid point
    # (kept while they hold at most ~CACHED_ROWS rows: about 6 copies of the rows at k = 5)
    keep_slices = c.query.size * n * n <= CACHED_ROWS
    learn_slices: dict[tuple[int, int, int], Training] = {}
    fold_slices: dict[tuple[int, int], Training] = {}

    def pair(t: Training, rel: int, f: int, g: int) -> tuple[Training, Training]:
        key = (rel, min(f, g), max(f, g))  # folds f and g left out: the same either way
        learn = learn_slices.get(key) or t.take(np.flatnonzero(judged & (fold != f)
                                                               & (fold != g)))
        target = fold_slices.get((rel, g)) or t.take(fold_rows[g])
        if keep_slices:
            learn_slices[key], fold_slices[rel, g] = learn, target
        return learn, target

    def fused(f: int, i: int) -> Run:
        t, params = kernel_params(points[i])
        rel = int(params.get("rel", 1))
        scores = np.zeros(c.query.size)
        for g in range(n):
            if g != f and fold_rows[g].size:
                learn, target = pair(t, rel, f, g)
                scores[fold_rows[g]] = learn.scores(params, None, None, on=target)
        return _to_run(c, scores, inputs.rank, m.name, m)

    def held_out_run(f: int, best: int) -> Run:
        t, params = kernel_params(points[best])
        scores = np.zeros(c.query.size)
        rows = np.flatnonzero(fold == f)
        if rows.size:
            scores[rows] = t.scores(params, np.flatnonzero(judged & (fold != f)), rows)
        return _to_run(c, scores, inputs.rank, m.name, m)
    return fused, held_out_run
