"""Measure names in lists: ``parse_measures`` reads what ``evaluate`` reads (trec_eval's
``P_5,10``, ``P.5,10``, nicknames), and a cutoff written before the parameters is answered
with the spelling meant."""

from __future__ import annotations

import doctest
import importlib
import warnings
from pathlib import Path

import pytest

import ranklens
from ranklens import Measure, MeasureError, parse_measure, parse_measures
from ranklens._surfaces.report.build import report_data

DATA = Path(ranklens.__file__).parent / "data"
QRELS, BM25 = (str(DATA / f) for f in ("demo.qrels", "demo-bm25.run"))


@pytest.mark.parametrize(("spec", "expected"), [
    ("P_5,10", ["P@5", "P@10"]),
    ("P.5,10", ["P@5", "P@10"]),
    ("ndcg_cut.5,10", ["nDCG@5", "nDCG@10"]),
    ("set_F.1.0,0.5", ["F", "F(beta2=0.5)"]),
])
def test_list_spellings_give_every_measure(spec: str, expected: list[str]) -> None:
    assert [str(m) for m in parse_measures([spec])] == expected
    assert [str(m) for m in parse_measures(spec)] == expected  # one name is a list of one


def test_nickname_is_what_evaluate_computes() -> None:
    parsed = parse_measures(["official"])
    assert len(parsed) > 1 and parse_measure("map") in parsed
    result = ranklens.evaluate(QRELS, BM25, "official")
    assert list(dict.fromkeys(parsed)) == list(dict.fromkeys(result.measures.values()))


def test_order_duplicates_and_measures_are_kept() -> None:
    ap = Measure("AP")
    assert parse_measures(["AP", "P_5,10", ap, "P@5"]) == [
        ap, parse_measure("P@5"), parse_measure("P@10"), ap, parse_measure("P@5")]


def test_every_bad_name_is_reported_at_once() -> None:
    with pytest.raises(MeasureError) as exc:
        parse_measures(["P_5,10", "nope", "P_x,y"])
    assert "'nope'" in str(exc.value) and "'P_x,y'" in str(exc.value)


def test_list_spelling_in_evaluate_arrays_and_report() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = ranklens.evaluate_arrays([[1, 0, 1, 0, 0]], "P_2,4")
    assert list(result.measures) == ["P_2", "P_4"]
    assert result["P_4"] == pytest.approx(0.5)
    data = report_data(QRELS, {"bm25": BM25}, ["P_5,10", "AP"], max_k=5)
    assert list(data.measures) == ["P_5", "P_10", "AP"]


@pytest.mark.parametrize(("spec", "meant"), [
    ("nDCG@10(gain=exp2)", "nDCG(gain=exp2)@10"),
    ("AP@10(rel=2)", "AP(rel=2)@10"),
    ("nDCG@5(gain=exp2, discount=jk)", "nDCG(gain=exp2, discount=jk)@5"),
])
def test_cutoff_before_parameters_suggests_the_spelling_meant(spec: str, meant: str) -> None:
    parse_measure(meant)
    for parse in (parse_measure, lambda s: parse_measures([s])):
        with pytest.raises(MeasureError) as exc:
            parse(spec)
        assert f"did you mean {meant}?" in str(exc.value)
        assert "the cutoff comes after the parameters" in str(exc.value)


def test_cutoff_before_a_bad_parameter_says_both() -> None:
    with pytest.raises(MeasureError) as exc:
        parse_measure("nDCG@10(gain=foo)")
    message = str(exc.value)
    assert "did you mean nDCG(gain=foo)@10?" in message and "'foo'" in message


@pytest.mark.parametrize("module", ["ranklens._names.lists", "ranklens._names.parse",
                                    "ranklens.cli._options"])
def test_doctests(module: str) -> None:
    failed, tried = doctest.testmod(importlib.import_module(module))
    assert tried > 0 and failed == 0
