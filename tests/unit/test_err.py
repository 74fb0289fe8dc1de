"""ERR@k, expected reciprocal rank, as gdeval.pl computes it.

The reference here is a plain transcription of gdeval's rules (sort by score then doc id
descending, R = (2^g - 1) / 2^4, grades <= 0 and unjudged documents give 0). ir_measures'
ERR runs gdeval.pl through a Perl subprocess, not in-process, so there is no differential
test against it; the tie-averaged closed form is checked against the enumeration of tied
orders in tests/unit/test_registry.py.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ranklens
from ranklens import Measure


def _err(qrels: dict, run: dict, measure: str, **options: object) -> dict[str, float]:
    return ranklens.evaluate(qrels, run, [measure], **options).per_query(measure)


def _reference(grades: list[float], k: int | None, max_grade: float = 4.0) -> float:
    """ERR of grades in rank order, step by step as gdeval's loop."""
    score, decay = 0.0, 1.0
    for i, g in enumerate(grades[:k]):
        r = (2.0 ** max(g, 0.0) - 1.0) / 2.0**max_grade
        score += r * decay / (i + 1)
        decay *= 1.0 - r
    return score


def test_hand_computed_values() -> None:
    qrels = {"q": {"a": 4, "b": 0, "c": 2}}
    run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}
    # R = 15/16, 0, 3/16: 15/16 + (1/3)(3/16)(1/16)
    assert _err(qrels, run, "ERR") == {"q": 15 / 16 + 1 / 256}
    assert _err(qrels, run, "ERR@1") == {"q": 15 / 16}
    assert _err(qrels, run, "ERR@2") == {"q": 15 / 16}
    # max_grade 2: grades 1 then 2 give R = 1/4, 3/4: 1/4 + (1/2)(3/4)(3/4)
    two = {"q": {"a": 1, "b": 2}}
    assert _err(two, {"q": {"a": 2.0, "b": 1.0}}, "ERR(max_grade=2)") == {"q": 0.53125}


def test_unjudged_and_negative_grades_give_nothing() -> None:
    qrels = {"q": {"a": -2, "b": 0, "c": 1}}
    run = {"q": {"x": 5.0, "a": 4.0, "b": 3.0, "c": 2.0}}
    assert _err(qrels, run, "ERR") == {"q": (1 / 16) / 4}


def test_a_query_without_positive_judgments_follows_the_empty_option() -> None:
    qrels = {"q": {"a": 1}, "z": {"a": 0}}
    run = {"q": {"a": 1.0}, "z": {"a": 1.0}}
    assert _err(qrels, run, "ERR")["z"] == 0.0
    skipped = ranklens.evaluate(qrels, run, ["ERR"], empty="skip")
    assert skipped["ERR"] == 1 / 16  # z left out of the mean, as gdeval leaves it out


def test_a_grade_above_max_grade_counts_as_max_grade() -> None:
    # gdeval refuses such qrels; here R stays below 1, so the decay stays in [0, 1]
    run = {"q": {"a": 2.0, "b": 1.0}}
    assert _err({"q": {"a": 5, "b": 4}}, run, "ERR") == _err({"q": {"a": 4, "b": 4}}, run, "ERR")
    assert _err({"q": {"a": 5}}, run, "ERR(max_grade=5)") == {"q": 31 / 32}
    assert _err({"q": {"a": 3}}, run, "ERR(max_grade=0)") == {"q": 0.0}


def test_max_grade_is_validated() -> None:
    with pytest.raises(ranklens.MeasureError, match=r"max_grade.*>= 0"):
        Measure("ERR")(max_grade=-1)


def test_ties_follow_doc_ids_descending_as_gdeval_sorts() -> None:
    qrels = {"q": {"a": 4, "b": 0}}
    run = {"q": {"a": 1.0, "b": 1.0}}
    assert _err(qrels, run, "ERR") == {"q": 15 / 32}  # b ranks first
    assert _err(qrels, run, "ERR", ties="input") == {"q": 15 / 16}
    assert _err(qrels, run, "ERR", ties="average") == {"q": (15 / 16 + 15 / 32) / 2}


def test_averaged_ties_by_hand() -> None:
    # d (unjudged) first, then a (grade 4), b (grade 2), c (0) tied at ranks 2-4: the
    # mean of ERR over the six orders of the group
    grades = {"a": 4, "b": 2, "c": 0}
    run = {"q": {"a": 1.0, "b": 1.0, "c": 1.0, "d": 2.0}}
    expected = sum(_reference([0, *[grades[d] for d in order]], None)
                   for order in itertools.permutations(grades)) / 6
    assert _err({"q": grades}, run, "ERR", ties="average")["q"] == pytest.approx(
        expected, rel=1e-14)
    assert _err({"q": grades}, run, "ERR@2", ties="average")["q"] == pytest.approx(
        (15 / 16 + 3 / 16) / 3 / 2, rel=1e-14)


def test_names() -> None:
    assert ranklens.parse_measure("err") == Measure("ERR")
    assert ranklens.parse_measure("ERR@20") == Measure("ERR", cutoff=20)
    assert ranklens.parse_measure("err@20") == Measure("ERR", cutoff=20)
    m = ranklens.parse_measure("ERR(max_grade=3)@10")
    assert str(m) == "ERR(max_grade=3)@10"
    assert ranklens.parse_measure(str(m)) == m


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    grades=st.lists(st.sampled_from([None, -1, 0, 1, 2, 3, 4]), min_size=1, max_size=12),
    scores=st.lists(st.integers(0, 4), min_size=12, max_size=12),
    k=st.sampled_from([None, 1, 3, 5, 20]),
)
def test_matches_a_transcription_of_gdeval(grades: list[int | None], scores: list[int],
                                           k: int | None) -> None:
    docs = [f"d{i:02d}" for i in range(len(grades))]
    qrels = {"q": {d: g for d, g in zip(docs, grades, strict=True) if g is not None}}
    if not qrels["q"]:
        qrels["q"] = {"unretrieved": 1}
    run = {"q": {d: float(s) for d, s in zip(docs, scores, strict=False)}}
    # gdeval's order: score descending, then doc id descending
    order = sorted(docs, key=lambda d: (run["q"][d], d), reverse=True)
    ranked = [qrels["q"].get(d, 0) for d in order]
    name = "ERR" if k is None else f"ERR@{k}"
    assert _err(qrels, run, name)["q"] == _reference(ranked, k)
