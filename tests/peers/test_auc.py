"""AUC of each ranking: scikit-learn's roc_auc_score, RecBole's per-user AUC, ir_measures'
Accuracy."""

from __future__ import annotations

import random

import numpy as np
import pytest

import ranklens
from ranklens import Measure


def _auc(qrels: object, run: object, name: str = "AUC", **options: object) -> dict[str, float]:
    return ranklens.evaluate(qrels, run, [name], missing="zero", **options).per_query(name)


def test_hand_computed_values() -> None:
    qrels = {"q": {"a": 1, "b": 0, "c": 1}}
    run = {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "x": 1.0}}
    # relevant a, c; non-relevant b, x: pairs (a,b) (a,x) (c,x) in order, (c,b) not
    assert _auc(qrels, run) == {"q": 0.75}
    assert _auc(qrels, run, "AUC@3") == {"q": 0.5}  # a, c against b
    assert _auc(qrels, run, "AUC@1") == {"q": 1.0}  # no non-relevant document: nothing misordered
    assert _auc({"q": {"z": 1}}, run) == {"q": 0.0}  # no relevant document retrieved


def test_tied_pairs_count_one_half_under_ties_average() -> None:
    qrels = {"q": {"a": 1}}
    run = {"q": {"a": 1.0, "b": 1.0, "c": 0.0}}
    assert _auc(qrels, run, ties="average") == {"q": 0.75}
    assert _auc(qrels, run, "AUC@1", ties="average") == {"q": 0.5}  # enumerated


def test_ir_measures_documented_accuracy_example() -> None:
    # ir_measures tests/test_accuracy.py
    qrels = {"0": {"C0_1": 0, "B0_1": 1, "A0_1": 2},
             "1": {"A1_1": 2, "A1_2": 2, "B1_1": 1, "C1_2": 0},
             "2": {"B1_1": 1}}
    run = {"0": {"C0_1": 0.4, "A0_1": 0.3, "C0_2": 0.2, "C0_3": 0.1},
           "1": {"C1_1": 0.8, "A1_1": 0.7, "C1_2": 0.6, "B1_1": 0.5, "C1_3": 0.4},
           "2": {"B1_1": 0.2, "C1_1": 0.1}}
    res = ranklens.evaluate(qrels, run, ["Accuracy", "Accuracy(rel=2)"], empty="skip")
    assert res.per_query("Accuracy") == pytest.approx({"0": 2 / 3, "1": 0.5, "2": 1.0})
    assert res["Accuracy"] == pytest.approx((2 / 3 + 0.5 + 1.0) / 3)
    # query 2 has nothing at grade 2: left out of the mean, as ir_measures leaves it out
    at2 = res.per_query("Accuracy(rel=2)")
    assert (at2["0"], at2["1"]) == pytest.approx((2 / 3, 0.75))
    assert np.isnan(at2["2"])
    assert res["Accuracy(rel=2)"] == pytest.approx((2 / 3 + 0.75) / 2)
    assert ranklens.parse_measure("accuracy@5") == Measure("AUC", cutoff=5)


def _random_data(seed: int, ties: bool) -> tuple[dict, dict]:
    rng = random.Random(seed)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(40):
        docs = [f"d{i}" for i in range(rng.randint(2, 30))]
        run[f"q{q}"] = {d: float(rng.randint(0, 5)) if ties else rng.random() for d in docs}
        qrels[f"q{q}"] = {d: rng.choice([0, 1, 2]) for d in rng.sample(docs, len(docs) // 2)}
        qrels[f"q{q}"]["unretrieved"] = 1
    return qrels, run


def test_matches_sklearn_roc_auc_score_under_ties_average() -> None:
    metrics = pytest.importorskip("sklearn.metrics")
    qrels, run = _random_data(3, ties=True)
    got = _auc(qrels, run, ties="average")
    checked = 0
    for q, docs in run.items():
        labels = np.array([qrels[q].get(d, 0) >= 1 for d in docs])
        if labels.all() or not labels.any():
            continue  # undefined for sklearn
        want = metrics.roc_auc_score(labels, np.array(list(docs.values())))
        assert got[q] == pytest.approx(want, rel=1e-12), q
        checked += 1
    assert checked > 20


def test_matches_ir_measures_accuracy_provider() -> None:
    ir_measures = pytest.importorskip("ir_measures")
    qrels, run = _random_data(5, ties=False)
    for name in ("Accuracy", "Accuracy@5", "Accuracy(rel=2)@10"):
        want = {m.query_id: m.value for m in ir_measures.accuracy.iter_calc(
            [ir_measures.parse_measure(name)], qrels,
            # ir_measures divides by zero on a query without a non-relevant document
            {q: d for q, d in run.items() if len(d) > 12})}
        got = _auc(qrels, run, name)
        assert want
        for q, value in want.items():
            assert got[q] == pytest.approx(value, rel=1e-12), (name, q)


def _recbole_gauc(labels: list[np.ndarray], scores: list[np.ndarray]) -> float:
    """RecBole's gauc_: per user, the Mann-Whitney AUC from average ranks, weighted by the
    user's positives; users without a positive or a negative left out."""
    from scipy.stats import rankdata

    num = den = 0.0
    for y, s in zip(labels, scores, strict=True):
        pos, neg = int(y.sum()), int((~y).sum())
        if pos == 0 or neg == 0:
            continue
        ranks = rankdata(s)  # ascending, ties averaged
        auc = (ranks[y].sum() - pos * (pos + 1) / 2) / (pos * neg)
        num += auc * pos
        den += pos
    return num / den


def test_gauc_matches_recbole_definition() -> None:
    pytest.importorskip("scipy")
    qrels, run = _random_data(9, ties=True)
    qrels["all_relevant"], run["all_relevant"] = {"a": 1, "b": 1}, {"a": 1.0, "b": 0.0}
    res = ranklens.evaluate(qrels, run, ["GAUC", "AUC"], missing="zero", ties="average")
    labels = [np.array([qrels[q].get(d, 0) >= 1 for d in run[q]]) for q in res.query_ids]
    scores = [np.array(list(run[q].values())) for q in res.query_ids]
    assert res["GAUC"] == pytest.approx(_recbole_gauc(labels, scores), rel=1e-12)
    assert res.per_query("GAUC") == res.per_query("AUC")


def test_gauc_by_hand() -> None:
    qrels = {"a": {"1": 1, "2": 1}, "b": {"1": 1}, "c": {"1": 1}}
    run = {"a": {"1": 3.0, "x": 2.0, "2": 1.0}, "b": {"1": 1.0}, "c": {"x": 1.0, "1": 0.5}}
    res = ranklens.evaluate(qrels, run, ["AUC", "GAUC"])
    assert res.per_query("GAUC") == {"a": 0.5, "b": 1.0, "c": 0.0}
    # b (no non-relevant document) weighs 0; a weighs 2, c 1
    assert res["GAUC"] == pytest.approx((0.5 * 2 + 0.0 * 1) / 3)
    assert res["AUC"] == pytest.approx(0.5)
