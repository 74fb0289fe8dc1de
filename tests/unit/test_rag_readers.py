"""TREC RAG and RAG-framework readers (issue 40, item 1): each reads a literal example
written from rag.md's format descriptions, and its values equal the same data as TREC files."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

import ranklens
from ranklens import InputError, ParameterError

S1 = "msmarco_v2.1_doc_16_1041913392#3_1268938142"
S2 = "msmarco_v2.1_doc_14_1198634226#9_2470404444"
S3 = "msmarco_v2.1_doc_51_766815931#2_1606878413"
MEASURES = ["nDCG@3", "AP", "RR", "P@2", "R@3"]

# the TREC files every form below must equal
TREC_QRELS = f"2027497 0 {S1} 3\n2027497 0 {S3} 1\n2027497 0 {S2} 0\n14 0 {S2} 2\n"
TREC_RUN = (f"2027497 Q0 {S2} 1 3 r\n2027497 Q0 {S1} 2 2 r\n2027497 Q0 {S3} 3 1 r\n"
            f"14 Q0 {S1} 1 2 r\n14 Q0 {S2} 2 1 r\n")


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def _jsonl(tmp_path: Path, name: str, records: list[dict]) -> Path:
    return _write(tmp_path, name, "".join(json.dumps(r) + "\n" for r in records))


def _same(tmp_path: Path, qrels: object, run: object) -> None:
    """``qrels`` and ``run`` score as the TREC files do, query by query."""
    want = ranklens.evaluate(_write(tmp_path, "want.qrels", TREC_QRELS),
                             _write(tmp_path, "want.run", TREC_RUN), MEASURES)
    got = ranklens.evaluate(qrels, run, MEASURES)
    for name in MEASURES:
        assert got.per_query(name) == want.per_query(name), name


AG_2024 = [
    {"run_id": "my-run", "topic_id": "2027497", "topic": "how often should you ...",
     "references": [S2, S1, S3], "response_length": 4,
     "answer": [{"text": "Sentence one.", "citations": [0, 1]},
                {"text": "Sentence two.", "citations": [2]}]},
    {"run_id": "my-run", "topic_id": "14", "topic": "what is ...", "references": [S1, S2],
     "response_length": 2, "answer": [{"text": "Only one.", "citations": []}]},
]


def test_ag_2024_flat_equals_trec_files(tmp_path: Path) -> None:
    answers = ranklens.read_answers(_jsonl(tmp_path, "ag.jsonl", AG_2024))
    _same(tmp_path, _write(tmp_path, "q", TREC_QRELS), answers.run)
    assert answers.run.name == "my-run"
    assert answers.citations == {"2027497": [(S2, S1), (S3,)], "14": [()]}
    assert answers.topics["14"] == "what is ..."


def test_ag_2025_nested_both_citation_formats(tmp_path: Path) -> None:
    nested = [{"metadata": {"team_id": "t", "run_id": "r25", "type": "automatic",
                            "narrative_id": int(r["topic_id"]), "narrative": r["topic"]},
               "references": r["references"], "answer": r["answer"]} for r in AG_2024]
    # format 2: citations are the segment ids themselves
    nested[0]["answer"] = [{"text": "One.", "citations": [S2, S1]},
                           {"text": "Two.", "citations": [S3]}]
    answers = ranklens.read_answers(nested)
    _same(tmp_path, _write(tmp_path, "q", TREC_QRELS), answers.run)
    assert answers.run.name == "r25"
    assert answers.citations["2027497"] == [(S2, S1), (S3,)]
    assert answers.topics["2027497"] == "how often should you ..."


def test_evaluate_detects_ag_jsonl(tmp_path: Path) -> None:
    _same(tmp_path, _write(tmp_path, "q", TREC_QRELS),
          ranklens.load_run(_jsonl(tmp_path, "ag.jsonl", AG_2024)))


@pytest.mark.parametrize(("citation", "words"), [
    (2, "citation 2 is neither an index below 2"),
    ("msmarco_v2.1_doc_00_1#0_1", "nor an id among the references"),
    (True, "citation True"),
])
def test_ag_bad_citation_names_line(tmp_path: Path, citation: object, words: str) -> None:
    records = json.loads(json.dumps(AG_2024))
    records[1]["answer"][0]["citations"] = [citation]
    path = _jsonl(tmp_path, "ag.jsonl", records)
    with pytest.raises(InputError, match=words) as info:
        ranklens.read_answers(path)
    assert info.value.line == 2 and info.value.source == str(path)


def test_ag_two_records_for_a_topic_and_missing_field(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="topic '14' has two records"):
        ranklens.read_answers([AG_2024[1], AG_2024[1]])
    with pytest.raises(InputError, match="no 'references' field"):
        ranklens.read_answers([{"topic_id": "1", "answer": []}])


REQUESTS = [
    {"query": {"qid": "2027497", "text": "how often should you ..."},
     "candidates": [{"docid": S2, "score": 37.5, "doc": {"segment": "b"}},
                    {"docid": S1, "score": 30.0, "doc": {"segment": "a"}},
                    {"docid": S3, "score": 12.25, "doc": {"segment": "c"}}]},
    {"query": {"qid": "14", "text": "what is ..."},
     "candidates": [{"docid": S1, "score": 9.0, "doc": {"segment": "a"}},
                    {"docid": S2, "score": 8.5, "doc": {"segment": "b"}}]},
]


def test_ragnarok_requests_equal_trec_files(tmp_path: Path) -> None:
    path = _jsonl(tmp_path, "requests.jsonl", REQUESTS)
    _same(tmp_path, _write(tmp_path, "q", TREC_QRELS), ranklens.read_requests(path))
    # found by their keys through load_run, scores kept
    run = ranklens.load_run(path)
    assert sorted(run.frame["score"].to_list()) == [8.5, 9.0, 12.25, 30.0, 37.5]


def test_requests_without_scores_rank_by_position() -> None:
    run = ranklens.read_requests([{"query": {"qid": "1", "text": "t"},
                                   "candidates": [{"docid": "b"}, {"docid": "a"}]}])
    assert ranklens.evaluate({"1": {"a": 1}}, run, ["RR"])["RR"] == 0.5


def test_topics_all_years(tmp_path: Path) -> None:
    tsv = _write(tmp_path, "topics.rag24.test.txt",
                 "2024-145979\twhat is vicarious trauma and how can it be coped with?\n")
    assert ranklens.read_topics(tsv) == {
        "2024-145979": "what is vicarious trauma and how can it be coped with?"}
    jsonl = _write(tmp_path, "trec_rag_2025_queries.jsonl",
                   '{"id": "464", "title": "I want a thorough understanding of ..."}\n'
                   '{"id": "465", "narrative": "An older draft key"}\n')
    assert ranklens.read_topics(jsonl) == {"464": "I want a thorough understanding of ...",
                                           "465": "An older draft key"}
    rag26 = _write(tmp_path, "q26.tsv", "rag2026-0\tI’m on a hospital nursing DEI council\n")
    assert ranklens.read_topics(rag26) == {"rag2026-0": "I’m on a hospital nursing DEI council"}
    assert ranklens.read_topics(REQUESTS)["14"] == "what is ..."


def test_topics_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no tab") as info:
        ranklens.read_topics(_write(tmp_path, "t.tsv", "1\tok\n2 no tab here\n"))
    assert info.value.line == 2
    with pytest.raises(InputError, match="topic '1' is given twice"):
        ranklens.read_topics([{"id": 1, "title": "a"}, {"id": "1", "title": "b"}])
    with pytest.raises(InputError, match="expected a topic id"):
        ranklens.read_topics([{"title": "a"}])


JUDGED_2025 = (f"2027497 Q0 {S1} 3 1 my-qrel\n2027497 Q0 {S3} 1 0.5 my-qrel\n"
               f"2027497 Q0 {S2} 0 1 my-qrel\n14 Q0 {S2} 2 0.75 my-qrel\n")


def test_2025_judgment_file_equals_trec_qrels(tmp_path: Path) -> None:
    judged = ranklens.read_rag_judgments(_write(tmp_path, "judged.txt", JUDGED_2025))
    _same(tmp_path, judged.qrels, _write(tmp_path, "r", TREC_RUN))
    assert judged.extra.filter(judged.extra["doc_id"] == S3).row(0) == (
        "2027497", S3, 0.5, "my-qrel")
    # six columns are no trec_eval qrels: the TREC reader still refuses them
    with pytest.raises(InputError):
        ranklens.load_qrels(tmp_path / "judged.txt")


def test_official_qrels_forms_read_as_trec(tmp_path: Path) -> None:
    # rag24 NIST (column 2 a number), rag25 NIST ('0'), rag25 UMBRELA2 ('Q0')
    for column in ("1", "0", "Q0"):
        text = TREC_QRELS.replace(" 0 ", f" {column} ")
        _same(tmp_path, _write(tmp_path, f"q{column}", text), _write(tmp_path, "r", TREC_RUN))


def test_2025_judgment_file_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="expected 6 fields") as info:
        ranklens.read_rag_judgments(_write(tmp_path, "j", f"1 Q0 {S1} 3 1 t\n1 0 {S2} 2\n"))
    assert info.value.line == 2
    with pytest.raises(InputError, match="must be numbers"):
        ranklens.read_rag_judgments(_write(tmp_path, "j", f"1 Q0 {S1} high 1 t\n"))


def _umbrela(judgments: list[int], status: list[int] | None = None) -> list[dict]:
    texts = [r["query"]["text"] for r in REQUESTS for _ in r["candidates"]]
    status = status or [1] * len(judgments)
    return [{"model": "gpt-4o", "query": t, "passage": "...", "prompt": "...",
             "prediction": f"##final score: {j}", "reasoning": None, "judgment": j,
             "result_status": s} for t, j, s in zip(texts, judgments, status, strict=True)]


def test_umbrela_merged_by_position(tmp_path: Path) -> None:
    # the requests' candidates in order: S2 S1 S3 (2027497), S1 S2 (14)
    outputs = _jsonl(tmp_path, "out.jsonl", _umbrela([0, 3, 1, 9, 2]))
    qrels = ranklens.read_umbrela(outputs, _jsonl(tmp_path, "req.jsonl", REQUESTS))
    # S1 of topic 14 is judged 9 there and not at all in the TREC file: drop it to compare
    frame = qrels.frame.filter(~((qrels.frame["query_id"] == "14")
                                 & (qrels.frame["doc_id"] == S1)))
    _same(tmp_path, ranklens.load_qrels(frame), _write(tmp_path, "r", TREC_RUN))
    assert len(qrels) == 5


def test_umbrela_unparsed(tmp_path: Path) -> None:
    outputs = _umbrela([0, 3, 1, 0, 2], [1, 1, 1, 0, 1])
    with pytest.warns(ranklens.RanklensWarning, match="1 judgment"):
        assert len(ranklens.read_umbrela(outputs, REQUESTS)) == 4
    assert len(ranklens.read_umbrela(outputs, REQUESTS, unparsed="zero")) == 5
    with pytest.raises(InputError, match=r"no score was parsed for \(14, "):
        ranklens.read_umbrela(outputs, REQUESTS, unparsed="error")
    with pytest.raises(ParameterError, match="'unparsed' option"):
        ranklens.read_umbrela(outputs, REQUESTS, unparsed="keep")


def test_umbrela_mismatches(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="4 judgments for 5 candidates"):
        ranklens.read_umbrela(_umbrela([0, 3, 1, 0, 1])[:4], REQUESTS)
    swapped = _umbrela([0, 3, 1, 0, 1])
    swapped[0]["query"] = "another question"
    with pytest.raises(InputError, match="is not that of its request"):
        ranklens.read_umbrela(swapped, REQUESTS)


def test_nuggetizer_both_modes() -> None:
    answer_mode = [{"query": "q", "qid": "1", "answer_text": "A.", "response_length": 1,
                    "run_id": "run-a", "nuggets": [
                        {"text": "n1", "importance": "vital", "assignment": "support"},
                        {"text": "n2", "importance": "okay", "assignment": "partial_support"}]}]
    retrieval_mode = [{"text": "q", "qid": "1", "candidate_text": "c", "docid": S1,
                       "nuggets": [{"text": "n1", "importance": "vital",
                                    "assignment": "not_support"}]}]
    assert ranklens.read_nuggets(answer_mode).rows() == [
        ("1", "run-a", "n1", "vital", "support"), ("1", "run-a", "n2", "okay", "partial_support")]
    assert ranklens.read_nuggets(retrieval_mode).rows() == [
        ("1", S1, "n1", "vital", "not_support")]
    with pytest.raises(InputError, match="a nugget must be an object"):
        ranklens.read_nuggets([{"qid": "1", "nuggets": ["bare"]}])


def test_ragas_and_llama_index_records(tmp_path: Path) -> None:
    # ragas SingleTurnSample fields (ids may be ints: 1 == "1") and llama_index's
    ragas = [{"user_input": "2027497", "retrieved_context_ids": [S2, S1, S3],
              "reference_context_ids": [S1, S3]},
             {"user_input": "14", "retrieved_context_ids": [S1, S2],
              "reference_context_ids": [S2]}]
    llama = [{"query_id": r["user_input"], "retrieved_ids": r["retrieved_context_ids"],
              "expected_ids": r["reference_context_ids"]} for r in ragas]
    binary = TREC_QRELS.replace(" 3\n", " 1\n").replace(" 2\n", " 1\n")
    want = ranklens.evaluate(_write(tmp_path, "b.qrels", binary),
                             _write(tmp_path, "r", TREC_RUN), MEASURES)
    for records in (ragas, llama):
        got = ranklens.evaluate(*ranklens.load_pairs(records), MEASURES)
        for name in MEASURES:
            assert got.per_query(name) == want.per_query(name), name


def test_pydantic_samples_read_as_their_fields() -> None:
    class Sample:  # the one method load_pairs uses of a pydantic model
        def model_dump(self) -> dict:
            return {"user_input": "q", "retrieved_context_ids": [1, 2],
                    "reference_context_ids": ["2"]}

    assert ranklens.evaluate(*ranklens.load_pairs([Sample()]), ["RR"])["RR"] == 0.5


def test_beir_and_mteb_dicts_equal_trec_files(tmp_path: Path) -> None:
    qrels = {"2027497": {S1: 3, S3: 1, S2: 0}, "14": {S2: 2}}
    results = {"2027497": {S2: 3.0, S1: 2.0, S3: 1.0}, "14": {S1: 2.0, S2: 1.0}}
    _same(tmp_path, qrels, results)


def test_beir_qrels_tsv_equals_trec_qrels(tmp_path: Path) -> None:
    beir = "query-id\tcorpus-id\tscore\n" + "".join(
        f"{q}\t{d}\t{g}\n" for q, _, d, g in (line.split() for line in TREC_QRELS.splitlines()))
    path = _write(tmp_path, "test.tsv", beir)
    want = ranklens.load_qrels(_write(tmp_path, "want.qrels", TREC_QRELS)).frame
    assert ranklens.load_qrels(path).frame.sort(["query_id", "doc_id"]).rows() \
        == want.sort(["query_id", "doc_id"]).rows()
    _same(tmp_path, path, _write(tmp_path, "r", TREC_RUN))
    # only BEIR's exact header makes ``score`` the grade: elsewhere it is a run's column
    with pytest.raises(InputError, match="'relevance' column"):
        other = beir.replace("query-id\tcorpus-id", "qid\tdocid")
        ranklens.load_qrels(_write(tmp_path, "other.tsv", other))


@pytest.mark.parametrize("call", [lambda: ranklens.read_topics(None),
                                  lambda: ranklens.map_chunks(None, None),
                                  lambda: ranklens.read_nuggets(3)])
def test_a_non_iterable_source_is_an_input_error(call: Callable[[], object]) -> None:
    with pytest.raises(ranklens.InputError, match=r"expected a \.jsonl path or a list of records"):
        call()
