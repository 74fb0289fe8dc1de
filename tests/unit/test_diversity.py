"""Subtopic judgments and the diversity measures (alpha-nDCG, ERR-IA, NRBP, P-IA, S-recall).

References: hand-computed toy cases; a plain transcription of ndeval's rules (ndeval.c
4.5: binary subtopic relevance, "actual" subtopics, greedy ideal with ties to the larger
doc id, "ideal ideal" normalisation of ERR-IA starting at rank 2); and pyndeval, ndeval's
C code behind ir_measures' pyndeval provider, as a test-only peer on random data.
"""

from __future__ import annotations

import itertools
import math
import random
import warnings

import polars as pl
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import ranklens
from ranklens import InputError, MeasureError, ParameterError

TOY_QRELS = {"1": {"s1": {"d1": 1, "d2": 1}, "s2": {"d1": 1, "d4": 0}, "s3": {"d3": 1}},
             "2": {"s1": {"x": 0}}}
TOY_RUN = {"1": {"d2": 4.0, "d1": 3.0, "d4": 2.0, "d3": 1.0, "d5": 0.5}, "2": {"x": 1.0}}
L2 = math.log2


def _sub(qrels: dict) -> ranklens.SubtopicQrels:
    return ranklens.load_qrels(qrels, kind="subtopic")


def _per_query(qrels: object, run: dict, measure: str, **options: object) -> dict:
    sq = qrels if isinstance(qrels, ranklens.SubtopicQrels) else _sub(qrels)  # type: ignore[arg-type]
    return ranklens.evaluate(sq, run, [measure], **options).per_query(measure)  # type: ignore[arg-type]


# -- hand-computed ----------------------------------------------------------------------
#
# Query 1 has subtopics s1, s2, s3 (M = 3); the run ranks d2 (s1), d1 (s1, s2), d4 (judged,
# relevant to nothing), d3 (s3), d5 (unjudged). With alpha = 0.5 the gains by rank are
# 1, 0.5 + 1, 0, 1, 0. The greedy ideal takes d1 (2), then d3 (1), then d2 (0.5).
# Query 2 has no relevant subtopic: 0 everywhere.


@pytest.mark.parametrize(("measure", "want"), [
    ("alpha-nDCG@5", (1 + 1.5 / L2(3) + 1 / L2(5)) / (2 + 1 / L2(3) + 0.5 / L2(4))),
    ("alpha-nDCG@1", 0.5),
    ("alpha-nDCG@2", (1 + 1.5 / L2(3)) / (2 + 1 / L2(3))),
    ("ERR-IA@5", (1 + 1.5 / 2 + 1 / 4) / (3 * (1 + 0.5 / 2 + 0.25 / 3 + 0.125 / 4 + 0.0625 / 5))),
    ("ERR-IA@1", 1.0),  # ndeval leaves rank 1 undivided
    ("NRBP", (1 + 1.5 * 0.5 + 1 * 0.125) * (1 - 0.5 * 0.5) / 3),
    ("NRBP(beta=1)", (1 + 1.5 + 1) * 0.5 / 3),
    ("P-IA@5", 4 / 15),
    ("P-IA@2", 3 / 6),
    ("P-IA@10", 4 / 30),  # k counts ranks, not the five documents ranked
    ("S-recall@1", 1 / 3),
    ("S-recall@2", 2 / 3),
    ("S-recall", 1.0),
    ("alpha-nDCG(alpha=0)@2", (1 + 2 / L2(3)) / (2 + 1 / L2(3))),  # no novelty penalty
    ("alpha-nDCG(alpha=1)@5", (1 + 1 / L2(3) + 1 / L2(5)) / (2 + 1 / L2(3))),
    ("alpha-DCG@5", (1 + 1.5 / L2(3) + 1 / L2(5))
     / (3 * (1 + 0.5 / L2(3) + 0.25 / 2 + 0.125 / L2(5) + 0.0625 / L2(6)))),
    ("alpha-DCG@1", 1.0),  # undivided, as ndeval leaves rank 1
    ("nERR-IA@5", (1 + 1.5 / 2 + 1 / 4) / (2 + 1 / 2 + 0.5 / 3)),
    ("nNRBP", (1 + 1.5 * 0.5 + 1 * 0.125) / (2 + 1 * 0.5 + 0.5 * 0.25)),
    # s1: d2, d1 at ranks 1, 2 of its 2; s2: d1 at 2 of 1; s3: d3 at 4 of 1
    ("AP-IA", ((1 / 1 + 2 / 2) / 2 + (1 / 2) / 1 + (1 / 4) / 1) / 3),
])
def test_hand_computed_values(measure: str, want: float) -> None:
    got = _per_query(TOY_QRELS, TOY_RUN, measure)
    assert got["1"] == pytest.approx(want, rel=1e-13)
    assert got["2"] == 0.0


def test_the_relevance_level_picks_the_relevant_subtopics() -> None:
    qrels = {"q": {"a": {"d1": 2, "d2": 1}, "b": {"d2": 2}}}
    run = {"q": {"d1": 2.0, "d2": 1.0}}
    # rel=2: d1 relevant to a, d2 to b: both subtopics covered at rank 2
    assert _per_query(qrels, run, "S-recall(rel=2)@1") == {"q": 0.5}
    assert _per_query(qrels, run, "P-IA@2", rel=2) == {"q": 2 / 4}
    # rel=1 (ndeval's binarisation): d2 is relevant to both
    assert _per_query(qrels, run, "P-IA@2") == {"q": 3 / 4}


def test_a_document_relevant_to_two_subtopics_gains_for_both() -> None:
    qrels = {"q": {"a": {"d": 1}, "b": {"d": 1}, "c": {"e": 1}}}
    run = {"q": {"d": 2.0, "e": 1.0}}
    # gains 2 then 1, and the ideal is the same ranking
    assert _per_query(qrels, run, "alpha-nDCG@2") == {"q": 1.0}
    assert _per_query(qrels, run, "NRBP") == {"q": pytest.approx((2 + 0.5) * 0.75 / 3)}


def test_the_greedy_ideal_breaks_ties_by_the_larger_doc_id() -> None:
    # a (s1, s2), b (s3, s4) and c (s1, s3) all gain 2 at the first step; ndeval takes c
    # (the largest id), then a and b tie at 1.5, it takes b, then a gains 1.5: the ideal
    # gains 2, 1.5, 1.5. Taking a first would have given 2, 2, 1; so the greedy ideal is
    # beaten by the ranking a, b, c, and alpha-nDCG exceeds 1, as in ndeval.
    qrels = {"q": {"s1": {"a": 1, "c": 1}, "s2": {"a": 1}, "s3": {"b": 1, "c": 1},
                   "s4": {"b": 1}}}
    run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}
    got = _per_query(qrels, run, "alpha-nDCG@2")["q"]
    assert got == pytest.approx((2 + 2 / L2(3)) / (2 + 1.5 / L2(3)), rel=1e-13)
    assert got > 1


# -- reading subtopic judgments -----------------------------------------------------------


def test_ndeval_file(tmp_path: object) -> None:
    path = tmp_path / "div.qrels"  # type: ignore[operator]
    path.write_text("# topic subtopic doc grade\n1 1 d1 1\n1 2 d1 0\n\n1 2 d2 3\n2 1 x 1\n")
    sq = ranklens.load_qrels(path, kind="subtopic")
    assert isinstance(sq, ranklens.SubtopicQrels)
    assert sq.frame.rows() == [("1", "1", "d1", 1.0), ("1", "2", "d1", 0.0),
                               ("1", "2", "d2", 3.0), ("2", "1", "x", 1.0)]
    assert repr(sq) == f"SubtopicQrels({str(path)!r}, 2 queries, 3 subtopics, 4 judgments)"
    docs = sq.documents().frame.sort("query_id", "doc_id").rows()
    assert docs == [("1", "d1", 1.0), ("1", "d2", 3.0), ("2", "x", 1.0)]


@pytest.mark.parametrize(("text", "message"), [
    (b"1 1 d1\n", r"bad.qrels:1: expected 4 fields \(topic subtopic doc grade\), got 3"),
    (b"1 1 d1 1\n1 1 d2 x\n", r"bad.qrels:2: expected an integer grade, got 'x'"),
    (b"1 1 d1 1 extra\n", "expected 4 fields"),
    (b"", "file is empty"),
    (b"# only a comment\n", "no judgment lines"),
])
def test_ndeval_file_errors_name_the_line(tmp_path: object, text: bytes, message: str) -> None:
    path = tmp_path / "bad.qrels"  # type: ignore[operator]
    path.write_bytes(text)
    with pytest.raises(InputError, match=message):
        ranklens.load_qrels(path, kind="subtopic")


def test_frames_and_columnar_files_with_a_subtopic_column(tmp_path: object) -> None:
    frame = pl.DataFrame({"query_id": [1, 1], "iteration": ["a", "b"], "doc_id": ["d", "e"],
                          "relevance": [1, 1]})
    sq = ranklens.load_qrels(frame, kind="subtopic")
    assert sq.frame.rows() == [("1", "a", "d", 1.0), ("1", "b", "e", 1.0)]
    path = tmp_path / "div.csv"  # type: ignore[operator]
    frame.rename({"iteration": "subtopic"}).write_csv(path)
    assert ranklens.load_qrels(path, kind="subtopic").frame.rows() == sq.frame.rows()
    with pytest.raises(InputError, match="expected a 'subtopic' column"):
        ranklens.load_qrels(frame.drop("iteration"), kind="subtopic")


def test_columnar_subtopic_file_errors_name_the_line(tmp_path: object) -> None:
    # as a plain qrels file's: the file's line, not the table's row
    path = tmp_path / "div.csv"  # type: ignore[operator]
    path.write_text("query_id,subtopic,doc_id,relevance\nq1,s1,d1,1\nq1,s2,d2,x\n")
    with pytest.raises(InputError, match=r"div\.csv:3: expected a numeric relevance, got 'x'"):
        ranklens.load_qrels(path, kind="subtopic")


def test_the_kind_is_explicit_and_checked() -> None:
    sq = _sub(TOY_QRELS)
    assert ranklens.load_qrels(sq, kind="subtopic") is sq
    with pytest.raises(ParameterError, match=r"'kind' option of load_qrels.*got 'intent'"):
        ranklens.load_qrels({"q": {"d": 1}}, kind="intent")  # type: ignore[call-overload]
    with pytest.raises(InputError, match=r"subtopic judgments.*kind='subtopic'"):
        ranklens.load_qrels(sq)
    with pytest.raises(InputError, match=r"without subtopics.*kind='subtopic'"):
        ranklens.load_qrels(ranklens.load_qrels({"q": {"d": 1}}), kind="subtopic")
    with pytest.raises(InputError, match=r"query 'q': expected \{subtopic: \{doc: grade\}\}"):
        ranklens.load_qrels({"q": {"d": 1}}, kind="subtopic")


def test_measures_and_judgments_of_the_wrong_kind_are_refused() -> None:
    with pytest.raises(MeasureError, match=r"alpha-nDCG@10 need subtopic judgments.*"
                                           r"kind='subtopic'"):
        ranklens.evaluate({"1": {"d1": 1}}, TOY_RUN, ["alpha-nDCG@10"])
    with pytest.raises(MeasureError, match=r"nDCG@10, AP need plain relevance judgments.*"
                                           r"documents"):
        ranklens.evaluate(_sub(TOY_QRELS), TOY_RUN, ["nDCG@10", "AP", "P-IA@5"])
    # the documents of subtopic judgments are plain judgments
    plain = ranklens.evaluate(_sub(TOY_QRELS).documents(), TOY_RUN, ["P@5"])
    assert plain.per_query("P@5") == {"1": 3 / 5, "2": 0.0}


def test_parameters_and_cutoffs_are_checked() -> None:
    with pytest.raises(MeasureError, match="alpha-nDCG needs a cutoff"):
        ranklens.parse_measure("alpha-nDCG")
    with pytest.raises(MeasureError, match="NRBP takes no cutoff"):
        ranklens.parse_measure("NRBP@10")
    with pytest.raises(MeasureError, match="'alpha' of ERR-IA must be a number >= 0 and <= 1"):
        ranklens.parse_measure("ERR-IA(alpha=1.5)@5")
    with pytest.raises(MeasureError, match="'beta' of NRBP must be a number >= 0"):
        ranklens.parse_measure("NRBP(beta=-1)")


def test_peer_spellings_parse() -> None:
    parse = ranklens.parse_measure
    assert str(parse("alpha_nDCG@20")) == "alpha-nDCG@20"
    assert str(parse("ERR_IA@20")) == "ERR-IA@20"
    assert str(parse("P_IA@10")) == "P-IA@10"
    assert str(parse("StRecall@10")) == "S-recall@10"
    assert str(parse("strec@20")) == "S-recall@20"


# -- the usual options -------------------------------------------------------------------


def test_missing_queries_follow_the_missing_option() -> None:
    qrels = {**TOY_QRELS, "3": {"s": {"z": 1}}}
    zero = ranklens.evaluate(_sub(qrels), TOY_RUN, ["S-recall@5"], missing="zero")
    assert zero.per_query("S-recall@5") == {"1": 1.0, "2": 0.0, "3": 0.0}
    skip = ranklens.evaluate(_sub(qrels), TOY_RUN, ["S-recall@5"], missing="skip")
    assert skip.per_query("S-recall@5") == {"1": 1.0, "2": 0.0}
    with pytest.raises(InputError, match="absent from the run"):
        ranklens.evaluate(_sub(qrels), TOY_RUN, ["S-recall@5"], missing="error")


def test_queries_without_a_relevant_subtopic_follow_the_empty_option() -> None:
    result = ranklens.evaluate(_sub(TOY_QRELS), TOY_RUN, ["P-IA@5"], empty="skip")
    assert result["P-IA@5"] == pytest.approx(4 / 15)  # query 2 left out
    assert ranklens.evaluate(_sub(TOY_QRELS), TOY_RUN, ["P-IA@5"])["P-IA@5"] == \
        pytest.approx(4 / 30)


def test_depth_and_judged_only() -> None:
    # depth 2 keeps d2 and d1: d3's subtopic is lost
    assert _per_query(TOY_QRELS, TOY_RUN, "S-recall", depth=2)["1"] == pytest.approx(2 / 3)
    # judged-only drops d5 (unjudged) but keeps d4 (judged, relevant to nothing); then an
    # unjudged document placed first moves nothing
    run = {"1": {"u": 9.0, **TOY_RUN["1"]}, "2": TOY_RUN["2"]}
    assert _per_query(TOY_QRELS, run, "alpha-nDCG@5", judged_only=True) == \
        _per_query(TOY_QRELS, TOY_RUN, "alpha-nDCG@5")
    assert _per_query(TOY_QRELS, run, "alpha-nDCG@5")["1"] < \
        _per_query(TOY_QRELS, TOY_RUN, "alpha-nDCG@5")["1"]


def test_duplicate_subtopic_judgments_follow_the_duplicates_option() -> None:
    frame = pl.DataFrame({"query_id": ["1", "1", "1"], "subtopic": ["a", "a", "b"],
                          "doc_id": ["d", "d", "e"], "relevance": [1, 0, 1]})
    sq = ranklens.load_qrels(frame, kind="subtopic")
    run = {"1": {"d": 2.0, "e": 1.0}}
    with pytest.raises(InputError, match="'d' is judged more than once for subtopic 'a'"):
        ranklens.evaluate(sq, run, ["S-recall@1"])
    first = ranklens.evaluate(sq, run, ["S-recall@1"], duplicates="first")
    assert first.per_query("S-recall@1") == {"1": 0.5}


def test_ties_follow_the_ties_option() -> None:
    run = {"1": {"d2": 3.0, "d1": 3.0, "d4": 2.0, "d3": 1.0}, "2": {"x": 1.0}}
    names = ["alpha-nDCG@2", "ERR-IA@3", "NRBP", "P-IA@1", "S-recall@1"]
    first = {"1": {"d2": 2.0, "d1": 1.0, "d4": 0.5, "d3": 0.1}, "2": {"x": 1.0}}
    second = {"1": {"d1": 2.0, "d2": 1.0, "d4": 0.5, "d3": 0.1}, "2": {"x": 1.0}}
    sq = _sub(TOY_QRELS)
    average = ranklens.evaluate(sq, run, names, ties="average")
    docid = ranklens.evaluate(sq, run, names)  # doc id descending: d2 before d1
    one, two = ranklens.evaluate(sq, first, names), ranklens.evaluate(sq, second, names)
    for name in names:
        assert docid.per_query(name) == one.per_query(name), name
        want = (one.per_query(name)["1"] + two.per_query(name)["1"]) / 2
        assert average.per_query(name)["1"] == pytest.approx(want, rel=1e-12), name


def test_several_runs_share_the_subtopic_judgments() -> None:
    other = {"1": {"d1": 2.0, "d3": 1.0}, "2": {"x": 1.0}}
    results = ranklens.evaluate(_sub(TOY_QRELS), {"a": TOY_RUN, "b": other}, ["S-recall@2"])
    assert results.values("S-recall@2").tolist() == [[2 / 3, 1.0], [0.0, 0.0]]


# -- a transcription of ndeval ------------------------------------------------------------


def _ndeval(judgments: dict, ranking: list[str], alpha: float, beta: float,
            rel: int) -> dict[str, float]:
    """ndeval's values for one query: ``judgments`` {subtopic: {doc: grade}}, ``ranking``
    the doc ids in rank order. A loop per rank, as ndeval.c writes it."""
    subs = sorted(judgments)
    docs = sorted({d for judged in judgments.values() for d in judged})
    relevant = {d: [judgments[s].get(d, 0) >= rel for s in subs] for d in docs}
    actual = sum(any(relevant[d][j] for d in docs) for j in range(len(subs)))
    out: dict[str, float] = {}

    def gains(order: list[str], depth: int) -> list[float]:
        seen = [1.0] * len(subs)
        values = []
        for d in order[:depth]:
            g = 0.0
            for j, hit in enumerate(relevant.get(d, [False] * len(subs))):
                if hit:
                    g += seen[j]
                    seen[j] *= 1 - alpha
            values.append(g)
        return values

    # greedy ideal: the largest gain, ties to the larger doc id
    left, ideal, seen = list(docs), [], [1.0] * len(subs)
    while left:
        scores = {d: sum(seen[j] for j, hit in enumerate(relevant[d]) if hit) for d in left}
        best = max(scores.values())
        pick = max(d for d in left if scores[d] == best)
        ideal.append(pick)
        left.remove(pick)
        seen = [s * (1 - alpha) if hit else s for s, hit in zip(seen, relevant[pick],
                                                                  strict=True)]
    for k in (1, 2, 3, 5, 10, 20):
        run_g, ideal_g = gains(ranking, k), gains(ideal, k)
        dcg = sum(g / math.log2(r + 2) for r, g in enumerate(run_g))
        idcg = sum(g / math.log2(r + 2) for r, g in enumerate(ideal_g))
        out[f"alpha-nDCG(alpha={alpha})@{k}"] = dcg / idcg if dcg and idcg else 0.0
        norm = 1.0 if k == 1 else actual * sum((1 - alpha) ** r / math.log2(r + 2)
                                                for r in range(k))
        out[f"alpha-DCG(alpha={alpha})@{k}"] = dcg / norm if actual else 0.0
        err = sum(g / (r + 1) for r, g in enumerate(run_g))
        ierr = sum(g / (r + 1) for r, g in enumerate(ideal_g))
        norm = 1.0 if k == 1 else actual * sum((1 - alpha) ** r / (r + 1) for r in range(k))
        out[f"ERR-IA(alpha={alpha})@{k}"] = err / norm if actual else 0.0
        out[f"nERR-IA(alpha={alpha})@{k}"] = err / ierr if err and ierr else 0.0
        pairs = sum(sum(relevant.get(d, [])) for d in ranking[:k])
        out[f"P-IA@{k}"] = pairs / (k * actual) if actual else 0.0
        covered = {j for d in ranking[:k] for j, hit in enumerate(relevant.get(d, [])) if hit}
        out[f"S-recall@{k}"] = len(covered) / actual if actual else 0.0
    nrbp = sum(g * beta**r for r, g in enumerate(gains(ranking, len(ranking))))
    out[f"NRBP(alpha={alpha},beta={beta})"] = (
        nrbp * (1 - (1 - alpha) * beta) / actual if actual else 0.0)
    ideal_nrbp = sum(g * beta**r for r, g in enumerate(gains(ideal, len(ideal))))
    out[f"nNRBP(alpha={alpha},beta={beta})"] = nrbp / ideal_nrbp if ideal_nrbp else 0.0
    ap = 0.0
    for j in range(len(subs)):
        size = sum(relevant[d][j] for d in docs)
        found = [r for r, d in enumerate(ranking, 1) if relevant.get(d, [False] * 9)[j]]
        ap += sum(i / r for i, r in enumerate(found, 1)) / size if size else 0.0
    out["AP-IA"] = ap / actual if actual else 0.0
    return out


@st.composite
def diversity_cases(draw: st.DrawFn) -> tuple[dict, dict]:
    docs = [f"d{i}" for i in range(8)]
    qrels: dict = {}
    run: dict = {}
    for q in ("q1", "q2", "q3")[: draw(st.integers(1, 3))]:
        subs = draw(st.lists(st.sampled_from(["1", "2", "3", "4"]), min_size=1, max_size=4,
                             unique=True))
        qrels[q] = {s: draw(st.dictionaries(st.sampled_from(docs), st.integers(0, 2),
                                            min_size=1, max_size=5)) for s in subs}
        ranked = draw(st.lists(st.sampled_from([*docs, "u1", "u2"]), min_size=1,
                               max_size=10, unique=True))
        run[q] = {d: float(len(ranked) - i) for i, d in enumerate(ranked)}
    return qrels, run


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=diversity_cases(), alpha=st.sampled_from([0.5, 0.0, 0.25, 1.0]),
       beta=st.sampled_from([0.5, 0.8]), rel=st.sampled_from([1, 2]))
def test_equals_a_transcription_of_ndeval(case: tuple[dict, dict], alpha: float,
                                          beta: float, rel: int) -> None:
    qrels, run = case
    sq = _sub(qrels)
    names = list(_ndeval(qrels["q1"], list(run["q1"]), alpha, beta, rel))
    got = ranklens.evaluate(sq, run, names, rel=rel)
    for q in qrels:
        want = _ndeval(qrels[q], list(run[q]), alpha, beta, rel)
        for name in names:
            assert got.per_query(name)[q] == pytest.approx(want[name], rel=1e-12, abs=1e-15), \
                (q, name)


def test_diversity_measures_ignore_or_read_the_order_as_declared() -> None:
    # P-IA@k and S-recall@k ignore the order within the top k; the others read it
    qrels = {"q": {"a": {"d1": 1, "d2": 1}, "b": {"d3": 1}}}
    ranked = ["d1", "d2", "d3", "d4"]
    values = []
    for perm in itertools.permutations(ranked[:3]):
        run = {"q": {d: float(10 - i) for i, d in enumerate([*perm, "d4"])}}
        values.append(dict(ranklens.evaluate(_sub(qrels), run, [
            "P-IA@3", "S-recall@3", "alpha-nDCG@3", "ERR-IA@3", "NRBP"])))
    for name in ("P-IA@3", "S-recall@3"):
        assert len({v[name] for v in values}) == 1, name
    for name in ("alpha-nDCG@3", "ERR-IA@3", "NRBP"):
        assert len({v[name] for v in values}) > 1, name


# -- pyndeval (ndeval's C code), a test-only peer ---------------------------------------


def _random_case(seed: int) -> tuple[list[tuple[str, str, str, int]], dict]:
    rng = random.Random(seed)
    qrels: list[tuple[str, str, str, int]] = []
    run: dict = {}
    for q in range(12):
        qid = str(q)
        pool = [f"doc{rng.randrange(60)}" for _ in range(rng.randrange(5, 40))]
        for sub in range(rng.randrange(1, 7)):
            for d in set(rng.sample(pool, rng.randrange(1, len(pool)))):
                qrels.append((qid, str(sub), d, rng.choice([0, 0, 1, 1, 2])))
        ranked = list(dict.fromkeys(rng.sample(pool, len(pool) // 2) +
                                    [f"u{i}" for i in range(rng.randrange(0, 30))]))
        rng.shuffle(ranked)
        # distinct scores: pyndeval breaks ties by doc id ascending, ranklens descending
        run[qid] = {d: float(len(ranked) - i) + rng.random() / 2 for i, d in enumerate(ranked)}
    return qrels, run


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(("alpha", "beta", "rel"), [(0.5, 0.5, 1), (0.3, 0.8, 1),
                                                    (0.5, 0.5, 2)])
def test_equals_pyndeval_on_random_data(seed: int, alpha: float, beta: float,
                                        rel: int) -> None:
    pyndeval = pytest.importorskip("pyndeval")
    qrels, run = _random_case(seed)
    ks = (1, 3, 5, 10, 20)
    theirs_names = ([f"{m}@{k}" for m in ("alpha-nDCG", "ERR-IA", "P-IA", "strec",
                                          "alpha-DCG", "nERR-IA")
                     for k in ks] + ["NRBP", "nNRBP", "MAP-IA"])
    theirs = pyndeval.RelevanceEvaluator(
        [pyndeval.SubtopicQrel(*row) for row in qrels], theirs_names, relevance_level=rel,
        alpha=alpha, beta=beta).evaluate(
            [pyndeval.ScoredDoc(q, d, s) for q, docs in run.items() for d, s in docs.items()])
    ours_of = {f"{m}@{k}": f"{o}(alpha={alpha})@{k}" if o != "P-IA" and o != "S-recall"
               else f"{o}@{k}"
               for m, o in (("alpha-nDCG", "alpha-nDCG"), ("ERR-IA", "ERR-IA"),
                            ("P-IA", "P-IA"), ("strec", "S-recall"),
                            ("alpha-DCG", "alpha-DCG"), ("nERR-IA", "nERR-IA")) for k in ks}
    ours_of["NRBP"] = f"NRBP(alpha={alpha},beta={beta})"
    ours_of["nNRBP"] = f"nNRBP(alpha={alpha},beta={beta})"
    ours_of["MAP-IA"] = "AP-IA"
    frame = pl.DataFrame(qrels, schema=["query_id", "subtopic", "doc_id", "relevance"],
                         orient="row")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ranklens.RanklensWarning)
        ours = ranklens.evaluate(ranklens.load_qrels(frame, kind="subtopic"), run,
                                 list(ours_of.values()), rel=rel)
    assert set(theirs) == set(run)
    for q, values in theirs.items():
        for name, value in values.items():
            mine = ours.per_query(ours_of[name])[q]
            if math.isnan(value):  # ndeval's nNRBP of a query without subtopics: 0 / 0
                assert name == "nNRBP" and mine == 0.0, (q, name)
                continue
            assert mine == pytest.approx(value, rel=1e-12, abs=1e-15), (q, name)


def test_equals_ir_measures_pyndeval_provider() -> None:
    ir_measures = pytest.importorskip("ir_measures")
    pytest.importorskip("pyndeval")
    qrels, run = _random_case(11)
    import pandas as pd

    frame = pd.DataFrame(qrels, columns=["query_id", "iteration", "doc_id", "relevance"])
    run_frame = pd.DataFrame([(q, d, s) for q, docs in run.items() for d, s in docs.items()],
                             columns=["query_id", "doc_id", "score"])
    measures = {ir_measures.parse_measure("alpha_nDCG@20"): "alpha-nDCG@20",
                ir_measures.parse_measure("ERR_IA@10"): "ERR-IA@10",
                ir_measures.parse_measure("NRBP"): "NRBP",
                ir_measures.parse_measure("P_IA@5"): "P-IA@5",
                ir_measures.parse_measure("StRecall@20"): "S-recall@20",
                ir_measures.parse_measure("alpha_DCG@10"): "alpha-DCG@10",
                ir_measures.parse_measure("nERR_IA@20"): "nERR-IA@20",
                ir_measures.parse_measure("nNRBP"): "nNRBP",
                ir_measures.parse_measure("AP_IA"): "AP-IA"}
    provider = ir_measures.providers.registry["pyndeval"]
    theirs = provider.calc_aggregate(list(measures), frame, run_frame)
    ours = ranklens.evaluate(ranklens.load_qrels(frame, kind="subtopic"), run,
                             list(measures.values()))
    for measure, name in measures.items():
        assert ours[name] == pytest.approx(theirs[measure], rel=1e-12), name


# -- the command line ---------------------------------------------------------------------

NDEVAL_QRELS = "1 1 d1 1\n1 1 d2 1\n1 2 d1 1\n1 2 d4 0\n1 3 d3 1\n"
NDEVAL_RUN = "1 Q0 d2 1 4.0 r\n1 Q0 d1 2 3.0 r\n1 Q0 d4 3 2.0 r\n1 Q0 d3 4 1.0 r\n"


def test_cli_reads_subtopic_judgments(tmp_path: object,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    from cli_support import run, write

    qrels = write(tmp_path / "div.qrels", NDEVAL_QRELS)  # type: ignore[operator]
    ranked = write(tmp_path / "r.run", NDEVAL_RUN)  # type: ignore[operator]
    r = run(["evaluate", "--subtopics", str(qrels), str(ranked), "-m", "S-recall@2",
             "-m", "P-IA@5", "-f", "csv"], capsys)
    assert r.code == 0, r.err
    assert r.out.splitlines()[1].split(",") == ["r", "all", repr(2 / 3), repr(4 / 15)]
    # without --subtopics the same file is read as plain qrels: one line, no traceback
    r = run(["evaluate", str(qrels), str(ranked), "-m", "S-recall@2"], capsys)
    assert r.code != 0
    assert "need subtopic judgments" in r.err and "--subtopics" in r.err
    assert "Traceback" not in r.err and len(r.err.strip().splitlines()) == 1


def test_docstring_examples_run() -> None:
    import doctest

    from ranklens._ingest import tables as _tables
    from ranklens._ingest.io import _subtopics

    for module in (_subtopics, _tables):
        failed, tried = doctest.testmod(module)
        assert tried and not failed, module.__name__


# -- invariances ----------------------------------------------------------------------------

ALL = ["alpha-nDCG@3", "alpha-nDCG@10", "ERR-IA@3", "ERR-IA@10", "NRBP", "P-IA@3",
       "S-recall@3", "S-recall", "alpha-DCG@3", "nERR-IA@3", "nNRBP", "AP-IA"]


def _rows(qrels: dict) -> list[tuple[str, str, str, int]]:
    return [(q, s, d, g) for q, subs in qrels.items() for s, docs in subs.items()
            for d, g in docs.items()]


def _frame(rows: list[tuple[str, str, str, int]]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=["query_id", "subtopic", "doc_id", "relevance"],
                        orient="row")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=diversity_cases(), seed=st.integers(0, 2**32 - 1))
def test_row_order_subtopic_names_and_query_subsets_change_nothing(
        case: tuple[dict, dict], seed: int) -> None:
    qrels, run = case
    rows = _rows(qrels)
    whole = ranklens.evaluate(_sub(qrels), run, ALL)
    rng = random.Random(seed)
    rng.shuffle(rows)
    # subtopics renamed to non-numeric ids, in the same order
    renamed = [(q, f"s{s}", d, g) for q, s, d, g in rows]
    for variant in (rows, renamed):
        again = ranklens.evaluate(ranklens.load_qrels(_frame(variant), kind="subtopic"), run, ALL)
        for name in ALL:
            assert again.per_query(name) == pytest.approx(whole.per_query(name), rel=1e-12)
    # each query alone: the rows of the whole (compute is a function of a query's data)
    for q in qrels:
        alone = ranklens.evaluate(_sub({q: qrels[q]}), {q: run[q]}, ALL)
        for name in ALL:
            assert alone.per_query(name)[q] == whole.per_query(name)[q], (q, name)


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(case=diversity_cases(), levels=st.lists(st.integers(0, 5), min_size=10, max_size=10))
def test_tie_averaging_equals_the_mean_over_tied_orders(case: tuple[dict, dict],
                                                        levels: list[int]) -> None:
    qrels, run = case
    tied = {q: {d: float(levels[i]) for i, d in enumerate(docs)} for q, docs in run.items()}
    grouped = {q: [sorted(d for d in docs if docs[d] == s)
                   for s in sorted(set(docs.values()), reverse=True)]
               for q, docs in tied.items()}
    assume(all(math.prod(math.factorial(len(g)) for g in groups) <= 120
               for groups in grouped.values()))
    got = ranklens.evaluate(_sub(qrels), tied, ALL, ties="average")
    for q, groups in grouped.items():
        orders = [list(itertools.chain(*p))
                  for p in itertools.product(*(itertools.permutations(g) for g in groups))]
        for name in ALL:
            want = sum(_ndeval(qrels[q], order, 0.5, 0.5, 1)[_spelled(name)]
                       for order in orders) / len(orders)
            assert got.per_query(name)[q] == pytest.approx(want, rel=1e-12, abs=1e-15), name


def _spelled(name: str) -> str:
    """``name`` as :func:`_ndeval` keys it (alpha and beta written out)."""
    base, _, k = name.partition("@")
    if base in ("alpha-nDCG", "ERR-IA", "alpha-DCG", "nERR-IA"):
        return f"{base}(alpha=0.5)@{k}"
    if base in ("NRBP", "nNRBP"):
        return f"{base}(alpha=0.5,beta=0.5)"
    if name == "S-recall":
        return "S-recall@20"  # every ranking here is shorter than 20
    return name


def test_pyndeval_documented_example() -> None:
    # pyndeval's own test (seanmacavaney/pyndeval, tests/test_pyndeval.py): subtopics a, b, c
    # of query 0; the run ranks A, D, E (unjudged), B and misses C. Its expected values, to
    # the 4 decimals it gives (strec truncated there), at cutoffs up to 100.
    sq = ranklens.load_qrels({"0": {"a": {"A": 1}, "b": {"B": 1, "D": 1}, "c": {"C": 1}}},
                             kind="subtopic")
    run = {"0": {"A": 9.3, "D": 8.4, "E": 8.1, "B": 7.6}}
    expected = {"NRBP": 0.3906, "nNRBP": 0.8620, "AP-IA": 0.5000}
    for k in (5, 10, 20, 50, 100):
        expected[f"alpha-nDCG@{k}"] = 0.7868
        expected[f"nERR-IA@{k}"] = 0.8297
        expected[f"S-recall@{k}"] = 0.6666
        expected[f"P-IA@{k}"] = 1 / k  # (2/k + 1/k + 0) / 3
    expected.update({"ERR-IA@5": 0.3933, "ERR-IA@10": 0.3907, "ERR-IA@20": 0.3907,
                     "ERR-IA@50": 0.3907, "ERR-IA@100": 0.3907, "alpha-DCG@5": 0.4052,
                     "alpha-DCG@10": 0.3998, "alpha-DCG@20": 0.3997, "alpha-DCG@50": 0.3997,
                     "alpha-DCG@100": 0.3997})
    got = ranklens.evaluate(sq, run, list(expected))
    for name, value in expected.items():
        assert got[name] == pytest.approx(value, abs=1e-4), name
