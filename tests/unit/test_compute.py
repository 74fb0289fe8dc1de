"""plan -> compute -> assemble: compute is valid on any subset of queries (one partition).

Restricting the judgments and the run to some queries gives exactly those queries' rows of
the whole, bit for bit, so partitions computed apart (Spark tasks) and concatenated equal
the whole; assembling them gives the same Result as ``evaluate``.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ranklens
from ranklens import ParameterError, RanklensWarning
from ranklens._pipeline.assemble import assemble, notices
from ranklens._pipeline.compute import PerQuery, compute
from ranklens._pipeline.plan import make_plan

QIDS = ["q1", "q2", "10", "9", "Q3", "é", "all", "q 4"]
DOCS = ["d1", "d2", "d10", "D3", "a", "b", "Z", "doc#1", "é1", "0", "00", "x-y"]
SCORE = st.integers(-8, 8).map(lambda i: i / 4)  # a small grid: many ties
MEASURES = ["AP", "nDCG@3", "nDCG", "P@5", "RR", "R@10", "bpref", "GMAP", "infAP", "Rprec",
            "NumRel", "NumRet", "NumQ", "Unj@5", "RBP(p=0.8)", "relstring@3",
            "nDCG(ties=average)@3", "AP(ties=input)", "P(rel=2)@3", "map"]


@st.composite
def partitioned(draw: st.DrawFn) -> tuple[dict, dict, dict[str, int]]:
    """Judgments, a run, and a part number for each query (every part shares a query)."""
    qids = draw(st.lists(st.sampled_from(QIDS), min_size=1, max_size=7, unique=True))
    where = ["both"] + [draw(st.sampled_from(["both", "both", "qrels", "run"]))
                        for _ in qids[1:]]
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q, w in zip(qids, where, strict=True):
        if w in ("both", "qrels"):
            qrels[q] = draw(st.dictionaries(st.sampled_from(DOCS), st.integers(-1, 3),
                                            min_size=1, max_size=8))
        if w in ("both", "run"):
            run[q] = draw(st.dictionaries(st.sampled_from(DOCS), SCORE, min_size=1,
                                          max_size=10))
    parts = [draw(st.integers(0, 3)) for _ in qids]
    # a part sharing no query with the run cannot be aligned: it joins the first query's
    shared = {p for p, w in zip(parts, where, strict=True) if w == "both"}
    parts = [p if p in shared else parts[0] for p in parts]
    return qrels, run, dict(zip(qids, parts, strict=True))


def _restricted(table: dict, qids: set[str]) -> dict:
    return {q: v for q, v in table.items() if q in qids}


def _parts(qrels: dict, run: dict, part_of: dict[str, int]) -> list[tuple[dict, dict]]:
    by_part: dict[int, set[str]] = {}
    for q, p in part_of.items():
        by_part.setdefault(p, set()).add(q)
    return [(_restricted(qrels, qs), _restricted(run, qs)) for qs in by_part.values()]


def _same_per_query(a: PerQuery, b: PerQuery) -> None:
    assert a.query_ids.tolist() == b.query_ids.tolist()
    assert list(a.values) == list(b.values)
    for m in a.values:
        got, want = np.asarray(a.values[m]), np.asarray(b.values[m])
        if got.dtype == object:
            assert got.tolist() == want.tolist(), m
        else:  # bit for bit, NaN where NaN
            assert got.tobytes() == want.tobytes(), m
    for level in a.num_rel:
        np.testing.assert_array_equal(a.num_rel[level], b.num_rel[level])
    assert a.diagnostics == b.diagnostics


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=partitioned(),
       ties=st.sampled_from(["docid", "input", "average"]),
       empty=st.sampled_from(["zero", "skip", "one", "nan"]),
       missing=st.sampled_from(["zero", "skip"]),
       judged_only=st.booleans())
def test_partitions_concatenate_to_the_whole(data: tuple[dict, dict, dict[str, int]], ties: str,
                                              empty: str, missing: str,
                                              judged_only: bool) -> None:
    qrels, run, part_of = data
    plan = make_plan(MEASURES, ties=ties, empty=empty, missing=missing,  # type: ignore[arg-type]
                     judged_only=judged_only)
    load_q, load_r = ranklens.load_qrels, ranklens.load_run
    whole = compute(plan, load_q(qrels), load_r(run))
    parts = [compute(plan, load_q(q), load_r(r)) for q, r in _parts(qrels, run, part_of)]
    joined = PerQuery.concat(parts)
    _same_per_query(joined, whole)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        want = ranklens.evaluate(qrels, run, MEASURES, ties=ties, empty=empty,  # type: ignore[arg-type]
                                 missing=missing, judged_only=judged_only)
    got = assemble(plan, joined, "run")
    assert got.query_ids.tolist() == want.query_ids.tolist()
    for name in MEASURES:
        assert got.query_values[name].tobytes() == want.query_values[name].tobytes(), name
        a, b = got[name], want[name]
        assert a == b or (math.isnan(a) and math.isnan(b)), name


def test_compute_is_silent_and_notices_say_what_evaluate_warns() -> None:
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    run = {"q1": {"a": 1.0}, "q9": {"z": 1.0}}
    plan = make_plan(["AP"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        per_query = compute(plan, ranklens.load_qrels(qrels), ranklens.load_run(run))
    said = notices(plan, per_query, "<run dict>")
    assert len(said) == 2
    assert "absent from the run (<run dict>)" in said[0] and "['q2']" in said[0]
    assert "ignored" in said[1] and "['q9']" in said[1]
    assert notices(make_plan(["AP"], missing="zero"), per_query, "x")[0].startswith(
        "1 queries of the run (x) have no judgments")


def test_plan_checks_every_option_before_anything_is_loaded() -> None:
    plan = make_plan(["map", "AP", "AP", "nDCG@10"], convention="kaggle")
    assert plan.names == ("map", "AP", "nDCG@10")
    assert len(plan.canonical) == 2  # map and AP are one measure
    assert plan.conventions["convention"] == "kaggle"
    with pytest.raises(TypeError):
        plan.conventions["ties"] = "docid"  # type: ignore[index]
    with pytest.raises(ParameterError, match=r"the 'empty' option must be one of .*got 'none'"):
        make_plan(["AP"], empty="none")  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="'ties' option"):
        make_plan(["AP"], ties="random")  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="'run_name' option"):
        make_plan(["AP"], run_name=3)  # type: ignore[arg-type]


def test_concat_refuses_overlapping_or_different_parts() -> None:
    plan = make_plan(["AP"])
    q = ranklens.load_qrels({"q1": {"a": 1}})
    one = compute(plan, q, ranklens.load_run({"q1": {"a": 1.0}}))
    with pytest.raises(ParameterError, match="must not share queries"):
        PerQuery.concat([one, one])
    other = compute(make_plan(["P@1"]), q, ranklens.load_run({"q1": {"a": 1.0}}))
    with pytest.raises(ParameterError, match="same measures"):
        PerQuery.concat([one, other])
    with pytest.raises(ParameterError, match="no parts"):
        PerQuery.concat([])


def test_values_are_floats_even_where_a_kernel_counts_nothing() -> None:
    # DCG@2 with nothing judged in the top 2 comes out of its kernel as an empty bincount
    r = ranklens.evaluate({"q": {"a": 1}, "p": {"z": 1}},
                          {"q": {"b": 1.0, "c": 0.5, "a": 0.1}, "p": {"y": 1.0}},
                          ["DCG@2", "nDCG@2", "RelString@2"])
    assert r.query_values["DCG@2"].dtype == np.float64
    assert r.query_values["DCG@2"].tolist() == [0.0, 0.0]
    rows = ranklens.render(r, "jsonl", per_query=True).splitlines()
    assert sum('"measure": "DCG@2", "value": 0.0}' in row for row in rows) == 3  # q, p, all


@settings(max_examples=30, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=6), min_size=1, max_size=40, unique=True))
def test_trec_order_is_code_point_order_above_the_polars_threshold(texts: list[str]) -> None:
    # (above 4,096 ids the order is polars'; lone surrogates and non-text keep Python's)
    from ranklens._pipeline.compute import _trec_order

    mixed = (texts[i % len(texts)] for i in range(5000))
    ids = list(dict.fromkeys(f"{i:x}{t}" if i % 2 else f"{t}{i}" for i, t in enumerate(mixed)))
    assert len(ids) > 1 << 12
    array = np.array(ids[::-1], dtype=object)
    assert array[_trec_order(array)].tolist() == sorted(ids)


def test_concat_of_many_queries_orders_them_as_trec_eval() -> None:
    # 5,000 queries in two parts: ids ordered byte-wise ("q10" < "q9", "Z" < "a" < "é")
    names = [f"{p}{i}" for i in range(1250) for p in ("q", "Z", "a", "é")]
    qrels = {q: {"d": 1} for q in names}
    run = {q: {"d": 1.0, "x": 2.0} for q in names}
    plan = make_plan(["RR"])
    half = len(names) // 2
    parts = [compute(plan, ranklens.load_qrels({q: qrels[q] for q in chunk}),
                     ranklens.load_run({q: run[q] for q in chunk}))
             for chunk in (names[:half], names[half:])]
    joined = PerQuery.concat(parts)
    assert joined.query_ids.tolist() == sorted(names)
    whole = compute(plan, ranklens.load_qrels(qrels), ranklens.load_run(run))
    assert joined.query_ids.tolist() == whole.query_ids.tolist()
    for m in whole.values:
        assert joined.values[m].tobytes() == whole.values[m].tobytes()
    with pytest.raises(ParameterError, match="must not share queries"):
        PerQuery.concat([parts[0], parts[0]])
