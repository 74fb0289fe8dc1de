"""trec_eval's own spellings in ``evaluate`` and ``evaluate -m``: nicknames, set_F lists, P.

Values are trec_eval's: the nicknames' aggregates equal the summary lines of trec_eval's own
expected output files, name by name.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import run

import ranklens
from ranklens._measures._trec_table import NICKNAMES, ORDER
from ranklens._names import expand_trec_lists, parse_measure
from ranklens._surfaces.trec_eval import table


def _summary(path: Path) -> dict[str, str]:
    """trec_eval's ``name all value`` lines (runid is a label, not a value)."""
    out: dict[str, str] = {}
    for line in path.read_text().splitlines():
        name, query, value = line.split()
        if query == "all" and name != "runid":
            out[name] = value
    return out


def _printed(name: str, value: float) -> str:
    # trec_eval prints counts as integers and every other value with 4 decimals
    return str(int(value)) if name.startswith("num_") else f"{value:.4f}"


@pytest.mark.parametrize(("nickname", "expected"), [("official", "out.test"),
                                                     ("all_trec", "out.test.a")])
def test_a_nickname_is_trec_evals_summary(trec_dir: Path, nickname: str, expected: str) -> None:
    want = _summary(trec_dir / expected)
    result = ranklens.evaluate(trec_dir / "qrels.test", trec_dir / "results.test", [nickname])
    got = result.aggregates
    # relstring is in all_trec but, a string, has no summary line
    assert [n for n in got if n != "relstring"] == list(want)  # the same names, same order
    assert {n: _printed(n, v) for n, v in got.items() if n != "relstring"} == want


def test_official_means_trec_evals_p_family() -> None:
    names = expand_trec_lists("official")
    assert "P" not in names
    assert [n for n in names if str(n).startswith("P_")] == [
        "P_5", "P_10", "P_15", "P_20", "P_30", "P_100", "P_200", "P_500", "P_1000"]
    assert names[:5] == ["num_q", "num_ret", "num_rel", "num_rel_ret", "map"]


def test_set_nickname_is_the_set_measures() -> None:
    assert expand_trec_lists("set") == ["num_q", "num_ret", "num_rel", "num_rel_ret", "utility",
                                        "set_P", "set_relative_P", "set_recall", "set_map",
                                        "set_F"]
    # set_P is ranklens's P
    assert parse_measure("set_P") == parse_measure("P")


def test_nickname_in_a_list_with_other_names_keeps_each_name_once() -> None:
    qrels = {"q": {"a": 1, "b": 0}}
    run = {"q": {"a": 2.0, "b": 1.0}}
    result = ranklens.evaluate(qrels, run, ["map", "official", "P_5"])
    names = list(result.aggregates)
    assert names.count("map") == 1 and names.count("P_5") == 1
    assert result.aggregates["map"] == 1.0
    assert result.aggregates["P_5"] == pytest.approx(0.2)


@pytest.mark.parametrize("nickname", ["prefs", "all_prefs", "qrels_jg"])
def test_nicknames_of_trec_evals_own_qrels_formats_point_to_trec_eval(nickname: str) -> None:
    with pytest.raises(ranklens.MeasureError,
                       match=rf"nickname '{nickname}'.*ranklens trec_eval -m {nickname}"):
        ranklens.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, [nickname])


def test_trec_eval_reads_the_moved_table() -> None:
    assert table.NICKNAMES is NICKNAMES and table.ORDER is ORDER
    assert [n for n, _ in table.select_measures(["official"])][:3] == ["runid", "num_q",
                                                                        "num_ret"]


def test_cli_evaluate_takes_a_nickname(trec_dir: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    r = run(["evaluate", str(trec_dir / "qrels.test"), str(trec_dir / "results.test"),
             "-m", "official", "-f", "tsv"], capsys)
    assert r.code == 0, r.err
    assert "iprec_at_recall_0.50" in r.out and "P_1000" in r.out


# trec_eval 10.0 (usnistgov/trec_eval f425365, built from source) on qrels.test and
# results.test: `-m set_F.1.0` and `-m set_F.0.5` print these; `-m set_F.1.0,0.5` prints
# one line, "set_F_1.0,0.5  all  0.1194": its parser keeps both values and set_F reads the
# first
TREC_EVAL_SET_F = {"1.0": "0.1194", "0.5": "0.1045"}


def test_cli_evaluate_reads_a_set_f_list_as_one_measure_per_beta(
        trec_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run(["evaluate", str(trec_dir / "qrels.test"), str(trec_dir / "results.test"),
             "-m", "set_F.1.0,0.5", "-m", "utility_2,-1,0,0", "-f", "tsv"], capsys)
    assert r.code == 0, r.err
    header, row = r.out.splitlines()[:2]
    got = dict(zip(header.split("\t"), row.split("\t"), strict=True))
    assert {k: f"{float(got[f'set_F_{k}']):.4f}" for k in TREC_EVAL_SET_F} == TREC_EVAL_SET_F
    assert float(got["utility_2,-1,0,0"]) == -369.0  # one measure, four coefficients


def test_evaluate_reads_a_set_f_list_as_one_measure_per_beta(trec_dir: Path) -> None:
    for written in ("set_F.1.0,0.5", "set_F_1.0,0.5"):
        assert expand_trec_lists(written) == ["set_F_1.0", "set_F_0.5"]
        got = ranklens.evaluate(trec_dir / "qrels.test", trec_dir / "results.test",
                                [written]).aggregates
        assert list(got) == ["set_F_1.0", "set_F_0.5"]
        assert {k: f"{got[f'set_F_{k}']:.4f}" for k in TREC_EVAL_SET_F} == TREC_EVAL_SET_F
    # the rule is the registry's: F reads a list as measures, Utility as its parameters
    from ranklens._measures import REGISTRY
    assert REGISTRY["F"].trec.comma == "measures"
    assert REGISTRY["Utility"].trec.comma == "parameters"
    assert expand_trec_lists("utility_2,-1,0,0") == ["utility_2,-1,0,0"]


def test_trec_eval_reads_a_set_f_list_as_trec_eval_does(
        trec_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for raw, first in (("1.0,0.5", "1.0"), ("0.5,1.0", "0.5")):
        r = run(["trec_eval", "-m", f"set_F.{raw}", str(trec_dir / "qrels.test"),
                 str(trec_dir / "results.test")], capsys)
        assert r.code == 0, r.err
        assert r.out.split() == [f"set_F_{raw}", "all", TREC_EVAL_SET_F[first]]


@pytest.mark.parametrize("written", ["set_F.1.0,0.5", "set_F_1.0,0.5"])
def test_parse_measure_says_a_set_f_list_is_several_measures(written: str) -> None:
    with pytest.raises(ranklens.MeasureError) as err:
        parse_measure(written)
    message = str(err.value)
    assert "names several measures" in message
    assert "set_F_1.0, set_F_0.5" in message
    assert "F(beta2=1.0), F(beta2=0.5)" in message


def test_the_ways_suggested_for_set_f_work() -> None:
    assert parse_measure("set_F_0.5") == parse_measure("F(beta2=0.5)")
    qrels = {"q": {"a": 1, "b": 1, "c": 0}}
    run = {"q": {"a": 3.0, "c": 2.0}}
    got = ranklens.evaluate(qrels, run, ["set_F_1.0", "set_F_0.5"]).aggregates
    # P = 1/2, R = 1/2: F_beta = (1 + b2) P R / (b2 P + R) = 1/2 for every beta
    assert got == {"set_F_1.0": pytest.approx(0.5), "set_F_0.5": pytest.approx(0.5)}


def test_comma_lists_of_several_parameter_measures_are_unchanged() -> None:
    assert parse_measure("utility_2,-1,0,0") == parse_measure("Utility(a=2,b=-1,c=0,d=0)")
    assert parse_measure("utility_2,-1,0,0") != parse_measure("Utility")
    assert dict(parse_measure("11pt_avg_.25,.5").params)["points"] == (0.25, 0.5)
    assert expand_trec_lists("P_5,10") == ["P_5", "P_10"]


def test_a_bad_p_spelling_says_which_reading_of_p_applies() -> None:
    with pytest.raises(ranklens.MeasureError,
                       match=r"P_k .* trec_eval's P family.*P alone is ranklens's P, "
                             r"trec_eval's set_P"):
        parse_measure("P_abc")
    assert str(parse_measure("P")) == "P" and str(parse_measure("P_5")) == "P@5"


def test_no_judgments_at_all_is_an_input_error_as_in_trec_eval() -> None:
    # trec_eval refuses an empty qrels file; ir_measures returns NaN: a made-up 0 would hide
    # a wrong file, so ranklens says what is wrong, under every missing= policy but "skip"
    # (an empty result with a warning: tests/unit/test_edge_policies.py)
    for missing in (None, "zero", "error"):
        with pytest.raises(ranklens.InputError, match="the qrels hold no judgments"):
            ranklens.evaluate({}, {"q": {"a": 1.0}}, ["official"], missing=missing)
