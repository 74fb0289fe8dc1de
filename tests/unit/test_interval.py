"""One system's confidence interval over queries: Result.interval, Results.interval."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import ranklens
from ranklens._results.interval import score_interval

# measure values: in [0, 1], at most 6 digits (subnormal spreads underflow scipy's scale)
values_st = st.lists(st.integers(0, 10 ** 6).map(lambda k: k / 10 ** 6), min_size=2,
                     max_size=60)


@settings(max_examples=200, deadline=None)
@given(values_st, st.sampled_from([0.5, 0.9, 0.95, 0.99]))
def test_t_interval_equals_scipy(values: list[float], level: float) -> None:
    v = np.array(values)
    ci = score_interval(v, "t", level)
    if np.all(v == v[0]):
        assert (ci.low, ci.high) == (v[0], v[0])
        return
    low, high = stats.t.interval(level, v.size - 1, loc=np.mean(v), scale=stats.sem(v))
    assert ci.low == pytest.approx(low, rel=1e-12, abs=1e-14)
    assert ci.high == pytest.approx(high, rel=1e-12, abs=1e-14)
    assert (ci.n, ci.level, ci.method) == (v.size, level, "t")


@settings(max_examples=30, deadline=None)
@given(values_st, st.integers(0, 2 ** 32))
def test_bootstrap_interval_equals_scipy_percentile(values: list[float], seed: int) -> None:
    v = np.array(values)
    if np.all(v == v[0]):
        return
    ci = score_interval(v, "bootstrap", 0.9, seed=seed, n_resamples=999)
    ref = stats.bootstrap((v,), np.mean, n_resamples=999, method="percentile",
                          confidence_level=0.9, rng=np.random.default_rng(seed),
                          vectorized=True).confidence_interval
    assert ci.low == pytest.approx(ref.low, abs=1e-14)
    assert ci.high == pytest.approx(ref.high, abs=1e-14)


def test_bootstrap_is_deterministic_under_a_seed() -> None:
    v = np.random.default_rng(3).random(40)
    a = score_interval(v, "bootstrap", seed=7, n_resamples=2000)
    assert a == score_interval(v, "bootstrap", seed=7, n_resamples=2000)
    assert a != score_interval(v, "bootstrap", seed=8, n_resamples=2000)


@pytest.mark.parametrize("method", ["t", "bootstrap"])
def test_intervals_cover_at_the_nominal_rate(method: str) -> None:
    # 400 samples of 50 normal values: the 95% interval should hold the true mean in about
    # 380 of them; 3 binomial standard deviations (sqrt(400 * .95 * .05) = 4.4) either side
    rng = np.random.default_rng(20260101)
    trials, covered = 400, 0
    for seed in range(trials):
        v = rng.normal(0.5, 0.2, 50)
        ci = score_interval(v, method, 0.95, seed=seed, n_resamples=999)
        covered += ci.low <= 0.5 <= ci.high
    expected = 0.95 * trials
    assert abs(covered - expected) <= 3 * math.sqrt(trials * 0.95 * 0.05) + 1


def test_degenerate_values() -> None:
    one = score_interval(np.array([0.3, np.nan]))
    assert one.n == 1 and one.mean == 0.3 and math.isnan(one.low) and math.isnan(one.high)
    same = score_interval(np.array([0.5, 0.5, 0.5]), "bootstrap")
    assert (same.low, same.mean, same.high) == (0.5, 0.5, 0.5)


def _qrels_run() -> tuple[dict, dict]:
    qrels = {"a": {"d": 1}, "b": {"d": 1}, "c": {"d": 1}, "e": {"d": 1}}
    run = {"a": {"d": 1.0}, "b": {"x": 1.0, "d": 0.5}, "c": {"x": 1.0, "y": 0.9, "d": 0.1},
           "e": {"x": 1.0}}
    return qrels, run


def test_result_interval_uses_the_per_query_values() -> None:
    qrels, run = _qrels_run()
    r = ranklens.evaluate(qrels, run, ["RR", "P@2"])
    v = np.array([1.0, 0.5, 1 / 3, 0.0])
    ci = r.interval("recip_rank", clip=False)  # any spelling
    low, high = stats.t.interval(0.95, 3, loc=v.mean(), scale=stats.sem(v))
    assert (ci.low, ci.high, ci.clipped) == (pytest.approx(low), pytest.approx(high), False)
    assert ci.mean == pytest.approx(r["RR"])
    # RR lies in [0, 1]: the default clips the bounds past it onto it
    assert low < 0 and high > 1
    clipped = r.interval("RR")
    assert (clipped.low, clipped.high, clipped.clipped) == (0.0, 1.0, True)
    narrow = r.interval("RR", level=0.5)
    low, high = stats.t.interval(0.5, 3, loc=v.mean(), scale=stats.sem(v))
    assert 0 < low < high < 1 and not narrow.clipped
    assert (narrow.low, narrow.high) == (pytest.approx(low), pytest.approx(high))


def test_unbounded_measures_are_not_clipped() -> None:
    qrels, run = _qrels_run()
    r = ranklens.evaluate(qrels, run, ["DCG@3"])
    v = r.query_values["DCG@3"]
    ci = r.interval("DCG@3")
    low, _ = stats.t.interval(0.95, v.size - 1, loc=v.mean(), scale=stats.sem(v))
    assert low < 0 and ci.low == pytest.approx(low) and not ci.clipped


def test_queries_left_out_by_a_policy_are_left_out() -> None:
    qrels, run = _qrels_run()
    qrels["f"] = {"z": 1}
    skip = ranklens.evaluate(qrels, run, ["RR"], missing="skip")
    zero = ranklens.evaluate(qrels, run, ["RR"], missing="zero")
    assert skip.interval("RR").n == 4
    assert zero.interval("RR").n == 5


def test_results_interval_per_run() -> None:
    qrels, run = _qrels_run()
    res = ranklens.evaluate(qrels, {"x": run, "y": {"a": {"d": 1.0}}}, ["RR"], missing="skip")
    cis = res.interval("RR", "bootstrap", seed=4, n_resamples=500)
    assert list(cis) == ["x", "y"]
    assert cis["x"] == res["x"].interval("RR", "bootstrap", seed=4, n_resamples=500)
    assert cis["y"].n == 1 and math.isnan(cis["y"].low)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"method": "normal"}, "the 'method' option must be one of t, bootstrap; got 'normal'"),
    ({"level": 1.0}, "the 'level' option must be between 0 and 1; got 1.0"),
    ({"seed": -1}, "the 'seed' option must be an integer from 0 to"),
    ({"n_resamples": 0}, "the 'n_resamples' option must be an integer from 1 to 1000000; "
                         "got 0"),
])
def test_bad_parameters(kwargs: dict, message: str) -> None:
    qrels, run = _qrels_run()
    r = ranklens.evaluate(qrels, run, ["RR"])
    with pytest.raises(ranklens.ParameterError, match=message.replace("(", r"\(")):
        r.interval("RR", **kwargs)


def test_resamples_are_bounded_naming_the_parameter_and_the_bound() -> None:
    # issue 39: a huge count asked numpy for terabytes ("unexpected MemoryError")
    qrels, run = _qrels_run()
    r = ranklens.evaluate(qrels, run, ["RR"])
    said = "the 'n_resamples' option must be an integer from 1 to 1000000; got 99999999999999"
    with pytest.raises(ranklens.ParameterError, match=said):
        r.interval("RR", "bootstrap", n_resamples=99_999_999_999_999)
    with pytest.raises(ranklens.ParameterError, match=said):
        ranklens.render(r, "csv", ci=0.95, ci_method="bootstrap", n_resamples=99_999_999_999_999)


def test_counts_and_unknown_measures_have_no_interval() -> None:
    qrels, run = _qrels_run()
    r = ranklens.evaluate(qrels, run, ["RR", "num_ret"])
    with pytest.raises(ranklens.MeasureError, match="num_ret is aggregated as a sum"):
        r.interval("num_ret")
    with pytest.raises(ranklens.MeasureError, match="'AP' was not evaluated"):
        r.interval("AP")
    weighted = ranklens.evaluate(qrels, run, ["GAUC@5"])
    with pytest.raises(ranklens.MeasureError, match="GAUC@5 is a weighted mean over queries"):
        weighted.interval("GAUC@5")
