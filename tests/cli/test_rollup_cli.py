"""``ranklens rollup`` (issue 40, item 2): a segment run or segment judgments rolled up to
documents as TREC files, the RAG inputs read by content or by ``--format-in``."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest
from cli_support import one_error, run, write

import ranklens

DATA = Path(str(resources.files("ranklens") / "data"))


def test_rollup_run_equals_the_api(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "docs.run"
    assert run(["rollup", str(DATA / "rag_bm25.run"), "-o", str(out)], capsys).code == 0
    want = ranklens.rollup(ranklens.load_run(DATA / "rag_bm25.run"))
    got = ranklens.load_run(out)
    assert got.frame.select("query_id", "doc_id", "score").rows() == \
        want.frame.select("query_id", "doc_id", "score").rows()
    assert out.read_text().splitlines()[0].split()[3] == "1"  # ranks renumbered


def test_rollup_qrels_and_2025_judgments(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    outcome = run(["rollup", str(DATA / "rag_umbrela.qrels")], capsys)
    want = ranklens.rollup(ranklens.load_qrels(DATA / "rag_umbrela.qrels"))
    assert outcome.out.splitlines() == [f"{q} 0 {d} {g:g}" for q, d, g in want.frame.rows()]
    judged = write(tmp_path / "judged.txt", "1 Q0 d#0_1 3 0.5 mine\n1 Q0 d#1_2 1 1 mine\n")
    outcome = run(["rollup", str(judged), "--format-in", "rag-judgments"], capsys)
    assert outcome.out == "1 0 d 3\n"
    # six columns also make a valid TREC run: without --format-in it is read as one
    assert run(["rollup", str(judged)], capsys).out == "1 Q0 d 1 1.0 mine\n"


def test_rollup_answers_by_regex_and_map(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    ag = str(DATA / "rag_ag.jsonl")
    by_hash = run(["rollup", ag], capsys).out
    assert run(["rollup", ag, "--by-regex", "^([^#]*)#"], capsys).out == by_hash
    mapping = write(tmp_path / "map.txt", "".join(
        f"{d} {d.split('#')[0]}\n" for d in ranklens.read_answers(ag).run.frame["doc_id"]))
    assert run(["rollup", ag, "--by-map", str(mapping)], capsys).out == by_hash
    assert run(["rollup", ag, "--format-in", "answers", "--how", "sum"], capsys).code == 0


@pytest.mark.parametrize(("args", "words"), [
    (["--by", "#", "--by-regex", "x"], "give one of --by, --by-regex and --by-map; got --by "
                                       "and --by-regex"),
    (["--how", "max"], "--how max is for judgments; INPUT is a run"),
    (["--by-regex", "("], "the '--by-regex' option must be a regular expression; got '('"),
    (["--by-regex", "zzz"], "does not match the regex 'zzz'"),
])
def test_rollup_errors(args: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    outcome = run(["rollup", str(DATA / "rag_bm25.run"), *args], capsys)
    assert outcome.code == 2
    assert words in one_error(outcome.err)


def test_rollup_refuses_to_write_over_its_input(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    seg = write(tmp_path / "seg.run", "q Q0 d#0_1 1 1.0 r\n")
    outcome = run(["rollup", str(seg), "-o", str(seg)], capsys)
    assert outcome.code == 2 and "is one of the input files" in one_error(outcome.err)
    assert seg.read_text() == "q Q0 d#0_1 1 1.0 r\n"


def test_evaluate_reads_an_ag_submission(capsys: pytest.CaptureFixture[str]) -> None:
    outcome = run(["evaluate", str(DATA / "rag_umbrela.qrels"), str(DATA / "rag_ag.jsonl"),
                   "-m", "nDCG@5", "-f", "csv"], capsys)
    want = ranklens.evaluate(DATA / "rag_umbrela.qrels",
                             ranklens.read_answers(DATA / "rag_ag.jsonl").run, ["nDCG@5"])
    assert outcome.code == 0
    assert outcome.out.splitlines()[1] == f"rag_ag,all,{want['nDCG@5']!r}"
