"""``ranklens.Judgments``: judgments prepared once give what ``evaluate`` gives, every time."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ranklens
from ranklens import InputError, Judgments, MeasureError, ParameterError

MEASURES = ["AP", "nDCG@3", "P@2", "RR", "R@5", "Rprec", "num_rel_ret", "bpref"]
QIDS = ["q1", "q2", "q10", "3", "q\u00e9"]
DOCS = [f"d{i}" for i in range(8)] + ["D1", "10", ""]
SCORE = st.integers(-6, 6).map(lambda i: i / 2)  # a small grid: many ties

OPTIONS = st.fixed_dictionaries({}, optional={
    "ties": st.sampled_from(["docid", "input", "average", "worst", "best"]),
    "missing": st.sampled_from(["zero", "skip"]),
    "empty": st.sampled_from(["zero", "skip", "one", "nan"]),
    "empty_ranking": st.sampled_from(["zero", "nan", "skip"]),
    "depth": st.integers(1, 6),
    "judged_only": st.booleans(),
    "rel": st.integers(1, 2),
    "convention": st.sampled_from(["trec", "sklearn", "ranx"]),
})

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@st.composite
def nested(draw: st.DrawFn, values: st.SearchStrategy, min_docs: int) -> dict:
    qids = draw(st.lists(st.sampled_from(QIDS), min_size=1, max_size=4, unique=True))
    return {q: draw(st.dictionaries(st.sampled_from(DOCS), values, min_size=min_docs,
                                    max_size=6)) for q in qids}


def same(a: ranklens.Result, b: ranklens.Result) -> None:
    """Two results equal in every value (NaN equal to NaN), name, query and convention."""
    assert a.names == b.names
    assert a.run_name == b.run_name
    assert a.conventions == b.conventions
    assert a.diagnostics == b.diagnostics
    assert a.query_ids.tolist() == b.query_ids.tolist()
    for m in a.names:
        np.testing.assert_array_equal(a.query_values[m], b.query_values[m])
        assert a[m] == b[m] or (np.isnan(a[m]) and np.isnan(b[m]))


def outcome(call, *args, **kwargs) -> tuple[object, list[str]]:
    """The result (or the error's type and message) and the warnings of one call."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out: object = call(*args, **kwargs)
        except ranklens.RanklensError as e:
            out = (type(e), str(e))
    return out, [str(w.message) for w in caught]


@SETTINGS
@given(qrels=nested(st.integers(-1, 3), 1), run=nested(SCORE, 0), other=nested(SCORE, 1),
       options=OPTIONS)
def test_judgments_evaluate_equals_evaluate(qrels: dict, run: dict, other: dict,
                                            options: dict) -> None:
    expected, expected_warnings = outcome(ranklens.evaluate, qrels, run, MEASURES, **options)
    judged = Judgments(qrels, MEASURES, **options)
    first, first_warnings = outcome(judged.evaluate, run)
    # another run in between, then the first again: nothing carries over
    outcome(judged.evaluate, other)
    second, second_warnings = outcome(judged.evaluate, run)
    assert first_warnings == expected_warnings == second_warnings
    if isinstance(expected, tuple):  # an error: the same one, each time
        assert first == expected == second
        return
    assert isinstance(first, ranklens.Result) and isinstance(second, ranklens.Result)
    assert isinstance(expected, ranklens.Result)
    same(first, expected)
    same(second, expected)


@SETTINGS
@given(qrels=nested(st.integers(0, 2), 1), a=nested(SCORE, 1), b=nested(SCORE, 1))
def test_several_runs_and_options_per_call(qrels: dict, a: dict, b: dict) -> None:
    judged = Judgments(qrels, missing="zero")
    several = judged.evaluate({"a": a, "b": b}, ["AP", "P@2"])
    expected = ranklens.evaluate(qrels, {"a": a, "b": b}, ["AP", "P@2"], missing="zero")
    for name in ("a", "b"):
        same(several[name], expected[name])
    same(judged.evaluate(a, "nDCG@2", run_name="mine", depth=2),
         ranklens.evaluate(qrels, a, "nDCG@2", run_name="mine", depth=2, missing="zero"))


def test_closed_form_toy_case() -> None:
    judged = Judgments({"q1": {"d1": 1, "d2": 0, "d3": 2}, "q2": {"d9": 1}}, ["AP", "P@2"],
                       missing="zero")
    r = judged.evaluate({"q1": {"d1": 0.9, "d2": 0.8, "d3": 0.1}})
    # q1: relevant at ranks 1 and 3: AP (1/1 + 2/3) / 2; q2 is missing, scored 0
    assert r.per_query("AP") == pytest.approx({"q1": 5 / 6, "q2": 0.0})
    assert r["P@2"] == pytest.approx(0.25)
    assert judged.evaluate({"q2": {"d9": 1.0}})["AP"] == pytest.approx(0.5)


def test_a_loaded_table_is_kept_as_it_is() -> None:
    qrels = ranklens.load_qrels({"q1": {"d1": 1}})
    assert Judgments(qrels).qrels is qrels


def test_measures_are_needed_once() -> None:
    judged = Judgments({"q1": {"d1": 1}})
    with pytest.raises(ParameterError, match="no measures given"):
        judged.evaluate({"q1": {"d1": 1.0}})
    assert judged.evaluate({"q1": {"d1": 1.0}}, "P@1")["P@1"] == 1.0


def test_bad_measures_and_options_fail_before_any_run() -> None:
    with pytest.raises(MeasureError, match="nDGC"):
        Judgments({"q1": {"d1": 1}}, ["nDGC@10"])
    with pytest.raises(ParameterError, match="'depth' option"):
        Judgments({"q1": {"d1": 1}}, ["AP"], depth=-1)


def test_an_option_given_twice_differently_is_refused() -> None:
    judged = Judgments({"q1": {"d1": 1}}, ["AP"], depth=10)
    with pytest.raises(ParameterError, match="given twice"):
        judged.evaluate({"q1": {"d1": 1.0}}, depth=5)
    assert judged.evaluate({"q1": {"d1": 1.0}}, depth=10)["AP"] == 1.0


def test_bad_judgments_fail_when_made() -> None:
    with pytest.raises(InputError, match="finite relevance"):
        Judgments({"q1": {"d1": float("inf")}}, ["AP"])


def test_run_name_with_several_runs_is_refused_as_by_evaluate() -> None:
    judged = Judgments({"q1": {"d1": 1}}, ["AP"])
    with pytest.raises(ParameterError, match="'run_name' option names one run"):
        judged.evaluate([{"q1": {"d1": 1.0}}, {"q1": {"d1": 2.0}}], run_name="x")


def test_subtopic_judgments() -> None:
    sq = ranklens.load_qrels({"q1": {"s1": {"d1": 1}, "s2": {"d1": 1, "d2": 1}}},
                             kind="subtopic")
    run = {"q1": {"d2": 2.0, "d1": 1.0}}
    judged = Judgments(sq, ["S-recall@1", "alpha-nDCG@2"])
    same(judged.evaluate(run), ranklens.evaluate(sq, run, ["S-recall@1", "alpha-nDCG@2"]))
    assert judged.evaluate(run)["S-recall@1"] == 0.5


@pytest.mark.parametrize("run", [
    {"q1": {1: 0.9, "1": 0.5}},  # two keys, one doc id once both are strings
    {"1": {"1": 0.9}, 1: {"1": 0.5}},  # two keys, one query id
])
def test_dict_keys_that_become_one_id_are_duplicates(run: dict) -> None:
    # a mapping's keys are distinct, but not always as strings: the duplicates policy holds
    qrels = {"q1": {"1": 1}, "1": {"1": 1}}
    with pytest.raises(InputError, match="'1' appears more than once"):
        ranklens.evaluate(qrels, run, ["AP"], missing="zero")
    r = Judgments(qrels, ["AP"], missing="zero").evaluate(run, duplicates="first")
    same(r, ranklens.evaluate(qrels, run, ["AP"], missing="zero", duplicates="first"))
    assert r.per_query("AP")["q1" if "q1" in run else "1"] == 1.0


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([*QIDS, 3, 10]),
                          st.dictionaries(st.sampled_from(DOCS), st.integers(0, 2),
                                          max_size=4)), max_size=6))
def test_a_qrels_dict_marks_its_query_blocks_as_found_from_the_ids(
        items: list[tuple[object, dict[str, int]]]) -> None:
    # the reader marks where each query's judgments start; the index must be the one built
    # by comparing the ids (empty queries, and 3 next to "3": one id, two blocks)
    from ranklens._ingest.io._load import load_qrels
    from ranklens._model.matching import qrels_index

    mapping = dict(items)
    marked = load_qrels(mapping)
    assert marked.hints.block_starts is not None
    found = load_qrels(mapping)
    found.hints.block_starts = None
    a, b = qrels_index(marked), qrels_index(found)
    np.testing.assert_array_equal(a.code, b.code)
    assert a.query_ids == b.query_ids
