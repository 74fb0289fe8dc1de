"""Array front doors: ranked label matrices, sklearn score matrices, torchmetrics flat arrays.

sklearn's ndcg_score / dcg_score are matched to 1e-12 on random inputs by the sklearn preset;
torchmetrics (when it is installed) by the torchmetrics preset; the four input shapes give
the same numbers for the same data (hypothesis).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ranklens
from ranklens import InputError, RanklensWarning

sklearn_metrics = pytest.importorskip("sklearn.metrics")


def _rows(result: ranklens.Result, name: str) -> np.ndarray:
    return np.array(list(result.per_query(name).values()))


# -- sklearn -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("k", [None, 1, 3, 7])
def test_sklearn_ndcg_and_dcg_with_tied_scores(seed: int, k: int | None) -> None:
    rng = np.random.default_rng(seed)
    n_q, n_c = rng.integers(1, 12), rng.integers(2, 30)
    y_true = rng.integers(0, 4, size=(n_q, n_c)).astype(float)
    y_score = rng.integers(0, 5, size=(n_q, n_c)).astype(float)  # many ties
    cut = "" if k is None else f"@{k}"
    r = ranklens.evaluate_arrays(y_true, [f"nDCG{cut}", f"DCG{cut}"], scores=y_score,
                                 convention="sklearn")
    ndcg_rows = [sklearn_metrics.ndcg_score(y_true[i:i + 1], y_score[i:i + 1], k=k)
                 for i in range(n_q)]
    dcg_rows = [sklearn_metrics.dcg_score(y_true[i:i + 1], y_score[i:i + 1], k=k)
                for i in range(n_q)]
    np.testing.assert_allclose(_rows(r, f"nDCG{cut}"), ndcg_rows, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(_rows(r, f"DCG{cut}"), dcg_rows, rtol=1e-12, atol=1e-12)
    assert r[f"nDCG{cut}"] == pytest.approx(
        sklearn_metrics.ndcg_score(y_true, y_score, k=k), rel=1e-12, abs=1e-12)
    assert r[f"DCG{cut}"] == pytest.approx(
        sklearn_metrics.dcg_score(y_true, y_score, k=k), rel=1e-12, abs=1e-12)
    assert r.conventions["convention"] == "sklearn"
    assert r.conventions["ties"] == "average"


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("k", [None, 2, 5])
def test_sklearn_ignore_ties(seed: int, k: int | None) -> None:
    # ignore_ties=True sorts with an unstable argsort, so tied scores have no defined order
    # there: the comparison uses distinct scores, where any tie policy is the same ranking
    rng = np.random.default_rng(100 + seed)
    n_q, n_c = rng.integers(1, 10), rng.integers(2, 40)
    y_true = rng.integers(0, 5, size=(n_q, n_c)).astype(float)
    y_score = rng.random((n_q, n_c))
    cut = "" if k is None else f"@{k}"
    for ties in ("docid", "input"):
        r = ranklens.evaluate_arrays(y_true, [f"nDCG{cut}", f"DCG{cut}"], scores=y_score,
                                     convention="sklearn", ties=ties)
        assert r[f"nDCG{cut}"] == pytest.approx(
            sklearn_metrics.ndcg_score(y_true, y_score, k=k, ignore_ties=True),
            rel=1e-12, abs=1e-12)
        assert r[f"DCG{cut}"] == pytest.approx(
            sklearn_metrics.dcg_score(y_true, y_score, k=k, ignore_ties=True),
            rel=1e-12, abs=1e-12)


def test_sklearn_zero_rows_score_zero() -> None:
    y_true = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 2.0]])
    y_score = np.array([[0.3, 0.2, 0.1], [0.1, 0.5, 0.5]])
    r = ranklens.evaluate_arrays(y_true, ["nDCG"], scores=y_score, convention="sklearn")
    assert r["nDCG"] == pytest.approx(sklearn_metrics.ndcg_score(y_true, y_score), abs=1e-12)
    assert r.per_query("nDCG")["0"] == 0.0


# -- torchmetrics ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("top_k", [None, 1, 3])
def test_torchmetrics_preset(seed: int, top_k: int | None) -> None:
    torch = pytest.importorskip("torch")
    retrieval = pytest.importorskip("torchmetrics.retrieval")
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 60))
    indexes = rng.integers(0, 6, size=n)
    preds = rng.permutation(n).astype(float) + 1.0  # distinct and > 0 (see the preset notes)
    target = rng.integers(0, 2, size=n).astype(float)
    graded = rng.integers(0, 4, size=n).astype(float)
    tied = rng.integers(1, 4, size=n).astype(float)
    cut = "" if top_k is None else f"@{top_k}"
    pairs = {
        f"AP{cut}": retrieval.RetrievalMAP(top_k=top_k),
        f"RR{cut}": retrieval.RetrievalMRR(top_k=top_k),
        f"P{cut}": retrieval.RetrievalPrecision(top_k=top_k),
        f"R{cut}": retrieval.RetrievalRecall(top_k=top_k),
    }
    if top_k is not None:
        pairs[f"Success{cut}"] = retrieval.RetrievalHitRate(top_k=top_k)
    r = ranklens.evaluate_arrays(target, list(pairs), scores=preds, indexes=indexes,
                                 convention="torchmetrics")
    t = torch.as_tensor
    # torchmetrics returns float32 whatever the input dtype, hence the 1e-6 tolerance
    for name, metric in pairs.items():
        expected = float(metric(t(preds), t(target).long(), indexes=t(indexes)))
        assert r[name] == pytest.approx(expected, rel=1e-6, abs=1e-7), name
    # nDCG: graded targets, tied scores averaged
    ndcg = retrieval.RetrievalNormalizedDCG(top_k=top_k)
    expected = float(ndcg(t(tied, dtype=torch.float64), t(graded).long(), indexes=t(indexes)))
    r = ranklens.evaluate_arrays(graded, [f"nDCG{cut}"], scores=tied, indexes=indexes,
                                 convention="torchmetrics")
    assert r[f"nDCG{cut}"] == pytest.approx(expected, rel=1e-6, abs=1e-7)


def test_torchmetrics_formulas_without_torch() -> None:
    # AP@3 divides by the hits in the top 3; nDCG's ideal comes from the candidates only
    labels = [[0, 1, 0, 0, 1]]
    r = ranklens.evaluate_arrays(labels, ["AP@3", "nDCG@3"], convention="torchmetrics",
                                 n_relevant=[4])
    assert r["AP@3"] == 0.5
    assert r["nDCG@3"] == pytest.approx((1 / math.log2(3)) / (1 + 1 / math.log2(3)), abs=1e-15)


# -- ranked label matrices ---------------------------------------------------------------


def test_label_matrix_with_n_relevant() -> None:
    labels = [[0, 1, 0, 0, 1]]  # convention_examples' toy query: relevant d2, d5, d9, d10
    r = ranklens.evaluate_arrays(labels, ["AP@3", "AP", "R@3", "nDCG@3", "P@10"],
                                 n_relevant=[4])
    assert r["AP@3"] == 0.125
    assert r["AP"] == 0.225
    assert r["R@3"] == 0.25
    assert r["nDCG@3"] == pytest.approx(0.2960819109658652, abs=1e-15)
    assert r["P@10"] == 0.2
    kaggle = ranklens.evaluate_arrays(labels, ["AP@3"], n_relevant=[4], convention="kaggle")
    assert kaggle["AP@3"] == pytest.approx(1 / 6, abs=1e-15)
    assert str(kaggle.measures["AP@3"]) == "AP(denom=min)@3"


def test_label_matrix_warns_without_n_relevant() -> None:
    with pytest.warns(RanklensWarning, match="n_relevant"):
        r = ranklens.evaluate_arrays([[0, 1, 0, 0, 1]], ["R@3", "P@3"])
    assert r["R@3"] == 0.5  # only the two relevant items the matrix shows
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = ranklens.evaluate_arrays([[0, 1, 0, 0, 1]], ["P@3", "RR", "AP(denom=hits)@3",
                                                         "nDCG(ideal=run)@3"])
    assert r["RR"] == 0.5


def test_ragged_rows_and_graded_labels() -> None:
    ragged = [[2, 0, 1], [1]]
    padded = np.array([[2, 0, 1], [1, np.nan, np.nan]])
    names = ["nDCG@3", "P@3", "NumRet"]
    a = ranklens.evaluate_arrays(ragged, names, n_relevant=[2, 1])
    b = ranklens.evaluate_arrays(padded, names, n_relevant=[2, 1])
    assert a.per_query("P@3") == b.per_query("P@3") == {"0": 2 / 3, "1": 1 / 3}
    assert a.per_query("NumRet") == {"0": 3.0, "1": 1.0}
    assert a.per_query("nDCG@3") == b.per_query("nDCG@3")


def test_array_protocols() -> None:
    pa = pytest.importorskip("pyarrow")
    import polars as pl

    class Wrapped:
        def __init__(self, data: list) -> None:
            self.data = np.asarray(data, dtype=float)

        def __array__(self, dtype: object = None, copy: object = None) -> np.ndarray:
            return self.data

    y = [[1.0, 0.0, 2.0], [0.0, 1.0, 0.0]]
    s = [[0.1, 0.2, 0.3], [0.9, 0.8, 0.7]]
    base = ranklens.evaluate_arrays(y, ["nDCG", "AP"], scores=s)
    via_array = ranklens.evaluate_arrays(Wrapped(y), ["nDCG", "AP"], scores=Wrapped(s))
    fixed = pa.FixedSizeListArray.from_arrays(pa.array(np.ravel(y)), 3)
    via_arrow = ranklens.evaluate_arrays(fixed, ["nDCG", "AP"], scores=pa.array(s))
    flat = ranklens.evaluate_arrays(pl.Series(np.ravel(y)), ["nDCG", "AP"],
                                    scores=pa.array(np.ravel(s)),
                                    indexes=pa.array([0, 0, 0, 1, 1, 1]))
    for other in (via_array, via_arrow, flat):
        assert other.per_query("nDCG") == base.per_query("nDCG")
        assert other.per_query("AP") == base.per_query("AP")
    class CapsuleOnly:  # only the Arrow PyCapsule interface, no __array__
        def __init__(self, array: object) -> None:
            self.array = array

        def __arrow_c_array__(self, requested_schema: object = None) -> object:
            return self.array.__arrow_c_array__(requested_schema)  # type: ignore[attr-defined]

    via_capsule = ranklens.evaluate_arrays(CapsuleOnly(fixed), ["nDCG", "AP"],
                                           scores=CapsuleOnly(pa.array(s)))
    assert via_capsule.per_query("nDCG") == base.per_query("nDCG")
    # ragged Arrow list array as a ranked label matrix
    r = ranklens.evaluate_arrays(pa.array([[1, 0], [0, 0, 1]]), ["RR"])
    assert r.per_query("RR") == {"0": 1.0, "1": 1 / 3}


def test_torch_tensors_are_arrays() -> None:
    torch = pytest.importorskip("torch")
    r = ranklens.evaluate_arrays(torch.tensor([0, 1, 1, 0]), ["RR"],
                                 scores=torch.tensor([0.2, 0.8, 0.5, 0.9]),
                                 indexes=torch.tensor([0, 0, 1, 1]))
    assert r.per_query("RR") == {"0": 1.0, "1": 0.5}


def test_array_errors() -> None:
    with pytest.raises(InputError, match="shape"):
        ranklens.evaluate_arrays([[1, 0]], ["P@1"], scores=[[1.0, 2.0, 3.0]])
    with pytest.raises(InputError, match="2-D"):
        ranklens.evaluate_arrays([1, 0], ["P@1"])
    with pytest.raises(InputError, match="needs scores"):
        ranklens.evaluate_arrays([1, 0], ["P@1"], indexes=[0, 0])
    with pytest.raises(InputError, match="one length"):
        ranklens.evaluate_arrays([1, 0], ["P@1"], scores=[1.0], indexes=[0, 0])
    with pytest.raises(InputError, match="n_relevant says 1"):
        ranklens.evaluate_arrays([[1, 1]], ["R@1"], n_relevant=[1])
    with pytest.raises(InputError, match="one count per query"):
        ranklens.evaluate_arrays([[1, 1]], ["R@1"], n_relevant=[2, 3])
    with pytest.raises(InputError, match="infinite"):
        ranklens.evaluate_arrays([[1, 0]], ["P@1"], scores=[[np.inf, 1.0]])
    with pytest.raises(InputError, match="expected numbers"):
        ranklens.evaluate_arrays([["a", "b"]], ["P@1"], scores=[[1.0, 2.0]])


# -- one engine, four shapes -------------------------------------------------------------

SAME = ["P@3", "R@2", "AP", "AP@3", "AP(denom=min)@2", "nDCG", "nDCG@3", "RR", "Success@2",
        "CG@2", "DCG@3", "Rprec", "NumRelRet"]


@st.composite
def _data(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n_q = draw(st.integers(1, 12))
    n_c = draw(st.integers(1, 8))
    labels = np.array(draw(st.lists(st.lists(st.integers(0, 3), min_size=n_c, max_size=n_c),
                                    min_size=n_q, max_size=n_q)), dtype=float)
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    scores = np.array([rng.permutation(n_c) for _ in range(n_q)], dtype=float)
    extra = np.array(draw(st.lists(st.integers(0, 3), min_size=n_q, max_size=n_q)))
    return labels, scores, extra


@settings(max_examples=60, deadline=None)
@given(_data(), st.sampled_from(["trec", "kaggle", "sklearn"]))
def test_matrix_flat_ranked_and_id_lists_agree(
    data: tuple[np.ndarray, np.ndarray, np.ndarray], convention: str
) -> None:
    labels, scores, extra = data
    n_q, n_c = labels.shape
    n_rel = (labels >= 1).sum(axis=1) + extra  # some relevant items are never candidates
    opts = {"convention": convention, "missing": "zero"}
    matrix = ranklens.evaluate_arrays(labels, SAME, scores=scores, n_relevant=n_rel, **opts)

    perm = np.random.default_rng(n_q * 31 + n_c).permutation(n_q * n_c)
    rows = np.repeat(np.arange(n_q), n_c)
    flat = ranklens.evaluate_arrays(labels.ravel()[perm], SAME, scores=scores.ravel()[perm],
                                    indexes=rows[perm], n_relevant=n_rel, **opts)

    order = np.argsort(-scores, axis=1, kind="stable")
    ranked_labels = np.take_along_axis(labels, order, axis=1)
    ranked = ranklens.evaluate_arrays(ranked_labels, SAME, n_relevant=n_rel, **opts)

    qids = list(matrix.query_ids)
    retrieved = {q: [f"c{j}" for j in order[i]] for i, q in enumerate(qids)}
    relevant = {q: {**{f"c{j}": labels[i, j] for j in range(n_c)},
                    **{f"gone{e}": 1 for e in range(int(extra[i]))}}
                for i, q in enumerate(qids)}
    ids = ranklens.evaluate(*ranklens.from_pairs(relevant, retrieved), SAME, **opts)

    for name in SAME:
        want = matrix.per_query(name)
        for other in (flat, ranked, ids):
            got = other.per_query(name)
            assert got.keys() == want.keys()
            for q in want:
                assert got[q] == pytest.approx(want[q], rel=1e-12, abs=1e-15), (name, q)
