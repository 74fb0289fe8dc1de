"""Issue 42: groups derived from the inputs (relevant judgments, query length, a user's
training interactions), binned into ranges, used as segments."""

from __future__ import annotations

from pathlib import Path

import pytest

import ranklens
from ranklens._base.errors import InputError, ParameterError


def test_relevant_judgments_per_query_binned() -> None:
    qrels = {"q1": {"a": 1, "b": 0, "c": 2}, "q2": {"a": 0}, "q3": {"x": 1}}
    assert ranklens.derived_groups("relevant", qrels, edges=[1, 2]) == {
        "q1": ">=2", "q2": "<1", "q3": "1"}
    assert ranklens.derived_groups("relevant", qrels, edges=[1, 3])["q1"] == "1-2"


def test_query_length_from_a_file_and_training_interactions(tmp_path: Path) -> None:
    topics = tmp_path / "queries.tsv"
    topics.write_text("q1\tcheap flights\nq2\twhat is a haiku\n", encoding="utf-8")
    assert ranklens.derived_groups("query_length", topics, edges=[3]) == {
        "q1": "<3", "q2": ">=3"}
    train = {"u1": ["a", "b", "c"], "u2": ["a"]}
    groups = ranklens.derived_groups("train", train, edges=[1, 3], queries=["u1", "u3"])
    assert groups == {"u1": ">=3", "u2": "1-2", "u3": "<1"}  # u3: cold start


def test_derived_groups_are_segments() -> None:
    qrels = {f"q{i}": {f"d{j}": 1 for j in range(i % 3 + 1)} for i in range(9)}
    runs = {"x": {q: {"d0": 1.0} for q in qrels}, "y": {q: {"d1": 1.0} for q in qrels}}
    cmp = ranklens.compare(qrels, runs, ["P@1"], baseline="x")
    groups = ranklens.derived_groups("relevant", qrels, edges=[2, 3])
    seg = ranklens.segments(cmp, groups, correction="none")
    assert seg.pairs.select("group", "n", "difference").rows() == [
        ("<2", 3, -1.0), ("2", 3, 0.0), (">=3", 3, 0.0)]


def test_bad_inputs_name_the_option(tmp_path: Path) -> None:
    with pytest.raises(ParameterError, match="'edges' option needs increasing"):
        ranklens.derived_groups("relevant", {"q": {"a": 1}}, edges=[3, 2])
    with pytest.raises(ParameterError, match="by"):
        ranklens.derived_groups("clicks", {"q": {"a": 1}})
    bad = tmp_path / "queries.tsv"
    bad.write_text("q1\n", encoding="utf-8")
    with pytest.raises(InputError, match="'query_id text'"):
        ranklens.derived_groups("query_length", bad)
