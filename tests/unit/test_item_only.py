"""The item-only path: when no measure reads the judgments, the run's documents are not
matched to them, and the training interactions are read only when a measure needs them.
Every value stays what the full path gives."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ranklens
import ranklens._pipeline.context as context_module
from ranklens import MeasureError, RanklensWarning
from ranklens._pipeline.plan import make_plan

# measures that read no judgment: the plan leaves the documents unmatched
ITEM_ONLY = ["Coverage@3", "Coverage(convention=rectools)@2", "Coverage(normalize=false)@3",
             "Gini@3", "Entropy@2", "Novelty@3", "ARP@2", "APLT@3", "UserCoverage@2"]


def _quiet(qrels: Any, run: Any, measures: list[str], **kw: Any) -> ranklens.Result:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        return ranklens.evaluate(qrels, run, measures, **kw)


@pytest.mark.parametrize(("measures", "options", "match"), [
    (["Coverage@2"], {}, False),
    (ITEM_ONLY, {}, False),
    (["Coverage@2", "P@2"], {}, True),
    (["Coverage@2"], {"judged_only": True}, True),  # the judged-only view needs the match
    (["PopREO@2"], {}, True),  # reads the relevant items
    (["EPC@2"], {}, True),
    (["P@2"], {}, True),
])
def test_the_plan_matches_only_for_measures_reading_judgments(
        measures: list[str], options: dict[str, Any], match: bool) -> None:
    assert make_plan(measures, **options).policies.match is match


@st.composite
def _cases(draw: st.DrawFn) -> tuple[dict, dict, dict, list[str]]:
    items = [f"i{n}" for n in range(draw(st.integers(2, 10)))]
    users = [f"u{n}" for n in range(draw(st.integers(1, 7)))]
    run = {u: {i: float(draw(st.integers(0, 3))) for i in draw(
        st.lists(st.sampled_from([*items, "zz"]), max_size=6, unique=True))} for u in users}
    # some users judged, some not (ignored), some judged without a ranking (missing)
    judged = draw(st.lists(st.sampled_from([*users, "v9"]), min_size=1, unique=True))
    qrels = {u: {draw(st.sampled_from(items)): draw(st.integers(0, 2))} for u in judged}
    train = {f"t{n}": draw(st.lists(st.sampled_from(items), min_size=1, max_size=4))
             for n in range(draw(st.integers(1, 5)))}
    return qrels, {u: r for u, r in run.items() if r}, train, items


def _same(a: float, b: float) -> bool:
    return a == b or (math.isnan(a) and math.isnan(b))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=_cases())
def test_values_equal_the_matched_paths(case: tuple) -> None:
    qrels, run, train, items = case
    if not run:
        return
    kw = {"train": train, "items": items, "missing": "zero"}  # even with no user in common
    alone = _quiet(qrels, run, ITEM_ONLY, **kw)
    # P@1 reads the judgments: the same alignment, its documents matched
    matched = _quiet(qrels, run, [*ITEM_ONLY, "P@1"], **kw)
    assert alone.query_ids.tolist() == matched.query_ids.tolist()
    for name in ITEM_ONLY:
        assert _same(alone[name], matched[name]), name
        assert np.array_equal(alone.query_values[name], matched.query_values[name],
                              equal_nan=True), name
    assert "queries_judged_ranked" not in alone.diagnostics
    assert "queries_judged_ranked" in matched.diagnostics
    # a direct count: the distinct catalogue items of the judged users' top 3 (score, then
    # id descending)
    top = {d for u in qrels if u in run
           for d in sorted(run[u], key=lambda d: (-run[u][d], [-ord(c) for c in d]))[:3]}
    assert alone["Coverage(normalize=false)@3"] == len(top & set(items))


def test_no_warning_about_unmatched_ids_when_nothing_reads_them() -> None:
    qrels = {"u1": {"x": 1}, "u2": {"y": 1}}  # no recommended item is a test item
    run = {"u1": {"a": 2.0, "b": 1.0}, "u2": {"a": 1.0}}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = ranklens.evaluate(qrels, run, ["Coverage@2"], items=["a", "b", "c"])
    assert r["Coverage@2"] == 2 / 3
    assert not [w for w in caught if "match" in str(w.message)]
    with pytest.warns(RanklensWarning, match="do its doc ids match"):
        ranklens.evaluate(qrels, run, ["Coverage@2", "P@1"], items=["a", "b", "c"])


@pytest.mark.parametrize(("measures", "items", "read"), [
    (["Coverage@2"], ["a", "b", "c"], False),  # the catalogue is given
    (["Coverage(convention=rectools)@2", "Entropy@2", "UserCoverage@1"], ["a", "b"], False),
    (["Entropy@2", "UserCoverage@1"], None, False),  # no table at all
    (["Coverage@2"], None, True),  # the catalogue is the training items
    (["Coverage(convention=recommenders)@2"], ["a", "b", "c"], True),  # over them
    (["Novelty@2"], ["a", "b", "c"], True),  # popularity
    (["APLT@2"], ["a", "b", "c"], True),  # the long tail derived from them
])
def test_training_interactions_are_read_only_when_needed(
        monkeypatch: pytest.MonkeyPatch, measures: list[str], items: list[str] | None,
        read: bool) -> None:
    calls: list[object] = []
    load = context_module.load_interactions

    def spy(train: object) -> Any:
        calls.append(train)
        return load(train)

    monkeypatch.setattr(context_module, "load_interactions", spy)
    qrels = {"u1": {"a": 1}}
    run = {"u1": {"a": 2.0, "b": 1.0}}
    train = {"t1": ["a", "c"], "t2": ["a"]}
    got = _quiet(qrels, run, measures, train=train, items=items)
    assert bool(calls) is read
    monkeypatch.setattr(context_module, "load_interactions", load)
    both = _quiet(qrels, run, [*measures, "Novelty@1"], train=train, items=items)
    for name in measures:  # the same values as with the interactions read
        assert _same(got[name], both[name]), name


def test_coverage_over_the_training_items_names_the_missing_table() -> None:
    with pytest.raises(MeasureError, match=r"Coverage\(convention=recommenders\)@2 needs "
                                           r"the training interactions \(train="):
        ranklens.evaluate({"u1": {"a": 1}}, {"u1": {"a": 1.0}},
                          ["Coverage(convention=recommenders)@2"], items=["a"])
