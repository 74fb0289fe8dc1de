"""The public API: policies (missing, empty, ties, depth, judged_only), Result, imports."""

from __future__ import annotations
import __future__

import json
import math
import subprocess
import sys
import types
import warnings
from pathlib import Path

import numpy as np
import pytest

import ranklens
from ranklens import InputError, MeasureError, RanklensWarning

QRELS = {"q1": {"a": 1, "b": 0, "c": 2}, "q2": {"x": 1}, "q3": {"y": 0}}
RUN = {"q1": {"a": 1.0, "b": 2.0, "c": 0.5}, "q3": {"y": 1.0}, "q9": {"z": 1.0}}
# q1: ranking b a c; relevant a (rank 2) and c (rank 3): AP = (1/2 + 2/3) / 2
AP_Q1 = (1 / 2 + 2 / 3) / 2


def _quiet(*args: object, **kwargs: object) -> ranklens.Result:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        return ranklens.evaluate(*args, **kwargs)  # type: ignore[arg-type]


# -- missing queries ---------------------------------------------------------------------------


def test_missing_default_scores_zero_and_warns() -> None:
    with pytest.warns(RanklensWarning) as caught:
        r = ranklens.evaluate(QRELS, RUN, ["AP", "NumQ"])
    messages = [str(w.message) for w in caught]
    assert any("absent from the run" in m and "missing='zero'" in m and "'q2'" in m
               for m in messages), messages
    assert any("ignored" in m and "'q9'" in m for m in messages), messages
    assert all(w.filename == __file__ for w in caught)  # attributed to the caller's line
    assert r.per_query("AP") == {"q1": AP_Q1, "q2": 0.0, "q3": 0.0}
    assert r["AP"] == pytest.approx(AP_Q1 / 3, abs=1e-15)
    assert r["NumQ"] == 3
    assert r.diagnostics["missing_queries"] == ["q2"]


def test_missing_explicit_zero_does_not_warn_about_missing() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = ranklens.evaluate(QRELS, RUN, ["AP"], missing="zero")
    messages = [str(w.message) for w in caught]
    assert not any("absent from the run" in m for m in messages)
    assert any("'q9'" in m and "ignored" in m for m in messages)  # run-only query
    assert r["AP"] == pytest.approx(AP_Q1 / 3, abs=1e-15)


def test_missing_skip_and_error() -> None:
    r = _quiet(QRELS, RUN, ["AP", "NumQ", "NumRel"], missing="skip")
    assert r.query_ids.tolist() == ["q1", "q3"]
    assert r["AP"] == pytest.approx(AP_Q1 / 2, abs=1e-15)
    assert r["NumQ"] == 2 and r["NumRel"] == 2
    with pytest.raises(InputError, match="'q2'"):
        _quiet(QRELS, RUN, ["AP"], missing="error")


def test_no_warning_when_everything_matches() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = ranklens.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, ["AP"])
    assert r["AP"] == 1.0


# -- queries without relevant documents --------------------------------------------------------


@pytest.mark.parametrize(
    ("empty", "q3", "mean"),
    [("zero", 0.0, AP_Q1 / 2), ("skip", math.nan, AP_Q1), ("nan", math.nan, AP_Q1),
     ("one", 1.0, (AP_Q1 + 1) / 2)],
)
def test_empty_policies(empty: str, q3: float, mean: float) -> None:
    r = _quiet(QRELS, RUN, ["AP", "NumQ", "NumRel", "GMAP"], missing="skip", empty=empty)
    got = r.per_query("AP")["q3"]
    assert got == q3 or (math.isnan(q3) and math.isnan(got))
    assert r["AP"] == pytest.approx(mean, abs=1e-15)
    assert r["NumQ"] == 2 and r["NumRel"] == 2  # counts are never changed
    if empty in ("skip", "nan"):
        assert r["GMAP"] == pytest.approx(AP_Q1)
    if empty == "zero":
        assert r["GMAP"] == pytest.approx(math.sqrt(AP_Q1 * 1e-5))


def test_empty_error() -> None:
    with pytest.raises(InputError, match=r"no relevant judgment.*'q3'"):
        _quiet(QRELS, RUN, ["AP"], missing="skip", empty="error")


# -- tie breaking ------------------------------------------------------------------------------


def _order(run: dict, **options: object) -> list[str]:
    """The ranking ranklens uses: read back from P@k of a one-relevant-doc qrels."""
    docs = list(next(iter(run.values())))
    ranks = {}
    for d in docs:
        r = ranklens.evaluate({"q": {d: 1}}, run, ["RR"], **options)  # type: ignore[arg-type]
        ranks[d] = round(1 / r["RR"])
    return sorted(docs, key=ranks.__getitem__)


def test_ties_broken_by_doc_id_descending_bytewise() -> None:
    run = {"q": {"a": 1.0, "B": 1.0, "é": 1.0, "z": 1.0, "b10": 1.0, "b9": 1.0, "top": 2.0}}
    # bytes: "é" = C3 A9 > "z" > "b9" > "b10" > "a" > "B"
    assert _order(run) == ["top", "é", "z", "b9", "b10", "a", "B"]


def test_ties_input_order() -> None:
    run = {"q": {"a": 1.0, "B": 1.0, "top": 2.0, "z": 1.0}}
    assert _order(run, ties="input") == ["top", "a", "B", "z"]


def test_ties_input_uses_file_order(tmp_path: Path) -> None:
    path = tmp_path / "r.run"
    path.write_text("q Q0 a 1 1.0 t\nq Q0 b 2 1.0 t\nq Q0 c 3 1.0 t\n")
    docid = ranklens.evaluate({"q": {"a": 1}}, str(path), ["RR"])
    given = ranklens.evaluate({"q": {"a": 1}}, str(path), ["RR"], ties="input")
    assert docid["RR"] == 1 / 3 and given["RR"] == 1.0


def test_float64_scores_are_not_float32_ties(tmp_path: Path) -> None:
    """trec_eval 10 reads scores as double: these two differ (trec_eval 9 tied them)."""
    assert np.float32(1.00000002) == np.float32(1.00000001)
    run = {"q": {"A": 1.00000002, "B": 1.00000001}}
    assert _order(run) == ["A", "B"]
    path = tmp_path / "r.run"
    path.write_text("q Q0 A 1 1.00000002 t\nq Q0 B 2 1.00000001 t\n")
    r = ranklens.evaluate({"q": {"A": 1}}, str(path), ["RR"])
    assert r["RR"] == 1.0
    # and exact float ties fall back to doc id descending: B before A
    assert _order({"q": {"A": 0.1 + 0.2, "B": 0.30000000000000004}}) == ["B", "A"]


# -- depth and judged_only ---------------------------------------------------------------------


def test_depth_closed_form() -> None:
    qrels = {"q": {"a": 1, "b": 1, "c": 1}}
    run = {"q": {"x": 3.0, "a": 2.0, "b": 1.0, "c": 0.5}}
    full = ranklens.evaluate(qrels, run, ["AP", "NumRet", "P@4"])
    cut = ranklens.evaluate(qrels, run, ["AP", "NumRet", "P@4"], depth=2)
    assert full["AP"] == pytest.approx((1 / 2 + 2 / 3 + 3 / 4) / 3)
    assert cut["AP"] == pytest.approx((1 / 2) / 3)
    assert cut["NumRet"] == 2 and cut["P@4"] == 0.25
    zero = ranklens.evaluate(qrels, run, ["AP", "NumRet"], depth=0)
    assert zero["AP"] == 0.0 and zero["NumRet"] == 0


def test_judged_only_closed_form() -> None:
    qrels = {"q": {"a": 1, "n": 0, "neg": -1}}
    run = {"q": {"u1": 5.0, "neg": 4.0, "n": 3.0, "u2": 2.0, "a": 1.0}}
    plain = ranklens.evaluate(qrels, run, ["RR", "P@2", "NumRet"])
    judged = ranklens.evaluate(qrels, run, ["RR", "P@2", "NumRet"], judged_only=True)
    assert plain["RR"] == 1 / 5 and plain["NumRet"] == 5
    assert judged["RR"] == 1 / 2 and judged["P@2"] == 0.5 and judged["NumRet"] == 2
    per_measure = ranklens.evaluate(qrels, run, ["RR(judged_only=true)", "RR"])
    assert per_measure["RR(judged_only=true)"] == 1 / 2 and per_measure["RR"] == 1 / 5


def test_rel_option_and_parameter() -> None:
    qrels = {"q": {"a": 1, "b": 2}}
    run = {"q": {"a": 2.0, "b": 1.0}}
    assert ranklens.evaluate(qrels, run, ["RR"])["RR"] == 1.0
    assert ranklens.evaluate(qrels, run, ["RR"], rel=2)["RR"] == 0.5
    r = ranklens.evaluate(qrels, run, ["RR(rel=2)", "RR"], rel=1)
    assert r["RR(rel=2)"] == 0.5 and r["RR"] == 1.0
    # -l 0: every judged document is relevant
    assert ranklens.evaluate({"q": {"a": 0}}, {"q": {"a": 1.0}}, ["P@1"], rel=0)["P@1"] == 1.0


# -- Result ------------------------------------------------------------------------------------


def test_result_mapping_and_names() -> None:
    r = _quiet(QRELS, RUN, ["map", "ndcg_cut_10", "P@2"], missing="zero")
    assert list(r) == ["map", "ndcg_cut_10", "P@2"] and len(r) == 3
    assert r["map"] == r["AP"] == r[ranklens.parse_measure("AP")]
    assert r["nDCG@10"] == r["ndcg_cut_10"] == r["ndcg@10"]
    assert "AP" in r and "map" in r and "nDCG@5" not in r and "not a measure" not in r
    assert r.get("R@5") is None and r.get("R@5", -1.0) == -1.0
    assert dict(r) == {k: r[k] for k in ("map", "ndcg_cut_10", "P@2")}
    with pytest.raises(MeasureError, match=r"'R@5' was not evaluated.*map"):
        r["R@5"]
    assert str(r.measures["map"]) == "AP"
    assert "map=" in repr(r) and "3 queries" in repr(r)


def test_result_per_query_and_frames() -> None:
    r = _quiet(QRELS, RUN, ["AP", "P@2"], missing="zero")
    assert r.query_ids.tolist() == ["q1", "q2", "q3"]
    assert r.per_query("AP") == {"q1": AP_Q1, "q2": 0.0, "q3": 0.0}
    assert r.per_query("map") == r.per_query("AP")
    pl_frame = r.to_polars()
    assert pl_frame.columns == ["query_id", "AP", "P@2"]
    assert pl_frame["AP"].to_list() == [AP_Q1, 0.0, 0.0]
    long = r.to_polars(wide=False)
    assert long.columns == ["query_id", "measure", "value"] and long.height == 6
    pytest.importorskip("pandas")
    pd_frame = r.to_pandas()
    assert list(pd_frame.columns) == ["query_id", "AP", "P@2"]
    assert pd_frame["P@2"].tolist() == [0.5, 0.0, 0.0]
    d = r.to_dict()
    assert d["AP"]["all"] == r["AP"] and d["AP"]["q1"] == AP_Q1
    assert json.loads(json.dumps(d)) == d


def test_query_order_is_bytewise() -> None:
    qrels = {"9": {"a": 1}, "10": {"a": 1}, "Z": {"a": 1}, "a": {"a": 1}, "é": {"a": 1}}
    run = {q: {"a": 1.0} for q in qrels}
    assert ranklens.evaluate(qrels, run, ["AP"]).query_ids.tolist() == ["10", "9", "Z", "a", "é"]


def test_same_measure_twice() -> None:
    m = ranklens.Measure("AP")
    r = ranklens.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0, "b": 2.0}}, ["AP", "map", "AP", m])
    assert r["AP"] == r["map"] == 0.5
    assert list(r) == ["AP", "map"] and len(r) == 2  # Mapping keys stay unique
    assert r.to_polars().columns == ["query_id", "AP", "map"]


def test_measure_objects_accepted() -> None:
    m = ranklens.Measure("nDCG", cutoff=3)
    r = ranklens.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, m)
    assert list(r) == ["nDCG@3"] and r[m] == 1.0


# -- import surface ----------------------------------------------------------------------------


def test_import_is_light() -> None:
    heavy = ("pandas", "pyarrow", "rich", "click", "sklearn", "scipy", "torch")
    code = ("import sys, ranklens; "
            f"print(','.join(m for m in {heavy!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == ""


def test_to_dict_refuses_a_query_named_like_the_aggregate_key() -> None:
    """Regression: the aggregate silently overwrote the value of a query named ``all``."""
    r = ranklens.evaluate({"all": {"a": 1}, "q": {"b": 1}}, {"all": {"a": 1.0}, "q": {"c": 1.0}},
                          ["AP"])
    with pytest.raises(ranklens.ParameterError, match="a query is named 'all'"):
        r.to_dict()
    d = r.to_dict(aggregate_key="*")
    assert d["AP"] == {"all": 1.0, "q": 0.0, "*": 0.5}


def test_per_query_arrays_are_read_only() -> None:
    r = _quiet(QRELS, RUN, ["AP", "map", "NumQ"])
    for name in r:
        assert not r.query_values[name].flags.writeable
        with pytest.raises(ValueError):
            r.query_values[name][0] = 0.5
    assert not r.query_ids.flags.writeable
    copied = r.query_values["AP"].copy()
    copied[0] = 0.5  # a copy is the caller's
    assert r.per_query("AP")["q1"] == AP_Q1


def test_dunder_all() -> None:
    public = ranklens.__all__
    assert len(public) == len(set(public))
    for name in public:
        assert hasattr(ranklens, name), name
        assert not name.startswith("_") or name == "__version__", name
    for name, value in vars(ranklens).items():
        if name.startswith("_") or isinstance(value, (types.ModuleType, __future__._Feature)):
            continue
        assert name in public, f"{name} is public but missing from __all__"
    for name in public:
        obj = getattr(ranklens, name)
        if isinstance(obj, type) or callable(obj):
            assert (obj.__doc__ or "").strip(), f"{name} has no docstring"
    assert isinstance(ranklens.__version__, str)


def test_signed_zero_and_infinite_scores() -> None:
    """-0.0 ties with 0.0 (as in C); infinities sort at the ends."""
    assert _order({"q": {"a": -0.0, "b": 0.0}}) == ["b", "a"]
    assert _order({"q": {"a": 0.0, "b": -0.0}}) == ["b", "a"]
    run = {"q": {"lo": -math.inf, "hi": math.inf, "mid": 1e308}}
    assert _order(run) == ["hi", "mid", "lo"]


def test_measures_from_any_iterable() -> None:
    qrels, run = {"q": {"a": 1}}, {"q": {"a": 1.0, "b": 2.0}}
    want = {"AP": 0.5, "P@1": 0.0}
    assert dict(ranklens.evaluate(qrels, run, (m for m in ["AP", "P@1"]))) == want
    assert dict(ranklens.evaluate(qrels, run, dict.fromkeys(["AP", "P@1"]).keys())) == want
    assert dict(ranklens.evaluate(qrels, run, ("AP", ranklens.Measure("P", cutoff=1)))) == want
    with pytest.raises(ranklens.ParameterError, match=r"'measures'.*int"):
        ranklens.evaluate(qrels, run, 3)  # type: ignore[arg-type]


def test_version_is_the_installed_distributions() -> None:
    import importlib.metadata

    assert importlib.metadata.version("ranklens") == ranklens.__version__


def test_package_declares_its_types() -> None:
    from pathlib import Path

    assert (Path(ranklens.__file__).parent / "py.typed").is_file()
