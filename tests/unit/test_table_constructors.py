"""The exported ``Run(...)`` and ``Qrels(...)`` constructors check their frame as the
loaders do: same rules, same errors (a NaN score used to evaluate silently as AP 1.0, and
integer ids raised a polars SchemaError)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import ranklens
from ranklens import InputError, ParameterError, Qrels, Run

QRELS = {"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 1}}


def _run_frame(**columns: object) -> pl.DataFrame:
    base: dict[str, object] = {"query_id": ["q1", "q1", "q2"], "doc_id": ["d1", "d2", "d3"],
                               "score": [2.0, 1.0, 0.5]}
    base.update(columns)
    return pl.DataFrame(base)


def test_a_nan_score_is_an_input_error_naming_the_row() -> None:
    frame = _run_frame(score=[2.0, float("nan"), 0.5])
    with pytest.raises(InputError, match=r"my\.run: row 1: expected a numeric score, got NaN"):
        Run(frame, "my.run")
    # the same message as the frame loader's
    with pytest.raises(InputError) as loaded:
        ranklens.load_run(frame)
    assert loaded.value.detail == "row 1: expected a numeric score, got NaN"


def test_integer_ids_become_strings_as_in_the_loaders() -> None:
    frame = _run_frame(query_id=[1, 1, 2], doc_id=[10, 20, 30])
    run = Run(frame)
    assert run.block_ids.to_list() == ["1", "2"]
    assert run.doc_id.to_list() == ["10", "20", "30"]
    assert run.doc_id.to_list() == ranklens.load_run(frame).doc_id.to_list()
    qrels = Qrels(pl.DataFrame({"query_id": [1, 2], "doc_id": [10, 30],
                                "relevance": [1, 1]}))
    assert qrels.frame.schema == {"query_id": pl.String, "doc_id": pl.String,
                                  "relevance": pl.Float64}
    result = ranklens.evaluate(qrels, run, ["AP"])
    assert result["AP"] == pytest.approx(1.0)
    assert result.per_query("AP") == {"1": 1.0, "2": 1.0}


def test_float_ids_that_are_not_integers_are_refused() -> None:
    with pytest.raises(InputError, match=r"row 1: column 'doc_id' holds ids as floats and 2\.5"):
        Run(_run_frame(doc_id=[1.0, 2.5, 3.0]))


def test_a_missing_value_is_named() -> None:
    with pytest.raises(InputError, match=r"row 2: missing value in column 'doc_id'"):
        Run(_run_frame(doc_id=["d1", "d2", None]))
    with pytest.raises(InputError, match=r"q\.txt: row 0: missing value in column 'relevance'"):
        Qrels(pl.DataFrame({"query_id": ["q1"], "doc_id": ["d1"],
                            "relevance": pl.Series([None], dtype=pl.Float64)}), "q.txt")


def test_a_missing_column_is_named_with_the_columns_found() -> None:
    with pytest.raises(InputError, match=r"expected a 'score' column, found columns "
                                         r"\['query_id', 'doc_id'\]"):
        Run(pl.DataFrame({"query_id": ["q1"], "doc_id": ["d1"]}))


def test_a_relevance_that_is_not_finite_is_refused() -> None:
    with pytest.raises(InputError, match=r"row 1: expected a finite relevance, got inf"):
        Qrels(pl.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["a", "b"],
                            "relevance": [1.0, np.inf]}))


def test_a_non_numeric_score_is_named() -> None:
    with pytest.raises(InputError, match=r"row 0: expected a numeric score, got 'high'"):
        Run(_run_frame(score=["high", "1", "2"]))


def test_not_a_polars_frame_is_a_parameter_error() -> None:
    with pytest.raises(ParameterError, match=r"Run\(frame\): expected a polars DataFrame "
                                             r"with columns \['query_id', 'doc_id', 'score'\], "
                                             r"got a dict; ranklens\.load_run"):
        Run({"q1": {"d1": 1.0}})  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match=r"Qrels\(frame\): .* got a list"):
        Qrels([("q1", "d1", 1)])  # type: ignore[arg-type]


def test_a_valid_frame_is_kept_as_it_is() -> None:
    frame = pl.DataFrame({"query_id": ["q1"], "doc_id": ["d1"], "relevance": [1.0]})
    assert Qrels(frame).frame is frame
    assert ranklens.evaluate(Qrels(frame), Run(_run_frame().head(2)), ["AP"])["AP"] == 1.0
