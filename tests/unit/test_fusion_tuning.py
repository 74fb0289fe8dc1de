"""``ranklens.optimize_fusion`` equals an exhaustive loop over the same grid and folds,
written here with nothing but ``fuse`` and ``evaluate`` on restricted dicts; and its
validation messages."""

from __future__ import annotations

import doctest
import itertools

import numpy as np
import pytest

import ranklens
from ranklens import ParameterError
from ranklens._surfaces.fusion import candidates, fuse, norms, order, registry, tuning, write


def random_data(seed: int, n_queries: int = 12) -> tuple[dict, dict]:
    rng = np.random.default_rng(seed)
    qrels, runs = {}, {"a": {}, "b": {}, "c": {}}
    for i in range(n_queries):
        q = f"q{i:02d}"
        docs = [f"d{j}" for j in range(8)]
        qrels[q] = {d: int(g) for d, g in zip(docs, rng.integers(0, 3, 8), strict=True)}
        for name in runs:
            picked = rng.choice(docs, size=int(rng.integers(2, 8)), replace=False)
            runs[name][q] = {str(d): float(rng.normal()) for d in picked}
    del runs["c"]["q03"]  # a query one run lacks
    return qrels, runs


def exhaustive(qrels: dict, runs: dict, method: str, measure: str, grid: dict, folds: int,
               seed: int) -> tuple[float, list[dict]]:
    queries = sorted(qrels)
    parts = np.array_split(np.random.default_rng(seed).permutation(queries), folds)
    keys = list(grid)
    points = [dict(zip(keys, combo, strict=True)) for combo in
              itertools.product(*(grid[k] for k in keys))]
    held_out: dict[str, dict[str, float]] = {}
    chosen = []
    for part in parts:
        test = set(part.tolist())
        train = [q for q in queries if q not in test]
        best, best_value = None, -np.inf
        for point in points:
            params = {k: v for k, v in point.items() if k != "weights"}
            fused = ranklens.fuse(runs, method, weights=point.get("weights"), params=params)
            frame = fused.frame
            run = {}
            for q, d, s in zip(frame["query_id"], frame["doc_id"], frame["score"], strict=True):
                run.setdefault(q, {})[d] = s
            value = ranklens.evaluate({q: qrels[q] for q in train},
                                      {q: run[q] for q in train if q in run},
                                      [measure])[measure]
            if value > best_value:
                best, best_value = point, value
                best_run = run
        chosen.append(best)
        held_out.update({q: best_run[q] for q in test if q in best_run})
    return ranklens.evaluate(qrels, held_out, [measure])[measure], chosen


@pytest.mark.parametrize(("method", "grid"), [
    ("wsum", {"weights": [[1, 0, 0], [0.5, 0.5, 0], [0.2, 0.3, 0.5], [0, 0, 1], [0, 1, 0]]}),
    ("rrf", {"k": [0, 1, 10, 60]}),
    ("rbc", {"phi": [0.3, 0.6, 0.9]}),
])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_optimize_fusion_equals_an_exhaustive_loop(method: str, grid: dict, seed: int) -> None:
    qrels, runs = random_data(seed)
    tuned = ranklens.optimize_fusion(qrels, runs, method, "nDCG@5", grid=grid, folds=3,
                                     seed=seed)
    value, chosen = exhaustive(qrels, runs, method, "nDCG@5", grid, 3, seed)
    assert [f.params for f in tuned.folds] == chosen
    assert tuned.value == pytest.approx(value, rel=1e-12)
    assert sorted(q for f in tuned.folds for q in f.queries) == sorted(qrels)
    assert tuned.result["nDCG@5"] == tuned.value


def test_default_grid_and_lower_is_better() -> None:
    assert len(tuning.default_grid("wsum", 2)["weights"]) == 11
    assert tuning.default_grid("rrf", 2) == {"k": [1, 5, 10, 20, 40, 60, 80, 100]}
    assert tuning.lookup_lower_is_better("Unj@5") or not tuning.lookup_lower_is_better("AP")


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"method": "sum"}, "the fusion method 'sum' has nothing to tune"),
    ({"method": "rrf", "grid": {"weights": [[1, 1]]}}, "names 'weights', which the method "
                                                      "'rrf' does not take (it takes k)"),
    ({"method": "rrf", "grid": {"k": [-1]}}, "the 'k' parameter of 'rrf' must be"),
    ({"method": "wsum", "grid": {"weights": [[1, 2, 3]]}}, "one weight per run (2); got 3"),
    ({"method": "rrf", "folds": 1}, "the 'folds' option must be an integer >= 2"),
    ({"method": "rrf", "folds": 99}, "at most the number of judged queries (12); got 99"),
])
def test_bad_tuning_options(kwargs: dict, message: str) -> None:
    qrels, runs = random_data(0)
    del runs["c"]
    with pytest.raises(ParameterError) as err:
        ranklens.optimize_fusion(qrels, runs, measure="AP", **kwargs)
    assert message in str(err.value)


@pytest.mark.parametrize("module", [candidates, fuse, norms, order, registry, tuning, write])
def test_docstring_examples(module: object) -> None:
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert failures == 0


def exhaustive_supervised(qrels: dict, runs: dict, method: str, measure: str, grid: dict,
                          folds: int, seed: int) -> tuple[float, list[dict]]:
    """The nested protocol with ``fuse`` and ``evaluate`` alone: a fold's training value of a
    point fuses each other fold ``g`` with judgments of neither ``g`` nor the held-out fold
    (a query outside ``train`` is fused by the model of every training query)."""
    queries = sorted(qrels)
    parts = [p.tolist() for p in
             np.array_split(np.random.default_rng(seed).permutation(queries), folds)]
    keys = list(grid)
    points = [dict(zip(keys, combo, strict=True)) for combo in
              itertools.product(*(grid[k] for k in keys))]

    def fused(train: list[str], point: dict, wanted: list[str]) -> dict:
        run = ranklens.fuse(runs, method, train={q: qrels[q] for q in train},
                            allow_leakage=True, **point)  # only unjudged queries are read
        out: dict[str, dict[str, float]] = {}
        frame = run.frame
        for q, d, s in zip(frame["query_id"], frame["doc_id"], frame["score"], strict=True):
            if q in wanted:
                out.setdefault(q, {})[d] = s
        return out

    held_out: dict[str, dict[str, float]] = {}
    chosen = []
    for f, test in enumerate(parts):
        train = [q for q in queries if q not in test]
        best, best_value = None, -np.inf
        for point in points:
            run: dict[str, dict[str, float]] = {}
            for g, other in enumerate(parts):
                if g != f:
                    learn = [q for q in train if q not in other]
                    run.update(fused(learn, point, other))
            value = ranklens.evaluate({q: qrels[q] for q in train}, run, [measure])[measure]
            if value > best_value:
                best, best_value = point, value
        chosen.append(best)
        held_out.update(fused(train, best, test))
    return ranklens.evaluate(qrels, held_out, [measure])[measure], chosen


@pytest.mark.parametrize(("method", "grid"), [
    ("probfuse", {"n_segments": [1, 2, 3, 5]}),
    ("slidefuse", {"w": [0, 1, 3]}),
    ("posfuse", {"rel": [1, 2]}),
])
@pytest.mark.parametrize("seed", [0, 1])
def test_supervised_optimize_fusion_equals_an_exhaustive_nested_loop(
        method: str, grid: dict, seed: int) -> None:
    qrels, runs = random_data(seed)
    tuned = ranklens.optimize_fusion(qrels, runs, method, "nDCG@5", grid=grid, folds=3,
                                     seed=seed)
    value, chosen = exhaustive_supervised(qrels, runs, method, "nDCG@5", grid, 3, seed)
    assert [f.params for f in tuned.folds] == chosen
    assert tuned.value == pytest.approx(value, rel=1e-12)
    assert sorted(q for f in tuned.folds for q in f.queries) == sorted(qrels)


def test_supervised_tuning_defaults_and_errors() -> None:
    assert tuning.default_grid("probfuse", 2) == {"n_segments": list(range(1, 101))}
    assert tuning.default_grid("slidefuse", 3) == {"w": list(range(1, 101))}
    with pytest.raises(ParameterError, match="'posfuse' has nothing to tune"):
        tuning.default_grid("posfuse", 2)
    qrels, runs = random_data(0)
    with pytest.raises(ParameterError, match="the 'folds' option must be at least 3 for the "
                                             "supervised method 'probfuse'"):
        ranklens.optimize_fusion(qrels, runs, "probfuse", grid={"n_segments": [2]}, folds=2)
    with pytest.raises(ParameterError, match="the 'grid' option names 'folds'"):
        ranklens.optimize_fusion(qrels, runs, "probfuse", grid={"folds": [2]}, folds=3)


def test_supervised_tuning_without_kept_slices_is_the_same(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    from ranklens._surfaces.fusion import tuning_supervised

    qrels, runs = random_data(3)
    grid = {"n_segments": [1, 2, 4]}
    kept = ranklens.optimize_fusion(qrels, runs, "probfuse", "AP", grid=grid, folds=4)
    monkeypatch.setattr(tuning_supervised, "CACHED_ROWS", 0)
    made = ranklens.optimize_fusion(qrels, runs, "probfuse", "AP", grid=grid, folds=4)
    assert [f.params for f in made.folds] == [f.params for f in kept.folds]
    assert made.value == kept.value and made.run.frame.equals(kept.run.frame)
