"""Issue 39's catalogue on agreement, pools, correlations and residuals: each bad input
answered by ranklens's own error naming the parameter, each run named as ``evaluate``
names it."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import ranklens
from ranklens import InputError, MeasureError, ParameterError

HUGE = 99999999999999999999


def _runs(tmp_path: Path) -> list[str]:
    """Three run files sharing one TREC tag ("rank")."""
    rows = {"p1": ("d1", "d2"), "p2": ("d2", "d1"), "p3": ("d1", "d3")}
    paths = []
    for name, (first, second) in rows.items():
        path = tmp_path / f"{name}.run"
        path.write_text(f"q1 Q0 {first} 1 3.0 rank\nq1 Q0 {second} 2 2.0 rank\n")
        paths.append(str(path))
    return paths


def test_agreement_names_runs_by_their_files_as_evaluate_does(tmp_path: Path) -> None:
    paths = _runs(tmp_path)
    matrix = ranklens.agreement(paths, None, "Overlap@1")
    assert isinstance(matrix, ranklens.AgreementMatrix)
    names = tuple(ranklens.evaluate({"q1": {"d1": 1}}, paths, ["P@1"]).run_names)
    assert matrix.runs == names == ("p1", "p2", "p3")
    pair = ranklens.agreement(paths[0], paths[1], "Overlap@1")
    assert (pair.run_a, pair.run_b) == ("p1", "p2")


def test_runs_given_as_data_keep_their_tags_told_apart_by_position() -> None:
    run = {"q1": {"d1": 1.0}}
    pair = ranklens.agreement(run, run, "Overlap@1")
    assert (pair.run_a, pair.run_b) == ("run#1", "run#2")


def test_one_run_alone_is_refused_naming_run_b() -> None:
    for one in ({"q1": {"d1": 1.0}}, "some.run"):
        with pytest.raises(ParameterError, match="run_a alone is one run: give run_b"):
            ranklens.agreement(one)


@pytest.mark.parametrize("measures", [None, 3])
def test_measures_of_the_wrong_type_name_the_parameter(measures: object) -> None:
    run = {"q1": {"d1": 1.0}}
    with pytest.raises(ParameterError, match="the 'measures' argument must be"):
        ranklens.agreement(run, run, measures)  # type: ignore[arg-type]


def test_rank_correlation_of_nothing_names_the_parameter() -> None:
    with pytest.raises(ParameterError, match="the 'results_a' argument must be"):
        ranklens.rank_correlation(None, None, "AP")  # type: ignore[arg-type]


def test_a_huge_cutoff_or_depth_names_its_bound() -> None:
    run = {"q1": {"d1": 1.0}}
    with pytest.raises(MeasureError, match=r"at most 2147483647 \(2\*\*31 - 1\)"):
        ranklens.agreement(run, run, f"Overlap@{HUGE}")
    with pytest.raises(ParameterError, match=r"the 'depth' option must be at most 2147483647 "
                                             r"\(2\*\*31 - 1\)"):
        ranklens.pool([run], depth=HUGE)


def test_a_duplicate_document_names_its_query() -> None:
    dup = ranklens.load_run(pl.DataFrame({"query_id": ["q1", "q2", "q2"],
                                          "doc_id": ["d1", "d7", "d7"],
                                          "score": [1.0, 2.0, 1.0]}))
    with pytest.raises(InputError, match="ranks doc 'd7' twice for query 'q2'"):
        ranklens.pool([dup])
    with pytest.raises(InputError, match="ranks doc 'd7' twice for query 'q2'"):
        ranklens.agreement(dup, dup, "Overlap@2")


def test_a_huge_residual_grade_names_the_grade_not_the_judgments() -> None:
    with pytest.raises(ParameterError, match="the 'grade' option must be at most 2\\*\\*53"):
        ranklens.residual({"q": {"a": 1}}, {"q": {"a": 2.0, "x": 1.0}}, ["P@2"], grade=1e308)


def test_a_pool_says_how_many_pairs_documents_and_queries() -> None:
    got = ranklens.pool([{"q1": {"a": 2.0, "b": 1.0}, "q2": {"a": 1.0}}], depth=2)
    assert got.summary() == ("3 pairs to judge (2 documents) over 2 queries, depth 2, "
                             "0 already judged")


@pytest.mark.parametrize("measures", [None, 3])
def test_residual_measures_of_the_wrong_type_name_the_parameter(measures: object) -> None:
    with pytest.raises(ParameterError, match="the 'measures' argument must be"):
        ranklens.residual({"q": {"a": 1}}, {"q": {"a": 1.0}}, measures)  # type: ignore[arg-type]


def test_left_out_queries_are_one_warning_per_call_at_the_callers_line() -> None:
    a, b = {"q1": {"d1": 2.0}, "q2": {"d1": 1.0}}, {"q1": {"d1": 2.0}}
    with pytest.warns(ranklens.RanklensWarning) as caught:
        ranklens.agreement({"a": a, "b": b, "c": dict(a)}, None, "Overlap@1", missing="skip")
    assert len(caught) == 1 and caught[0].filename == __file__
    assert str(caught[0].message) == (
        "comparing the queries each pair of runs holds; left out: a vs b: 1 only in 'a' "
        "(e.g. 'q2'); b vs c: 1 only in 'c' (e.g. 'q2')")
    with pytest.warns(ranklens.RanklensWarning) as caught:
        ranklens.agreement(a, b, "Overlap@1", missing="skip")
    assert len(caught) == 1 and caught[0].filename == __file__


def test_a_mapping_names_loaded_runs_by_its_keys() -> None:
    run = ranklens.load_run({"q1": {"d1": 1.0}})
    matrix = ranklens.agreement({"a": run, "b": run}, None, "Overlap@1")
    assert isinstance(matrix, ranklens.AgreementMatrix) and matrix.runs == ("a", "b")
