"""Evaluation and comparison warnings name their run and come once, not once per run or per
measure; a relevance level no judgment reaches is said."""

from __future__ import annotations

import warnings

import pytest

import ranklens
from ranklens import RanklensWarning

QRELS = {"q1": {"a": 2, "b": 0}, "q2": {"c": 1}, "q3": {"d": 3}}
RUN_X = {"q1": {"a": 1.0, "b": 0.5}, "q2": {"c": 1.0}, "q3": {"x": 1.0}, "zz": {"a": 1.0}}
RUN_Y = {"q1": {"b": 1.0}, "q2": {"c": 1.0}, "zz": {"a": 1.0}}


def _messages(f, *args, **kwargs) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        f(*args, **kwargs)
    return [str(w.message) for w in caught if w.category is RanklensWarning]


def test_e_ignored_queries_name_the_run() -> None:
    messages = _messages(ranklens.evaluate, QRELS, {"x": RUN_X, "y": RUN_Y}, ["AP"],
                         missing="zero")
    ignored = [m for m in messages if "have no judgments" in m]
    # one problem, one warning, naming each run by the name it was given (issue 39)
    assert ignored == ["1 queries of the runs (x, y) have no judgments and were ignored: "
                       "['zz']"], messages


def test_e_left_out_queries_warned_once_for_every_measure() -> None:
    messages = _messages(ranklens.compare, QRELS, {"x": RUN_X, "y": RUN_Y},
                         ["AP", "P@1", "RR"], missing="skip")
    left = [m for m in messages if "left out of their comparison" in m]
    assert left == ["AP, P@1, RR: 1 queries without a value for y or x left out of their "
                    "comparison (q3); missing='zero' scores them 0"], messages


def test_e_report_skip_warns_once(tmp_path) -> None:
    messages = _messages(ranklens.report, QRELS, {"x": RUN_X, "y": RUN_Y},
                         ["AP", "P@1", "RR"], missing="skip", max_k=5, top_k=5)
    assert len([m for m in messages if "left out of their comparison" in m]) == 1, messages


@pytest.mark.parametrize(("qrels", "rel", "want"), [
    (QRELS, 5, "no judged document reaches rel >= 5 (grades go up to 3) in the judgments "
               "(<qrels dict>): nothing is relevant to AP, P@1 on any query"),
    ({"q1": {"a": 0}, "q2": {"c": 0}}, None,
     "no judged document reaches rel >= 1 (grades go up to 0) in the judgments "
     "(<qrels dict>): nothing is relevant to AP, P@1 on any query"),
])
def test_e_unreachable_relevance_level(qrels: dict, rel: int | None, want: str) -> None:
    kwargs = {} if rel is None else {"rel": rel}
    messages = _messages(ranklens.evaluate, qrels, {"x": RUN_X, "y": RUN_Y},
                         ["AP", "nDCG@10", "P@1"], missing="zero", **kwargs)
    assert messages.count(want) == 1, messages


def test_e_reachable_levels_say_nothing() -> None:
    messages = _messages(ranklens.evaluate, QRELS, RUN_X, ["AP", "AP(rel=3)"], rel=2,
                         missing="zero")
    assert not [m for m in messages if "reaches rel" in m], messages
