"""Correlation of two evaluations' orderings of systems: Kendall, Spearman, tau_AP."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import ranklens
from ranklens import Result, parse_measure


def _evaluation(scores: dict[str, float], measure: str = "AP") -> list[Result]:
    """One Result per run whose ``measure`` aggregate is its score."""
    return [Result(names=(measure,), measures={measure: parse_measure(measure)},
                   query_ids=np.array(["q"], dtype=object),
                   query_values={measure: np.array([v])}, aggregates={measure: v},
                   conventions={}, run_name=run)
            for run, v in scores.items()]


def _tau_ap_loop(truth: dict[str, float], estimate: dict[str, float]) -> float:
    """Yilmaz, Aslam & Robertson (2008), eq. 2, written out: walk the estimated ordering."""
    order = sorted(estimate, key=lambda s: -estimate[s])
    n = len(order)
    total = 0.0
    for i in range(1, n):
        correct = sum(1 for j in range(i) if truth[order[j]] > truth[order[i]])
        total += correct / i
    return 2 / (n - 1) * total - 1


# scores on a grid (ties happen), or distinct ones (tau_AP)
grid_scores = st.lists(st.integers(0, 6).map(lambda k: k / 6), min_size=2, max_size=25)
distinct = st.lists(st.floats(0, 1, allow_nan=False), min_size=2, max_size=25, unique=True)


def _pair(xs: list[float], ys: list[float]) -> tuple[dict[str, float], dict[str, float]]:
    n = min(len(xs), len(ys))
    runs = [f"s{i:02d}" for i in range(n)]
    return dict(zip(runs, xs[:n], strict=True)), dict(zip(runs, ys[:n], strict=True))


def _discordant(a: dict[str, float], b: dict[str, float]) -> int:
    runs = list(a)
    return sum(1 for i, r in enumerate(runs) for s in runs[i + 1:]
               if a[r] != a[s] and b[r] != b[s] and (a[r] > a[s]) != (b[r] > b[s]))


@pytest.mark.filterwarnings("ignore::scipy.stats.ConstantInputWarning")
@pytest.mark.parametrize(("method", "scipy_coefficient"),
                         [("kendall", stats.kendalltau), ("spearman", stats.spearmanr)])
@settings(max_examples=150, deadline=None)
@given(grid_scores, grid_scores)
def test_kendall_and_spearman_equal_scipy(method: str, scipy_coefficient: Any,
                                          xs: list[float], ys: list[float]) -> None:
    a, b = _pair(xs, ys)
    if len(a) < 2:
        return
    c = ranklens.rank_correlation(_evaluation(a), _evaluation(b), "AP", method)
    ref = scipy_coefficient(list(a.values()), list(b.values())).statistic
    if math.isnan(ref):
        assert math.isnan(c.coefficient)
    else:
        assert c.coefficient == pytest.approx(ref, abs=1e-12)
    # the swapped pairs are the discordant ones, whichever the coefficient
    assert c.swaps == _discordant(a, b)
    assert c.pairs == len(a) * (len(a) - 1) // 2


@settings(max_examples=150, deadline=None)
@given(distinct, distinct)
def test_tau_ap_equals_its_formula(xs: list[float], ys: list[float]) -> None:
    a, b = _pair(xs, ys)
    if len(a) < 2:
        return
    c = ranklens.rank_correlation(_evaluation(a), _evaluation(b), "AP", "tau_ap")
    assert c.coefficient == pytest.approx(_tau_ap_loop(a, b), abs=1e-12)
    back = ranklens.rank_correlation(_evaluation(b), _evaluation(a), "AP", "tau_ap")
    sym = ranklens.rank_correlation(_evaluation(a), _evaluation(b), "AP", "tau_ap_symmetric")
    assert sym.coefficient == pytest.approx((c.coefficient + back.coefficient) / 2, abs=1e-12)
    assert c.swaps == back.swaps == _discordant(a, b)


def test_tau_ap_weighs_swaps_at_the_top_more() -> None:
    truth = {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}
    top = {"a": 3.0, "b": 4.0, "c": 2.0, "d": 1.0}     # the first two swapped
    bottom = {"a": 4.0, "b": 3.0, "c": 1.0, "d": 2.0}  # the last two swapped
    t, b = (ranklens.rank_correlation(_evaluation(truth), _evaluation(e), "AP", "tau_ap")
            for e in (top, bottom))
    k = ranklens.rank_correlation(_evaluation(truth), _evaluation(top), "AP")
    # by hand: top: C(2)=0, C(3)=2, C(4)=3 -> 2/3 (0 + 1 + 1) - 1 = 1/3
    #          bottom: C(2)=1, C(3)=2, C(4)=2 -> 2/3 (1 + 1 + 2/3) - 1 = 7/9
    assert t.coefficient == pytest.approx(1 / 3)
    assert b.coefficient == pytest.approx(7 / 9)
    assert k.coefficient == pytest.approx(2 / 3) and k.swaps == t.swaps == b.swaps == 1


def test_identical_and_reversed() -> None:
    a = {"x": 0.3, "y": 0.2, "z": 0.1}
    rev = {"x": 0.1, "y": 0.2, "z": 0.3}
    for method in ("kendall", "tau_ap", "tau_ap_symmetric", "spearman"):
        same = ranklens.rank_correlation(_evaluation(a), _evaluation(a), "AP", method)
        back = ranklens.rank_correlation(_evaluation(a), _evaluation(rev), "AP", method)
        assert (same.coefficient, same.swaps) == (1.0, 0)
        assert (back.coefficient, back.swaps) == (-1.0, 3)
        assert back.systems == ("x", "y", "z") and back.order_b == ("z", "y", "x")


def test_two_measures_of_opposite_senses_compare_best_first() -> None:
    good = _evaluation({"x": 0.9, "y": 0.5, "z": 0.1}, "RR")
    # a lower-is-better measure: x best (smallest)
    low = _evaluation({"x": 0.1, "y": 0.2, "z": 0.5}, "FallOut@10")
    c = ranklens.rank_correlation(good, low, "RR", measure_b="FallOut@10")
    assert (c.coefficient, c.swaps, c.order_b) == (1.0, 0, ("x", "y", "z"))
    assert (c.measure_a, c.measure_b) == ("RR", "FallOut@10")


def test_two_qrels_end_to_end() -> None:
    runs = {"x": {"q": {"a": 3.0, "b": 2.0, "c": 1.0}},
            "y": {"q": {"b": 3.0, "a": 2.0, "c": 1.0}},
            "z": {"q": {"c": 3.0, "d": 2.0, "a": 1.5, "b": 1.0}}}
    old = ranklens.evaluate({"q": {"a": 1}}, runs, ["RR", "P@1"])
    new = ranklens.evaluate({"q": {"b": 1}}, runs, ["RR"])
    c = ranklens.rank_correlation(old, new, "recip_rank")
    assert (c.systems, c.order_b, c.swaps) == (("x", "y", "z"), ("y", "x", "z"), 1)
    assert c.coefficient == pytest.approx(1 / 3)
    # the same evaluation by two measures
    both = ranklens.rank_correlation(old, old, "RR", "spearman", measure_b="P@1")
    assert both.measure_b == "P@1"


@pytest.mark.parametrize(("b", "kwargs", "message"), [
    ({"x": 0.1, "w": 0.2}, {}, "both evaluations must hold the same runs; only in results_a: "
                               "y; only in results_b: w"),
    ({"x": 0.1, "y": 0.2}, {"method": "pearson"},
     "the 'method' option must be one of kendall, tau_ap, tau_ap_symmetric, spearman; "
     "got 'pearson'"),
    ({"x": 0.1, "y": 0.1}, {"method": "tau_ap"},
     "tau_AP is defined for orderings without ties; runs 'x' and 'y' tie on AP in "
     "results_b"),
    ({"x": 0.1, "y": float("nan")}, {}, "run 'y' has no AP aggregate in results_b"),
])
def test_errors(b: dict[str, float], kwargs: dict, message: str) -> None:
    a = {"x": 0.3, "y": 0.2}
    with pytest.raises(ranklens.ParameterError, match=message.replace("(", r"\(")):
        ranklens.rank_correlation(_evaluation(a), _evaluation(b), "AP", **kwargs)


def test_one_run_and_unknown_measure() -> None:
    with pytest.raises(ranklens.ParameterError, match="needs at least two runs; got 1"):
        ranklens.rank_correlation(_evaluation({"x": 1.0}), _evaluation({"x": 1.0}), "AP")
    with pytest.raises(ranklens.MeasureError, match="'nDCG' was not evaluated"):
        ranklens.rank_correlation(_evaluation({"x": 1.0}), _evaluation({"x": 1.0}), "nDCG")


@settings(max_examples=50, deadline=None)
@given(grid_scores, grid_scores)
def test_one_row_per_system_in_either_ordering(xs: list[float], ys: list[float]) -> None:
    a, b = _pair(xs, ys)
    c = ranklens.rank_correlation(_evaluation(a), _evaluation(b), "AP")
    frame = c.to_polars()
    assert frame.columns == ["run", "rank_a", "rank_b", "value_a", "value_b"]
    assert tuple(frame["run"]) == c.systems
    assert tuple(frame.sort("rank_b")["run"]) == c.order_b
    assert frame["value_a"].to_list() == [a[r] for r in c.systems]
    assert frame["value_b"].to_list() == [b[r] for r in c.systems]
    assert not hasattr(c, "per_query")  # it orders systems: no per-query values
