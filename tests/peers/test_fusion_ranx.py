"""``ranklens.fuse`` against ``ranx.fuse`` (differential, random runs).

ranx runs in a subprocess (``ranx_fusion_worker.py``): with ``NUMBA_DISABLE_JIT=1`` for the
runs with distinct scores (fast; numpy then sorts fused ties its own way, so fused ties are
compared as sets), and compiled for the runs with tied scores, whose order under
``convention="ranx"`` must be ranx's exactly (numba's quicksort, lists longer than 15
included). Where ranx's own result depends on ``PYTHONHASHSEED`` (references.md: rank-based
methods after the Borda normalisation, the fused order of ties of Borda fuse, Condorcet on
partial overlap) the comparison is left out or made up to ties, as each test says.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import ranklens

pytest.importorskip("ranx")

WORKER = Path(__file__).with_name("ranx_fusion_worker.py")

SCORE_BASED = ["sum", "mnz", "max", "min", "med", "anz", "gmnz", "wsum", "wmnz", "mixed"]
RANK_BASED = ["rrf", "isr", "log_isr", "logn_isr", "rbc", "bordafuse", "w_bordafuse"]
NORMS = ["min-max", "min-max-inverted", "max", "sum", "zmuv", "rank", "borda", "none"]
#: ranx reads the Borda-normalised runs in set order: ranks after it depend on the hash seed
RANKS_AFTER_BORDA = set(RANK_BASED)
#: ranx orders these methods' fused ties in set order
TIES_BY_SET_ORDER = {"bordafuse", "w_bordafuse"}


class Ranx:
    """A worker process answering fusion requests."""

    def __init__(self, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen([sys.executable, str(WORKER)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=env)

    def fuse(self, runs: list[list[list]], method: str, norm: str,
             params: dict | None = None) -> list[list]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        request = {"runs": runs, "method": method, "norm": norm, "params": params or {}}
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        answer = json.loads(self.proc.stdout.readline())
        assert "error" not in answer, answer["error"]
        return answer["rows"]

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def ranx_python() -> Iterator[Ranx]:
    worker = Ranx(_env(NUMBA_DISABLE_JIT="1"))
    yield worker
    worker.close()


@pytest.fixture(scope="module")
def ranx_compiled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ranx]:
    cache = os.environ.get("RANKLENS_TEST_NUMBA_CACHE") or str(
        tmp_path_factory.mktemp("numba"))
    worker = Ranx(_env(NUMBA_CACHE_DIR=cache))
    yield worker
    worker.close()


@st.composite
def several_runs(draw: st.DrawFn, *, ties: bool = False, same_docs: bool = False,
                 n_runs: int | None = None, max_docs: int = 12) -> list[list[list]]:
    """Runs over the same queries (ranx requires it), each query's list non-empty, rows in
    a random order; scores distinct within a list unless ``ties``."""
    nr = n_runs or draw(st.integers(2, 4))
    nq = draw(st.integers(1, 3))
    runs: list[list[list]] = [[] for _ in range(nr)]
    for qi in range(nq):
        # ids of one length: compiled ranx without a normalisation cuts the fused ids to the
        # width of the first run's longest id ('d10' comes back as 'd1'), a ranx bug
        pool = [f"d{i:02d}" for i in range(draw(st.integers(1, max_docs)))]
        for r in range(nr):
            docs = pool if same_docs else draw(
                st.lists(st.sampled_from(pool), min_size=1, max_size=len(pool), unique=True))
            docs = draw(st.permutations(docs))
            if ties:
                scores = draw(st.lists(st.integers(0, 3), min_size=len(docs),
                                       max_size=len(docs)))
            else:
                scores = draw(st.lists(st.integers(-50, 200), min_size=len(docs),
                                       max_size=len(docs), unique=True))
            runs[r] += [[f"q{qi}", d, s / 8] for d, s in zip(docs, scores, strict=True)]
    return runs


def _params(method: str, n_runs: int, draw: st.DrawFn) -> dict:
    if method == "rrf":
        return {"k": draw(st.sampled_from([0, 1, 60]))}
    if method == "logn_isr":
        return {"sigma": draw(st.sampled_from([0.0, 0.01, 1.0]))}
    if method == "gmnz":
        return {"gamma": draw(st.sampled_from([0.0, 0.5, 1.0, 2.0]))}
    if method == "rbc":
        return {"phi": draw(st.sampled_from([0.5, 0.8, 0.95]))}
    if method in ("wsum", "wmnz", "mixed", "w_bordafuse", "w_condorcet"):
        return {"weights": [draw(st.sampled_from([0.5, 1.0, 2.0, 3.0])) for _ in range(n_runs)]}
    return {}


def _ours(runs: list[list[list]], method: str, norm: str, params: dict) -> list[list]:
    given = {f"r{i}": {"query_id": [row[0] for row in rows], "doc_id": [row[1] for row in rows],
                       "score": [row[2] for row in rows]} for i, rows in enumerate(runs)}
    import polars as pl

    frames = {name: pl.DataFrame(cols) for name, cols in given.items()}
    p = dict(params)
    weights = p.pop("weights", None)
    fused = ranklens.fuse(frames, method, norm=norm, weights=weights, params=p,
                          convention="ranx")
    frame = fused.frame
    return [[q, d, s] for q, d, s in zip(frame["query_id"], frame["doc_id"], frame["score"],
                                         strict=True)]


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def assert_same(ours: list[list], theirs: list[list], *, up_to_ties: bool) -> None:
    """Same rows in the same order with scores within 1e-9 (relative); ``up_to_ties``:
    documents whose ranx scores tie may come in any order among themselves."""
    assert [r[0] for r in ours] == [r[0] for r in theirs]
    for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        assert _close(a[2], b[2]), (i, a, b)
    if not up_to_ties:
        assert [r[1] for r in ours] == [r[1] for r in theirs]
        return
    # ties: each block of equal ranx scores holds the same documents
    def blocks(rows: list[list]) -> list[tuple[str, frozenset[str]]]:
        out: list[tuple[str, frozenset[str]]] = []
        start = 0
        for i in range(1, len(rows) + 1):
            if i == len(rows) or rows[i][0] != rows[start][0] or rows[i][2] != rows[start][2]:
                out.append((rows[start][0], frozenset(r[1] for r in rows[start:i])))
                start = i
        return out
    mine = {(q, d): s for q, d, s in ours}
    for q, docs in blocks(theirs):
        scores = [mine[(q, d)] for d in docs]
        assert all(_close(s, scores[0]) for s in scores), (q, docs)
    assert {(q, d) for q, d, _ in ours} == {(q, d) for q, d, _ in theirs}


SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("method", SCORE_BASED + RANK_BASED)
@SETTINGS
@given(data=st.data())
def test_distinct_scores_match_ranx(ranx_python: Ranx, method: str, norm: str,
                                    data: st.DataObject) -> None:
    if norm == "borda" and method in RANKS_AFTER_BORDA:
        pytest.skip("ranx reads Borda-normalised runs in set order (hash seed)")
    runs = data.draw(several_runs())
    params = _params(method, len(runs), data.draw)
    theirs = ranx_python.fuse(runs, method, norm, params)
    # numpy (ranx without its JIT) sorts fused ties its own way: compare them as sets
    assert_same(_ours(runs, method, norm, params), theirs, up_to_ties=True)


@pytest.mark.parametrize("method", ["condorcet", "w_condorcet"])
@pytest.mark.parametrize("norm", ["min-max", "min-max-inverted", "rank", "none"])
@SETTINGS
@given(data=st.data())
def test_condorcet_matches_ranx_without_cycles(ranx_python: Ranx, method: str, norm: str,
                                               data: st.DataObject) -> None:
    # ranx's Condorcet is deterministic on runs over the same documents whose majority has
    # no cycle and no draw: three runs, weights 1, 2, 4 (no subset sum is half of 7)
    runs = data.draw(several_runs(same_docs=True, n_runs=3, max_docs=6))
    params = {"weights": [1.0, 2.0, 4.0]} if method == "w_condorcet" else {}
    assume(_acyclic(runs, params.get("weights", [1.0, 1.0, 1.0]), inverted=norm ==
                    "min-max-inverted"))
    theirs = ranx_python.fuse(runs, method, norm, params)
    assert_same(_ours(runs, method, norm, params), theirs, up_to_ties=False)


def _acyclic(runs: list[list[list]], weights: list[float], *, inverted: bool) -> bool:
    """Whether each query's weighted majority relation is a strict order."""
    for q in {row[0] for row in runs[0]}:
        ranks = []
        for rows in runs:
            mine = sorted((r for r in rows if r[0] == q), key=lambda r: r[2],
                          reverse=not inverted)
            ranks.append({r[1]: i for i, r in enumerate(mine)})
        docs = sorted(ranks[0])
        wins = {d: sum(1 for e in docs if e != d and sum(
            w for w, rk in zip(weights, ranks, strict=True) if rk[d] < rk[e]) > sum(weights) / 2)
            for d in docs}
        if sorted(wins.values()) != list(range(len(docs))):
            return False
    return True


# zmuv is left out here: its mean and deviation are summed in another order than numba's,
# so a fused score may differ from ranx's in its last bit and two documents from different
# runs tie in one and not the other (its values are compared above, to 1e-9); borda: set order
@pytest.mark.parametrize("norm", ["min-max", "min-max-inverted", "max", "sum", "rank", "none"])
@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_ranx_convention_keeps_ranxs_order_of_tied_scores(ranx_compiled: Ranx, norm: str,
                                                          data: st.DataObject) -> None:
    # compiled ranx: numba's quicksort orders ties, lists of up to 30 documents (longer
    # than its 15-item insertion sort) included
    runs = data.draw(several_runs(ties=True, max_docs=30))
    for method in SCORE_BASED + RANK_BASED:
        params = _params(method, len(runs), data.draw)
        theirs = ranx_compiled.fuse(runs, method, norm, params)
        assert_same(_ours(runs, method, norm, params), theirs,
                    up_to_ties=method in TIES_BY_SET_ORDER)


@settings(max_examples=200, deadline=None)
@given(keys=st.lists(st.integers(-3, 3).map(float), max_size=60))
def test_quicksort_argsort_is_numbas(keys: list[float]) -> None:
    # ranx's ties follow numba's quicksort; numba ships the same algorithm as Python
    import numpy as np
    from numba.misc.quicksort import make_py_quicksort
    from numba.np.numpy_support import lt_floats

    from ranklens._surfaces.fusion.order import quicksort_argsort

    numba_sort = make_py_quicksort(lt=lt_floats, is_argsort=True, is_np_array=True)
    a = np.array(keys, dtype=np.float64)
    assert quicksort_argsort(a).tolist() == list(numba_sort.run_quicksort(a))
