"""``ranklens._surfaces.trec_eval.trec_eval``: trec_eval's evaluation from Python.

The report's text is the command's output byte for byte (trec_eval's own expected files),
its per-topic and summary values are the printed ones, ``-c``, z-scores, prefs and qrels_jg
included.
"""

from __future__ import annotations

import dataclasses
import doctest
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import ranklens
from ranklens._base.errors import InputError, ParameterError
from ranklens._surfaces.trec_eval import TrecEvalError, TrecEvalReport, trec_eval
from ranklens._surfaces.trec_eval.output import format_value

CASES = [  # (expected file, qrels, run, keywords, text keywords)
    ("out.test", "qrels.test", "results.test", {}, {}),
    ("out.test.aq", "qrels.test", "results.test", {"measures": "all_trec"},
     {"per_query": True}),
    ("out.test.aqc", "qrels.test", "results.trunc",
     {"measures": "all_trec", "complete": True}, {"per_query": True}),
    ("out.test.aqcM", "qrels.test", "results.trunc",
     {"measures": "all_trec", "complete": True, "depth": 100}, {"per_query": True}),
    ("out.test.aql", "qrels.rel_level", "results.test",
     {"measures": ["all_trec", "relstring.20"], "rel": 2}, {"per_query": True}),
    ("out.test.aqZ", "qrels.test", "results.test",
     {"measures": "all_trec", "zscores": "zscores_file"}, {"per_query": True}),
    ("out.test.prefs", "prefs.test", "prefs.results.test",
     {"measures": "all_prefs", "judgments": "prefs"}, {"per_query": True}),
    ("out.test.qrels_prefs", "qrels.test", "results.test",
     {"measures": "all_prefs", "judgments": "qrels_prefs"}, {"per_query": True}),
    ("out.test.qrels_jg", "qrels.123", "results.test",
     {"measures": "qrels_jg", "judgments": "qrels_jg"}, {"per_query": True}),
]


def _report(trec_dir: Path, qrels: str, run: str, kw: dict) -> TrecEvalReport:
    kw = dict(kw)
    if isinstance(kw.get("zscores"), str):
        kw["zscores"] = trec_dir / kw["zscores"]
    return trec_eval(trec_dir / qrels, str(trec_dir / run), **kw)


@pytest.mark.parametrize(("expected", "qrels", "run", "kw", "text_kw"), CASES,
                         ids=[c[0] + ":" + c[2] for c in CASES])
def test_text_is_trec_evals_output(trec_dir: Path, expected: str, qrels: str, run: str,
                                   kw: dict, text_kw: dict) -> None:
    report = _report(trec_dir, qrels, run, kw)
    assert report.text(**text_kw) == (trec_dir / expected).read_text()


@pytest.mark.parametrize(("expected", "qrels", "run", "kw", "text_kw"), CASES,
                         ids=[c[0] + ":" + c[2] for c in CASES])
def test_values_are_the_printed_ones(trec_dir: Path, expected: str, qrels: str, run: str,
                                     kw: dict, text_kw: dict) -> None:
    report = _report(trec_dir, qrels, run, kw)
    printed: dict[tuple[str, str], str] = {}
    for line in (trec_dir / expected).read_text().splitlines():
        name, qid, value = line.split("\t")
        printed[(name.strip().removeprefix("Z") if report.zscores else name.strip(), qid)] = value
    columns = {c.name: c for c in report.columns}
    per_query = report.per_query
    summary = report.summary
    assert per_query and summary
    for name, values in (per_query if text_kw.get("per_query") else {}).items():
        for qid, value in values.items():
            assert format_value(columns[name], value, report.zscores) == printed[(name, qid)]
    for name, value in summary.items():
        assert format_value(columns[name], value, report.zscores) == printed[(name, "all")]
    if ("runid", "all") in printed:
        assert printed[("runid", "all")] == report.run_name


def test_per_query_values_equal_evaluate(trec_dir: Path) -> None:
    report = trec_eval(trec_dir / "qrels.test", str(trec_dir / "results.test"),
                       ["map", "P.5,10", "ndcg_cut.10"])
    result = ranklens.evaluate(trec_dir / "qrels.test", str(trec_dir / "results.test"),
                               ["AP", "P@5", "P@10", "nDCG@10"])
    qids = [str(q) for q in result.query_ids.tolist()]
    assert list(report.query_ids) == qids
    for printed, name in [("map", "AP"), ("P_5", "P@5"), ("P_10", "P@10"),
                          ("ndcg_cut_10", "nDCG@10")]:
        assert list(report.per_query[printed].values()) == result.query_values[name].tolist()
        assert report.summary[printed] == pytest.approx(result[name], abs=1e-15)
    assert report.names == ["map", "P_5", "P_10", "ndcg_cut_10"]  # trec_eval's table order


def test_complete_scores_an_absent_topic_on_an_empty_ranking(trec_dir: Path) -> None:
    qrels, run = trec_dir / "qrels.test", str(trec_dir / "results.trunc")  # 302 is absent
    with pytest.warns(ranklens.RanklensWarning, match=r"pass -c to score them 0: \['302'\]"):
        left_out = trec_eval(qrels, run, ["num_q", "map", "num_ret", "num_rel"])
    assert left_out.query_ids == ("301", "303")
    report = trec_eval(qrels, run, ["num_q", "map", "num_ret", "num_rel", "relstring"],
                       complete=True)
    assert report.query_ids == ("301", "302", "303")
    assert report.per_query["map"]["302"] == 0.0
    assert report.per_query["num_ret"]["302"] == 0.0
    assert report.per_query["relstring"]["302"] == ""
    assert report.per_query["num_rel"]["302"] > 0  # its judgments still count
    assert report.summary["num_q"] == 3.0
    # trec_eval's -c summary of num_rel counts every relevant judgment of the qrels
    relevant = sum(1 for line in qrels.read_text().splitlines() if int(line.split()[3]) > 0)
    assert report.summary["num_rel"] == relevant
    assert report.summary["map"] == pytest.approx(
        sum(left_out.per_query["map"].values()) / 3, abs=1e-15)


def test_complete_keeps_trec_evals_placeholder_document_for_raw_names(trec_dir: Path) -> None:
    # trec_eval resets utility on an absent topic by its printed name; printed with raw
    # parameters it keeps the value of its one unjudged placeholder document: b * 1
    report = trec_eval(trec_dir / "qrels.test", str(trec_dir / "results.trunc"),
                       ["utility", "utility.2,-1,0,0"], complete=True)
    assert report.names == ["utility_2,-1,0,0"]  # the first -m parameters win
    assert report.per_query["utility_2,-1,0,0"]["302"] == -1.0
    plain = trec_eval(trec_dir / "qrels.test", str(trec_dir / "results.trunc"), "utility",
                      complete=True)
    assert plain.per_query["utility"]["302"] == 0.0


def test_zscores_from_a_mapping() -> None:
    qrels = {"q1": {"a": 1, "b": 0}, "q2": {"c": 1}}
    run = {"q1": {"a": 2.0, "b": 1.0}, "q2": {"d": 1.0, "c": 0.5}}
    plain = trec_eval(qrels, run, ["map", "P.1"])
    assert plain.per_query["map"] == {"q1": 1.0, "q2": 0.5}
    table = {("q1", "map"): (0.5, 0.25), ("q2", "map"): (0.5, 0.0), ("q1", "P_1"): (1.0, 0.0)}
    report = trec_eval(qrels, run, ["map", "P.1"], zscores=table)
    assert report.per_query["map"] == {"q1": 2.0, "q2": 0.0}  # sd 0 and equal: 0
    assert report.per_query["P_1"] == {"q1": 0.0, "q2": -1000000.0}  # no statistics
    assert report.summary["map"] == 1.0
    assert report.text().splitlines()[0] == f"Z{'map':<22}\tall\t1.0000"  # trec_eval's Z%-22s


def test_qrels_jg_averages_the_groups_per_topic(tmp_path: Path) -> None:
    jg = tmp_path / "jg"
    jg.write_text("q1 g1 A 1\nq1 g1 B 0\nq1 g2 A 0\nq1 g2 B 1\nq2 g1 C 1\n")
    run = {"q1": {"A": 2.0, "B": 1.0}, "q2": {"D": 1.0, "C": 0.5}}
    report = trec_eval(jg, run, ["map_avgjg", "P_avgjg.1,2", "Rprec_mult_avgjg.1.0"],
                       judgments="qrels_jg")
    assert report.per_query["map_avgjg"] == {"q1": (1 + 0.5) / 2, "q2": 0.5}
    assert report.per_query["P_avgjg_1"] == {"q1": 0.5, "q2": 0.0}
    assert report.per_query["P_avgjg_2"] == {"q1": 0.5, "q2": 0.5}
    assert report.per_query["Rprec_mult_avgjg_1.00"] == {"q1": 0.5, "q2": 0.0}


def test_prefs_from_python(tmp_path: Path) -> None:
    prefs = tmp_path / "prefs"
    prefs.write_text("q1 u1 s1 A 2\nq1 u1 s1 B 1\nq1 u1 s1 C 0\n")
    report = trec_eval(prefs, {"q1": {"C": 3.0, "B": 2.0, "A": 1.0}},
                       ["prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_simp"],
                       judgments="prefs")
    assert report.per_query["prefs_num_prefs_poss"] == {"q1": 3.0}
    assert report.per_query["prefs_num_prefs_ful"] == {"q1": 0.0}  # the reverse order
    assert report.summary["prefs_simp"] == 0.0
    assert report.text().splitlines()[0] == "prefs_num_prefs_poss  \tall\t3"


def test_refusals_carry_trec_evals_status(tmp_path: Path) -> None:
    qrels = {"q1": {"a": 1}}
    run = {"q1": {"a": 1.0}}
    with pytest.raises(TrecEvalError, match="illegal measure 'mapp'") as info:
        trec_eval(qrels, run, "mapp")
    assert info.value.status == 1
    with pytest.raises(TrecEvalError, match=r"negative cutoff detected in 'P\.0'") as info:
        trec_eval(qrels, run, "P.0")
    assert info.value.status == 2
    with pytest.raises(TrecEvalError, match="needs -R prefs") as info:
        trec_eval(qrels, run, "prefs_simp")
    assert info.value.status == 4
    with pytest.raises(TrecEvalError, match="illegal rel_format 'bogus'"):
        trec_eval(qrels, run, judgments="bogus")  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="'measures' argument is empty"):
        trec_eval(qrels, run, [])
    with pytest.raises(ParameterError, match="'depth' option must be an integer, got '5'"):
        trec_eval(qrels, run, depth="5")  # type: ignore[arg-type]
    bad = tmp_path / "z"
    bad.write_text("q1 map 0.5\n")
    with pytest.raises(InputError, match=r"z:1: expected 4 fields \(query measure mean "
                                         r"stddev\), got 3"):
        trec_eval(qrels, run, "map", zscores=bad)


def test_qrels_from_stdin_with_complete(trec_dir: Path) -> None:
    """Regression: ``cat qrels | ranklens trec_eval -c -m map - run`` read the qrels twice
    and failed with "-: file is empty"."""
    proc = subprocess.run(
        [sys.executable, "-m", "ranklens", "trec_eval", "-c", "-m", "num_rel", "-m", "map",
         "-", "results.trunc"],
        cwd=trec_dir, input=(trec_dir / "qrels.test").read_bytes(), capture_output=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    files = subprocess.run(
        [sys.executable, "-m", "ranklens", "trec_eval", "-c", "-m", "num_rel", "-m", "map",
         "qrels.test", "results.trunc"], cwd=trec_dir, capture_output=True, timeout=300)
    assert proc.stdout == files.stdout
    assert proc.stdout.decode().splitlines()[0].startswith("num_rel")


@pytest.mark.parametrize("module", ["report", "summary", "table"])
def test_docstring_examples_run(module: str) -> None:
    mod = importlib.import_module(f"ranklens._surfaces.trec_eval.{module}")
    failed, tried = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
    assert tried and not failed


def test_report_values_are_read_only() -> None:
    report = trec_eval({"q1": {"a": 1}}, {"q1": {"a": 1.0, "b": 2.0}}, ["map", "P.1"])
    column = report.columns[0]
    assert isinstance(column.values, tuple)
    with pytest.raises(dataclasses.FrozenInstanceError):
        column.values = (9.0,)  # type: ignore[misc]
    report.per_query["map"]["q1"] = 9.0  # a copy: the report is unchanged
    assert report.per_query["map"]["q1"] == 0.5
    assert report.text() == f"{'map':<22}\tall\t0.5000\n{'P_1':<22}\tall\t0.0000\n"
