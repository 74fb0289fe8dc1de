"""One alignment path: whatever the run's query order, duplicates or missing queries, the
results equal those of the same data written cleanly (queries sorted, each doc once)."""

from __future__ import annotations

import warnings

import numpy as np
import polars as pl
import pytest

import ranklens
from ranklens import Run
from ranklens._model.align import align

MEASURES = ["AP", "nDCG@5", "P@3", "RR", "Rprec", "num_ret", "relstring@4",
            "P(ties=input)@3", "nDCG(ties=average)@4"]


def _data(seed: int) -> tuple[dict, list[tuple[str, str, float]]]:
    """Judgments, and run rows with queries out of order, ties and a repeated doc."""
    rng = np.random.default_rng(seed)
    qrels: dict[str, dict[str, int]] = {}
    rows: list[tuple[str, str, float]] = []
    for q in rng.permutation(9):
        qid = f"q{q}"
        docs = [f"d{d}" for d in rng.choice(30, size=int(rng.integers(2, 9)), replace=False)]
        qrels[qid] = {d: int(rng.integers(0, 3)) for d in rng.choice(docs, size=2)}
        qrels[qid][f"x{q}"] = 1  # judged, never ranked
        if q == 4:
            continue  # a judged query absent from the run
        scores = np.sort(rng.integers(0, 4, size=len(docs)))[::-1].astype(float)
        rows += [(qid, d, s) for d, s in zip(docs, scores, strict=True)]
        if q % 3 == 0:
            rows.append((qid, docs[0], -1.0))  # the doc again, ranked last
    rows.append(("zz", "d1", 1.0))  # a run query without judgments
    return qrels, rows


def _clean(rows: list[tuple[str, str, float]]) -> dict[str, dict[str, float]]:
    """The rows sorted by query, each (query, doc) once: its first occurrence."""
    out: dict[str, dict[str, float]] = {}
    for q, d, s in sorted(rows, key=lambda r: r[0]):
        out.setdefault(q, {}).setdefault(d, s)
    return out


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("options", [
    {"missing": "zero"},
    {"missing": "skip"},
    {"missing": "zero", "depth": 3},
    {"missing": "zero", "judged_only": True},
    {"missing": "skip", "ties": "input"},
    {"missing": "zero", "ties": "average"},
])
def test_a_messy_run_gives_the_clean_runs_results(seed: int, options: dict) -> None:
    qrels, rows = _data(seed)
    frame = pl.DataFrame(rows, schema=["query_id", "doc_id", "score"], orient="row")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ranklens.RanklensWarning)
        got = ranklens.evaluate(qrels, Run(frame), MEASURES, duplicates="first", **options)
        want = ranklens.evaluate(qrels, _clean(rows), MEASURES, **options)
    assert list(got.query_ids) == sorted(got.query_ids) == list(want.query_ids)
    for m in MEASURES:
        if m.startswith("relstring"):
            assert got.text_values[m] == want.text_values[m]
            continue
        assert np.array_equal(np.array(list(got.per_query(m).values())),
                              np.array(list(want.per_query(m).values())), equal_nan=True), m


def test_queries_are_numbered_the_runs_way_and_put_back_in_trec_order() -> None:
    qrels = ranklens.load_qrels({"b": {"d1": 1}, "a": {"d2": 1}, "c": {"d3": 1}})
    run = ranklens.load_run({"c": {"d3": 1.0}, "a": {"d2": 1.0, "d9": 0.5}})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ranklens.RanklensWarning)
        aligned, diagnostics = align(qrels, run)
    # the run's queries in its order, then the judged query it lacks
    assert aligned.query_ids.tolist() == ["c", "a", "b"]
    assert aligned.missing.tolist() == [False, False, True]
    assert aligned.n_ret.tolist() == [1, 2, 0]
    assert aligned.in_trec_order(aligned.query_ids).tolist() == ["a", "b", "c"]
    assert aligned.in_trec_order(aligned.n_ret).tolist() == [2, 0, 1]
    assert diagnostics.to_dict() == {"missing_queries": ["b"], "ignored_queries": []}
    # judgments follow the same numbering
    assert aligned.j_qidx.tolist() == [0, 1, 2]
    assert aligned.judged_at.tolist() == [0, 1]


def test_a_duplicate_in_an_unjudged_query_is_no_error() -> None:
    frame = pl.DataFrame({"query_id": ["q1", "zz", "zz"], "doc_id": ["a", "b", "b"],
                          "score": [1.0, 2.0, 1.0]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ranklens.RanklensWarning)
        assert ranklens.evaluate({"q1": {"a": 1}}, Run(frame), "AP")["AP"] == 1.0
    with pytest.raises(ranklens.InputError, match="'b' appears more than once for query 'zz'"):
        ranklens.evaluate({"q1": {"a": 1}, "zz": {"b": 1}}, Run(frame), "AP")
