"""Edge policies the peers have: an empty ranking scored 0, NaN (LensKit) or skipped
(``empty_ranking``), and an empty evaluation under ``missing="skip"`` (no query in common,
no judgments) giving an empty result with a warning, as pytrec_eval and ir_measures do."""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import numpy as np
import pytest
from cli_support import run, write

import ranklens
from ranklens._pipeline.assemble import finish
from ranklens._pipeline.compute import compute
from ranklens._pipeline.partials import merge, partial_of
from ranklens._pipeline.plan import make_plan
from ranklens._surfaces.render.results import convention_line
from ranklens.cli._compare import compare_cmd
from ranklens.cli._evaluate import evaluate_cmd
from ranklens.cli._report import report_cmd

# c is judged and given with an empty ranking; a's AP is 1/2, b's 1
QRELS = {"a": {"d1": 1, "d2": 1}, "b": {"d3": 1}, "c": {"d4": 1}}
RUN = {"a": {"d1": 1.0, "x": 0.5}, "b": {"d3": 1.0}, "c": {}}
MEASURES = ["AP", "P@1", "nDCG"]


def _quiet(**options: object) -> ranklens.Result:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return ranklens.evaluate(QRELS, RUN, MEASURES, **options)


# -- empty_ranking ----------------------------------------------------------------------------


def test_an_empty_ranking_scored_zero_by_default() -> None:
    res = _quiet()
    assert res.per_query("AP") == {"a": 0.5, "b": 1.0, "c": 0.0}
    assert res["AP"] == 0.5
    assert res["P@1"] == 2 / 3
    assert _quiet(empty_ranking="zero")["AP"] == res["AP"]
    assert "empty_ranking" not in res.conventions  # the default's records are unchanged


def test_an_empty_ranking_as_nan_is_left_out_of_the_averages() -> None:
    res = _quiet(empty_ranking="nan")
    per_query = res.per_query("AP")
    assert per_query["a"] == 0.5 and per_query["b"] == 1.0 and math.isnan(per_query["c"])
    assert res["AP"] == 0.75
    assert res["P@1"] == 1.0
    assert res.conventions["empty_ranking"] == "nan"
    assert "empty_ranking=nan" in convention_line([res])
    assert "empty_ranking" not in convention_line([_quiet()])


def test_nan_is_lenskits_convention_a_mean_without_the_nan() -> None:
    # LensKit scores a user without recommendations NaN, and its summary means skip NaN
    res = _quiet(empty_ranking="nan")
    for name in MEASURES:
        values = np.array(list(res.per_query(name).values()))
        assert np.isnan(values).sum() == 1
        assert res[name] == pytest.approx(float(np.nanmean(values)), abs=1e-15)


def test_an_empty_ranking_skipped_is_left_out_of_the_evaluation() -> None:
    res = _quiet(empty_ranking="skip")
    assert res.per_query("AP") == {"a": 0.5, "b": 1.0}
    assert res["AP"] == 0.75
    assert res["P@1"] == 1.0
    assert list(res.query_ids) == ["a", "b"]


def test_the_empty_ranking_policy_wins_over_the_empty_query_policy() -> None:
    qrels = {**QRELS, "c": {"d4": 0}}  # c has no relevant judgment and an empty ranking
    res = ranklens.evaluate(qrels, RUN, ["AP"], empty="one", empty_ranking="nan")
    assert math.isnan(res.per_query("AP")["c"])
    assert res["AP"] == 0.75


@pytest.mark.parametrize("policy", ["nan", "skip"])
def test_blocks_and_tallies_agree_with_the_whole(policy: str) -> None:
    plan = make_plan(MEASURES, empty_ranking=policy)
    whole = _quiet(empty_ranking=policy)
    blocks = [compute(plan, ranklens.load_qrels({q: QRELS[q] for q in part}),
                      ranklens.load_run({q: RUN[q] for q in part}), block=True)
              for part in (["a", "c"], ["b"])]
    for keep_values in (True, False):  # the local engine's blocks, Spark's buckets
        merged = merge(plan, [partial_of(plan, b, keep_values=keep_values) for b in blocks])
        totals = finish(plan, merged, run_source="<run>", qrels_source="<qrels>")
        for name in MEASURES:
            assert totals.aggregates[name] == pytest.approx(whole[name], abs=1e-15)
        assert totals.diagnostics["evaluated_queries"] == (2 if policy == "skip" and
                                                           keep_values else 3)


def test_every_empty_ranking_skipped_is_an_empty_result() -> None:
    res = ranklens.evaluate({"a": {"d1": 1}}, {"a": {}}, ["AP"], empty_ranking="skip")
    assert len(res.query_ids) == 0
    assert math.isnan(res["AP"])


def test_the_option_is_checked() -> None:
    with pytest.raises(ranklens.ParameterError, match="'empty_ranking' option must be one"):
        ranklens.evaluate(QRELS, RUN, ["AP"], empty_ranking="drop")


# -- an empty evaluation under missing="skip" -------------------------------------------------


def _empty_result(qrels: object, run: object, match: str) -> ranklens.Result:
    with pytest.warns(ranklens.RanklensWarning, match=match):
        res = ranklens.evaluate(qrels, run, ["AP", "P@10", "NumRet"], missing="skip")
    assert len(res.query_ids) == 0
    assert res.per_query("AP") == {}
    assert all(math.isnan(res[name]) for name in ("AP", "P@10", "NumRet"))
    return res


def test_no_common_query_under_skip_is_an_empty_result() -> None:
    _empty_result({"a": {"d1": 1}}, {"z": {"d1": 1.0}},
                  r"share no query .*left out \(missing='skip'\), the result is empty")


def test_no_judgments_under_skip_is_an_empty_result() -> None:
    _empty_result({}, {"z": {"d1": 1.0}}, r"hold no judgments: nothing was evaluated")
    _empty_result(ranklens.load_qrels({"a": {}}), {"a": {"d1": 1.0}},
                  r"hold no judgments: nothing was evaluated")


def test_the_other_missing_policies_still_fail() -> None:
    for missing in (None, "error"):
        with pytest.raises(ranklens.InputError, match="share no query"):
            ranklens.evaluate({"a": {"d1": 1}}, {"z": {"d1": 1.0}}, ["AP"], missing=missing)
    for missing in (None, "zero", "error"):
        with pytest.raises(ranklens.InputError, match="hold no judgments"):
            ranklens.evaluate({}, {"z": {"d1": 1.0}}, ["AP"], missing=missing)


def test_merged_blocks_sharing_no_query_under_skip() -> None:
    plan = make_plan(["AP"], missing="skip")
    a = compute(plan, ranklens.load_qrels({"q1": {"d": 1}}),
                ranklens.load_run({"q2": {"d": 1.0}}), block=True)
    b = compute(plan, ranklens.load_qrels({"q2": {"d": 1}}),
                ranklens.load_run({"q1": {"d": 1.0}}), block=True)
    for keep_values in (True, False):
        merged = merge(plan, [partial_of(plan, a, keep_values=keep_values),
                              partial_of(plan, b, keep_values=keep_values)])
        totals = finish(plan, merged, run_source="<run>", qrels_source="<qrels>")
        assert math.isnan(totals.aggregates["AP"])
        assert totals.diagnostics["evaluated_queries"] == 0
        assert any("the result is empty" in n for n in totals.notices)


def test_several_runs_one_sharing_no_query() -> None:
    with pytest.warns(ranklens.RanklensWarning, match="the result is empty"):
        res = ranklens.evaluate({"a": {"d1": 1}}, {"x": {"a": {"d1": 1.0}},
                                                   "y": {"z": {"d1": 1.0}}},
                                ["AP"], missing="skip")
    assert res["x"]["AP"] == 1.0
    assert math.isnan(res["y"]["AP"])


# -- the command line -------------------------------------------------------------------------


@pytest.mark.parametrize("command", [evaluate_cmd, compare_cmd, report_cmd],
                         ids=lambda c: c.name)
def test_the_flag_is_on_every_command_that_evaluates(command: object) -> None:
    options = {o: p for p in command.params for o in p.opts}  # type: ignore[attr-defined]
    assert tuple(options["--empty-ranking"].type.choices) == ("zero", "nan", "skip")
    assert options["--empty-ranking"].default == "zero"


def test_the_command_line_gives_an_empty_result(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    qrels = write(tmp_path / "q.txt", "a 0 d1 1\n")
    run_file = write(tmp_path / "r.txt", "z Q0 d1 1 1.0 t\n")
    out = run(["evaluate", str(qrels), str(run_file), "--missing", "skip", "-m", "AP"],
              capsys)
    assert out.code == 0, out.err
    assert "the result is empty" in out.err
    assert "nan" in out.out
