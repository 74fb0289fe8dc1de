"""The C/W/L measures (SDCG, INST, INSQ, BPM, NERR8-11) as cwl-eval computes them.

Three checks: ir_measures' own cwl-eval test (its data in ../shared/peer_data, its expected
values to four decimals), hand-computed toy cases, and cwl-eval itself (through
ir_measures' ``cwl_eval`` provider, a test-only dependency) on random rankings.
"""

from __future__ import annotations

import math
import os
import random
from pathlib import Path

import pytest
from conftest import conformance_root

import ranklens
from ranklens import Measure


def _values(qrels: object, run: object, name: str) -> dict[str, float]:
    return ranklens.evaluate(qrels, run, [name], missing="zero").per_query(name)


@pytest.fixture(scope="module")
def cwl_data() -> tuple[Path, Path]:
    root = conformance_root().parent / "peer_data"
    qrels, run = root / "ir_measures_cwl.qrels", root / "ir_measures_cwl.run"
    if not qrels.is_file():
        if os.environ.get("CI"):
            pytest.fail(f"peer data not found at {root}")
        pytest.skip(f"peer data not found at {root}")
    return qrels, run


# ir_measures tests/test_cwl_eval.py: "based on a manual execution of cwl-eval"
IR_MEASURES_EXPECTED = {
    "BPM(T=1)@20": (1.0000, 1.0000, 0.1667),
    "BPM(T=2)@10": (0.6667, 1.0000, 0.2857),
    "INSQ(T=1)": (0.5872, 0.6629, 0.0880),
    "INSQ(T=2)": (0.4513, 0.5068, 0.1292),
    "INST(T=1)": (0.7934, 0.9226, 0.0888),
    "INST(T=2)": (0.5994, 0.6924, 0.1397),
    "SDCG@10": (0.5645, 0.6531, 0.2848),
    "NERR8@10": (1.0000, 1.0000, 0.1667),
    "NERR9@10": (1.0000, 1.0000, 0.0680),
    "NERR10(p=0.8)": (1.0000, 1.0000, 0.0888),
    "NERR11(T=2)": (1.0000, 1.0000, 0.0691),
}


@pytest.mark.parametrize("name", sorted(IR_MEASURES_EXPECTED))
def test_ir_measures_documented_cwl_eval_values(cwl_data: tuple[Path, Path], name: str) -> None:
    got = _values(str(cwl_data[0]), str(cwl_data[1]), name)
    assert [got[q] for q in ("T1", "T2", "T3")] == pytest.approx(
        IR_MEASURES_EXPECTED[name], abs=1e-4)


# -- a transcription of cwl-eval's definitions, for the toy cases ----------------------


def _reference(gains: list[float], continuation: object) -> float:
    g = (gains + [0.0] * 1000)[:1000]
    c = continuation(g)  # type: ignore[operator]
    reach, total, out = 1.0, 0.0, []
    for i in range(1000):
        out.append(reach)
        total += reach
        reach *= c[i]
    return sum(w / total * x for w, x in zip(out, g, strict=True))


def test_sdcg_is_dcg_over_the_dcg_of_k_top_grade_documents() -> None:
    qrels = {"q": {"a": 1, "c": 1}}
    run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}
    expected = (1 + 1 / math.log2(4)) / (1 + 1 / math.log2(3) + 1 / math.log2(4))
    assert _values(qrels, run, "SDCG@3")["q"] == pytest.approx(expected, rel=1e-14)
    assert _values(qrels, run, "SDCG@1")["q"] == 1.0
    # graded: max_rel=2 halves a grade-1 document's gain
    graded = {"q": {"a": 2, "c": 1}}
    assert _values(graded, run, "SDCG(max_rel=2)@3")["q"] == pytest.approx(
        (1 + 0.5 / math.log2(4)) / (1 + 1 / math.log2(3) + 1 / math.log2(4)), rel=1e-14)


def test_bpm_stops_at_the_gain_target_or_the_cutoff() -> None:
    run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}
    # T=1: the user stops at the first relevant document (rank 2): W = (1/2, 1/2)
    assert _values({"q": {"b": 1}}, run, "BPM@10")["q"] == 0.5
    # K=1: only rank 1 is read
    assert _values({"q": {"b": 1}}, run, "BPM@1")["q"] == 0.0
    assert _values({"q": {"a": 1}}, run, "BPM@1")["q"] == 1.0
    # nothing relevant: read to K and find nothing
    assert _values({"q": {"z": 1}}, run, "BPM@2")["q"] == 0.0


def test_nerr8_and_nerr10_by_hand() -> None:
    run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}
    qrels = {"q": {"a": 1, "b": 2}}
    # max_rel=2: gains 1/2, 1, 0. NERR8@3: C = (1/2, 0, ...): W = (1, 1/2) / 1.5
    assert _values(qrels, run, "NERR8(max_rel=2)@3")["q"] == pytest.approx(
        (1 * 0.5 + 0.5 * 1.0) / 1.5, rel=1e-14)
    # NERR10(p=0.5): C = (1/4, 0): W = (1, 1/4) / 1.25
    assert _values(qrels, run, "NERR10(p=0.5,max_rel=2)")["q"] == pytest.approx(
        (0.5 + 0.25) / 1.25, rel=1e-14)


def test_insq_spreads_weight_over_1000_ranks() -> None:
    run = {"q": {"a": 1.0}}
    value = _values({"q": {"a": 1}}, run, "INSQ")["q"]

    def insq(g: list[float]) -> list[float]:
        return [((r + 2.0 - 1.0) / (r + 2.0)) ** 2 for r in range(1, 1001)]

    assert value == pytest.approx(_reference([1.0], insq), rel=1e-12)
    assert 0 < value < 0.5  # the weight of rank 1 is well below 1


def test_gains_are_clipped_and_scaled_between_min_rel_and_max_rel() -> None:
    run = {"q": {"a": 2.0, "b": 1.0}}
    low = _values({"q": {"a": -1, "b": 0}}, run, "INST(max_rel=3)")["q"]
    assert low == 0.0
    five = _values({"q": {"a": 5}}, run, "INST(max_rel=3)")["q"]
    three = _values({"q": {"a": 3}}, run, "INST(max_rel=3)")["q"]
    assert five == three
    one = _values({"q": {"a": 2}}, run, "INST(min_rel=1,max_rel=3)")["q"]
    half = _values({"q": {"a": 1}}, run, "INST(max_rel=2)")["q"]
    assert one == half  # both give gain 1/2


def test_max_rel_not_above_min_rel_gives_binary_gains() -> None:
    run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}
    qrels = {"q": {"a": 1, "b": 2, "c": 3}}
    binary = {"q": {"a": 0, "b": 1, "c": 1}}
    assert _values(qrels, run, "INST(min_rel=2,max_rel=2)") == _values(binary, run, "INST")


def test_cutoffs_are_required_where_cwl_eval_needs_one() -> None:
    for name in ("SDCG", "BPM", "NERR8", "NERR9"):
        with pytest.raises(ranklens.MeasureError, match="needs a cutoff"):
            Measure(name)
    assert ranklens.parse_measure("nerr11(T=2)") == Measure("NERR11")(T=2.0)


# -- cwl-eval itself on random rankings ----------------------------------------------


CWL_NAMES = ["SDCG(max_rel=3)@5", "SDCG(max_rel=3)@20", "INST(max_rel=3)",
             "INST(T=2.5,max_rel=3)", "INSQ(max_rel=3)", "INSQ(T=3,max_rel=3)",
             "BPM(T=1.5,max_rel=3)@10", "BPM(max_rel=3)@4", "NERR8(max_rel=3)@10",
             "NERR9(max_rel=3)@7", "NERR10(p=0.8,max_rel=3)", "NERR11(T=2,max_rel=3)",
             "INST(min_rel=1,max_rel=3)"]


def test_matches_cwl_eval_on_random_rankings() -> None:
    ir_measures = pytest.importorskip("ir_measures")
    pytest.importorskip("cwl")
    rng = random.Random(15)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(30):
        qid = f"q{q}"
        docs = [f"d{i}" for i in range(rng.randint(1, 60))]
        run[qid] = {d: rng.random() for d in docs}  # distinct scores: no tie policy involved
        judged = [*rng.sample(docs, k=max(1, len(docs) // 2)), "unretrieved"]
        qrels[qid] = {d: rng.choice([-1, 0, 0, 1, 2, 3]) for d in judged}
    got = ranklens.evaluate(qrels, run, CWL_NAMES)
    provider = ir_measures.cwl_eval
    for name in CWL_NAMES:
        want = {m.query_id: m.value for m in provider.iter_calc(
            [ir_measures.parse_measure(name)], qrels, run)}
        mine = got.per_query(name)
        assert set(want) == set(mine), name
        for qid, value in want.items():
            assert mine[qid] == pytest.approx(value, rel=1e-12, abs=1e-15), (name, qid)


def test_inst_with_t_zero_stops_where_cwl_eval_divides_by_zero() -> None:
    # T = 0 and a gain of 1 at rank 1: C_1 is 0 (cwl-eval: 0/0), so W = (1, 0, ...)
    assert _values({"q": {"a": 1}}, {"q": {"a": 2.0, "b": 1.0}}, "INST(T=0)") == {"q": 1.0}
