"""Several runs in one call: the rule telling one run from several, Results, and rendering."""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ranklens
from ranklens import InputError, ParameterError, RanklensWarning, Result, Results
from ranklens._surfaces.evaluate import several_runs

QRELS = {"q1": {"a": 2, "b": 0, "c": 1}, "q2": {"x": 1, "y": 0}, "q3": {"m": 1}}
BM25 = {"q1": {"a": 3.0, "b": 2.0, "c": 1.0}, "q2": {"y": 2.0, "x": 1.0}, "q3": {"m": 1.0}}
DENSE = {"q1": {"c": 3.0, "a": 2.0, "b": 1.0}, "q2": {"x": 2.0, "y": 1.0}}  # lacks q3
MEASURES = ["AP", "P@2", "nDCG@3", "NumRet"]


def _write_run(path: Path, run: dict, tag: str) -> Path:
    lines = [f"{q} Q0 {d} {i} {s} {tag}" for q, docs in run.items()
             for i, (d, s) in enumerate(docs.items(), 1)]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_mapping_of_runs_gives_each_runs_result() -> None:
    res = ranklens.evaluate(QRELS, {"bm25": BM25, "dense": DENSE}, MEASURES, missing="zero")
    assert isinstance(res, Results)
    assert res.run_names == ("bm25", "dense") and len(res) == 2 and "bm25" in res
    for name, run in (("bm25", BM25), ("dense", DENSE)):
        alone = ranklens.evaluate(QRELS, run, MEASURES, missing="zero", run_name=name)
        got = res[name]
        assert got.run_name == name
        assert dict(got) == dict(alone)
        for m in MEASURES:
            assert got.query_values[m].tobytes() == alone.query_values[m].tobytes()
    assert [r.run_name for r in res] == ["bm25", "dense"]
    assert res[1] is res["dense"]
    with pytest.raises(KeyError):
        res["nope"]


def test_values_are_aligned_by_query_and_missing_queries_are_explicit() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        res = ranklens.evaluate(QRELS, {"dense": DENSE, "bm25": BM25}, MEASURES,
                                missing="skip")
    assert res.query_ids.tolist() == ["q1", "q2", "q3"]
    ap = res.values("AP")
    assert ap.shape == (3, 2)
    assert res.present.tolist() == [[True, True], [True, True], [False, True]]
    assert math.isnan(ap[2, 0]) and ap[2, 1] == 1.0
    assert ap[:, 1].tolist() == list(res["bm25"].per_query("AP").values())
    assert res.values("map").tobytes() == ap.tobytes()  # any spelling of a measure
    assert res.aggregates("AP").tolist() == [res["dense"]["AP"], res["bm25"]["AP"]]
    with pytest.raises(ValueError):
        ap[0, 0] = 0.5  # read-only, like a Result's arrays
    with pytest.raises(ranklens.MeasureError, match="was not evaluated"):
        res.values("RR")


def test_queries_without_relevant_documents_stay_nan_but_present() -> None:
    qrels = {"q1": {"a": 1}, "q2": {"b": 0}}
    run = {"q1": {"a": 1.0}, "q2": {"b": 1.0}}
    res = ranklens.evaluate(qrels, {"x": run, "y": run}, ["AP"], empty="skip")
    assert res.present.all()
    assert math.isnan(res.values("AP")[1, 0])


def test_a_list_of_runs_is_named_by_file_name_tag_or_position(tmp_path: Path) -> None:
    # paths are named by their file names (the run-names issue; tags were the rule before),
    # runs that are not files by their tags
    a = _write_run(tmp_path / "a.run", BM25, "bm25")
    b = _write_run(tmp_path / "b.run", DENSE, "dense")
    res = ranklens.evaluate(QRELS, [a, str(b)], ["AP"], missing="zero")
    assert res.run_names == ("a", "b")
    same = ranklens.evaluate(QRELS, (BM25, DENSE, a), ["AP"], missing="zero")
    assert same.run_names == ("run#1", "run#2", "a")
    assert same["run#1"]["AP"] == res["a"]["AP"]
    tags = ranklens.evaluate(QRELS, [ranklens.load_run(a), ranklens.load_run(b)], ["AP"],
                             missing="zero")
    assert tags.run_names == ("bm25", "dense")
    # a tag taken by a file's name gets its position; the file keeps its name
    (tmp_path / "x").mkdir()
    bm25 = _write_run(tmp_path / "x" / "bm25.run", DENSE, "dense")
    mixed = ranklens.evaluate(QRELS, [BM25, ranklens.load_run(a), bm25], ["AP"],
                              missing="zero")
    assert mixed.run_names == ("run", "bm25#2", "bm25")


def test_one_run_or_several_the_rule() -> None:
    def kind(run: object) -> str:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RanklensWarning)
            return type(ranklens.evaluate(QRELS, run, ["AP"])).__name__

    assert kind(BM25) == "Result"  # {query: {doc: score}}
    assert kind({"bm25": BM25}) == "Results"  # {name: {query: {doc: score}}}
    assert kind({"q1": {"a": 1.0}, "q2": {}}) == "Result"  # an empty ranking is either
    several = several_runs({"bm25": BM25, "none": {}})  # an empty run among runs
    assert several is not None and [name for name, _ in several] == ["bm25", "none"]
    assert several_runs({"q1": {"a": 1.0}, "q2": {}}) is None
    assert kind({"bm25": ranklens.load_run(BM25)}) == "Results"
    assert kind({"bm25": pl.DataFrame({"query_id": ["q1"], "doc_id": ["a"],
                                       "score": [1.0]})}) == "Results"
    with pytest.raises(InputError):  # one run holding nothing, as before
        ranklens.evaluate(QRELS, {}, ["AP"])
    with pytest.raises(InputError, match=r"mixes runs .*'bm25'.* and rankings .*'q1'"):
        ranklens.evaluate(QRELS, {"bm25": BM25, "q1": {"a": 1.0}}, ["AP"])
    with pytest.raises(InputError, match="list holding a dict: a list is several runs"):
        ranklens.evaluate(QRELS, [BM25["q1"]], ["AP"])  # a ranking is not a run
    with pytest.raises(ParameterError, match="empty list"):
        ranklens.evaluate(QRELS, [], ["AP"])
    with pytest.raises(InputError, match="run names must be strings; got 1"):
        ranklens.evaluate(QRELS, {1: BM25}, ["AP"])
    with pytest.raises(ParameterError, match="'run_name' option names one run"):
        ranklens.evaluate(QRELS, {"a": BM25, "b": DENSE}, ["AP"], run_name="x")


def test_every_problem_of_the_request_is_reported_before_loading(tmp_path: Path) -> None:
    absent = str(tmp_path / "absent.qrels")
    with pytest.raises(InputError, match="mixes runs"):
        ranklens.evaluate(absent, {"a": "x.run", "q1": {"a": 1.0}}, ["AP"])
    with pytest.raises(ranklens.MeasureError):
        ranklens.evaluate(absent, {"a": "x.run"}, ["APP"])


def test_results_frames_and_dict() -> None:
    res = ranklens.evaluate(QRELS, {"bm25": BM25, "dense": DENSE}, ["AP", "P@2"],
                            missing="skip")
    wide = res.to_polars()
    assert wide.columns == ["run", "query_id", "AP", "P@2"]
    assert wide.height == 5  # dense lacks q3: no row, and no invented value
    long = res.to_polars(wide=False)
    assert long.columns == ["run", "query_id", "measure", "value"] and long.height == 10
    assert res.to_dict()["bm25"]["AP"]["all"] == res["bm25"]["AP"]
    assert "2 runs (bm25, dense)" in repr(res)


def test_results_refuse_mismatched_parts() -> None:
    a = ranklens.evaluate(QRELS, BM25, ["AP"], run_name="a")
    b = ranklens.evaluate(QRELS, BM25, ["RR"], run_name="b")
    with pytest.raises(ParameterError, match="same measures"):
        Results((a, b))
    with pytest.raises(ParameterError, match="unique; got \\['a'\\]"):
        Results((a, a))
    with pytest.raises(ParameterError, match="at least one"):
        Results(())


def test_render_takes_results() -> None:
    res = ranklens.evaluate(QRELS, {"bm25": BM25, "dense": DENSE}, MEASURES, missing="zero")
    listed = [ranklens.evaluate(QRELS, run, MEASURES, missing="zero", run_name=name)
              for name, run in (("bm25", BM25), ("dense", DENSE))]
    for fmt in ranklens.FORMATS:
        assert ranklens.render(res, fmt, per_query=True) == ranklens.render(listed, fmt,
                                                                             per_query=True)


def test_cli_evaluates_several_runs_through_results(tmp_path: Path, capsys) -> None:
    from ranklens._pipeline.options import EvaluateOptions
    from ranklens.cli._evaluate import evaluate_files

    qrels = tmp_path / "q.txt"
    qrels.write_text("".join(f"{q} 0 {d} {g}\n" for q, docs in QRELS.items()
                             for d, g in docs.items()))
    a = _write_run(tmp_path / "a.run", BM25, "bm25")
    res = evaluate_files(str(qrels), [str(a)], ["AP"], EvaluateOptions(missing="zero"))
    assert isinstance(res, Results) and res.run_names == ("a",)
    with pytest.raises(ParameterError, match="each run can be given once"):
        evaluate_files(str(qrels), [str(a), str(a)], ["AP"], EvaluateOptions())


def test_result_is_still_a_single_result() -> None:
    r = ranklens.evaluate(QRELS, BM25, ["AP"])
    assert isinstance(r, Result)
    np.testing.assert_array_equal(r.query_ids, ["q1", "q2", "q3"])


@pytest.mark.parametrize("module", ["ranklens._surfaces.evaluate", "ranklens._results.results",
                                    "ranklens._surfaces.render"])
def test_docstring_examples_run(module: str) -> None:
    import doctest
    import importlib

    failures, tried = doctest.testmod(importlib.import_module(module))
    assert tried > 0
    assert failures == 0


def test_the_query_axis_of_runs_on_the_same_queries_and_on_different_ones() -> None:
    qrels = {"q10": {"a": 1}, "q9": {"b": 1}, "é": {"a": 1}, "Z": {"b": 1}}
    same = {"x": {q: {"a": 1.0} for q in qrels}, "y": {q: {"b": 1.0} for q in qrels}}
    res = ranklens.evaluate(qrels, same, ["RR"])
    assert res.query_ids.tolist() == ["Z", "q10", "q9", "é"]
    assert res.present.all()
    assert res.values("RR")[:, 0].tolist() == [0.0, 1.0, 0.0, 1.0]
    # one Result whose ids are not in trec_eval order is put in order
    x = res["x"]
    shuffled = Result(x.names, x.measures, x.query_ids[::-1].copy(),
                      {k: v[::-1].copy() for k, v in x.query_values.items()}, x.aggregates,
                      x.conventions, x.run_name)
    alone = Results((shuffled,))
    assert alone.query_ids.tolist() == ["Z", "q10", "q9", "é"]
    assert alone.values("RR")[:, 0].tolist() == [0.0, 1.0, 0.0, 1.0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        part = ranklens.evaluate(qrels, {"x": same["x"], "z": {"q9": {"b": 1.0}}}, ["RR"],
                                 missing="skip")
    assert part.query_ids.tolist() == ["Z", "q10", "q9", "é"]
    assert part.present[:, 1].tolist() == [False, False, True, False]
    assert part.values("RR")[2].tolist() == [0.0, 1.0]


# ---- one way to read per-query values (docs/results.md): per_query and frames everywhere


def _nan_equal(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(_nan_equal(a[k], b[k]) for k in a)
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_nan_equal(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def _every_type() -> dict[str, tuple[object, str]]:
    """One object of each result type that has per-query values, and a measure of it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        res = ranklens.evaluate(QRELS, {"bm25": BM25, "dense": DENSE}, ["AP", "P@2"],
                                missing="skip")
        cmp = ranklens.compare(None, res, ["AP"])
        matrix = ranklens.agreement({"bm25": BM25, "dense": DENSE, "bm25b": BM25},
                                    measures=["Overlap@1"], missing="skip")
    return {
        "Result": (res["bm25"], "AP"),
        "Results": (res, "AP"),
        "Agreement": (ranklens.agreement(BM25, BM25, ["Overlap@1"]), "Overlap@1"),
        "AgreementMatrix": (matrix, "Overlap@1"),
        "Residual": (ranklens.residual(QRELS, BM25, ["P@2"]), "P@2"),
        "Comparison": (cmp, "AP"),
        "PairComparison": (cmp.pairs[0], "AP"),
    }


def _value_shape(kind: str, value: object) -> bool:
    """The documented value of ``per_query(measure)[query_id]`` of each type."""
    if kind in ("Result", "Agreement", "PairComparison"):
        return isinstance(value, float)
    if kind == "Residual":
        return isinstance(value, tuple) and len(value) == 2 \
            and all(isinstance(v, float) for v in value)
    if not isinstance(value, dict) or not value:
        return False
    key_ok = {"Results": lambda k: isinstance(k, str)}.get(
        kind, lambda k: isinstance(k, tuple) and len(k) == 2)
    return all(key_ok(k) and isinstance(v, float) for k, v in value.items())


@pytest.mark.parametrize("kind", ["Result", "Results", "Agreement", "AgreementMatrix",
                                  "Residual", "Comparison", "PairComparison"])
def test_per_query_is_one_call_with_one_shape_on_every_type(kind: str) -> None:
    obj, measure = _every_type()[kind]
    got = obj.per_query(measure)  # type: ignore[attr-defined]
    assert isinstance(got, dict) and got
    assert all(isinstance(q, str) for q in got)
    assert all(_value_shape(kind, v) for v in got.values()), got
    frame = obj.to_polars()  # type: ignore[attr-defined]
    assert isinstance(frame, pl.DataFrame) and frame.height
    pandas = pytest.importorskip("pandas")
    assert isinstance(obj.to_pandas(), pandas.DataFrame)  # type: ignore[attr-defined]
    if kind != "Comparison":  # one row per comparison by default; per query on request
        assert "query_id" in frame.columns


def test_the_query_axis_keeps_a_query_one_run_lacks_as_nan() -> None:
    kinds = _every_type()
    res = kinds["Results"][0]
    assert isinstance(res, Results)
    # Results: every query of the axis, NaN for the run that lacks it
    rows = res.per_query("AP")
    assert list(rows) == res.query_ids.tolist() == ["q1", "q2", "q3"]
    assert math.isnan(rows["q3"]["dense"]) and rows["q3"]["bm25"] == 1.0
    assert _nan_equal(rows, {q: dict(zip(res.run_names, v, strict=True))
                             for q, v in zip(res.query_ids.tolist(),
                                             res.values("AP").tolist(), strict=True)})
    # a Result's axis is its own queries: the run lacking q3 has none under skip
    assert list(res["dense"].per_query("AP")) == ["q1", "q2"]
    # the comparison's differences: NaN where the pair left the query out
    pair = kinds["PairComparison"][0]
    diffs = pair.per_query()  # type: ignore[attr-defined]
    assert list(diffs) == ["q1", "q2", "q3"] and math.isnan(diffs["q3"])
    assert sum(not math.isnan(v) for v in diffs.values()) == pair.n  # type: ignore[attr-defined]
    matrix = kinds["AgreementMatrix"][0].per_query("Overlap@1")  # type: ignore[attr-defined]
    assert math.isnan(matrix["q3"][("bm25", "dense")])
    assert matrix["q3"][("bm25", "bm25b")] == 1.0


def test_per_query_refuses_an_unevaluated_measure_on_every_type() -> None:
    for obj, _ in _every_type().values():
        with pytest.raises(ranklens.RanklensError):
            obj.per_query("nDCG@7")  # type: ignore[attr-defined]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.booleans(), st.integers(0, 3), st.integers(0, 3)),
                min_size=1, max_size=8))
def test_results_per_query_is_each_runs_per_query_on_one_axis(
        rows: list[tuple[bool, bool, int, int]]) -> None:
    qrels = {f"q{i}": {"a": 1, "b": 0} for i in range(len(rows))}
    runs: dict[str, dict[str, dict[str, float]]] = {"x": {}, "y": {}}
    for i, (in_x, in_y, rank_x, rank_y) in enumerate(rows):
        for name, present, rank in (("x", in_x, rank_x), ("y", in_y, rank_y)):
            if present:
                runs[name][f"q{i}"] = {d: float(-abs(k - rank)) for k, d in
                                       enumerate(["a", "b", "c", "e"])}
    if not runs["x"] or not runs["y"]:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        res = ranklens.evaluate(qrels, runs, ["RR", "P@1"], missing="skip")
    for measure in ("RR", "P@1"):
        got = res.per_query(measure)
        assert list(got) == res.query_ids.tolist()
        for run in ("x", "y"):
            alone = res[run].per_query(measure)
            assert _nan_equal({q: v[run] for q, v in got.items() if q in alone}, alone)
            assert all(math.isnan(v[run]) for q, v in got.items() if q not in alone)
