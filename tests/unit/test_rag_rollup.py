"""Segments to documents (issue 40, item 2): roll-up of runs and judgments, chunk-to-segment
mapping by character spans."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ranklens
from ranklens import InputError, ParameterError

# segment ids "d<doc>#<n>_<offset>", several segments per document, random scores
segment_runs = st.dictionaries(
    st.sampled_from(["q1", "q2", "10"]),
    st.dictionaries(st.builds(lambda d, n: f"d{d}#{n}_{100 * n}", st.integers(0, 5),
                              st.integers(0, 4)),
                    st.integers(-4, 4).map(float), min_size=1, max_size=12),
    min_size=1)


def _as_dict(run: ranklens.Run) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for q, d, s in run.frame.select("query_id", "doc_id", "score").iter_rows():
        assert d not in out.setdefault(q, {})
        out[q][d] = s
    return out


@settings(max_examples=60, deadline=None)
@given(segment_runs)
def test_maxp_first_sum_equal_a_direct_computation(run: dict) -> None:
    loaded = ranklens.load_run(run)
    for how in ("maxp", "first", "sum"):
        want: dict[str, dict[str, float]] = {}
        for q, segments in run.items():
            docs = want.setdefault(q, {})
            for segment, score in segments.items():  # the dict's order is the run's order
                doc = segment.split("#")[0]
                if doc not in docs:
                    docs[doc] = score
                elif how == "maxp":
                    docs[doc] = max(docs[doc], score)
                elif how == "sum":
                    docs[doc] += score
        rolled = ranklens.rollup(loaded, "#", how)
        assert _as_dict(rolled) == want
        # and it evaluates as the direct document run does
        qrels = {q: {d: (i + 1) % 3 for i, d in enumerate(sorted(docs))}
                 for q, docs in want.items()}
        got = ranklens.evaluate(qrels, rolled, ["nDCG@3", "AP"], missing="skip")
        direct = ranklens.evaluate(qrels, want, ["nDCG@3", "AP"], missing="skip")
        assert got.per_query("AP") == direct.per_query("AP")
        assert got.per_query("nDCG@3") == direct.per_query("nDCG@3")


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.sampled_from(["q1", "q2"]), st.dictionaries(
    st.builds(lambda d, n: f"d{d}#{n}_0", st.integers(0, 3), st.integers(0, 3)),
    st.integers(0, 4), min_size=1)))
def test_judgments_max_and_min_grade(qrels: dict) -> None:
    for how, pick in (("max", max), ("min", min)):
        want: dict[tuple[str, str], list[int]] = {}
        for q, grades in qrels.items():
            for segment, grade in grades.items():
                want.setdefault((q, segment.split("#")[0]), []).append(grade)
        rolled = ranklens.rollup(ranklens.load_qrels(qrels), how=how)
        assert {(q, d): g for q, d, g in rolled.frame.iter_rows()} == {
            key: float(pick(v)) for key, v in want.items()}


def test_first_differs_from_maxp_on_an_unsorted_run(tmp_path: Path) -> None:
    path = tmp_path / "seg.run"
    path.write_text("q1 Q0 d1#0_0 1 1.0 r\nq1 Q0 d2#0_0 2 2.0 r\nq1 Q0 d1#1_5 3 3.0 r\n")
    run = ranklens.load_run(path)
    assert _as_dict(ranklens.rollup(run, how="first")) == {"q1": {"d1": 1.0, "d2": 2.0}}
    assert _as_dict(ranklens.rollup(run)) == {"q1": {"d1": 3.0, "d2": 2.0}}
    assert ranklens.rollup(run).frame["doc_id"].to_list() == ["d1", "d2"]  # ranked


def test_regex_mapping_and_mapping_file(tmp_path: Path) -> None:
    run = ranklens.load_run({"q": {"doc-a_3": 2.0, "doc-a_7": 5.0, "doc-b_1": 1.0}})
    assert _as_dict(ranklens.rollup(run, re.compile(r"^(.*)_\d+$"))) == {
        "q": {"doc-a": 5.0, "doc-b": 1.0}}
    assert _as_dict(ranklens.rollup(run, "_")) == {"q": {"doc-a": 5.0, "doc-b": 1.0}}
    # a chunk listed under two documents counts for both
    mapping = {"doc-a_3": ["A", "B"], "doc-a_7": "A", "doc-b_1": "B"}
    assert _as_dict(ranklens.rollup(run, mapping, "sum")) == {"q": {"A": 7.0, "B": 3.0}}
    path = tmp_path / "map.txt"
    path.write_text("doc-a_3 A\ndoc-a_3 B\ndoc-a_7 A\ndoc-b_1 B\n")
    assert _as_dict(ranklens.rollup(run, path, "sum")) == {"q": {"A": 7.0, "B": 3.0}}


def test_rollup_errors(tmp_path: Path) -> None:
    run = ranklens.load_run({"q": {"a_1": 1.0, "b": 2.0}}, name="r")
    with pytest.raises(InputError, match="segment 'b' does not match the regex"):
        ranklens.rollup(run, re.compile(r"_\d"))
    with pytest.raises(InputError, match="segment 'b' is not in the mapping"):
        ranklens.rollup(run, {"a_1": "a"})
    with pytest.raises(ParameterError, match="'how' option must be one of maxp"):
        ranklens.rollup(run, how="max")
    with pytest.raises(ParameterError, match="'how' option must be one of max, min"):
        ranklens.rollup(ranklens.load_qrels({"q": {"a": 1}}), how="maxp")
    with pytest.raises(ParameterError, match="must not be empty"):
        ranklens.rollup(run, "")
    with pytest.raises(ParameterError, match="takes a Run or a Qrels"):
        ranklens.rollup({"q": {"a": 1.0}})  # type: ignore[type-var]
    bad = tmp_path / "map.txt"
    bad.write_text("a_1 a extra\n")
    with pytest.raises(InputError, match="expected 'segment document', got 3 fields"):
        ranklens.rollup(run, bad)


def _segments(spans: list[tuple[int, int]], doc: str = "d") -> list[dict]:
    return [{"docid": f"{doc}#{n}_{n}", "start_char": a, "end_char": b}
            for n, (a, b) in enumerate(spans)]


def test_span_mapping_on_overlapping_spans() -> None:
    # stride-5-of-10-sentences windows: each segment overlaps the next by half
    segments = _segments([(0, 100), (50, 150), (100, 200)])
    chunks = [{"chunk_id": "c1", "doc_id": "d", "start_char": 60, "end_char": 140},   # 40/80/40
              {"chunk_id": "c2", "doc_id": "d", "start_char": 75, "end_char": 125},   # tie 25/25
              {"chunk_id": "c3", "doc_id": "d", "start_char": 10, "end_char": 60},    # 50/10
              {"chunk_id": "c4", "doc_id": "e", "start_char": 0, "end_char": 50},     # no doc
              {"chunk_id": "c5", "doc_id": "d", "start_char": 200, "end_char": 300}]  # touches
    assert ranklens.map_chunks(chunks, segments) == {
        "c1": ["d#1_1"], "c2": ["d#1_1"], "c3": ["d#0_0"]}
    # c2 overlaps segments 0, 1 and 2 by 25, 50 and 25 characters of its 50
    assert ranklens.map_chunks(chunks, segments, min_share=0.5) == {
        "c1": ["d#1_1", "d#0_0", "d#2_2"], "c2": ["d#1_1", "d#0_0", "d#2_2"],
        "c3": ["d#0_0"]}
    assert ranklens.map_chunks(chunks, segments, min_share=1.0) == {
        "c1": ["d#1_1"], "c2": ["d#1_1"], "c3": ["d#0_0"]}


def test_span_tie_goes_to_the_segment_listed_first() -> None:
    segments = _segments([(0, 100), (50, 150)])
    chunk = [{"chunk_id": "c", "doc_id": "d", "start_char": 25, "end_char": 125}]  # 75 / 75
    assert ranklens.map_chunks(chunk, segments) == {"c": ["d#0_0"]}
    assert ranklens.map_chunks(chunk, segments[::-1]) == {"c": ["d#1_1"]}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 50), st.integers(1, 40)), min_size=1, max_size=6),
       st.lists(st.tuples(st.integers(0, 50), st.integers(1, 40)), min_size=1, max_size=6),
       st.sampled_from([None, 0.25, 0.5, 1.0]))
def test_span_mapping_equals_brute_force(seg: list, chk: list, share: float | None) -> None:
    segments = _segments([(a, a + n) for a, n in seg])
    chunks = [{"chunk_id": f"c{i}", "doc_id": "d", "start_char": a, "end_char": a + n}
              for i, (a, n) in enumerate(chk)]
    want: dict[str, list[str]] = {}
    for c in chunks:
        overlaps = [(len(set(range(c["start_char"], c["end_char"]))
                         & set(range(s["start_char"], s["end_char"]))), -i, s["docid"])
                    for i, s in enumerate(segments)]
        hits = sorted((o for o in overlaps if o[0] > 0), reverse=True)
        if share is not None:
            hits = [o for o in hits if o[0] >= share * (c["end_char"] - c["start_char"])]
        elif hits:
            hits = hits[:1]
        if hits:
            want[c["chunk_id"]] = [o[2] for o in hits]
    assert ranklens.map_chunks(chunks, segments, min_share=share) == want


def test_chunk_run_to_segments_to_documents() -> None:
    segments = _segments([(0, 100), (50, 150)], "msmarco_v2.1_doc_1_1")
    chunks = [{"chunk_id": "mine-1", "doc_id": "msmarco_v2.1_doc_1_1", "start_char": 0,
               "end_char": 60},
              {"chunk_id": "mine-2", "doc_id": "msmarco_v2.1_doc_1_1", "start_char": 90,
               "end_char": 150}]
    run = ranklens.load_run({"q": {"mine-1": 1.0, "mine-2": 2.0}})
    by_segment = ranklens.rollup(run, ranklens.map_chunks(chunks, segments))
    assert _as_dict(by_segment) == {"q": {"msmarco_v2.1_doc_1_1#1_1": 2.0,
                                          "msmarco_v2.1_doc_1_1#0_0": 1.0}}
    assert _as_dict(ranklens.rollup(by_segment)) == {"q": {"msmarco_v2.1_doc_1_1": 2.0}}


def test_span_errors() -> None:
    with pytest.raises(InputError, match=r"chunk 'c': expected integers 0 <= start_char < "
                                          r"end_char; got 10, 10"):
        ranklens.map_chunks([{"chunk_id": "c", "doc_id": "d", "start_char": 10,
                              "end_char": 10}], _segments([(0, 5)]))
    with pytest.raises(InputError, match="no 'chunk_id' field"):
        ranklens.map_chunks([{"doc_id": "d", "start_char": 0, "end_char": 1}], [])
    with pytest.raises(ParameterError, match="'min_share' option must be a number in "
                                             r"\(0, 1\]"):
        ranklens.map_chunks([], [], min_share=0)
