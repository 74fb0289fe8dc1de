"""The judging loop: export unjudged pairs -> a stub judge labels them by rule -> merge back.

The stub judge stands in for an LLM: it reads the request records (ragnarok/UMBRELA shape)
and labels each candidate by a rule on its passage text, so every expected grade is known
from the inputs alone.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ranklens
from ranklens._surfaces.judge_merge import read_provenance

RUN_A = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}, "q2": {"e1": 2.0, "e2": 1.0}}
RUN_B = {"q1": {"d4": 3.0, "d1": 2.0}, "q2": {"e3": 5.0}}
QRELS = {"q1": {"d1": 1}, "q2": {"e1": 0}}
TOPICS = {"q1": "first question", "q2": "second question"}
CORPUS = {d: f"passage {d} " + "x" * int(d[1:]) for d in ("d1", "d2", "d3", "d4", "e1", "e2",
                                                            "e3")}


def grade_rule(text: str) -> int:
    """The stub judge's rule: the number of x in the passage, capped at 3."""
    return min(text.count("x"), 3)


def stub_judge(requests: str, *, with_ids: bool = True, fail: tuple[str, ...] = ()) -> list:
    """UMBRELA-like outputs for every candidate, in request order (ids only if asked)."""
    out = []
    for line in requests.splitlines():
        request = json.loads(line)
        for cand in request["candidates"]:
            text = cand["doc"]["segment"]
            record = {"model": "stub-1", "prompt": f"{request['query']['text']}|{text}",
                      "judgment": grade_rule(text), "result_status": int(cand["docid"] not in
                                                                          fail)}
            if with_ids:
                record |= {"qid": request["query"]["qid"], "docid": cand["docid"]}
            out.append(record)
    return out


def write_jsonl(path: Path, records: list) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


def test_export_holds_the_unjudged_pairs_with_their_texts() -> None:
    req = ranklens.judge_requests([RUN_A, RUN_B], depth=2, qrels=QRELS, topics=TOPICS,
                                  corpus=CORPUS)
    assert req.pairs() == [("q1", "d4"), ("q1", "d2"), ("q2", "e3"), ("q2", "e2")]
    assert set(req.pairs()) == ranklens.pool([RUN_A, RUN_B], 2, QRELS).pairs()
    first = json.loads(req.render().splitlines()[0])
    assert first == {"query": {"qid": "q1", "text": "first question"}, "candidates": [
        {"docid": "d4", "doc": {"segment": CORPUS["d4"]}},
        {"docid": "d2", "doc": {"segment": CORPUS["d2"]}}]}


def test_round_trip_then_a_second_merge_is_a_no_op(tmp_path: Path) -> None:
    req = ranklens.judge_requests([RUN_A, RUN_B], depth=3, qrels=QRELS, topics=TOPICS,
                                  corpus=CORPUS)
    labels = write_jsonl(tmp_path / "labels.jsonl", stub_judge(req.render(), fail=("e2",)))
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\nq2 0 e1 0\n")
    merged = ranklens.merge_labels(str(qrels), labels)
    want = {(q, d): float(grade_rule(CORPUS[d])) for q, d in req.pairs() if d != "e2"}
    got = {(q, d): g for q, d, g in merged.qrels.frame.rows()}
    assert got == {("q1", "d1"): 1.0, ("q2", "e1"): 0.0, **want}
    assert (merged.added, merged.failed) == (len(want), 1)
    merged.write(str(tmp_path / "m1.qrels"))
    again = ranklens.merge_labels(str(tmp_path / "m1.qrels"), labels)
    again.write(str(tmp_path / "m2.qrels"))
    assert again.added == 0
    for name in ("m1.qrels", "m1.qrels.provenance.jsonl"):
        assert (tmp_path / name).read_bytes() == (tmp_path / name.replace("m1", "m2")).read_bytes()


def test_provenance_survives_a_write_and_a_read(tmp_path: Path) -> None:
    labels = [{"qid": "q1", "docid": "d2", "judgment": 2, "judge": "umbrela", "model": "m",
               "prompt_hash": "abc", "votes": [2, 2, 1], "confidence": 0.8},
              {"qid": "q1", "docid": "d3", "judgment": 0, "result_status": 0},
              {"qid": "q1", "docid": "d3", "judgment": 0, "result_status": 0}]
    merged = ranklens.merge_labels(QRELS, labels)
    merged.write(str(tmp_path / "out.qrels"))
    assert read_provenance(str(tmp_path / "out.qrels")) == merged.provenance
    back = ranklens.MergedJudgments.read(str(tmp_path / "out.qrels"))
    assert back.provenance == merged.provenance
    assert back.qrels.frame.rows() == merged.qrels.frame.rows()
    assert merged.provenance == (
        {"query_id": "q1", "doc_id": "d2", "source": "labels[0]", "judge": "umbrela",
         "model": "m", "prompt_hash": "abc", "votes": [2, 2, 1], "confidence": 0.8,
         "relevance": 2.0, "failures": 0},
        {"query_id": "q1", "doc_id": "d3", "source": "labels[0]", "relevance": None,
         "failures": 2})
    assert ranklens.load_qrels(str(tmp_path / "out.qrels")).frame.rows() == \
        merged.qrels.frame.rows()


def test_positional_labels_are_joined_to_the_requests(tmp_path: Path) -> None:
    req = ranklens.judge_requests([RUN_A], depth=3, corpus=CORPUS)
    req_path = tmp_path / "req.jsonl"
    req_path.write_text(req.render())
    labels = stub_judge(req.render(), with_ids=False)
    by_id = ranklens.merge_labels({}, stub_judge(req.render()))
    for requests in (req, str(req_path)):
        got = ranklens.merge_labels({}, labels, requests=requests)
        assert got.qrels.frame.rows() == by_id.qrels.frame.rows()
    with pytest.raises(ranklens.InputError, match=r"4 label records without ids for 5 "):
        ranklens.merge_labels({}, labels[:4], requests=req)
    with pytest.raises(ranklens.InputError, match=r"labels\[0\]:1: a label without qid"):
        ranklens.merge_labels({}, labels)


def test_conflicting_labels_name_both_sources(tmp_path: Path) -> None:
    a = write_jsonl(tmp_path / "a.jsonl", [{"qid": "q1", "docid": "d2", "judgment": 1}])
    b = write_jsonl(tmp_path / "b.jsonl", [{"qid": "q1", "docid": "d2", "judgment": 3}])
    with pytest.raises(ranklens.InputError, match=r"query 'q1' doc 'd2' has two grades: 1 in "
                       r".*a.jsonl line 1 and 3 in .*b.jsonl line 1"):
        ranklens.merge_labels(QRELS, [a, b])
    with pytest.raises(ranklens.InputError, match=r"two grades: 1 in the judgments and 3 in "):
        ranklens.merge_labels(QRELS, [{"qid": "q1", "docid": "d1", "judgment": 3}])
    with pytest.raises(ranklens.InputError, match=r"the grade must be a finite number; got 'high'"):
        ranklens.merge_labels(QRELS, [{"qid": "q1", "docid": "d1", "judgment": "high"}])
    with pytest.raises(ranklens.InputError, match=r"labels\[0\]:1: the grade must be a finite "
                       r"number; got nan"):
        ranklens.merge_labels(QRELS, [{"qid": "q1", "docid": "d1", "judgment": float("nan")}])


def test_missing_texts_are_errors_naming_the_pair() -> None:
    with pytest.raises(ranklens.InputError,
                       match=r"the pooled query 'q2' has no text here \(1 lack one\)"):
        ranklens.judge_requests([RUN_A], depth=1, topics={"q1": "t"})
    with pytest.raises(ranklens.InputError, match=r"the pooled document 'd1' has no "
                                                  r"text here \(1 lack one\); give a file"):
        ranklens.judge_requests([RUN_A], depth=1, corpus={"e1": "t"})


def test_topics_and_corpus_files(tmp_path: Path) -> None:
    (tmp_path / "t.tsv").write_text("q1\tfirst question\nq2\tsecond question\n")
    write_jsonl(tmp_path / "t.jsonl", [{"id": "q1", "title": "first question"},
                                        {"id": "q2", "title": "second question"}])
    write_jsonl(tmp_path / "c.jsonl", [{"docid": d, "segment": t, "title": "T"}
                                       for d, t in CORPUS.items()])
    want = ranklens.judge_requests([RUN_A], depth=2, topics=TOPICS).render()
    for topics in ("t.tsv", "t.jsonl"):
        got = ranklens.judge_requests([RUN_A], depth=2, topics=str(tmp_path / topics))
        assert got.render() == want
    got = ranklens.judge_requests([RUN_A], depth=1, corpus=str(tmp_path / "c.jsonl"))
    assert json.loads(got.render().splitlines()[0])["candidates"][0]["doc"] == {
        "segment": CORPUS["d1"], "title": "T"}


@settings(max_examples=30, deadline=None)
@given(st.dictionaries(st.sampled_from(["q1", "q2", "q3"]),
                       st.dictionaries(st.sampled_from([f"d{i}" for i in range(8)]),
                                       st.floats(0, 10, allow_nan=False), min_size=1),
                       min_size=1),
       st.integers(1, 6))
def test_merging_every_exported_pair_judges_the_whole_pool(run: dict, depth: int) -> None:
    corpus = {f"d{i}": "x" * i for i in range(8)}
    req = ranklens.judge_requests([run], depth=depth, corpus=corpus)
    merged = ranklens.merge_labels({}, stub_judge(req.render()))
    assert ranklens.pool([run], depth, merged.qrels).pairs() == set()
    assert {(q, d): g for q, d, g in merged.qrels.frame.rows()} == {
        (q, d): float(grade_rule(corpus[d])) for q, d in req.pairs()}


def test_votes_without_a_grade_give_the_mode_ties_to_the_least() -> None:
    labels = [{"qid": "q1", "docid": "d2", "votes": [3, 1, 3, 2]},
              {"qid": "q1", "docid": "d3", "votes": [2, 1, 2, 1]},
              {"qid": "q1", "docid": "d4", "votes": [], "result_status": 0}]
    got = ranklens.merge_labels(QRELS, labels)
    assert got.qrels.frame.rows()[-2:] == [("q1", "d2", 3.0), ("q1", "d3", 1.0)]
    assert got.failed == 1


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["q1", "q2"]), st.sampled_from(["d1", "d2", "d3"]),
                          st.one_of(st.none(), st.integers(0, 3))), max_size=12))
def test_a_second_merge_of_any_labels_changes_nothing(labels: list) -> None:
    records = [{"qid": q, "docid": d, "judgment": g, "result_status": int(g is not None)}
               for q, d, g in labels]
    graded = {}
    for q, d, g in labels:
        if g is not None and graded.setdefault((q, d), g) != g:
            with pytest.raises(ranklens.InputError, match="has two grades"):
                ranklens.merge_labels({"q9": {"x": 1}}, records)
            return
    once = ranklens.merge_labels({"q9": {"x": 1}}, records)
    twice = ranklens.merge_labels(once, records)
    assert twice.qrels.frame.rows() == once.qrels.frame.rows()
    assert twice.provenance == once.provenance
    assert twice.added == 0 and once.added == len(graded)


@pytest.mark.parametrize("module", ["judge_export", "judge_merge", "coverage"])
def test_the_docstring_examples_run(module: str) -> None:
    import doctest
    import importlib

    failed, tried = doctest.testmod(importlib.import_module(f"ranklens._surfaces.{module}"))
    assert tried > 0 and failed == 0
