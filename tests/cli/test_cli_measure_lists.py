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


@pytest.mark.parametrize(("name", "cut"), [("TREC-RAG24", 20), ("TREC-RAG", 30)])
def test_trec_rag_set_is_trec_eval_c(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                     name: str, cut: int) -> None:
    # topic 3 is judged but absent from the run (-c scores it 0); topic 9 has no judgments
    qrels, run_file = tmp_path / "q", tmp_path / "r"
    qrels.write_text("1 0 a 3\n1 0 b 1\n1 0 c 0\n2 0 a 2\n3 0 d 1\n")
    run_file.write_text("1 Q0 b 1 3 r\n1 Q0 a 2 2 r\n1 Q0 x 3 1 r\n2 Q0 z 1 1 r\n"
                        "2 Q0 a 2 0.5 r\n9 Q0 a 1 1 r\n")
    got = run(["evaluate", str(qrels), str(run_file), "-m", name, "--missing", "zero",
               "-f", "jsonl"], capsys)
    official = run(["trec_eval", "-c", "-m", f"ndcg_cut.{cut},100", "-m", "recall.100",
                    str(qrels), str(run_file)], capsys)
    assert got.code == official.code == 0, got.err + official.err
    values = {json.loads(line)["measure"]: json.loads(line)["value"]
              for line in got.out.splitlines()}
    trec = {m.replace("ndcg_cut_", "nDCG@").replace("recall_", "R@"): float(v)
            for m, _, v in (line.split() for line in official.out.splitlines())}
    assert list(values) == [f"nDCG@{cut}", "nDCG@100", "R@100"]
    assert {m: round(v, 4) for m, v in values.items()} == trec
    assert trec["R@100"] == round(2 / 3, 4)  # (1 + 1 + 0) / 3 judged topics
