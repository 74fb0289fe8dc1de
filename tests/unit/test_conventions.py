"""Named conventions, the shared convention examples, and the empty-query policies."""

from __future__ import annotations

import json
import random
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ranklens
from ranklens import CONVENTIONS, Convention, InputError, ParameterError


def _cases(spec_dir: Path) -> list[dict[str, Any]]:
    return json.loads((spec_dir / "convention_examples.json").read_text(encoding="utf-8"))


def test_every_convention_example(spec_dir: Path) -> None:
    cases = {c["id"]: c for c in _cases(spec_dir)}
    assert len(cases) >= 10
    for case in cases.values():
        if case["id"] == "ndcg3-run":
            continue  # its qrels is a comment; see the next test
        value = ranklens.evaluate(case["qrels"], case["run"], [case["measure"]])[case["measure"]]
        assert value == pytest.approx(case["expected"], abs=1e-12, rel=0), case["id"]


def test_ndcg3_run_case(spec_dir: Path) -> None:
    cases = {c["id"]: c for c in _cases(spec_dir)}
    broken = cases["ndcg3-run"]
    # The case's "qrels" holds a sentence instead of judgments: it must be refused clearly.
    with pytest.raises(InputError, match="query 'q': expected a mapping of doc id"):
        ranklens.evaluate(broken["qrels"], broken["run"], [broken["measure"]])
    # Its description says it is ndcg3-qrels's data with the ideal taken from the run (d9
    # and d10, relevant but never retrieved, vanish from the ideal DCG), so the expected
    # value is checked on ndcg3-qrels's judgments.
    qrels = cases["ndcg3-qrels"]["qrels"]
    value = ranklens.evaluate(qrels, broken["run"], [broken["measure"]])[broken["measure"]]
    assert value == pytest.approx(broken["expected"], abs=1e-12, rel=0)
    # the same number from the sklearn and torchmetrics presets, without writing ideal=run
    for name in ("sklearn", "torchmetrics"):
        value = ranklens.evaluate(qrels, broken["run"], ["nDCG@3"], convention=name)["nDCG@3"]
        assert value == pytest.approx(broken["expected"], abs=1e-12, rel=0)


@pytest.fixture()
def toy() -> tuple[dict, dict]:
    qrels = {"q": {"d2": 1, "d5": 1, "d9": 1, "d10": 1}}
    run = {"q": {"d1": 5.0, "d2": 4.0, "d3": 3.0, "d4": 2.0, "d5": 1.0}}
    return qrels, run


def test_presets_reproduce_the_worked_example(toy: tuple[dict, dict]) -> None:
    # research/conventions.md section 1b: AP@3 is 0.125 / 0.1667 / 0.5 depending on who asks
    expected = {"trec": 0.125, "ranx": 0.125, "kaggle": 1 / 6, "torchmetrics": 0.5,
                "sklearn": 0.125}
    for name, value in expected.items():
        r = ranklens.evaluate(*toy, ["AP@3"], convention=name)
        assert r["AP@3"] == pytest.approx(value, abs=1e-15), name
        assert r.conventions["convention"] == name
        assert r.conventions["ap_denominator"] == CONVENTIONS[name].ap_denominator


def test_explicit_options_and_parameters_win(toy: tuple[dict, dict]) -> None:
    r = ranklens.evaluate(*toy, ["AP(denom=rel)@3", "AP@3"], convention="kaggle")
    assert r["AP(denom=rel)@3"] == 0.125
    assert r["AP@3"] == pytest.approx(1 / 6, abs=1e-15)
    assert str(r.measures["AP@3"]) == "AP(denom=min)@3"
    tied = ({"q": {"dA": 1}}, {"q": {"dA": 1.0, "dB": 1.0}})
    assert ranklens.evaluate(*tied, ["nDCG"], convention="sklearn")["nDCG"] == pytest.approx(
        0.8154648767857288, abs=1e-15)
    r = ranklens.evaluate(*tied, ["nDCG", "RR"], convention="sklearn", ties="docid")
    assert r.conventions["ties"] == "docid"
    assert r["RR"] == 0.5
    assert r["nDCG"] == pytest.approx(1 / np.log2(3), abs=1e-15)
    # torchmetrics averages ties for nDCG only; RR follows the input order
    r = ranklens.evaluate(*tied, ["nDCG", "RR"], convention="torchmetrics")
    assert r["RR"] == 1.0
    assert r["nDCG"] == pytest.approx(0.8154648767857288, abs=1e-15)


def test_convention_lookup() -> None:
    assert ranklens.CONVENTIONS["trec"].ties == "docid"
    from ranklens._names.conventions import get_convention

    assert get_convention("ml_metrics") is CONVENTIONS["kaggle"]
    assert get_convention("TREC_EVAL") is CONVENTIONS["trec"]
    custom = Convention("mine", "AP over min(k, R), ties averaged", ap_denominator="min",
                        ties="average")
    assert get_convention(custom) is custom
    with pytest.raises(ParameterError, match=r"unknown convention 'spark'.*trec, sklearn"):
        ranklens.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, ["RR"], convention="spark")
    for preset in CONVENTIONS.values():
        assert preset.summary
        assert preset.describe()["convention"] == preset.name


def test_ranx_preset_refuses_missing_queries() -> None:
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    run = {"q1": {"a": 1.0}}
    with pytest.raises(InputError, match="absent from the run"):
        ranklens.evaluate(qrels, run, ["RR"], convention="ranx")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ranklens.evaluate(qrels, run, ["RR"], convention="ranx",
                                 missing="skip")["RR"] == 1.0


# -- presets against the formulas of libraries that do not install here ------------------


def _apk(actual: list[str], predicted: list[str], k: int) -> float:
    """ml_metrics.apk (Kaggle), as published: duplicates are not scored."""
    predicted = predicted[:k]
    score, hits = 0.0, 0.0
    for i, p in enumerate(predicted):
        if p in actual and p not in predicted[:i]:
            hits += 1.0
            score += hits / (i + 1.0)
    if not actual:
        return 0.0
    return score / min(len(actual), k)


def _ranx_ap(relevant: set[str], ranked: list[str], k: int) -> float:
    """ranx average_precision: sum of precision at relevant ranks within k, over |R|."""
    hits, total = 0, 0.0
    for i, d in enumerate(ranked[:k]):
        if d in relevant:
            hits += 1
            total += hits / (i + 1)
    return total / len(relevant) if relevant else 0.0


@pytest.mark.parametrize("seed", range(10))
def test_kaggle_and_ranx_presets_match_their_formulas(seed: int) -> None:
    rng = random.Random(seed)
    retrieved: dict[str, list[str]] = {}
    relevant: dict[str, list[str]] = {}
    for qi in range(15):
        items = [f"i{j}" for j in range(30)]
        retrieved[f"u{qi:02d}"] = rng.sample(items, rng.randint(1, 12))
        relevant[f"u{qi:02d}"] = rng.sample(items, rng.randint(1, 8))
    tables = ranklens.from_pairs(relevant, retrieved)
    for k in (1, 3, 10):
        kaggle = ranklens.evaluate(*tables, [f"AP@{k}"], convention="kaggle")
        ranx = ranklens.evaluate(*tables, [f"AP@{k}"], convention="ranx")
        for q in retrieved:
            assert kaggle.per_query(f"AP@{k}")[q] == pytest.approx(
                _apk(relevant[q], retrieved[q], k), abs=1e-15)
            assert ranx.per_query(f"AP@{k}")[q] == pytest.approx(
                _ranx_ap(set(relevant[q]), retrieved[q], k), abs=1e-15)
        mapk = float(np.mean([_apk(relevant[q], retrieved[q], k) for q in retrieved]))
        assert kaggle[f"AP@{k}"] == pytest.approx(mapk, abs=1e-15)


# -- empty queries -----------------------------------------------------------------------


@pytest.fixture()
def with_empty() -> tuple[dict, dict]:
    qrels = {"q1": {"a": 1, "b": 0}, "q2": {"c": 0}, "q3": {"d": 1}}
    run = {"q1": {"a": 2.0, "b": 1.0}, "q2": {"c": 1.0}, "q3": {"x": 2.0, "d": 1.0}}
    return qrels, run


def test_empty_policies(with_empty: tuple[dict, dict]) -> None:
    names = ["RR", "NumQ", "NumRel"]
    values = {}
    for policy in ("zero", "skip", "one", "nan"):
        values[policy] = ranklens.evaluate(*with_empty, names, empty=policy)
    assert values["zero"]["RR"] == pytest.approx(1.5 / 3, abs=1e-15)
    assert values["skip"]["RR"] == pytest.approx(1.5 / 2, abs=1e-15)
    assert values["nan"]["RR"] == pytest.approx(1.5 / 2, abs=1e-15)
    assert values["one"]["RR"] == pytest.approx(2.5 / 3, abs=1e-15)
    assert np.isnan(values["nan"].per_query("RR")["q2"])
    assert values["one"].per_query("RR")["q2"] == 1.0
    for r in values.values():  # counts are never changed
        assert (r["NumQ"], r["NumRel"]) == (3.0, 2.0)
    assert values["skip"].conventions["empty"] == "skip"
    with pytest.raises(InputError, match=r"1 queries have no relevant judgment .*'q2'"):
        ranklens.evaluate(*with_empty, names, empty="error")
    with pytest.raises(ParameterError, match="'empty' option"):
        ranklens.evaluate(*with_empty, names, empty="neg")


def test_empty_uses_the_measures_own_level(with_empty: tuple[dict, dict]) -> None:
    # at rel=2 every query is empty: AP(rel=2) is left out everywhere, AP is not
    r = ranklens.evaluate(*with_empty, ["AP(rel=2)", "AP"], empty="skip")
    assert r["AP"] == pytest.approx(1.5 / 2, abs=1e-15)
    assert all(np.isnan(v) for v in r.per_query("AP(rel=2)").values())
    assert r["AP(rel=2)"] == 0.0


@pytest.mark.parametrize(("ours", "theirs"), [("zero", "neg"), ("one", "pos"),
                                             ("skip", "skip")])
def test_empty_policies_match_torchmetrics(ours: str, theirs: str) -> None:
    torch = pytest.importorskip("torch")
    retrieval = pytest.importorskip("torchmetrics.retrieval")
    rng = np.random.default_rng(7)
    n = 40
    indexes = rng.integers(0, 8, size=n)
    preds = rng.permutation(n).astype(float) + 1.0
    target = (rng.random(n) < 0.25).astype(float)
    target[indexes == 3] = 0.0  # make sure one query is empty
    r = ranklens.evaluate_arrays(target, ["RR", "AP"], scores=preds, indexes=indexes,
                                 convention="torchmetrics", empty=ours)
    t = torch.as_tensor
    for name, metric in (("RR", retrieval.RetrievalMRR(empty_target_action=theirs)),
                         ("AP", retrieval.RetrievalMAP(empty_target_action=theirs))):
        expected = float(metric(t(preds), t(target).long(), indexes=t(indexes)))
        assert r[name] == pytest.approx(expected, rel=1e-6), (name, ours)


@pytest.mark.parametrize("module", ["ranklens._names.conventions",
                                    "ranklens._surfaces.evaluate_arrays",
                                    "ranklens._ingest.io._pairs"])
def test_docstring_examples_run(module: str) -> None:
    import doctest
    import importlib

    failures, tried = doctest.testmod(importlib.import_module(module))
    assert tried > 0
    assert failures == 0


def test_the_convention_is_shown_with_the_result(toy: tuple[dict, dict]) -> None:
    r = ranklens.evaluate(*toy, ["AP@3"], convention="kaggle")
    assert repr(r).endswith("over 1 queries; convention=kaggle, ties=input>")
    assert "convention=trec, ties=docid" in repr(ranklens.evaluate(*toy, ["AP@3"]))


def test_ranx_preset_matches_ranx() -> None:
    ranx = pytest.importorskip("ranx")
    rng = random.Random(5)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for qi in range(25):
        q = f"q{qi:02d}"
        docs = [f"d{j}" for j in range(rng.randint(2, 15))]
        # distinct scores: ranx orders ties with an unstable argsort, so no order is defined
        run[q] = {d: float(s) for d, s in zip(docs, rng.sample(range(100), len(docs)),
                                              strict=True)}
        pool = [*docs, "x1", "x2"]
        qrels[q] = {d: rng.randint(0, 3) for d in rng.sample(pool, rng.randint(1, len(pool)))}
        if not any(qrels[q].values()):
            qrels[q][docs[0]] = 1
    names = {"map@5": "AP@5", "map": "AP", "ndcg@5": "nDCG@5", "ndcg_burges@5": "ndcg_burges@5",
             "mrr": "RR", "mrr@3": "RR@3", "precision@3": "P@3", "recall@5": "R@5",
             "hit_rate@2": "Success@2", "r-precision": "Rprec", "f1@4": "F@4"}
    ours = ranklens.evaluate(qrels, run, list(names.values()), convention="ranx")
    for theirs, mine in names.items():
        expected = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), theirs, return_mean=False)
        got = np.array(list(ours.per_query(mine).values()))
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15, err_msg=theirs)
