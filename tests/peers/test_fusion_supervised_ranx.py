"""The supervised fusion kernels equal ranx 0.3.21's supervised methods (differential).

ranx runs in one subprocess with ``NUMBA_DISABLE_JIT=1`` (its kernels as plain Python, the
same results, no minutes of compilation, and nothing of numba's in this process for other
test modules). The test builds the kernels' arrays from ranx-style dicts itself
(:func:`arrays`), learns on training queries and fuses other queries (or the same ones), and
compares every fused score to 1e-9 relative, document by document.

ranx is compared where it is defined: every run answers every query (ranx asserts it), the
training judgments cover exactly the training queries (its hit lists pair the i-th query of
the judgments with the i-th of the run), lists are shorter than 1000 (BayesFuse reads past
its table there) and scores within a query are distinct (ranx orders tied scores by its
unstable sort, which decides positions).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ranklens._surfaces.fusion.supervised import SUPERVISED

pytestmark = pytest.mark.skipif(importlib.util.find_spec("ranx") is None,
                                reason="ranx is not installed")

Runs = list[dict[str, dict[str, float]]]
Qrels = dict[str, dict[str, int]]

#: Reads one request per line, answers with ranx's fused run (or the error it raised).
SERVER = r"""
import json, sys
from ranx import Qrels, Run, fuse, optimize_fusion
from ranx.fusion import probfuse_train, slidefuse_train

for line in sys.stdin:
    req = json.loads(line)
    try:
        train = [Run(r) for r in req["train_runs"]]
        qrels = Qrels(req["qrels"])
        method = req["method"]
        if method == "probfuse":
            params = {"probs": probfuse_train(qrels, train, req["params"]["n_segments"])}
        elif method == "slidefuse":
            params = {"probs": slidefuse_train(qrels, train), "w": req["params"]["w"]}
        else:
            params = optimize_fusion(qrels, train, norm=None, method=method)
        fused = fuse([Run(r) for r in req["runs"]], norm=req["norm"], method=method,
                     params=params)
        out = {q: {d: float(s) for d, s in docs.items()} for q, docs in fused.to_dict().items()}
        print(json.dumps({"fused": out}), flush=True)
    except Exception as error:  # reported to the test, which fails with it
        print(json.dumps({"error": repr(error)}), flush=True)
"""


@pytest.fixture(scope="module")
def ranx_server() -> Iterator[subprocess.Popen[str]]:
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    proc = subprocess.Popen([sys.executable, "-c", SERVER], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=env)
    yield proc
    assert proc.stdin is not None
    proc.stdin.close()
    proc.wait(timeout=60)


def ranx_fuse(server: subprocess.Popen[str], method: str, train_runs: Runs, qrels: Qrels,
              runs: Runs, params: dict[str, int], norm: str | None = None) -> dict:
    assert server.stdin is not None and server.stdout is not None
    request = {"method": method, "train_runs": train_runs, "qrels": qrels, "runs": runs,
               "params": params, "norm": norm}
    server.stdin.write(json.dumps(request) + "\n")
    server.stdin.flush()
    answer = json.loads(server.stdout.readline())
    assert "error" not in answer, answer.get("error")
    return answer["fused"]


def min_max(scores: dict[str, float]) -> dict[str, float]:
    """ranx's min-max normalisation of one query's scores."""
    low, high = min(scores.values()), max(scores.values())
    return {d: (s - low) / max(high - low, 1e-9) for d, s in scores.items()}


def arrays(runs: Runs, qrels: Qrels | None = None, norm: str | None = None
           ) -> dict[str, Any]:
    """The kernels' arrays for ``runs`` (and ``grade`` / ``relevant`` from ``qrels``)."""
    queries = sorted(set().union(*runs))
    pairs = [(q, d) for q in queries for d in sorted(set().union(*(r.get(q, {}) for r in runs)))]
    n, m = len(pairs), len(runs)
    rank = np.zeros((n, m), dtype=np.int64)
    length = np.zeros((n, m), dtype=np.int64)
    score = np.full((n, m), np.nan)
    for r, run in enumerate(runs):
        position = {}
        for q, docs in run.items():
            shown = min_max(docs) if norm == "min-max" else docs
            ordered = sorted(shown, key=lambda d, s=shown: -s[d])  # type: ignore[misc]
            position[q] = ({d: i + 1 for i, d in enumerate(ordered)}, shown)
        for i, (q, d) in enumerate(pairs):
            if q in position:
                length[i, r] = len(position[q][0])
                if d in position[q][0]:
                    rank[i, r] = position[q][0][d]
                    score[i, r] = position[q][1][d]
    doc_code = {d: i for i, d in enumerate(sorted({d for _, d in pairs}))}
    out = {"query": np.array([queries.index(q) for q, _ in pairs], dtype=np.int64),
           "doc": np.array([doc_code[d] for _, d in pairs], dtype=np.int64),
           "rank": rank, "length": length, "score": score, "pairs": pairs}
    if qrels is not None:
        out["grade"] = np.array([qrels.get(q, {}).get(d, np.nan) for q, d in pairs],
                                dtype=np.float64)
        out["relevant"] = np.array(
            [sum(g >= 1 for g in qrels.get(q, {}).values()) for q, _ in pairs],
            dtype=np.int64)
    return out


def ours(method: str, train_runs: Runs, qrels: Qrels, runs: Runs, params: dict[str, int],
         norm: str | None = None) -> dict[str, dict[str, float]]:
    kernel = SUPERVISED[method]
    t = arrays(train_runs, qrels)
    extra = {"relevant": t["relevant"]} if kernel.needs_relevant else {}
    model = kernel.learn(t["query"], t["doc"], t["rank"], t["length"], t["score"],
                         t["grade"], **extra, **params)
    f = arrays(runs, norm=norm)
    fused = kernel.fuse(model, f["query"], f["doc"], f["rank"], f["length"], f["score"])
    out: dict[str, dict[str, float]] = {}
    for (q, d), s in zip(f["pairs"], fused.tolist(), strict=True):
        out.setdefault(q, {})[d] = s
    return out


def assert_same(got: dict[str, dict[str, float]], want: dict[str, dict[str, float]]) -> None:
    assert sorted(got) == sorted(want)
    for q in want:
        assert sorted(got[q]) == sorted(want[q]), q
        for d, s in want[q].items():
            assert got[q][d] == pytest.approx(s, rel=1e-9, abs=0), (q, d)


# -- random collections -------------------------------------------------------------------

DOCS = [f"d{i:02d}" for i in range(30)]  # few, so that runs overlap and hit judged docs


@st.composite
def run_sets(draw: st.DrawFn, queries: list[str], n_runs: int, longest: int) -> Runs:
    runs: Runs = []
    for _ in range(n_runs):
        run: dict[str, dict[str, float]] = {}
        for q in queries:  # ranx needs every run to answer every query
            docs = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=longest,
                                 unique=True))
            scores = draw(st.permutations(range(len(docs))))
            run[q] = {d: (s + 1) / 3 for d, s in zip(docs, scores, strict=True)}
        runs.append(run)
    return runs


@st.composite
def cases(draw: st.DrawFn, longest: int = 25) -> tuple[Runs, Qrels, Runs]:
    n_runs = draw(st.integers(2, 3))
    train_q = [f"t{i}" for i in range(draw(st.integers(1, 4)))]
    test_q = [f"q{i}" for i in range(draw(st.integers(1, 3)))]
    train_runs = draw(run_sets(train_q, n_runs, longest))
    qrels: Qrels = {}
    for q in train_q:
        # judged docs, retrieved or not, and every training query judged (ranx pairs the
        # judgments' queries with the runs' by position)
        qrels[q] = draw(st.dictionaries(st.sampled_from(DOCS), st.integers(0, 2), min_size=1,
                                        max_size=20))
    runs = draw(run_sets(test_q, n_runs, longest)) if draw(st.booleans()) else train_runs
    return train_runs, qrels, runs


PARAMS = {"probfuse": st.fixed_dictionaries({"n_segments": st.integers(1, 12)}),
          "slidefuse": st.fixed_dictionaries({"w": st.integers(0, 6)})}


@pytest.mark.parametrize("method", sorted(SUPERVISED))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fused_scores_equal_ranx(method: str, data: st.DataObject,
                                 ranx_server: subprocess.Popen[str]) -> None:
    train_runs, qrels, runs = data.draw(cases())
    params = data.draw(PARAMS.get(method, st.just({})))
    want = ranx_fuse(ranx_server, method, train_runs, qrels, runs, params)
    assert_same(ours(method, train_runs, qrels, runs, params), want)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=cases())
def test_segfuse_reads_min_max_scores_as_ranx(data: tuple[Runs, Qrels, Runs],
                                              ranx_server: subprocess.Popen[str]) -> None:
    train_runs, qrels, runs = data
    want = ranx_fuse(ranx_server, "segfuse", train_runs, qrels, runs, {}, norm="min-max")
    assert_same(ours("segfuse", train_runs, qrels, runs, {}, norm="min-max"), want)


def deep_case(seed: int) -> tuple[Runs, Qrels, Runs]:
    """Lists of up to 900 documents: every SegFuse segment up to 635 and every BayesFuse band."""
    rng = np.random.default_rng(seed)
    pool = [f"d{i:04d}" for i in range(1200)]

    def run_set(queries: list[str]) -> Runs:
        runs: Runs = []
        for _ in range(3):
            run = {}
            for q in queries:
                n = int(rng.integers(1, 900))
                docs = rng.choice(pool, n, replace=False)
                scores = rng.permutation(n) / 7 + 0.5
                run[q] = {str(d): float(s) for d, s in zip(docs, scores, strict=True)}
            runs.append(run)
        return runs

    train_q, test_q = [f"t{i}" for i in range(6)], [f"q{i}" for i in range(3)]
    qrels = {q: {str(d): int(rng.integers(0, 3))
                 for d in rng.choice(pool, 400, replace=False)} for q in train_q}
    return run_set(train_q), qrels, run_set(test_q)


@pytest.mark.parametrize("method", sorted(SUPERVISED))
def test_deep_lists_equal_ranx(method: str, ranx_server: subprocess.Popen[str]) -> None:
    train_runs, qrels, runs = deep_case(7)
    params = {"probfuse": {"n_segments": 25}, "slidefuse": {"w": 20}}.get(method, {})
    want = ranx_fuse(ranx_server, method, train_runs, qrels, runs, params)
    assert_same(ours(method, train_runs, qrels, runs, params), want)


# -- through ranklens.fuse ----------------------------------------------------------------

def fused_dict(run: Any) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for q, d, s in run.frame.select("query_id", "doc_id", "score").iter_rows():
        out.setdefault(q, {})[d] = s
    return out


def only(fused: dict[str, dict[str, float]], queries: Any) -> dict[str, dict[str, float]]:
    return {q: docs for q, docs in fused.items() if q in set(queries)}


@pytest.mark.parametrize("method", sorted(SUPERVISED))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_ranklens_fuse_with_train_equals_ranx(method: str, data: st.DataObject,
                                              ranx_server: subprocess.Popen[str]) -> None:
    """``ranklens.fuse(runs, method, train=qrels)`` end to end: the judged queries, with
    leakage allowed, equal ranx's fusion of the runs it trained on; the unjudged ones (with
    or without leakage allowed) equal ranx's fusion of new queries by the same model."""
    import ranklens

    train_runs, qrels, runs = data.draw(cases())
    params = data.draw(PARAMS.get(method, st.just({})))
    norm = data.draw(st.sampled_from([None, "min-max"])) if method == "segfuse" else None
    ours_norm = "none" if norm is None else norm
    new = runs is not train_runs
    merged = [{**t, **r} for t, r in zip(train_runs, runs, strict=True)] if new else train_runs
    leaky = ranklens.fuse(merged, method, train=qrels, allow_leakage=True, norm=ours_norm,
                          **params)
    got = fused_dict(leaky)
    want = ranx_fuse(ranx_server, method, train_runs, qrels, train_runs, params, norm=norm)
    assert_same(only(got, qrels), want)
    if new:
        want_new = ranx_fuse(ranx_server, method, train_runs, qrels, runs, params, norm=norm)
        assert_same(only(got, runs[0]), want_new)
        if len(qrels) >= 2:
            held = ranklens.fuse(merged, method, train=qrels, norm=ours_norm, folds=2,
                                 **params)
            assert_same(only(fused_dict(held), runs[0]), want_new)
