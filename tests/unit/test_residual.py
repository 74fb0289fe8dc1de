"""Residuals: each measure with the unjudged retrieved documents non-relevant / relevant."""

from __future__ import annotations

import numpy as np
import pytest

import ranklens
from ranklens._surfaces.residual import RESIDUAL_MEASURES

QRELS = {"q": {"a": 1, "b": 0}}
RUN = {"q": {"a": 4.0, "x": 3.0, "b": 2.0, "y": 1.0}}


def test_toy_case_by_hand() -> None:
    res = ranklens.residual(QRELS, RUN, ["P@2", "P@4", "RR", "AP", "R@2", "nDCG@2"])
    # ranking a(rel) x(?) b(non) y(?)
    assert res.range("P@2") == (0.5, 1.0)    # x relevant: 2 of 2
    assert res.range("P@4") == (0.25, 0.75)  # x, y relevant: 3 of 4
    assert res.range("RR") == (1.0, 1.0)
    # AP: no cutoff, x and y join R = 3: (1/1 + 2/2 + 3/4) / 3
    assert res.range("AP") == (1.0, pytest.approx((1 + 1 + 3 / 4) / 3))
    # R@2: only x (in the top 2) joins R: 2 of 2
    assert res.range("R@2") == (1.0, 1.0)
    # nDCG@2: both top documents relevant either way the ideal allows
    assert res.range("nDCG@2") == (1.0, 1.0)
    assert res.unjudged == {"q": 2}
    assert res.per_query("P@4") == {"q": (0.25, 0.75)}
    assert res.grade == 1.0


def test_grade_is_the_largest_or_given() -> None:
    qrels = {"q": {"a": 2, "b": 1}}
    run = {"q": {"x": 3.0, "a": 2.0, "b": 1.0}}
    default = ranklens.residual(qrels, run, ["DCG@1"])
    assert default.grade == 2.0 and default.range("DCG@1") == (0.0, 2.0)
    given = ranklens.residual(qrels, run, ["DCG@1"], grade=1)
    assert given.range("DCG@1") == (0.0, 1.0)


def _completed(qrels: dict, run: dict, depth: float, grade: float) -> dict:
    """The judgments with each unjudged document of a judged query's top ``depth`` added
    at ``grade``: a direct, loop-by-loop reading of the rule (trec_eval's order: score
    descending, doc id descending)."""
    out = {q: dict(docs) for q, docs in qrels.items()}
    for q, docs in run.items():
        if q not in qrels:
            continue
        ranked = sorted(docs, key=lambda d: (docs[d], d), reverse=True)
        for i, d in enumerate(ranked):
            if i < depth and d not in qrels[q]:
                out[q][d] = grade
    return out


@pytest.mark.filterwarnings("ignore:2 queries of the run")
@pytest.mark.parametrize("seed", range(6))
def test_equals_evaluating_with_the_judgments_added(seed: int) -> None:
    rng = np.random.default_rng(seed)
    docs = [f"d{i:02d}" for i in range(25)]
    qrels = {f"q{q}": {d: int(rng.integers(0, 3)) for d in docs if rng.random() < 0.4}
             for q in range(8)}
    qrels["q0"] = {"d00": 1}
    run = {f"q{q}": {d: float(rng.integers(0, 6)) for d in docs if rng.random() < 0.7}
           for q in range(10)}  # q8, q9 unjudged: never evaluated, never completed
    measures = ["P@5", "R@10", "F@5", "Success@3", "Hits@5", "AP", "AP@5", "RR", "Rprec",
                "nDCG@10", "nDCG", "DCG@5", "CG@5", "RBP(p=0.8)", "ERR@10"]
    res = ranklens.residual(qrels, run, measures, missing="zero")
    low = ranklens.evaluate(qrels, run, measures, missing="zero")
    for m in measures:
        cutoff = ranklens.parse_measure(m).cutoff
        depth = float("inf") if cutoff is None else cutoff
        high = ranklens.evaluate(_completed(qrels, run, depth, 2.0), run, [m], missing="zero")
        assert res.if_relevant.per_query(m) == high.per_query(m), m
        assert res.if_relevant[m] == high[m], m
        # unjudged documents at grade 0 change none of these measures: the low end is the
        # evaluation as given
        zero = ranklens.evaluate(_completed(qrels, run, depth, 0.0), run, [m], missing="zero")
        assert res.if_nonrelevant.per_query(m) == low.per_query(m) == zero.per_query(m), m


def test_precision_width_is_the_unjudged_share() -> None:
    """P@k's range is 1 - Judged@k (denominator k) wide, query by query."""
    rng = np.random.default_rng(9)
    qrels = {f"q{q}": {f"d{d}": int(rng.integers(0, 2)) for d in range(30) if rng.random() < .5}
             for q in range(12)}
    run = {q: {f"d{d}": float(rng.random()) for d in range(30)} for q in qrels}
    res = ranklens.residual(qrels, run, ["P@10"])
    judged = ranklens.evaluate(qrels, run, ["Judged(denom=k)@10"]).per_query(
        "Judged(denom=k)@10")
    for q, (low, high) in res.per_query("P@10").items():
        assert high - low == pytest.approx(1 - judged[q])


def test_rbp_range_is_rbp_resid_without_its_tail() -> None:
    """With binary judgments RBP's if-relevant end adds (1 - p) sum p^(i-1) over the
    unjudged ranks: trec_eval's rbp_resid (RBPResid) less its p^n tail."""
    rng = np.random.default_rng(4)
    qrels = {f"q{q}": {f"d{d}": int(rng.integers(0, 2)) for d in range(20) if rng.random() < .5}
             for q in range(10)}
    run = {q: {f"d{d}": float(rng.random()) for d in range(int(rng.integers(5, 20)))}
           for q in qrels}
    res = ranklens.residual(qrels, run, ["RBP(p=0.8)"])
    resid = ranklens.evaluate(qrels, run, ["RBPResid(p=0.8)"]).per_query("RBPResid(p=0.8)")
    for q, (low, high) in res.per_query("RBP(p=0.8)").items():
        tail = 0.8 ** len(run[q]) if res.unjudged[q] else 0.0
        assert high - low == pytest.approx(resid[q] - tail, abs=1e-12)


def test_input_ties_rank_by_input_order() -> None:
    qrels = {"q": {"a": 1}}
    run = {"q": {"a": 1.0, "z": 1.0, "b": 1.0}}  # docid ties: z, b, a; input: a, z, b
    by_id = ranklens.residual(qrels, run, ["P@1"])
    by_input = ranklens.residual(qrels, run, ["P@1"], ties="input")
    assert by_id.range("P@1") == (0.0, 1.0)
    assert by_input.range("P@1") == (1.0, 1.0)


def test_measures_without_a_residual() -> None:
    with pytest.raises(ranklens.MeasureError) as err:
        ranklens.residual(QRELS, RUN, ["Bpref"])
    assert str(err.value) == ("Bpref has no residual here; the measures that have one are "
                              + ", ".join(RESIDUAL_MEASURES) + " (with any cutoff)")


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"ties": "average"}, "a residual needs each document at one rank: ties='docid' or "
                          "'input'; P@2 is evaluated with ties='average'"),
    ({"judged_only": True}, "judged_only=True drops them"),
    ({"grade": 0}, "the 'grade' option must be a number > 0; got 0"),
    ({"grade": 1, "measures": ["P(rel=2)@2"]},
     "the unjudged documents' grade 1 is below P(rel=2)@2's relevance level 2"),
    ({"measures": []}, "the 'measures' argument is empty"),
])
def test_errors(kwargs: dict, message: str) -> None:
    measures = kwargs.pop("measures", ["P@2"])
    with pytest.raises(ranklens.ParameterError, match=message.replace("(", r"\(")
                       .replace(")", r"\)")):
        ranklens.residual({"q": {"a": 2, "b": 0}}, RUN, measures, **kwargs)


def test_no_positive_grade() -> None:
    with pytest.raises(ranklens.ParameterError, match="no positive grade"):
        ranklens.residual({"q": {"a": 0}}, RUN, ["P@2"])


def test_frames_hold_both_ends_of_each_query() -> None:
    qrels = {"q1": {"a": 1, "b": 0}, "q2": {"c": 1}, "q3": {"d": 1, "e": 1}}
    run = {"q1": {"a": 3.0, "x": 2.0, "b": 1.0}, "q2": {"y": 3.0, "c": 2.0},
           "q3": {"d": 3.0, "z": 2.0, "e": 1.0}}
    res = ranklens.residual(qrels, run, ["P@2", "RR"])
    wide = res.to_polars()
    assert wide.columns == ["query_id", "P@2 if_nonrelevant", "P@2 if_relevant",
                            "RR if_nonrelevant", "RR if_relevant"]
    long = res.to_polars(wide=False)
    assert long.columns == ["query_id", "measure", "if_nonrelevant", "if_relevant"]
    for name in ("P@2", "RR"):
        rows = long.filter(long["measure"] == name)
        assert {q: (lo, hi) for q, _, lo, hi in rows.iter_rows()} == res.per_query(name)
        assert dict(zip(wide["query_id"], zip(wide[f"{name} if_nonrelevant"],
                                              wide[f"{name} if_relevant"], strict=True),
                        strict=True)) == res.per_query(name)
    numbers = ranklens.residual({2: {"a": 1}, 10: {"b": 1}}, {2: {"x": 1.0, "a": 0.5},
                                                              10: {"b": 1.0}}, ["P@1"])
    assert numbers.to_polars()["query_id"].to_list() == [2, 10]  # as Result.to_polars
