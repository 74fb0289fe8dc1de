"""Properties every evaluation must have, whatever the data: invariances and bounds."""

from __future__ import annotations

import math
import random
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ranklens
from ranklens import RanklensWarning
from ranklens._measures import REGISTRY

QIDS = ["q1", "q2", "10", "9", "Q3", "é"]
DOCS = ["d1", "d2", "d10", "D3", "a", "b", "Z", "doc#1", "é1", "0", "00", "x-y", "d4", "d5"]
SCORE = st.integers(-12, 12).map(lambda i: i / 4)  # small grid: many ties, exact arithmetic


def _all_measures() -> list[str]:
    """Every registered numeric measure at its defaults, plus a few cutoffs."""
    names: list[str] = []
    for name, defn in REGISTRY.items():
        # diversity measures read subtopic judgments: tests/unit/test_diversity.py checks them;
        # beyond-accuracy ones an item context: tests/unit/test_beyond.py
        if defn.text or defn.subtopics or defn.family == "beyond":
            continue
        if not defn.cutoff_required:
            names.append(name)
        if defn.cutoff == "int":
            names += [f"{name}@1", f"{name}@3", f"{name}@20"]
        elif defn.cutoff == "float":
            names += [f"{name}@0.5", f"{name}@1"]
    return names


MEASURES = _all_measures()
SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def collections(draw: st.DrawFn) -> tuple[dict, dict]:
    qids = draw(st.lists(st.sampled_from(QIDS), min_size=1, max_size=5, unique=True))
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for i, q in enumerate(qids):
        where = "both" if i == 0 else draw(st.sampled_from(["both", "qrels", "run"]))
        if where in ("both", "qrels"):
            qrels[q] = draw(st.dictionaries(st.sampled_from(DOCS), st.integers(-2, 3),
                                            min_size=1, max_size=10))
        if where in ("both", "run"):
            run[q] = draw(st.dictionaries(st.sampled_from(DOCS), SCORE, min_size=1,
                                          max_size=12))
    return qrels, run


def _evaluate(qrels: dict, run: dict, names: list[str] = MEASURES,
              **options: object) -> ranklens.Result:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        return ranklens.evaluate(qrels, run, names, missing="zero", **options)  # type: ignore[arg-type]


def _same(a: ranklens.Result, b: ranklens.Result) -> None:
    assert a.query_ids.tolist() == b.query_ids.tolist()
    for name in a:
        np.testing.assert_array_equal(a.query_values[name], b.query_values[name], err_msg=name)
        assert a[name] == b[name] or (math.isnan(a[name]) and math.isnan(b[name])), name


def _shuffled(mapping: dict, seed: int) -> dict:
    rng = random.Random(seed)
    items = list(mapping.items())
    rng.shuffle(items)
    out = {}
    for q, docs in items:
        inner = list(docs.items())
        rng.shuffle(inner)
        out[q] = dict(inner)
    return out


@SETTINGS
@given(data=collections(), seed=st.integers(0, 2**32))
def test_query_and_doc_order_do_not_matter(data: tuple[dict, dict], seed: int) -> None:
    qrels, run = data
    _same(_evaluate(qrels, run), _evaluate(_shuffled(qrels, seed), _shuffled(run, seed + 1)))


@SETTINGS
@given(data=collections(), shift=st.integers(-1000, 1000), scale=st.sampled_from([1, 2, 8, 1024]))
def test_monotone_score_transforms_do_not_matter(data: tuple[dict, dict], shift: int,
                                                 scale: int) -> None:
    """Adding a constant or multiplying by a power of two is exact on the grid: same ranking."""
    qrels, run = data
    moved = {q: {d: s * scale + shift for d, s in docs.items()} for q, docs in run.items()}
    _same(_evaluate(qrels, run), _evaluate(qrels, moved))


@SETTINGS
@given(data=collections())
def test_bounds_and_integrality(data: tuple[dict, dict]) -> None:
    qrels, run = data
    ks = (1, 3, 20)
    names = ["nDCG", "AP", "RR", "Rprec", "Bpref", "P", "R", "F", "SetAP", "RelP", "NumRet",
             "NumRelRet", "NumRel", "NumQ"]
    names += [f"{m}@{k}" for m in ("nDCG", "P", "R", "AP", "Success", "NumRelRet") for k in ks]
    names += ["nDCG(gain=exp2)@3", "nDCG(discount=jk)@3", "nDCG(discount=rank)@3",
              "nDCG(ideal=run)@3", "AP(denom=min)@3", "AP(denom=hits)@3"]
    res = _evaluate(qrels, run, names)
    v = {n: res.query_values[n] for n in names}
    for n in names:
        if not n.startswith("Num"):
            assert np.all((v[n] >= 0) & (v[n] <= 1 + 1e-12)), n
    for k in ks:
        hits = v[f"P@{k}"] * k
        np.testing.assert_allclose(hits, np.round(hits), atol=1e-9)
        np.testing.assert_allclose(hits, v[f"NumRelRet@{k}"], atol=1e-9)
        assert np.all(v[f"Success@{k}"] == (v[f"NumRelRet@{k}"] > 0))
        assert np.all(v[f"AP@{k}"] <= v["AP"] + 1e-12)
    assert np.all(v["R@1"] <= v["R@3"]) and np.all(v["R@3"] <= v["R@20"])
    assert np.all(v["nDCG@20"] == v["nDCG"])  # lists are shorter than 20 and R < 20
    assert np.all(v["NumRelRet"] <= v["NumRet"]) and np.all(v["NumRelRet"] <= v["NumRel"])
    assert res["NumQ"] == len(qrels)
    assert res["NumRel"] == sum(g >= 1 for docs in qrels.values() for g in docs.values())
    # AP with the min(k, R) divisor is never below the trec_eval one
    assert np.all(v["AP(denom=min)@3"] >= v["AP@3"] - 1e-12)
    # RR is 1 / rank of the first hit: its reciprocal is an integer when positive
    rr = v["RR"][v["RR"] > 0]
    np.testing.assert_allclose(1 / rr, np.round(1 / rr), atol=1e-9)


@SETTINGS
@given(data=collections(), depth=st.integers(0, 12))
def test_depth_is_truncation(data: tuple[dict, dict], depth: int) -> None:
    """``depth=k`` equals evaluating the top k of each ranking (trec_eval -M)."""
    qrels, run = data
    cut = {}
    for q, docs in run.items():
        ranked = sorted(docs.items(), key=lambda kv: kv[0].encode(), reverse=True)
        ranked.sort(key=lambda kv: kv[1], reverse=True)
        if ranked[:depth]:
            cut[q] = dict(ranked[:depth])
    names = ["AP", "nDCG", "P@5", "NumRet", "Bpref", "RR", "R@3"]
    got = _evaluate(qrels, run, names, depth=depth)
    if not cut or not set(cut) & set(qrels):
        assert np.all(got.query_values["NumRet"] == 0)
        return
    _same(got, _evaluate(qrels, cut, names))


@SETTINGS
@given(data=collections())
def test_judged_only_is_filtering(data: tuple[dict, dict]) -> None:
    """``judged_only=True`` equals dropping documents without a judgment >= 0 (trec_eval -J)."""
    qrels, run = data
    kept = {q: {d: s for d, s in docs.items() if qrels.get(q, {}).get(d, -1) >= 0}
            for q, docs in run.items()}
    kept = {q: docs for q, docs in kept.items() if docs}
    names = ["AP", "nDCG@3", "P@2", "NumRet", "Bpref", "RR"]
    got = _evaluate(qrels, run, names, judged_only=True)
    if not set(kept) & set(qrels):
        assert np.all(got.query_values["NumRet"] == 0)
        return
    _same(got, _evaluate(qrels, kept, names))


def test_all_negative_judgments_query() -> None:
    """A query judged only with negative levels has R = 0: every measure is 0 (trec_eval)."""
    qrels = {"q1": {"a": 1}, "q2": {"x": -1, "y": -2}}
    run = {"q1": {"a": 1.0}, "q2": {"x": 2.0, "y": 1.0, "z": 0.5}}
    res = _evaluate(qrels, run)
    pq = {n: res.per_query(n)["q2"] for n in res}
    for name in ("AP", "nDCG", "P@3", "RR", "Bpref", "Rprec", "R@3", "NumRel", "NumRelRet",
                 "NumNonRelJudgedRet"):
        assert pq[name] == 0.0, name
    assert pq["NumRet"] == 3.0


def test_unjudged_and_negative_count_as_nonrelevant() -> None:
    qrels = {"q": {"a": 1, "n": -1}}
    base = _evaluate(qrels, {"q": {"a": 1.0}}, ["P@2", "AP", "nDCG@2"])
    for other in ("n", "unjudged"):
        r = _evaluate(qrels, {"q": {other: 2.0, "a": 1.0}}, ["P@2", "AP", "nDCG@2"])
        assert r["P@2"] == base["P@2"] == 0.5
        assert r["AP"] == 0.5 and base["AP"] == 1.0
        assert r["nDCG@2"] == pytest.approx(1 / math.log2(3))


@SETTINGS
@given(data=collections(), seed=st.integers(0, 2**32), ascending_ties=st.booleans())
def test_presorted_runs_rank_like_shuffled_ones(data: tuple[dict, dict], seed: int,
                                                ascending_ties: bool) -> None:
    """Runs already grouped by query with scores descending (as TREC runs usually are)
    still have their ties broken by doc id, whatever order the tied documents come in."""
    qrels, run = data
    ordered = {}
    for q in sorted(run, reverse=bool(seed % 2)):
        docs = sorted(run[q].items(), key=lambda kv: kv[0].encode(), reverse=not ascending_ties)
        docs.sort(key=lambda kv: kv[1], reverse=True)
        ordered[q] = dict(docs)
    _same(_evaluate(qrels, ordered), _evaluate(qrels, _shuffled(run, seed)))
    # with ties="input" the given order is the ranking
    given_order = _evaluate(qrels, ordered, ["RR"], ties="input").per_query("RR")
    for q in given_order:
        ranks = [i for i, d in enumerate(ordered.get(q, {}), 1) if qrels[q].get(d, 0) >= 1]
        assert given_order[q] == (1 / ranks[0] if ranks else 0.0), q
