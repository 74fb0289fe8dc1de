"""RBO against the `rbo` package: ``RankingSimilarity(S, T).rbo_ext(p)`` is Webber, Moffat &
Zobel's extrapolated RBO for rankings of different lengths (their Eq. 32;
../shared/research/references.md). Its ``.rbo(p)`` is none of the paper's forms and is not
compared."""

from __future__ import annotations

import numpy as np
import pytest

import ranklens

rbo_package = pytest.importorskip("rbo")


def _run(rankings: list[list[str]]) -> dict[str, dict[str, float]]:
    """Each ranking as one query of a run, scores strictly descending (no ties)."""
    return {f"q{i}": {doc: float(len(r) - k) for k, doc in enumerate(r)}
            for i, r in enumerate(rankings)}


@pytest.mark.parametrize("p", [0.5, 0.8, 0.9, 0.95, 0.98])
def test_rbo_ext_equals_the_rbo_package_on_random_rankings(p: float) -> None:
    rng = np.random.default_rng(int(p * 1000))
    pairs = []
    for _ in range(80):
        universe = [f"d{i}" for i in range(int(rng.integers(2, 60)))]
        pairs.append(tuple(list(rng.permutation(universe)[: int(rng.integers(1, len(universe)
                                                                              + 1))])
                           for _ in range(2)))
    name = f"RBO(p={p})"
    got = ranklens.agreement(_run([s for s, _ in pairs]), _run([t for _, t in pairs]), name)
    want = [rbo_package.RankingSimilarity(s, t).rbo_ext(p) for s, t in pairs]
    np.testing.assert_allclose(got.query_values[name], want, rtol=0, atol=1e-12)
