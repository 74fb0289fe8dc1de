"""``zero_grade_unread``: the measures that declare it give the same values when documents
judged 0 become unjudged (each query keeping one judgment, so that it stays judged).

``ranklens.Accumulator`` leaves labels of 0 out of the judgments when every measure of its
plan declares this; a wrong declaration would change its values, so every declaration is
held to it here on random judgments with ties, under every tie policy it is computed with:
bit for bit, but to 1e-12 under ties="average" (AP(denom=hits) has no closed form there and
averages over enumerated orders, whose sum may round differently in the last bit).
"""

from __future__ import annotations

import itertools

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

import ranklens
from ranklens._measures import REGISTRY, Measure


def _declared() -> list[Measure]:
    """Every measure declaring the fact, with and without a cutoff, and each value of the
    parameters a convention sets."""
    out = []
    for name, defn in REGISTRY.items():
        if defn.facts.zero_grade_unread is False:
            continue
        base = ranklens.parse_measure(name)
        variants = [base] + ([base @ 3] if defn.cutoff else [])
        for param in defn.facts.convention_params:
            choices = getattr(defn.param(param).constraint, "choices", ())
            variants += [v(**{param: c}) for v in list(variants) for c in choices]
        out += [v for v in variants if not defn.reads_zero_grades(v)]
    return out


DECLARED = _declared()


def test_the_declarations_are_the_expected_measures() -> None:
    assert {m.name for m in DECLARED} == {"AP", "RR", "P", "R", "Success", "nDCG", "DCG"}
    # a parameter that makes a measure read grade 0 turns the declaration off
    assert REGISTRY["AP"].reads_zero_grades(ranklens.parse_measure("AP(judged_only=true)"))
    assert REGISTRY["nDCG"].reads_zero_grades(ranklens.parse_measure("nDCG(gain=0:1;1:2)"))
    assert not REGISTRY["nDCG"].reads_zero_grades(ranklens.parse_measure("nDCG(gain=exp2)"))
    assert REGISTRY["InfAP"].reads_zero_grades(ranklens.parse_measure("infAP"))


@st.composite
def judged_runs(draw: st.DrawFn) -> tuple[pl.DataFrame, pl.DataFrame]:
    rows = []
    for q in range(draw(st.integers(1, 4))):
        for d in range(draw(st.integers(1, 8))):
            rows.append((f"q{q}", f"d{d}", draw(st.sampled_from([0, 0, 0, 1, 2])),
                         draw(st.sampled_from([0.5, 1.0, 2.0, 3.0]))))
    frame = pl.DataFrame(rows, schema=["query_id", "doc_id", "relevance", "score"],
                         orient="row")
    return (frame.select("query_id", "doc_id", pl.col("relevance").cast(pl.Float64)),
            frame.select("query_id", "doc_id", "score"))


@settings(max_examples=60, deadline=None)
@given(data=judged_runs(), ties=st.sampled_from(["docid", "input", "average"]))
def test_documents_judged_0_may_be_left_unjudged(
        data: tuple[pl.DataFrame, pl.DataFrame], ties: str) -> None:
    qrels, run = data
    first = pl.int_range(pl.len()).over("query_id") == 0
    thin = qrels.filter((pl.col("relevance") != 0) | first)
    names = [str(m) for m in DECLARED]
    full = ranklens.evaluate(qrels, run, names, ties=ties)
    kept = ranklens.evaluate(thin, run, names, ties=ties)
    for name in names:
        if ties == "average":  # an average over enumerated orders may round differently
            a, b = full.per_query(name), kept.per_query(name)
            assert a.keys() == b.keys()
            assert all(abs(a[q] - b[q]) <= 1e-12 for q in a), name
        else:
            assert full.per_query(name) == kept.per_query(name), name


def test_a_measure_that_counts_judgments_is_not_declared() -> None:
    # bpref counts judged non-relevant documents: leaving grade 0 out changes it, which is
    # why it must not declare the fact (the test above would then fail)
    qrels = pl.DataFrame({"query_id": ["q"] * 3, "doc_id": ["a", "b", "c"],
                          "relevance": [1.0, 0.0, 0.0]})
    run = pl.DataFrame({"query_id": ["q"] * 3, "doc_id": ["b", "a", "c"],
                        "score": [3.0, 2.0, 1.0]})
    full = ranklens.evaluate(qrels, run, ["bpref"])["bpref"]
    thin = ranklens.evaluate(qrels.head(1), run, ["bpref"])["bpref"]
    assert full != thin
    assert REGISTRY["Bpref"].reads_zero_grades(ranklens.parse_measure("bpref"))
    assert list(itertools.islice(DECLARED, 1))  # the scan above found some
