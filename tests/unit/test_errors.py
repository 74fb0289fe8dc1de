"""Bad input raises ranklens's own exceptions, with messages that say what and where."""

from __future__ import annotations

import datetime
import math
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ranklens
from ranklens import InputError, MeasureError, ParameterError, RanklensError

QRELS = {"q1": {"d1": 1, "d2": 0}}
RUN = {"q1": {"d1": 2.0, "d2": 1.0}}


def _write(tmp_path: Path, name: str, content: str | bytes) -> str:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return str(path)


def _qrels_error(tmp_path: Path, content: str | bytes) -> InputError:
    path = _write(tmp_path, "x.qrels", content)
    with pytest.raises(InputError) as info:
        ranklens.load_qrels(path)
    assert info.value.source == path
    return info.value


def _run_error(tmp_path: Path, content: str | bytes) -> InputError:
    path = _write(tmp_path, "x.run", content)
    with pytest.raises(InputError) as info:
        ranklens.load_run(path)
    assert info.value.source == path
    return info.value


def test_hierarchy() -> None:
    for cls in (InputError, MeasureError, ParameterError):
        assert issubclass(cls, RanklensError)
    assert issubclass(RanklensError, ValueError)


# -- TREC files -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "line", "words"),
    [
        ("q1 0 d1 1\nq1 0 d2\n", 2, ["expected 4 fields", "got 3"]),
        ("q1 0 d1 1 extra\n", 1, ["expected 4 fields", "got 5"]),
        ("q1 0 d1 1\n\nq1 0 d2 x\n", 3, ["integer relevance", "'x'"]),
        ("q1 0 d1 1.5\n", 1, ["integer relevance", "'1.5'"]),
        ("q1\t0\td1\t1\nq1\t0\td2\n", 2, ["expected 4 fields", "got 3"]),
        ("# header\nq1 0 d1 one\n", 2, ["integer relevance", "'one'"]),
    ],
)
def test_malformed_qrels_line(tmp_path: Path, content: str, line: int, words: list[str]) -> None:
    err = _qrels_error(tmp_path, content)
    assert err.line == line
    assert f"x.qrels:{line}:" in str(err)
    for w in words:
        assert w in str(err)


@pytest.mark.parametrize(
    ("content", "line", "words"),
    [
        ("q1 Q0 d1 1 1.0 t\nq1 Q0 d2 2 1.0\n", 2, ["at least 6 fields", "got 5"]),
        ("q1 Q0 d1 1 1.0 t\nq1 Q0 d2 2 abc t\n", 2, ["numeric score", "'abc'"]),
        ("q1 Q0 d1 1 nan t\n", 1, ["numeric score", "NaN"]),
        ("q1 Q0 d1 1 1.0 t\r\nq1 Q0 d2 2 NaN t\r\n", 2, ["numeric score", "NaN"]),
        ("q1  Q0 d1 1 1.0 t\nq1 Q0 d2 2 x1 t\n", 2, ["numeric score", "'x1'"]),
    ],
)
def test_malformed_run_line(tmp_path: Path, content: str, line: int, words: list[str]) -> None:
    err = _run_error(tmp_path, content)
    assert err.line == line
    assert f"x.run:{line}:" in str(err)
    for w in words:
        assert w in str(err)


@pytest.mark.parametrize("reader", ["qrels", "run"])
@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("", "empty"),
        ("   \n\n", "empty"),
        (b"\x00\x01\x02binary\x00", "binary"),
        ("# only a comment\n", "no "),
    ],
)
def test_unreadable_files(tmp_path: Path, reader: str, content: str | bytes, words: str) -> None:
    err = _qrels_error(tmp_path, content) if reader == "qrels" else _run_error(tmp_path, content)
    assert words in str(err)


def test_missing_file(tmp_path: Path) -> None:
    path = str(tmp_path / "nope.run")
    with pytest.raises(InputError, match="no such file") as info:
        ranklens.evaluate(QRELS, path, ["AP"], missing="zero")
    assert path in str(info.value)


def test_directory_is_not_a_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="directory"):
        ranklens.load_qrels(tmp_path)


def test_invalid_utf8_names_the_line(tmp_path: Path) -> None:
    err = _run_error(tmp_path, b"q1 Q0 d1 1 1.0 t\nq1  Q0 d\xff 2 0.5 t\n")
    assert err.line == 2
    assert "UTF-8" in str(err)


def test_corrupt_gzip(tmp_path: Path) -> None:
    err = _run_error(tmp_path, b"\x1f\x8b\x08\x00garbage")
    assert "compressed" in str(err)


# -- duplicates ---------------------------------------------------------------------------


def test_duplicate_doc_in_run_file(tmp_path: Path) -> None:
    run = _write(tmp_path, "dup.run", "q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 t\nq1 Q0 d1 3 0.5 t\n")
    with pytest.raises(InputError) as info:
        ranklens.evaluate(QRELS, run, ["AP"])
    msg = str(info.value)
    assert "'d1'" in msg and "'q1'" in msg and "run" in msg and "duplicates='first'" in msg


def test_duplicate_doc_in_qrels_file(tmp_path: Path) -> None:
    qrels = _write(tmp_path, "dup.qrels", "q1 0 d1 1\nq1 0 d2 0\nq1 0 d2 1\n")
    with pytest.raises(InputError) as info:
        ranklens.evaluate(qrels, RUN, ["AP"])
    msg = str(info.value)
    assert "'d2'" in msg and "'q1'" in msg and "qrels" in msg


def test_duplicates_first_keeps_highest_ranked(tmp_path: Path) -> None:
    # d1 appears at score 0.5 (rank 3) and 3.0 (rank 1): the kept copy must be rank 1
    run = _write(tmp_path, "dup.run", "q1 Q0 d1 1 0.5 t\nq1 Q0 d2 2 1.0 t\nq1 Q0 d1 3 3.0 t\n")
    qrels = {"q1": {"d1": 1, "d2": 0}}
    r = ranklens.evaluate(qrels, run, ["RR", "NumRet", "P@1"], duplicates="first")
    assert r["RR"] == 1.0
    assert r["NumRet"] == 2.0
    assert r["P@1"] == 1.0


def test_duplicates_in_frame() -> None:
    pl = pytest.importorskip("polars")
    run = pl.DataFrame({"qid": ["q1", "q1"], "docno": ["d1", "d1"], "score": [1.0, 2.0]})
    with pytest.raises(InputError, match=r"'d1'.*'q1'"):
        ranklens.evaluate(QRELS, run, ["AP"])


# -- query sets ---------------------------------------------------------------------------


@pytest.mark.parametrize("missing", [None, "error"])
def test_no_shared_query(missing: str | None) -> None:
    # issue 15: an explicit missing="zero" scores the judged queries 0 instead; "skip"
    # leaves every query out: an empty result (tests/unit/test_edge_policies.py)
    with pytest.raises(InputError, match="share no query") as info:
        ranklens.evaluate({"a": {"d": 1}}, {"b": {"d": 1.0}}, ["AP"], missing=missing)
    assert "'a'" in str(info.value) and "'b'" in str(info.value)


@pytest.mark.parametrize(("qrels", "run", "missing"), [({}, RUN, "zero"), (QRELS, {}, None)])
def test_empty_inputs(qrels: dict, run: dict, missing: str | None) -> None:
    with pytest.raises(InputError):
        ranklens.evaluate(qrels, run, ["AP"], missing=missing)


def test_missing_error_names_queries() -> None:
    with pytest.raises(InputError, match=r"absent from the run.*'q2'"):
        ranklens.evaluate({**QRELS, "q2": {"x": 1}}, RUN, ["AP"], missing="error")


def test_empty_error_names_queries() -> None:
    with pytest.raises(InputError, match=r"no relevant judgment.*'q2'"):
        ranklens.evaluate({**QRELS, "q2": {"x": 0}}, {**RUN, "q2": {"x": 1.0}}, ["AP"],
                          empty="error")


# -- in-memory forms -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("qrels", "run", "words"),
    [
        ({"q1": [1, 2]}, RUN, ["'q1'", "mapping", "list"]),
        ({"q1": {"d1": "x"}}, RUN, ["'q1'", "'d1'", "numeric relevance", "'x'"]),
        (QRELS, {"q1": {"d1": float("nan")}}, ["'q1'", "'d1'", "numeric score", "NaN"]),
        (QRELS, {"q1": {"d1": None}}, ["'q1'", "'d1'", "numeric score", "None"]),
        (QRELS, {"q1": 3.0}, ["'q1'", "mapping", "float"]),
        (QRELS, {"q1": {"d1": [1.0]}}, ["'q1'", "'d1'", "numeric score", "[1.0]"]),
        (QRELS, {"q1": {"d1": 10**400}}, ["'q1'", "'d1'", "numeric score"]),
        (QRELS, {"q1": {"d1": 1 + 2j}}, ["'q1'", "'d1'", "numeric score"]),
        ({"q1": {"d1": float("inf")}}, RUN, ["'q1'", "'d1'", "finite relevance", "inf"]),
        (42, RUN, ["int", "qrels"]),
        (QRELS, [("q1", "d1", 1.0)], ["list", "run"]),
    ],
)
def test_bad_mappings(qrels: object, run: object, words: list[str]) -> None:
    with pytest.raises(InputError) as info:
        ranklens.evaluate(qrels, run, ["AP"], missing="zero")
    for w in words:
        assert w in str(info.value)


def test_bad_frame_columns() -> None:
    pl = pytest.importorskip("polars")
    qrels = pl.DataFrame({"qid": ["q1"], "docno": ["d1"], "stars": [1]})
    with pytest.raises(InputError) as info:
        ranklens.evaluate(qrels, RUN, ["AP"])
    msg = str(info.value)
    assert "'relevance'" in msg and "stars" in msg
    run = pl.DataFrame({"query_id": ["q1"], "score": [1.0]})
    with pytest.raises(InputError, match="'doc_id'"):
        ranklens.evaluate(QRELS, run, ["AP"])


def test_bad_frame_values() -> None:
    pd = pytest.importorskip("pandas")
    qrels = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["d1", "d2"], "rel": ["1", "x"]})
    with pytest.raises(InputError, match=r"row 1.*numeric relevance.*'x'"):
        ranklens.evaluate(qrels, RUN, ["AP"])
    run = pd.DataFrame({"query_id": ["q1", None], "doc_id": ["d1", "d2"], "score": [1.0, 2.0]})
    with pytest.raises(InputError, match=r"row 1.*missing value.*'query_id'"):
        ranklens.evaluate(QRELS, run, ["AP"])
    qrels = pd.DataFrame({"query_id": ["q1"], "doc_id": ["d1"], "rel": [float("inf")]})
    with pytest.raises(InputError, match=r"row 0.*finite relevance"):
        ranklens.evaluate(qrels, RUN, ["AP"])
    run = pd.DataFrame({"query_id": ["q1"], "doc_id": ["d1"], "score": [float("nan")]})
    with pytest.raises(InputError, match="row 0"):
        ranklens.evaluate(QRELS, run, ["AP"])


# -- measures and options ----------------------------------------------------------------------


def test_unknown_measures_all_reported_with_suggestions() -> None:
    with pytest.raises(MeasureError) as info:
        ranklens.evaluate(QRELS, RUN, ["APP", "nDGC@10", "P@5", "recal@5"])
    msg = str(info.value)
    assert "'APP'" in msg and "'nDGC@10'" in msg and "'recal@5'" in msg
    assert "did you mean" in msg
    assert "ndcg" in msg.lower() and "recall" in msg.lower()


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("P@0", ["cutoff", "P", ">= 1", "0"]),
        ("P@x", ["cutoff", "P", "'x'"]),
        ("RR@-1", ["cutoff", "RR", "-1"]),
        ("AP(denom=foo)", ["'denom'", "rel, min, hits", "'foo'"]),
        ("AP(foo=1)", ["'foo'", "AP", "rel"]),
        ("AP(rel=-1)", ["'rel'", ">= 0", "-1"]),
        ("AP(rel=x)", ["'rel'", "integer", "'x'"]),
        ("F(beta2=-1)", ["'beta2'", ">= 0", "-1"]),
        ("nDCG(gain=1:x)", ["'gain'", "level map", "'1:x'"]),
        ("nDCG(discount=ln)@5", ["'discount'", "log2", "'ln'"]),
        ("AP(denom)", ["name=value", "'denom'"]),
        ("Rprec@5", ["Rprec", "no cutoff"]),
        ("nDCG@@5", ["nDCG@@5"]),
    ],
)
def test_bad_measure_parameters(name: str, words: list[str]) -> None:
    with pytest.raises(MeasureError) as info:
        ranklens.evaluate(QRELS, RUN, [name])
    for w in words:
        assert w in str(info.value), (w, str(info.value))


def test_measure_of_wrong_type() -> None:
    with pytest.raises(MeasureError, match="int"):
        ranklens.evaluate(QRELS, RUN, [3])  # type: ignore[list-item]


def test_no_measures() -> None:
    with pytest.raises(ParameterError, match="'measures'"):
        ranklens.evaluate(QRELS, RUN, [])


@pytest.mark.parametrize(
    ("option", "value", "allowed"),
    [
        ("missing", "ignore", "zero, skip, error"),
        ("duplicates", "last", "error, first"),
        ("ties", "random", "docid, input"),
        ("empty", "drop", "zero, skip, one, nan, error"),
        ("depth", -1, ">= 0"),
        ("depth", 2.5, ">= 0"),
        ("rel", 1.5, "integer"),
        ("rel", -1, "integer >= 0"),
        ("rel", True, "integer"),
        ("depth", True, ">= 0"),
        ("judged_only", "yes", "True or False"),
        ("collection_size", -3, ">= 0"),
        ("run_name", 7, "string"),
    ],
)
def test_bad_options(option: str, value: object, allowed: str) -> None:
    with pytest.raises(ParameterError) as info:
        ranklens.evaluate(QRELS, RUN, ["AP"], **{option: value})  # type: ignore[arg-type]
    msg = str(info.value)
    assert f"'{option}'" in msg and allowed in msg and repr(value) in msg


def test_validation_survives_python_O() -> None:
    """Checks do not rely on ``assert`` (which ``python -O`` strips)."""
    code = (
        "import polars as pl, ranklens\n"
        "try:\n"
        "    ranklens.evaluate(pl.DataFrame({'qid': ['q'], 'rel': [1]}), {'q': {'d': 1.0}},"
        " ['AP'])\n"
        "except ranklens.InputError as e:\n"
        "    print('InputError', e)\n"
    )
    out = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.startswith("InputError") and "'doc_id'" in out.stdout


_TOKENS = st.sampled_from([
    b"q1", b"Q0", b"d1", b" ", b"  ", b"\t", b"\n", b"\r\n", b"1", b"-2", b"1.5", b"nan",
    b"inf", b"#", b"x", b"\x00", b"\xff", b"\xc3\xa9", b"1e5", b"tag", b"\x0b", b"_",
    b"\x1f\x8b", b"BZh", b"\xfd7zXZ\x00",
])


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(_TOKENS, max_size=30))
def test_any_bytes_load_or_raise_input_error(tmp_path: Path, parts: list[bytes]) -> None:
    """Junk, truncated compression headers, NULs and bad UTF-8: a table or an InputError."""
    path = _write(tmp_path, "fuzz", b"".join(parts))
    for loader in (ranklens.load_qrels, ranklens.load_run):
        try:
            table = loader(path)
        except InputError as exc:
            assert exc.source == path
            continue
        assert len(table) > 0


_VALUES = st.one_of(
    st.integers(-3, 3), st.floats(), st.none(), st.text(max_size=3), st.booleans(),
    st.sampled_from([[1], {}, np.int64(1), np.float32(0.5), np.array([1.0]), np.array(2.0),
                     10**400, 1 + 1j]),
)
_KEYS = st.one_of(st.text(max_size=3), st.integers(-2, 2), st.sampled_from([None, 1.5, (1, 2)]))
_MAPS = st.dictionaries(_KEYS, st.one_of(st.dictionaries(_KEYS, _VALUES, max_size=4), _VALUES),
                        max_size=3)


@settings(max_examples=300, deadline=None)
@given(qrels=_MAPS, run=_MAPS, name=st.sampled_from(["AP", "nDCG@3", "P@2", "RR", "NumRet"]))
def test_any_mapping_evaluates_or_raises_input_error(qrels: dict, run: dict, name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ranklens.RanklensWarning)
        try:
            result = ranklens.evaluate(qrels, run, [name])
        except InputError as exc:
            assert str(exc)
            return
    assert math.isfinite(result[name])



def test_frame_columns_of_unusable_types() -> None:
    pl = pytest.importorskip("polars")
    qrels = pl.DataFrame({"qid": ["q1"], "docno": ["d1"], "rel": [[1]]})
    with pytest.raises(InputError, match=r"column 'rel'.*numeric relevance.*List"):
        ranklens.evaluate(qrels, RUN, ["AP"])
    qrels = pl.DataFrame({"qid": [[1]], "docno": ["d1"], "rel": [1]})
    with pytest.raises(InputError, match=r"column 'qid'.*ids.*List"):
        ranklens.evaluate(qrels, RUN, ["AP"])
    run = pl.DataFrame({"qid": ["q1"], "docno": ["d1"], "score": [datetime.date(2020, 1, 1)]})
    with pytest.raises(InputError, match=r"column 'score'.*numeric score.*Date"):
        ranklens.evaluate(QRELS, run, ["AP"])


def test_unusable_rank_column_is_ignored() -> None:
    pl = pytest.importorskip("polars")
    run = pl.DataFrame({"qid": ["q1", "q1"], "docno": ["d1", "d2"], "score": [1.0, 2.0],
                        "rank": [float("nan"), 1e30]})
    assert ranklens.evaluate(QRELS, run, ["RR"])["RR"] == 0.5


_COLUMN_VALUES = {
    "str": st.sampled_from(["a", "b", "1", "x y", ""]),
    "int": st.integers(-2, 3),
    "float": st.floats(),
    "bool": st.booleans(),
    "list": st.lists(st.integers(0, 2), max_size=2),
    "date": st.dates(),
    "none": st.none(),
}


@st.composite
def _frames(draw: st.DrawFn) -> object:
    pl = pytest.importorskip("polars")
    n = draw(st.integers(1, 4))
    names = draw(st.lists(st.sampled_from(["qid", "docno", "rel", "score", "rank", "x"]),
                          min_size=1, max_size=5, unique=True))
    data = {}
    for name in names:
        kind = draw(st.sampled_from(sorted(_COLUMN_VALUES)))
        data[name] = draw(st.lists(_COLUMN_VALUES[kind], min_size=n, max_size=n))
    try:
        return pl.DataFrame(data, strict=False)
    except Exception:  # a combination polars itself refuses is not ranklens's concern
        return pl.DataFrame({"qid": ["a"], "docno": ["b"], "rel": [1], "score": [1.0]})


@settings(max_examples=200, deadline=None)
@given(qrels=_frames(), run=_frames())
def test_any_frame_evaluates_or_raises_input_error(qrels: object, run: object) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ranklens.RanklensWarning)
        try:
            result = ranklens.evaluate(qrels, run, ["AP"])
        except InputError as exc:
            assert str(exc)
            return
    assert 0.0 <= result["AP"] <= 1.0
