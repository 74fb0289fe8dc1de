"""ranx's metric names mean in ranklens what they mean in ranx (differential, random data).

ranx breaks score ties its own way, so scores here are distinct within a query. Judged
queries absent from the run score 0 in both (ranx ``make_comparable``, ranklens
``missing="zero"``). ranx compiles its kernels with numba on first use (cached after).
"""

from __future__ import annotations

import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ranklens

ranx = pytest.importorskip("ranx")

NAMES = [
    "map", "map@3", "map@10", "map@100-l2", "ndcg", "ndcg@3", "ndcg@10", "ndcg_burges@10",
    "dcg@3", "dcg_burges@3", "mrr", "mrr@3", "mrr@3-l2", "precision@1", "precision@10",
    "precision@3-l2", "recall@2", "recall@100", "hit_rate@1", "hit_rate@10", "hit_rate@1-l2",
    "r-precision", "r-precision-l2", "f1@1", "f1@2", "f1@10",
]
DOCS = [f"d{i}" for i in range(12)]


@st.composite
def collections(draw: st.DrawFn) -> tuple[dict, dict]:
    nq = draw(st.integers(1, 4))
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for i in range(nq):
        q = f"q{i}"
        judged = draw(st.dictionaries(st.sampled_from(DOCS), st.integers(0, 3), min_size=1,
                                      max_size=8))
        if max(judged.values()) == 0:
            judged[next(iter(judged))] = 1  # ranx leaves queries without relevant docs out
        qrels[q] = judged
        if i == 0 or draw(st.booleans()):
            docs = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=10, unique=True))
            scores = draw(st.lists(st.integers(0, 10_000), min_size=len(docs),
                                   max_size=len(docs), unique=True))
            run[q] = {d: s / 7 for d, s in zip(docs, scores, strict=True)}
    return qrels, run


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=collections())
def test_ranx_names_match_ranx(data: tuple[dict, dict]) -> None:
    qrels, run = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), NAMES, make_comparable=True)
        got = ranklens.evaluate(qrels, run, NAMES, missing="zero")
    for name in NAMES:
        assert got[name] == pytest.approx(float(want[name]), abs=1e-9, rel=0), name


@st.composite
def tied_collections(draw: st.DrawFn) -> tuple[dict, dict]:
    """Scores from four values, so most queries hold tied groups; at most 15 retrieved."""
    qrels, run = draw(collections())
    for q, docs in run.items():
        run[q] = {d: float(draw(st.integers(0, 3))) for d in docs}
    return qrels, run


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=tied_collections())
def test_ranx_convention_keeps_ranxs_order_of_ties_up_to_15_items(
        data: tuple[dict, dict]) -> None:
    # numba's quicksort, which ranx sorts with, is an insertion sort (stable) up to 15
    # items: there ranx's ties are in the input order, as convention="ranx" has them
    # (beyond, benchmarks/peer_orders.py reads ranx's order back instead)
    qrels, run = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), NAMES, make_comparable=True)
        got = ranklens.evaluate(qrels, run, NAMES, convention="ranx", missing="zero")
    for name in NAMES:
        assert got[name] == pytest.approx(float(want[name]), abs=1e-9, rel=0), name
