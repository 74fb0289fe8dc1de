"""``ranklens judges``: text and JSON Lines output, and one-line usage errors (exit 2)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_support import one_error, run, write

DATA = Path(__file__).resolve().parents[2] / "src" / "ranklens" / "data"


@pytest.fixture
def demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("demo.qrels", "demo-llm.qrels", "demo-bm25.run", "demo-dense.run"):
        shutil.copyfile(DATA / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_text_report_with_runs(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["judges", "people=demo.qrels", "llm=demo-llm.qrels", "-r", "demo-bm25.run",
               "-r", "demo-dense.run", "--resamples", "50"], capsys)
    assert out.code == 0, out.err
    assert "llm against people" in out.out
    assert "judged by llm only (6)" in out.out
    assert "significance decisions: rows people, columns llm" in out.out


def test_json_lines_per_query(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["judges", "demo.qrels", "demo-llm.qrels", "-f", "jsonl", "-q",
               "--resamples", "0"], capsys)
    assert out.code == 0, out.err
    records = [json.loads(line) for line in out.out.splitlines()]
    assert sum(r["section"] == "per_query" for r in records) == 40
    alone = [r for r in records if r["section"] == "alone" and r["judge"] == "demo-llm.qrels"]
    assert len(alone) == 6 and alone[0]["lacks"] == "demo.qrels"


@pytest.mark.parametrize(("args", "message"), [
    (["demo.qrels"], "give at least two QRELS"),
    (["demo.qrels", "demo-llm.qrels", "-r", "demo-bm25.run"], "at least two --run"),
    (["demo.qrels", "demo-llm.qrels", "--map", "llm"], "--map takes JUDGE:FROM=TO"),
    (["demo.qrels", "demo-llm.qrels", "--grades", "0,x"], "--grades takes integers"),
    (["demo.qrels", "demo-llm.qrels", "--resamples", "-1"], "--resamples"),
    (["demo.qrels", "wide.qrels"], "--map wide.qrels:4=3"),
    (["demo.qrels", "demo-llm.qrels", "-m", "AP"], "--measure applies to the runs"),
    (["demo.qrels", "demo-llm.qrels", "--rel", "2"], "--rel applies to the runs"),
])
def test_usage_errors_are_one_line(demo: Path, capsys: pytest.CaptureFixture[str],
                                   args: list[str], message: str) -> None:
    write(demo / "wide.qrels", "q01 0 doc01-000 4\nq01 0 doc01-003 2\n")
    out = run(["judges", *args], capsys)
    assert out.code == 2
    assert message in one_error(out.err)


def test_columns_of_a_headerless_file(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(demo / "team.txt", "q01 Q0 doc01-003 3 0.9 team\nq01 Q0 doc01-023 1 1 team\n")
    out = run(["judges", "demo.qrels", "team=team.txt", "--columns",
               "team:qid,_,docid,rel,_,_", "-f", "jsonl", "--resamples", "0"], capsys)
    assert out.code == 0, out.err
    assert json.loads(out.out.splitlines()[0])["pairs"] == 2
    out = run(["judges", "demo.qrels", "team.txt", "--columns", "team"], capsys)
    assert out.code == 2 and "--columns takes JUDGE:VALUE" in one_error(out.err)


def test_html_page(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["judges", "demo.qrels", "demo-llm.qrels", "-r", "demo-bm25.run", "-r",
               "demo-dense.run", "-f", "html", "-o", "judges.html", "--resamples", "0"], capsys)
    assert out.code == 0, out.err
    page = (demo / "judges.html").read_text("utf-8")
    assert page.startswith("<!DOCTYPE html>") and "chart-scatter-0" in page


def test_report_judges_section(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["report", "demo.qrels", "demo-bm25.run", "demo-dense.run", "--judges",
               "demo-llm.qrels", "-o", "r.html", "--max-k", "10"], capsys)
    assert out.code == 0, out.err
    page = (demo / "r.html").read_text("utf-8")
    assert "chart-judges-confusion-0" in page and "chart-judges-scatter-0" in page
    assert "demo-llm.qrels against demo.qrels" in page
    out = run(["report", "demo.qrels", "demo-bm25.run", "--judges", "demo-llm.qrels",
               "-o", "one.html", "--max-k", "10"], capsys)  # one run: agreement only
    assert out.code == 0, out.err
    page = (demo / "one.html").read_text("utf-8")
    assert "chart-judges-grades-0" in page and "chart-judges-scatter-0" not in page
    out = run(["report", "demo.qrels", "demo-bm25.run", "--judges", "demo-llm.qrels",
               "-o", "demo-llm.qrels"], capsys)
    assert out.code == 2 and "demo-llm.qrels" in one_error(out.err)
    assert "-o demo-llm.qrels is one of the input files" in out.err  # the option as typed


def test_report_judges_scale(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(demo / "wide.qrels", "q01 0 doc01-000 4\nq01 0 doc01-003 2\n")
    args = ["report", "demo.qrels", "demo-bm25.run", "--judges", "wide.qrels", "-o", "r.html",
            "--max-k", "10"]
    out = run(args, capsys)
    assert out.code == 2 and "--map wide.qrels:4=3" in one_error(out.err)
    out = run([*args, "--map", "wide.qrels:4=3"], capsys)
    assert out.code == 0, out.err
    out = run(["report", "demo.qrels", "demo-bm25.run", "-o", "r.html", "--grades", "0,1"],
              capsys)  # never silently ignored
    assert out.code == 2 and "--grades apply to --judges" in one_error(out.err)


def test_umbrela_outputs(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(demo / "req.jsonl", '{"query": {"qid": "q01"}, "candidates": [{"docid": "doc01-000"},'
          ' {"docid": "doc01-003"}]}\n')
    write(demo / "out.jsonl", '{"judgment": 3, "result_status": 1}\n'
          '{"judgment": 0, "result_status": 0}\n')
    out = run(["judges", "demo.qrels", "llm=out.jsonl", "--columns", "llm:umbrela:req.jsonl",
               "-f", "jsonl", "--resamples", "0"], capsys)
    assert out.code == 0, out.err
    assert json.loads(out.out.splitlines()[0])["pairs"] == 2
    out = run(["judges", "demo.qrels", "llm=out.jsonl", "--columns", "llm:umbrela:no.jsonl"],
              capsys)
    assert out.code == 2 and "no.jsonl" in one_error(out.err)


def test_a_tiny_p_prints_in_scientific_notation(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """A judge grading 40 pairs up and none down: the sign test's p is 2 * 0.5**40, shown as
    compare shows a small p (docs/compare.md), not as 0.0000."""
    from ranklens._surfaces.compare.render import _p

    people = write(tmp_path / "people.qrels", "".join(f"q{i} 0 d{i} 0\nq{i} 0 e{i} 1\n"
                                                      for i in range(40)))
    llm = write(tmp_path / "llm.qrels", "".join(f"q{i} 0 d{i} 1\nq{i} 0 e{i} 1\n"
                                                for i in range(40)))
    out = run(["judges", str(people), str(llm), "--resamples", "0"], capsys)
    assert out.code == 0, out.err
    header, _, row = out.out.split("llm.qrels against people.qrels\n")[1].splitlines()[:3]
    cells = dict(zip(header.split(), row.split(), strict=True))
    assert cells["sign_p"] == _p(2 * 0.5 ** 40, 4) == "1.8e-12"
    assert cells["wilcoxon_p"] != "0.0000" and float(cells["wilcoxon_p"]) < 1e-4


def test_judges_named_by_name_equals_path(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """NAME=PATH names a judge in ``judges`` and ``report --judges``; a plain PATH is named by
    its file; a name given twice or a missing file is one line, exit 2."""
    out = run(["judges", "people=demo.qrels", "demo-llm.qrels", "-f", "jsonl",
               "--resamples", "0"], capsys)
    assert out.code == 0, out.err
    first = json.loads(out.out.splitlines()[0])
    assert (first["reference"], first["judge"]) == ("people", "demo-llm.qrels")
    out = run(["report", "demo.qrels", "demo-bm25.run", "demo-dense.run", "--judges",
               "llm=demo-llm.qrels", "-o", "r.html", "--max-k", "10"], capsys)
    assert out.code == 0, out.err
    assert "llm against demo.qrels" in (demo / "r.html").read_text("utf-8")
    for args, message in (
            (["judges", "a=demo.qrels", "a=demo-llm.qrels"], "two judges are named 'a'"),
            (["judges", "demo.qrels", "llm=none.qrels"], "none.qrels: no such file"),
            (["report", "demo.qrels", "demo-bm25.run", "--judges", "demo.qrels=demo-llm.qrels",
              "-o", "x.html"], "--judges names the judge 'demo.qrels', the reference's"),
            (["report", "demo.qrels", "demo-bm25.run", "--judges", "llm=none.qrels",
              "-o", "x.html"], "none.qrels: no such file")):
        out = run(args, capsys)
        assert out.code == 2 and message in one_error(out.err), (args, out.err)


def test_tests_of_the_grade_distributions(demo: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["judges", "demo.qrels", "demo-llm.qrels", "-f", "jsonl", "--resamples", "0"],
              capsys)
    tests = {r["test"]: r for r in map(json.loads, out.out.splitlines())
             if r["section"] == "test"}
    assert set(tests) == {"stuart_maxwell", "bowker"}
    assert tests["bowker"]["df"] == 6 and 0 <= tests["bowker"]["p"] <= 1
    out = run(["judges", "demo.qrels", "demo-llm.qrels", "--resamples", "0"], capsys)
    assert "stuart_maxwell" in out.out and "bowker" in out.out
