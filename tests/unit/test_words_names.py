"""Issue 39's naming and parsing items in Python: measure lists split as on the command
line, trec_eval spellings in any case, the bound on draws, trec_eval's duplicates hint,
p-values of 0 in scientific notation."""

from __future__ import annotations

from pathlib import Path

import pytest

import ranklens
from ranklens import MeasureError, ParameterError
from ranklens._names import parse_measures

QRELS = {"q1": {"a": 2, "b": 0}, "q2": {"x": 1}}
RUN = {"q1": {"a": 3.0, "b": 2.0}, "q2": {"x": 1.0}}


def test_measures_split_at_spaces_as_on_the_command_line() -> None:
    result = ranklens.evaluate(QRELS, RUN, "nDCG@10 AP")
    assert list(result.names) == ["nDCG@10", "AP"]
    assert parse_measures(["nDCG(gain=exp2, discount=jk)@5 P_5,10"]) == \
        parse_measures(["nDCG(gain=exp2, discount=jk)@5", "P_5", "P_10"])


def test_a_name_with_spaces_that_reads_whole_is_one_name() -> None:
    assert parse_measures("nDCG @ 10") == parse_measures("nDCG@10")
    assert parse_measures("AP (rel=2)") == parse_measures("AP(rel=2)")


def test_an_empty_name_is_still_refused() -> None:
    with pytest.raises(MeasureError, match="empty"):
        parse_measures(["AP", ""])


@pytest.mark.parametrize(("written", "meant"), [
    ("NDCG_cut_10", "ndcg_cut_10"), ("Map_cut.5,10", "map_cut.5,10"), ("SET_P", "set_P"),
    ("p_5", "P_5")])
def test_trec_spellings_in_any_case(written: str, meant: str) -> None:
    assert parse_measures(written) == parse_measures(meant)


def test_draws_are_bounded() -> None:
    runs = {"a": RUN, "b": {"q1": {"b": 1.0}, "q2": {"x": 1.0}}}
    with pytest.raises(ParameterError, match=r"'resamples'.*1000000"):
        ranklens.compare(QRELS, runs, "AP", ci="bca", resamples=10 ** 14)
    with pytest.raises(ParameterError, match=r"'permutations'.*1000000"):
        ranklens.compare(QRELS, runs, "AP", test="randomization", permutations=10 ** 14)


def test_trec_eval_duplicates_hint_names_an_existing_option(tmp_path: Path) -> None:
    qrels = tmp_path / "dup.qrels"
    qrels.write_text("q1 0 a 1\nq1 0 a 0\n", encoding="utf-8")
    with pytest.raises(ranklens.InputError) as info:
        ranklens.trec_eval(str(qrels), RUN)
    # trec_eval takes no 'duplicates' option: the hint names the function that does
    assert "ranklens.evaluate(..., duplicates='first')" in str(info.value)
    assert "pass duplicates" not in str(info.value)


def test_p_value_of_zero_in_scientific_notation() -> None:
    from ranklens._surfaces.compare.render import _p

    assert _p(0.0, 4) == "0.0e+00"
    assert _p(2.1e-07, 4) == "2.1e-07" and _p(0.5, 4) == "0.5000"
