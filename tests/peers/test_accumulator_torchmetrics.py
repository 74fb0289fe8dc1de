"""``Accumulator(convention="torchmetrics")`` against torchmetrics' Retrieval* metrics.

Random flat batches (query ids, float32 scores with ties, zero and negative scores, labels
with torchmetrics' ignore_index), fed to both batch by batch; every measure at top_k None
or k, under each empty_target_action. torchmetrics computes in float32, hence the 1e-6
tolerance.

Ties: torchmetrics orders tied scores with an unstable sort (``topk``, ``argsort``) in
every metric but nDCG, which averages over their orders as ranklens does. So nDCG gets
arbitrary ties and graded labels; the other metrics get ties only among documents of one
label, where any order gives the same value.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ranklens

torch = pytest.importorskip("torch")
retrieval = pytest.importorskip("torchmetrics.retrieval")

ACTIONS = {"neg": "zero", "pos": "one", "skip": "skip", "error": "error"}
IGNORE = -1


def _metrics(top_k: int | None, action: str, ignore: int | None) -> dict[str, object]:
    cut = "" if top_k is None else f"@{top_k}"
    kw = {"top_k": top_k, "empty_target_action": action, "ignore_index": ignore}
    return {
        f"MAP{cut}": retrieval.RetrievalMAP(**kw),
        f"MRR{cut}": retrieval.RetrievalMRR(**kw),
        f"P{cut}": retrieval.RetrievalPrecision(**kw),
        f"R{cut}": retrieval.RetrievalRecall(**kw),
        f"HitRate{cut}": retrieval.RetrievalHitRate(**kw),
    }


@st.composite
def batches(draw: st.DrawFn, graded: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                    list[int], int | None]:
    """Ids, scores, labels, the bounds of the batches, and the ignore_index of the padded
    rows (None: no row padded)."""
    n = draw(st.integers(1, 60))
    ids = np.array([draw(st.sampled_from([3, 8, 10**12, 10**12 + 1, 2**40]))
                    for _ in range(n)], dtype=np.int64)
    # each row has a class: its score and (except for nDCG) its label are the class's, so
    # tied rows of the binary metrics share their label
    n_classes = draw(st.integers(1, 8))
    values = draw(st.lists(st.sampled_from([-2.0, -0.5, 0.0, 0.25, 0.5, 1.0, 1.5, 3.0]),
                           min_size=n_classes, max_size=n_classes, unique=True))
    cls = np.array([draw(st.integers(0, n_classes - 1)) for _ in range(n)])
    scores = np.array(values, dtype=np.float32)[cls]
    if graded:
        labels = np.array([draw(st.integers(0, 3)) for _ in range(n)], dtype=np.int64)
    else:
        labels = np.array([draw(st.integers(0, 1)) for _ in range(n_classes)],
                          dtype=np.int64)[cls]
    cuts = sorted(draw(st.sets(st.integers(1, max(n - 1, 1)), max_size=4)))
    bounds = [0, *[c for c in cuts if c < n], n]
    ignored = draw(st.booleans())
    if ignored:  # some rows padded with ignore_index, never a batch's first (torchmetrics
        # refuses a batch whose every row is ignored)
        pad = np.array([draw(st.booleans()) for _ in range(n)])
        pad[bounds[:-1]] = False
        labels = np.where(pad, IGNORE, labels)
    return ids, scores, labels, bounds, IGNORE if ignored else None


def _compare(ids: np.ndarray, scores: np.ndarray, labels: np.ndarray, bounds: list[int],
             metrics: dict[str, object], action: str, ignore: int | None) -> None:
    acc = ranklens.Accumulator(list(metrics), convention="torchmetrics",
                               empty=ACTIONS[action], ignore_index=ignore)  # type: ignore[arg-type]
    t = torch.as_tensor
    for lo, hi in itertools.pairwise(bounds):
        p, y, i = t(scores[lo:hi]), t(labels[lo:hi]), t(ids[lo:hi])
        acc.update(p, y, indexes=i)
        for metric in metrics.values():
            metric.update(p, y, indexes=i)  # type: ignore[attr-defined]
    expected: dict[str, float | None] = {}
    for name, metric in metrics.items():
        try:
            expected[name] = float(metric.compute())  # type: ignore[attr-defined]
        except ValueError:  # empty_target_action="error" on a query without a positive
            expected[name] = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if any(v is None for v in expected.values()):
            with pytest.raises(ranklens.InputError, match="no relevant judgment"):
                acc.compute()
            return
        got = acc.compute()
    for name, value in expected.items():
        assert got[name] == pytest.approx(value, rel=1e-6, abs=1e-6), name


@settings(max_examples=80, deadline=None)
@given(data=batches(graded=False), top_k=st.sampled_from([None, 1, 2, 3, 5, 100]),
       action=st.sampled_from(list(ACTIONS)))
def test_binary_metrics_equal_torchmetrics(
        data: tuple[np.ndarray, np.ndarray, np.ndarray, list[int], int | None],
        top_k: int | None, action: str) -> None:
    ids, scores, labels, bounds, index = data
    _compare(ids, scores, labels, bounds, _metrics(top_k, action, index), action, index)


@settings(max_examples=80, deadline=None)
@given(data=batches(graded=True), top_k=st.sampled_from([None, 1, 2, 3, 5, 100]),
       action=st.sampled_from(list(ACTIONS)))
def test_ndcg_with_ties_and_grades_equals_torchmetrics(
        data: tuple[np.ndarray, np.ndarray, np.ndarray, list[int], int | None],
        top_k: int | None, action: str) -> None:
    ids, scores, labels, bounds, index = data
    cut = "" if top_k is None else f"@{top_k}"
    ndcg = retrieval.RetrievalNormalizedDCG(top_k=top_k, empty_target_action=action,
                                            ignore_index=index)
    _compare(ids, scores, labels, bounds, {f"nDCG{cut}": ndcg}, action, index)


def test_score_matrices_equal_torchmetrics_on_flattened_indexes() -> None:
    # a (queries x candidates) float32 matrix, rows as queries, against torchmetrics fed
    # the same rows flattened with their row number as index
    rng = np.random.default_rng(7)
    scores = rng.standard_normal((50, 20)).astype(np.float32)  # about half <= 0
    labels = (rng.random((50, 20)) < 0.2).astype(np.int64)
    names = ["nDCG@10", "MAP@10", "MRR@10", "P@10", "R@10", "HitRate@10"]
    acc = ranklens.Accumulator(names, convention="torchmetrics")
    metrics = _metrics(10, "neg", None)
    metrics["nDCG@10"] = retrieval.RetrievalNormalizedDCG(top_k=10)
    index = torch.arange(50).repeat_interleave(20)
    for lo in range(0, 50, 16):
        acc.update(torch.as_tensor(scores[lo:lo + 16]), torch.as_tensor(labels[lo:lo + 16]))
    r = acc.compute()
    t = torch.as_tensor
    for name, metric in metrics.items():
        expected = float(metric(t(scores).ravel(), t(labels).ravel(), indexes=index))  # type: ignore[operator]
        assert r[name] == pytest.approx(expected, rel=1e-6, abs=1e-6), name
