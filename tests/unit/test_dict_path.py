"""Nested dicts aligned without tables (ranklens._model.dicts): the same results, warnings
and errors as the general path, which the same dicts take once loaded as tables."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from result_support import assert_same
from spark_support import spark_measures

import ranklens
from ranklens._model.dicts import dict_judgments, dict_run
from ranklens._pipeline.dicts import fits
from ranklens._pipeline.plan import make_plan

#: every plain measure of the registry (text ones included), with cutoffs
MEASURES = [*spark_measures(), "nDCG(ties=average)@5", "AP(ties=worst)"]
#: doc ids: short and numeric (one word), longer than 8 bytes (several), non-ASCII (the
#: UTF-8 bytes order them: "é" is C3 A9, above "z"), one a prefix of another, empty
DOCS = ["1", "2", "10", "9", "0000001", "1234567", "12345678", "123456789", "d", "dd",
        "d1-long-document-id", "d1-long-document-id-2", "é", "éa", "z", "日本", "\x7f",
        "ÿ", "", "A", "a b"]
QUERIES = ["q1", "q2", "q10", "Q", "é", "q 3"]
#: few distinct scores, so that most rows tie; ints, bools, signed zeros
SCORES = [0.0, -0.0, 1, 2.5, True, False, -1.5, 3, 1.0]
GRADES = [-1, 0, 0, 1, 1, 2, 3, 2.5, True]

OPTIONS: list[dict[str, Any]] = [
    {}, {"missing": "skip"}, {"missing": "zero"}, {"depth": 3}, {"judged_only": True},
    {"rel": 2}, {"empty": "skip"}, {"empty_ranking": "nan"}, {"empty_ranking": "skip"},
    {"convention": "ranx"}, {"convention": "torchmetrics"}, {"collection_size": 50},
    {"ties": "average"}, {"ties": "input"}, {"duplicates": "first"},
]
#: the tie policies defined for a few measures only (refused by the others)
BOUND_MEASURES = ["AP", "RR", "Success@5", "AUC"]


def rankings(values: list[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return st.dictionaries(st.sampled_from(DOCS), st.sampled_from(values), max_size=12)


@st.composite
def dict_pairs(draw: st.DrawFn) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """Judgments and a run on overlapping queries (some judged only, some run only, some
    empty), rankings given in any order or by score descending."""
    qrels = draw(st.dictionaries(st.sampled_from(QUERIES), rankings(GRADES), min_size=1,
                                 max_size=4))
    run = draw(st.dictionaries(st.sampled_from(QUERIES), rankings(SCORES), max_size=5))
    if draw(st.booleans()):  # as run files are written: scores descending
        run = {q: dict(sorted(r.items(), key=lambda kv: -kv[1])) for q, r in run.items()}
    return qrels, run


def outcome(qrels: Any, run: Any, measures: list[str], *, tables: bool = False,
            **options: Any) -> Any:
    """The result and warnings of an evaluation, or its error's type and text; with
    ``tables``, of the dicts loaded as tables first (the general path)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if tables:
                qrels, run = ranklens.load_qrels(qrels), ranklens.load_run(run)
            result = ranklens.evaluate(qrels, run, measures, **options)
        except Exception as exc:  # the same error either way, whichever it is
            return type(exc), str(exc)
    return result, [str(w.message) for w in caught]


def assert_same_outcome(fast: Any, general: Any) -> None:
    if isinstance(general[0], type):  # an error: the same one
        assert fast == general
        return
    assert not isinstance(fast[0], type), fast
    assert_same(fast[0], general[0])
    assert fast[1] == general[1]


def check(qrels: Any, run: Any, measures: list[str], **options: Any) -> None:
    """The dict path (taken: checked) against the general path on tables."""
    assert fits(make_plan(measures, **options))
    judged = dict_judgments(qrels)
    # taken unless there is no judgment at all (the general path's error)
    assert (judged is not None and dict_run(judged, run) is not None) or \
        not any(qrels.values())
    assert_same_outcome(outcome(qrels, run, measures, **options),
                        outcome(qrels, run, measures, tables=True, **options))


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(map(str, o.items())))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pair=dict_pairs())
def test_dicts_evaluate_as_tables(pair: tuple[dict, dict], options: dict[str, Any]) -> None:
    qrels, run = pair
    check(qrels, run, MEASURES, **options)


@pytest.mark.parametrize("ties", ["pessimistic", "optimistic", "worst", "best"])
@settings(max_examples=25, deadline=None)
@given(pair=dict_pairs())
def test_tie_bounds_as_tables(pair: tuple[dict, dict], ties: str) -> None:
    qrels, run = pair
    check(qrels, run, BOUND_MEASURES, ties=ties)


@settings(max_examples=25, deadline=None)
@given(pair=dict_pairs())
def test_judgments_evaluate_as_tables(pair: tuple[dict, dict]) -> None:
    """``Judgments`` made from a dict: its dict path against judgments made from a table."""
    qrels, run = pair
    measures = ["AP", "nDCG@5", "P@2", "RR", "R@3", "RelString@5"]
    fast = ranklens.Judgments(qrels, measures)
    general = ranklens.Judgments(ranklens.load_qrels(qrels), measures)
    results = []
    for judged in (fast, general):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                got: Any = judged.evaluate(run), [str(w.message) for w in caught]
            except ranklens.RanklensError as exc:
                got = type(exc), str(exc)
        results.append(got)
    assert_same_outcome(*results)


def test_many_tied_long_ids() -> None:
    """Thousands of rows in few tied groups, ids of one and of several words."""
    rng = np.random.default_rng(7)
    ids = [f"{i:07d}" for i in rng.permutation(10_000)[:3000]] + \
          [f"clueweb09-en{i:012d}" for i in range(3000)]
    run = {f"q{k}": {d: float(rng.integers(0, 4)) for d in rng.choice(ids, 800, replace=False)}
           for k in range(5)}
    qrels = {f"q{k}": {d: int(rng.integers(0, 3)) for d in rng.choice(ids, 300, replace=False)}
             for k in range(6)}
    check(qrels, run, ["AP", "nDCG@10", "P@10", "RR", "R@100", "RelString@20"], missing="zero")


def test_toy_ranking_by_score_then_doc_id_descending() -> None:
    """trec_eval's order: score descending, ties by doc id descending byte-wise ("é" is
    C3 A9 in UTF-8, after "z"; "b" after "ab"), -0.0 tying with 0.0."""
    run = {"q": {"a": 0.0, "é": 0.0, "z": -0.0, "ab": 1, "b": 1}}
    qrels = {"q": {"é": 1, "a": 1, "b": 0}}
    # ranked: b, ab, é, z, a -> relevant at ranks 3 and 5
    r = ranklens.evaluate(qrels, run, ["AP", "RR"])
    assert r["RR"] == 1 / 3
    assert r["AP"] == pytest.approx((1 / 3 + 2 / 5) / 2)


def test_missing_extra_and_empty_queries() -> None:
    qrels = {"a": {"d1": 1}, "b": {"d2": 1}, "c": {"d3": 2}, "e": {}}
    run = {"a": {"d1": 1.0, "x": 2.0}, "c": {}, "z": {"d9": 1.0}}
    with pytest.warns(ranklens.RanklensWarning, match="have no judgments"):
        r = ranklens.evaluate(qrels, run, ["RR", "P@2"], missing="zero")
    assert list(r.query_ids) == ["a", "b", "c"]
    assert r.per_query("RR") == {"a": 0.5, "b": 0.0, "c": 0.0}
    assert r.diagnostics["missing_queries"] == ["b"]
    assert r.diagnostics["ignored_queries"] == ["z"]
    check(qrels, run, ["RR", "P@2"], missing="skip")
    check(qrels, run, ["RR", "P@2"], empty_ranking="skip")


@pytest.mark.parametrize(("qrels", "run"), [
    ({"q": {"d": 1}}, {"q": {"d": float("nan")}}),  # NaN score: an error
    ({"q": {"d": 1}}, {"q": {"d": math.inf, "e": 1.0}}),  # infinite: a warning
    ({"q": {"d": 1}}, {"q": {"d": None}}),
    ({"q": {"d": 1}}, {"q": {"d": "high"}}),
    ({"q": {"d": 1}}, {"q": {"d": 1.0}, "other": {"e": float("nan")}}),  # in an ignored query
    ({"q": {"d": 1}}, {"q": {"d": 1.0}, "other": [1, 2]}),
    ({"q": {"d": math.inf}}, {"q": {"d": 1.0}}),
    ({"q": {"d": 1e300}}, {"q": {"d": 1.0}}),  # beyond the grade bound: refused
    ({"q": {"d": 2.0**53, "e": -(2.0**53)}}, {"q": {"d": 1.0, "e": 2.0}}),  # the bounds
    ({1: {"d": 1}}, {1: {"d": 1.0}}),  # integer query ids: reported back as integers
    ({"q": {1: 1}}, {"q": {1: 1.0, "1": 2.0}}),  # integer doc ids: one becomes "1" twice
    ({"q": {"d\0x": 1}}, {"q": {"d\0x": 1.0, "d": 1.0}}),  # a NUL inside an id
    ({"q": {"\ud800": 1}}, {"q": {"\ud800": 1.0}}),  # not encodable as UTF-8
    ({"q": {}}, {"q": {"d": 1.0}}),  # no judgments at all
    ({"q": {"d": 1}}, {"x": {"d": 1.0}}),  # no query in common
])
def test_inputs_outside_the_path_give_the_general_outcome(qrels: Any, run: Any) -> None:
    assert_same_outcome(outcome(qrels, run, ["AP", "P@1"]),
                        outcome(qrels, run, ["AP", "P@1"], tables=True))


@pytest.mark.parametrize(("measures", "options"), [
    (["AP", "nDCG(ties=input)@3"], {}),
    (["AP", "nDCG(ties=docid)@3"], {"ties": "input"}),
])
def test_plans_outside_the_path_give_the_general_values(measures: list[str],
                                                        options: dict[str, Any]) -> None:
    """A measure realigned under another tie order than the option's (the doc id or the
    input order) takes the general path, and gives its values."""
    qrels = {"q": {"b": 1, "a": 2, "c": 1}}
    run = {"q": {"a": 1.0, "c": 1.0, "b": 1.0, "d": 2.0}}
    assert not fits(make_plan(measures, **options))
    assert_same_outcome(outcome(qrels, run, measures, **options),
                        outcome(qrels, run, measures, tables=True, **options))


def test_input_order_keeps_the_dicts_order() -> None:
    """``ties="input"``: tied documents in the dict's item order (d first, then a, c, b)."""
    qrels = {"q": {"b": 1, "c": 1}}
    run = {"q": {"a": 1.0, "c": 1.0, "b": 1.0, "d": 2.0}}
    r = ranklens.evaluate(qrels, run, ["RR", "AP"], ties="input")
    assert (r["RR"], r["AP"]) == (1 / 3, (1 / 3 + 2 / 4) / 2)
    check(qrels, run, ["RR", "AP"], ties="input")


def test_matching_is_exact_on_ids_of_any_width() -> None:
    """Doc ids of one word and of several, matched on hashed keys confirmed on the words:
    the same grades as the tables give."""
    rng = np.random.default_rng(3)
    ids = [f"{i:07d}" for i in range(400)] + [f"doc-{i}-é-{'x' * (i % 13)}" for i in range(200)]
    run = {f"q{k}": {d: float(rng.integers(0, 3)) for d in rng.choice(ids, 120, replace=False)}
           for k in range(4)}
    qrels = {f"q{k}": {d: int(rng.integers(0, 3)) for d in rng.choice(ids, 90, replace=False)}
             for k in range(5)}
    check(qrels, run, ["AP", "nDCG@10", "NumRelRet"], missing="zero")
    # judged ids of one word against run ids of several, and the other way round
    short = {q: {d: g for d, g in j.items() if len(d) <= 8} for q, j in qrels.items()}
    check(short, run, ["AP", "nDCG@10", "NumRelRet"], missing="zero")
    check(qrels, {q: {d: s for d, s in r.items() if len(d) <= 8} for q, r in run.items()},
          ["AP", "nDCG@10", "NumRelRet"], missing="zero")


def test_hash_collisions_are_ruled_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ids sharing a word hash: a row and a judgment of equal keys but other docs are no
    match (confirmed on the words); three equal keys send both sides through one sort on
    the words. The grades are the tables' either way."""
    from ranklens._model import dicts

    real, by_words = dicts.word_hashes, dicts._by_words
    calls: list[int] = []

    def few(words: tuple[np.ndarray, ...]) -> np.ndarray:
        out = real(words)
        out[(words[0] >> np.uint64(56)) == ord("u")] = 0  # every id starting with "u"
        return out

    def counted(*args: Any) -> Any:
        calls.append(1)
        return by_words(*args)

    monkeypatch.setattr(dicts, "word_hashes", few)
    monkeypatch.setattr(dicts, "_by_words", counted)
    measures = ["AP", "nDCG@10", "NumRelRet", "RR"]
    pairs = ({"q": {"u0": 2, "d1": 1}, "r": {"d2": 1, "u9": 1}},
             {"q": {"u1": 3.0, "d1": 2.0}, "r": {"u3": 1.0, "d2": 0.0}})
    check(*pairs, measures, missing="zero")
    assert not calls  # two equal keys a query: the words rule the match out
    threes = ({"q": {"u0": 2, "u5": 1, "d1": 1}, "r": {"d2": 1}},
              {"q": {"u1": 3.0, "d1": 2.0, "u2": 1.0, "u0": 0.5}, "r": {"d2": 0.0}})
    check(*threes, measures, missing="zero")
    assert calls


def test_large_runs_take_the_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Above ``SMALL_ROWS`` rows a run is read as a table (same values)."""
    from ranklens._model import dicts

    qrels = {"q": {"a": 1, "b": 2}, "r": {"c": 1}}
    run = {"q": {"a": 1.0, "b": 1.0, "x": 2.0}, "r": {"c": 0.5}}
    judged = dict_judgments(qrels)
    assert judged is not None and dict_run(judged, run) is not None
    monkeypatch.setattr(dicts, "SMALL_ROWS", 3)
    assert dict_run(judged, run) is None
    assert_same_outcome(outcome(qrels, run, ["AP", "nDCG@2"]),
                        outcome(qrels, run, ["AP", "nDCG@2"], tables=True))


def test_doc_ids_as_big_endian_words() -> None:
    """Each id's UTF-8 bytes, 8 to a word, zero-padded: words compare as the ids do."""
    from ranklens._model.dicts import _words

    words = _words([{"ab": 1, "b": 2}, {}, {"": 3, "abcdefghi": 4, "é": 5}], 5)
    assert words is not None and len(words) == 2
    assert words[0].tolist() == [0x6162 << 48, 0x62 << 56, 0, 0x6162636465666768,
                                 0xC3A9 << 48]
    assert words[1].tolist() == [0, 0, 0, 0x69 << 56, 0]
    assert _words([{"a\0b": 1}], 1) is None and _words([{1: 1}], 1) is None
