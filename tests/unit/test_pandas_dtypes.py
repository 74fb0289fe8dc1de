"""pandas frames of every column dtype, with and without pyarrow (pandas 2.x and 3.x).

pandas 3's default string dtype keeps its strings in Python objects when pyarrow is absent
(``pip install ranklens pandas`` installs no pyarrow), and polars converts such a column,
like every pandas extension dtype, only through pyarrow: the most basic frame was refused
("column 'query_id' mixes value types (str)"). Each test builds the qrels and the run as
frames of one dtype and compares with the same data given as dicts. The pyarrow-backed dtypes
skip where pyarrow is absent; CI runs this file once in a venv without pyarrow (.ci/run), and
:func:`test_every_dtype_without_pyarrow` reruns it here with pyarrow hidden.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import ranklens
from ranklens import InputError

pd = pytest.importorskip("pandas")
np = pytest.importorskip("numpy")

try:
    HAS_PYARROW = importlib.util.find_spec("pyarrow") is not None
except ImportError:  # hidden by test_every_dtype_without_pyarrow
    HAS_PYARROW = False
needs_pyarrow = pytest.mark.skipif(not HAS_PYARROW, reason="pyarrow is not installed")

MEASURES = ["AP", "nDCG", "P@2", "RR", "num_ret", "num_rel_ret"]

QRELS = {"q1": {"d1": 2, "d2": 0, "d3": 1}, "q2": {"d1": 1, "d4": 0}, "q10": {"d5": 1}}
RUN = {"q1": {"d1": 0.5, "d2": 2.0, "d4": 1.5}, "q2": {"d4": 3.0, "d1": 1.0},
       "q10": {"d6": 1.0, "d5": 0.25}}

#: the same ids as integers (query q1 is 1, doc d1 is 1, ...)
INT_QRELS = {int(q[1:]): {int(d[1:]): r for d, r in docs.items()} for q, docs in QRELS.items()}
INT_RUN = {int(q[1:]): {int(d[1:]): s for d, s in docs.items()} for q, docs in RUN.items()}


def _rows(mapping: dict[Any, dict[Any, float]]) -> tuple[list[Any], list[Any], list[float]]:
    rows = [(q, d, v) for q, docs in mapping.items() for d, v in docs.items()]
    return [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows]


def _dtype(make: Callable[[], Any]) -> Any:
    try:
        return make()
    except (TypeError, ValueError, ImportError) as err:  # a dtype this pandas lacks
        pytest.skip(f"this pandas has no such dtype: {err}")


def _arrow_string() -> Any:
    import pyarrow as pa

    return pd.ArrowDtype(pa.string())


#: dtypes of string id columns (None: what pandas infers from a list of str, which is
#: "str" in pandas 3, with Python storage when pyarrow is absent, and object in pandas 2)
STRING_DTYPES = [
    pytest.param(lambda: object, id="object"),
    pytest.param(lambda: None, id="inferred"),
    pytest.param(lambda: "string", id="string"),
    pytest.param(lambda: pd.StringDtype("python"), id="string[python]"),
    pytest.param(lambda: pd.StringDtype("python", na_value=np.nan), id="str[python]"),
    pytest.param(lambda: pd.StringDtype("pyarrow"), id="string[pyarrow]", marks=needs_pyarrow),
    pytest.param(lambda: pd.StringDtype("pyarrow", na_value=np.nan), id="str[pyarrow]",
                 marks=needs_pyarrow),
    pytest.param(_arrow_string, id="ArrowDtype(string)", marks=needs_pyarrow),
    pytest.param(lambda: "category", id="category"),
]

#: dtypes of integer id columns (kept as integer ids: Result.to_polars gives them back so)
INT_DTYPES = [
    pytest.param(lambda: "int64", id="int64"),
    pytest.param(lambda: "int32", id="int32"),
    pytest.param(lambda: "Int64", id="Int64"),
    pytest.param(lambda: "Int32", id="Int32"),
    pytest.param(lambda: "UInt16", id="UInt16"),
    pytest.param(lambda: "category", id="category"),
]

#: dtypes of the relevance and score columns
NUMBER_DTYPES = [
    pytest.param(lambda: "float64", id="float64"),
    pytest.param(lambda: "float32", id="float32"),
    pytest.param(lambda: "Float64", id="Float64"),
    pytest.param(lambda: "Float32", id="Float32"),
    pytest.param(lambda: "object", id="object"),
]

#: nullable dtypes and a value of each, for the missing-value tests
MISSING = [
    pytest.param("doc_id", lambda: pd.StringDtype("python"), "d9", id="string[python]"),
    pytest.param("doc_id", lambda: pd.StringDtype("python", na_value=np.nan), "d9",
                 id="str[python]"),
    pytest.param("doc_id", lambda: pd.StringDtype("pyarrow"), "d9", id="string[pyarrow]",
                 marks=needs_pyarrow),
    pytest.param("doc_id", lambda: "category", "d9", id="category"),
    pytest.param("doc_id", lambda: "Int64", 9, id="Int64"),
    pytest.param("query_id", lambda: pd.StringDtype("python"), "q9", id="query-string[python]"),
    pytest.param("query_id", lambda: "UInt8", 9, id="query-UInt8"),
]


def _per_query(result: Any) -> dict[tuple[str, str], float]:
    """``(measure, query) -> value``, the aggregate as query "all"; ids as strings."""
    return {(m, str(q)): v for m, values in result.to_dict(aggregate_key="all").items()
            for q, v in values.items()}


def _frames(qrels: dict[Any, dict[Any, float]], run: dict[Any, dict[Any, float]], ids: Any,
            numbers: Any = "float64") -> tuple[Any, Any]:
    q, d, r = _rows(qrels)
    qrels_frame = pd.DataFrame({"query_id": pd.Series(q, dtype=ids),
                                "doc_id": pd.Series(d, dtype=ids),
                                "relevance": pd.Series(r, dtype=numbers)})
    q, d, s = _rows(run)
    run_frame = pd.DataFrame({"query_id": pd.Series(q, dtype=ids),
                              "doc_id": pd.Series(d, dtype=ids),
                              "score": pd.Series(s, dtype=numbers)})
    return qrels_frame, run_frame


def test_the_issues_frame() -> None:
    """The report: pandas' default dtypes, two rows (with pyarrow absent, the failure)."""
    qrels = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["a", "b"], "relevance": [1, 0]})
    run = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["a", "b"], "score": [0.2, 0.1]})
    assert ranklens.evaluate(qrels, run, ["AP"])["AP"] == 1.0


@pytest.mark.parametrize("make", STRING_DTYPES)
def test_string_ids(make: Callable[[], Any]) -> None:
    dtype = _dtype(make)
    qrels, run = _frames(QRELS, RUN, dtype)
    want = ranklens.evaluate(QRELS, RUN, MEASURES)
    got = ranklens.evaluate(qrels, run, MEASURES)
    assert _per_query(got) == _per_query(want)
    assert dict(got) == dict(want)


@pytest.mark.parametrize("make", INT_DTYPES)
def test_integer_ids(make: Callable[[], Any]) -> None:
    dtype = _dtype(make)
    qrels, run = _frames(INT_QRELS, INT_RUN, dtype)
    want = ranklens.evaluate(INT_QRELS, INT_RUN, MEASURES)
    got = ranklens.evaluate(qrels, run, MEASURES)
    assert _per_query(got) == _per_query(want)
    # integer ids come back as integers, in numeric order
    assert got.to_polars()["query_id"].to_list() == [1, 2, 10]


@pytest.mark.parametrize("make", NUMBER_DTYPES)
def test_relevance_and_scores(make: Callable[[], Any]) -> None:
    dtype = _dtype(make)
    qrels, run = _frames(QRELS, RUN, None, dtype)
    want = ranklens.evaluate(QRELS, RUN, MEASURES)
    got = ranklens.evaluate(qrels, run, MEASURES)
    assert _per_query(got) == _per_query(want)


@pytest.mark.parametrize("dtype", ["Int64", "Int8", "UInt8", "boolean"])
def test_integer_and_boolean_relevance(dtype: str) -> None:
    grades = {q: {d: min(r, 1) for d, r in docs.items()} for q, docs in QRELS.items()}
    q, d, r = _rows(grades)
    qrels = pd.DataFrame({"query_id": pd.Series(q, dtype=pd.StringDtype("python")),
                          "doc_id": pd.Series(d, dtype=pd.StringDtype("python")),
                          "relevance": pd.Series([bool(x) for x in r] if dtype == "boolean"
                                                 else r, dtype=dtype)})
    want = ranklens.evaluate(grades, RUN, MEASURES)
    assert _per_query(ranklens.evaluate(qrels, RUN, MEASURES)) == _per_query(want)


@pytest.mark.parametrize(("column", "make", "value"), MISSING)
def test_a_missing_id_names_the_row_and_column(column: str, make: Callable[[], Any],
                                               value: Any) -> None:
    dtype = _dtype(make)
    frame = pd.DataFrame({"query_id": ["q1", "q1", "q1"], "doc_id": ["d1", "d2", "d3"],
                          "relevance": [1, 0, 1]})
    frame[column] = pd.Series([value, None, value], dtype=dtype)
    with pytest.raises(InputError, match=rf"row 1: missing value in column '{column}'"):
        ranklens.load_qrels(frame)


@pytest.mark.parametrize("dtype", ["Int64", "Float64", "Float32", "boolean"])
def test_a_missing_number_names_the_row_and_column(dtype: str) -> None:
    value = True if dtype == "boolean" else 1
    qrels = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["d1", "d2"],
                          "relevance": pd.array([value, None], dtype=dtype)})
    with pytest.raises(InputError, match=r"row 1: missing value in column 'relevance'"):
        ranklens.load_qrels(qrels)
    run = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["d1", "d2"],
                        "score": pd.array([value, None], dtype=dtype)})
    with pytest.raises(InputError, match=r"row 1: missing value in column 'score'"):
        ranklens.load_run(run)


def test_a_named_index_of_python_strings_holds_ids() -> None:
    q, d, r = _rows(QRELS)
    frame = pd.DataFrame({"qid": pd.Series(q, dtype=pd.StringDtype("python")),
                          "docno": pd.Series(d, dtype=pd.StringDtype("python")),
                          "rel": r}).set_index(["qid", "docno"])
    want = ranklens.evaluate(QRELS, RUN, MEASURES)
    assert _per_query(ranklens.evaluate(frame, RUN, MEASURES)) == _per_query(want)


def test_results_as_pandas_frames() -> None:
    """Result.to_pandas, which polars does through pyarrow, works without it too."""
    result = ranklens.evaluate(QRELS, RUN, ["AP", "P@2"])
    wide = result.to_pandas()
    assert list(wide.columns) == ["query_id", "AP", "P@2"]
    assert dict(zip(wide["query_id"], wide["AP"], strict=True)) == {
        q: v for (m, q), v in _per_query(result).items() if m == "AP" and q != "all"}
    long = result.to_pandas(wide=False)
    assert list(long.columns) == ["query_id", "measure", "value"] and len(long) == 6
    numbers = ranklens.evaluate(INT_QRELS, INT_RUN, ["AP"]).to_pandas()
    assert numbers["query_id"].tolist() == [1, 2, 10]


def test_every_result_type_as_a_pandas_frame() -> None:
    """Each result type's to_pandas is its to_polars, with or without pyarrow."""
    other = {q: dict(reversed(list(docs.items()))) for q, docs in RUN.items()}
    res = ranklens.evaluate(QRELS, {"x": RUN, "y": other, "z": RUN}, ["AP", "P@2"])
    cmp = ranklens.compare(None, res, ["AP"])
    typed = [res, res["x"], cmp, cmp.pairs[0], ranklens.agreement(RUN, other, "Overlap@2"),
             ranklens.agreement({"x": RUN, "y": other, "z": RUN}, measures="Overlap@2"),
             ranklens.residual(QRELS, RUN, ["P@2"]), ranklens.rank_correlation(res, res, "AP")]
    for obj in typed:
        frame, pandas = obj.to_polars(), obj.to_pandas()  # type: ignore[attr-defined]
        assert list(pandas.columns) == frame.columns and len(pandas) == frame.height
        assert pandas.iloc[:, -1].tolist() == frame[:, -1].to_list()
    wide = cmp.to_pandas(per_query=True)  # the same arguments as to_polars
    assert list(wide.columns) == ["measure", "system", "baseline", "query_id", "difference"]


@pytest.mark.skipif(not HAS_PYARROW, reason="pyarrow is absent: the tests above ran so")
@pytest.mark.skipif(bool(os.environ.get("RANKLENS_HIDING_PYARROW")), reason="recursion")
def test_every_dtype_without_pyarrow() -> None:
    """This file again in a Python where ``import pyarrow`` fails (as after ``pip install
    ranklens pandas``): pandas and polars both take pyarrow to be absent."""
    code = f"""import sys

class HidePyarrow:  # `import pyarrow` fails as where it is not installed
    def find_spec(self, name, path=None, target=None):
        if name == "pyarrow" or name.startswith("pyarrow."):
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, HidePyarrow())
import pandas, pytest
if pandas.__version__ >= "3":  # the default string dtype without pyarrow: Python storage
    assert pandas.Series(["a"]).dtype.storage == "python"
sys.exit(pytest.main(["-q", "-rs", "-p", "no:cacheprovider", {__file__!r}]))
"""
    env = dict(os.environ, RANKLENS_HIDING_PYARROW="1")
    env.pop("RANKLENS_REQUIRE_PEERS", None)  # pyarrow is a peer: hidden on purpose here
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=Path(__file__).resolve().parents[2], timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "failed" not in done.stdout
    assert "pyarrow is not installed" in done.stdout  # the pyarrow dtypes were skipped
