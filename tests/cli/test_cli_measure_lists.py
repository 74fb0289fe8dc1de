"""``-m`` of evaluate, compare and report: one value may list several measures, separated by
spaces (as ir_measures' command line reads them); ``trec_eval -m`` keeps trec_eval's syntax."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import run

import ranklens

DATA = Path(ranklens.__file__).parent / "data"
QRELS, BM25, DENSE = (str(DATA / f) for f in ("demo.qrels", "demo-bm25.run", "demo-dense.run"))


def _measures(out: str) -> list[str]:
    return list(dict.fromkeys(json.loads(line)["measure"] for line in out.splitlines()))


def test_evaluate_splits_a_value_at_spaces(capsys: pytest.CaptureFixture[str]) -> None:
    r = run(["evaluate", QRELS, BM25, "-m", "nDCG@10 AP", "-m", " P_5,10  nDCG(gain=exp2, "
             "discount=jk)@5 ", "-f", "jsonl"], capsys)
    assert r.code == 0, r.err
    assert _measures(r.out) == ["nDCG@10", "AP", "P_5", "P_10", "nDCG(gain=exp2, discount=jk)@5"]
    apart = run(["evaluate", QRELS, BM25, "-m", "nDCG@10", "-m", "AP", "-f", "jsonl"], capsys)
    assert r.out.splitlines()[:2] == apart.out.splitlines()


def test_compare_splits_a_value_at_spaces(capsys: pytest.CaptureFixture[str]) -> None:
    r = run(["compare", QRELS, BM25, DENSE, "-m", "nDCG@10 AP", "-f", "jsonl"], capsys)
    assert r.code == 0, r.err
    assert {json.loads(line)["measure"] for line in r.out.splitlines()} == {"nDCG@10", "AP"}


def test_report_splits_a_value_at_spaces(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    output = tmp_path / "report.html"
    r = run(["report", QRELS, BM25, DENSE, "-m", "nDCG@10 AP", "--max-k", "5", "-o",
             str(output)], capsys)
    assert r.code == 0, r.err
    html = output.read_text(encoding="utf-8")
    assert "nDCG@10" in html and "AP" in html


def test_cutoff_before_parameters_is_answered(capsys: pytest.CaptureFixture[str]) -> None:
    r = run(["evaluate", QRELS, BM25, "-m", "nDCG@10(gain=exp2)"], capsys)
    assert r.code != 0
    assert "did you mean nDCG(gain=exp2)@10?" in r.err


def test_trec_eval_m_is_trec_evals(capsys: pytest.CaptureFixture[str]) -> None:
    r = run(["trec_eval", "-m", "map P_5", QRELS, BM25], capsys)
    assert r.code != 0  # trec_eval's -m takes one name; "map P_5" is none


@pytest.mark.parametrize("name", ["BEIR", "mteb", "TREC-RAG", "trec-rag24", "Trec-Rag25"])
def test_measures_names_a_set(capsys: pytest.CaptureFixture[str], name: str) -> None:
    r = run(["measures", name], capsys)
    assert r.code == 0, r.err
    head, doc, members = r.out.splitlines()
    assert head.endswith("(a measure set)") and head.split()[0].upper() == name.upper()
    assert members == "    measures: " + ", ".join(ranklens.evaluate(QRELS, BM25, [name]).measures)
    assert ("-c" in doc) == name.upper().startswith("TREC")
