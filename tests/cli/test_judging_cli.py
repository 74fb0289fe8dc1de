"""``ranklens judge-export`` and ``judge-merge`` on the bundled TREC-RAG-shaped demo files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_support import one_error, run, write

DATA = Path(__file__).resolve().parents[2] / "src" / "ranklens" / "data"
FILES = ("rag_bm25.run", "rag_dense.run", "rag_umbrela.qrels", "rag_topics.tsv",
         "rag_corpus.jsonl")


@pytest.fixture
def demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in FILES:
        shutil.copyfile(DATA / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def judge(requests: Path, out: Path) -> None:
    """A stub judge without ids (as UMBRELA answers): grade = segment number mod 4."""
    lines = [json.dumps({"model": "stub", "judgment": int(c["docid"].split("#")[1][0]) % 4})
             for r in map(json.loads, requests.read_text().splitlines())
             for c in r["candidates"]]
    write(out, "\n".join(lines) + "\n")


def test_export_judge_merge_round_trip(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["judge-export", "rag_bm25.run", "rag_dense.run", "--qrels", "rag_umbrela.qrels",
               "--topics", "rag_topics.tsv", "--corpus", "rag_corpus.jsonl", "-k", "20",
               "-o", "req.jsonl"], capsys)
    assert out.code == 0, out.err
    assert "6 requests; 54 pairs to judge" in out.err
    first = json.loads((demo / "req.jsonl").read_text().splitlines()[0])
    assert first["query"]["text"] == "how does vicarious trauma affect counsellors"
    assert first["candidates"][0]["doc"]["segment"].startswith("Passage")
    judge(demo / "req.jsonl", demo / "labels.jsonl")
    out = run(["judge-merge", "rag_umbrela.qrels", "labels.jsonl", "--requests", "req.jsonl",
               "-o", "m1.qrels"], capsys)
    assert out.code == 0, out.err
    assert out.err.startswith("new judgments: 54; pairs left unjudged (every attempt "
                              "failed): 0")
    out = run(["judge-merge", "m1.qrels", "labels.jsonl", "--requests", "req.jsonl",
               "-o", "m2.qrels"], capsys)
    assert out.err.startswith("new judgments: 0;")
    for name in ("m1.qrels", "m1.qrels.provenance.jsonl"):
        assert (demo / name).read_bytes() == (demo / name.replace("m1", "m2")).read_bytes()
    out = run(["judge-export", "rag_bm25.run", "rag_dense.run", "--qrels", "m1.qrels",
               "-k", "20"], capsys)
    assert out.out == "" and "0 pairs to judge" in out.err
    out = run(["evaluate", "m1.qrels", "rag_bm25.run", "-m", "nDCG@10", "-v"], capsys)
    assert ("ranklens: judgments: 54 labelled pairs in m1.qrels.provenance.jsonl by unnamed "
            "judge (model stub, prompt ?); 0 failed attempts") in out.err


def test_usage_errors_are_one_line(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["judge-merge", "rag_umbrela.qrels", "-o", "m.qrels"], capsys)
    assert out.code == 2 and one_error(out.err).startswith("give at least one LABELS file to merge")
    write(demo / "l.jsonl", '{"qid": "2024-105741", "docid": "x", "judgment": 1}\n')
    out = run(["judge-merge", "rag_umbrela.qrels", "l.jsonl", "-o", "l.jsonl"], capsys)
    assert out.code == 2 and "-o l.jsonl is one of the input files" in one_error(out.err)
    out = run(["judge-merge", "rag_umbrela.qrels", "l.jsonl", "-o", "rag_umbrela.qrels"],
              capsys)
    assert out.code == 2 and "is one of the input files" in one_error(out.err)
    write(demo / "c.jsonl", '{"qid": "2024-105741", "docid": '
          '"msmarco_v2.1_doc_05_2007007101#1_2626790952", "judgment": 0}\n')
    out = run(["judge-merge", "rag_umbrela.qrels", "c.jsonl", "-o", "m.qrels"], capsys)
    assert "has two grades: 2 in rag_umbrela.qrels and 0 in c.jsonl line 1" in one_error(
        out.err)
    assert not (demo / "m.qrels").exists()
    out = run(["judge-export", "-o", "x.jsonl"], capsys)
    assert out.code == 2 and one_error(out.err).startswith("give at least one RUN to pool")
    out = run(["judge-merge", "rag_umbrela.qrels", "l.jsonl"], capsys)  # -o is required
    assert out.code == 2 and "Missing option '-o' / '--output'" in one_error(out.err)


def test_coverage_option_of_evaluate_compare_and_report(
        demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(demo / "q.txt", "q1 0 d1 1\nq1 0 d2 1\nq1 0 d3 0\n")
    write(demo / "a.run", "q1 Q0 d1 1 3 a\nq1 Q0 d3 2 2 a\nq1 Q0 d2 3 1 a\n")
    write(demo / "b.run", "q1 Q0 d9 1 3 b\nq1 Q0 d1 2 2 b\nq1 Q0 d2 3 1 b\n")
    warning = ("ranklens: warning: coverage: AP ranks a above b, but below it on condensed "
               "lists")
    out = run(["evaluate", "q.txt", "a.run", "b.run", "-m", "AP", "--coverage", "3",
               "-f", "csv"], capsys)
    assert out.code == 0 and out.err.startswith(warning)
    assert out.out.splitlines()[0] == "run,query,AP,Judged@3,Unj@3,AP(judged_only=true)"
    out = run(["compare", "q.txt", "a.run", "b.run", "-m", "AP", "--coverage", "3"], capsys)
    assert out.code == 0 and out.err.startswith(warning)
    assert "AP(judged_only=true)" in out.out
    out = run(["report", "q.txt", "a.run", "b.run", "-m", "AP", "--coverage", "3", "-o",
               "r.html"], capsys)
    assert out.code == 0 and out.err.startswith(warning)
    assert "AP(judged_only=true)" in (demo / "r.html").read_text()
    out = run(["evaluate", "q.txt", "a.run", "b.run", "-m", "AP", "-f", "csv"], capsys)
    assert out.err == "" and "Unj" not in out.out
    out = run(["evaluate", "q.txt", "a.run", "--coverage", "0"], capsys)
    assert out.code == 2 and "--coverage" in one_error(out.err)


@pytest.mark.parametrize("extra", [["--fail-if-worse", "rag_bm25"], ["--correction-scope", "all"]])
def test_compare_refuses_coverage_where_it_would_change_the_tests(
        demo: Path, capsys: pytest.CaptureFixture[str], extra: list[str]) -> None:
    out = run(["compare", "rag_umbrela.qrels", "rag_bm25.run", "rag_dense.run", "--coverage",
               "20", *extra], capsys)
    assert out.code == 2
    assert one_error(out.err).startswith("--coverage adds measures, which --fail-if-worse")
