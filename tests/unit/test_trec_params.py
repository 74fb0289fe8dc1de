"""The one parser of trec_eval measure parameters: ``-m name.params`` and printed names."""

from __future__ import annotations

import pytest

from ranklens._base.errors import MeasureError
from ranklens._measures import REGISTRY, Measure
from ranklens._measures.trec_params import (
    TrecParamError,
    command_line_measure,
    parse_trec_params,
)

SPELLINGS = [  # (trec_eval name, registered name, parameters, the measure)
    ("ndcg", "nDCG", "1=3,2=9,4=4.5", "nDCG(gain=1:3;2:9;4:4.5)"),
    ("ndcg", "nDCG", "1=3,1=5", "nDCG(gain=1:3)"),  # the first pair of a level wins
    ("ndcg", "nDCG", "p=0.5,2=2", "nDCG(gain=2:2)"),  # a pair it has no use for is ignored
    ("rbp", "RBP", "p=0.5,1=2", "RBP(gain=1:2,p=0.5)"),
    ("rbp_resid", "RBPResid", "p=0.5,1=2", "RBPResid(p=0.5)"),  # rbp's parameters
    ("utility", "Utility", "2,-1,0,0", "Utility(a=2)"),
    ("11pt_avg", "IPrecAvg", ".25,.5,.75", "IPrecAvg(points=0.25;0.5;0.75)"),
    ("set_F", "F", "0.5", "F(beta2=0.5)"),
]


@pytest.mark.parametrize(("te", "name", "raw", "want"), SPELLINGS)
def test_both_spellings_give_one_measure(te: str, name: str, raw: str, want: str) -> None:
    assert str(command_line_measure(te, REGISTRY[name], raw)) == want
    for sep in ("_", "."):
        assert str(parse_trec_params(f"{te}{sep}{raw}")) == want


def test_the_command_line_reads_numbers_as_c_does_a_name_as_python() -> None:
    assert str(command_line_measure("utility", REGISTRY["Utility"], "2e,-1,0,0")) == \
        "Utility(a=2)"
    with pytest.raises(MeasureError, match=r"in 'utility_2e,-1,0,0': expected a number, "
                                           r"got '2e'"):
        parse_trec_params("utility_2e,-1,0,0")


@pytest.mark.parametrize(("raw", "status"), [("1,2,3", 4), ("1,2,3,4,5", 2)])
def test_utility_coefficients_count(raw: str, status: int) -> None:
    with pytest.raises(TrecParamError, match="utility takes exactly 4 coefficients") as info:
        command_line_measure("utility", REGISTRY["Utility"], raw)
    assert info.value.status == status


def test_refusals() -> None:
    with pytest.raises(TrecParamError, match="malformed pair parameters in '1=3,2='"):
        command_line_measure("ndcg", REGISTRY["nDCG"], "1=3,2=")
    with pytest.raises(TrecParamError, match="'set_P' takes no gain parameters"):
        command_line_measure("set_P", REGISTRY["P"], "1=2")
    # trec_eval 10.0 keeps every value of -m set_F.0.5,1 and set_F reads the first
    assert command_line_measure("set_F", REGISTRY["F"], "0.5,1") == Measure("F", (("beta2",
                                                                                 0.5),))


@pytest.mark.parametrize("text", ["dcg_burges", "ndcg_cut_10", "utility", "rbp_0.5", "map_5"])
def test_names_without_raw_parameters_are_not_taken(text: str) -> None:
    assert parse_trec_params(text) is None
