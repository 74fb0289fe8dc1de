"""Judgment coverage: Judged@k, Unj@k and condensed-list scores beside the plain ones, and
the warning when the condensed lists reverse the order of two systems."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ranklens
from ranklens._surfaces.coverage import coverage_measures, order_flips

QRELS = {"q1": {"d1": 1, "d2": 1, "d3": 0}}
# a: AP (1 + 2/3) / 2; b: an unjudged d9 first, AP (1/2 + 2/3) / 2 plain, 1 condensed
FLIP = {"a": {"q1": {"d1": 3.0, "d3": 2.0, "d2": 1.0}},
        "b": {"q1": {"d9": 3.0, "d1": 2.0, "d2": 1.0}}}


def test_the_measures_added() -> None:
    assert coverage_measures(["nDCG@10", "AP", "Judged@5", "P(judged_only=true)@5"], 5) == [
        "nDCG@10", "AP", "Judged@5", "P(judged_only=true)@5", "Unj@5",
        "nDCG(judged_only=true)@10", "AP(judged_only=true)"]
    with pytest.raises(ranklens.ParameterError, match="'coverage' option must be"):
        coverage_measures(["AP"], 0)


def test_a_reversed_order_warns_naming_the_measure_and_pair() -> None:
    with pytest.warns(ranklens.RanklensWarning,
                      match=r"coverage: AP ranks a above b, but below it on condensed lists "
                            r"\(judged documents only; 1 such pairs\); Unj@3 \(unjudged share "
                            r"of the top k\): a 0.00, b 0.33; judge the unjudged pairs"):
        r = ranklens.coverage(QRELS, FLIP, ["AP"], k=3)
    assert [x.aggregates["AP"] for x in r] == [pytest.approx(5 / 6), pytest.approx(7 / 12)]
    assert [x.aggregates["AP(judged_only=true)"] for x in r] == [pytest.approx(5 / 6), 1.0]
    assert [x.aggregates["Judged@3"] for x in r] == [1.0, pytest.approx(2 / 3)]


def test_no_warning_without_a_reversal() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ranklens.coverage(QRELS, FLIP, ["P@1"], k=3)  # plain 1 vs 0, condensed 1 vs 1: a tie
        ranklens.coverage(QRELS, {"a": FLIP["a"]}, ["AP"], k=3)  # one system
    means = {"a": {"AP": 0.5, "AP(judged_only=true)": 0.5},
             "b": {"AP": 0.4, "AP(judged_only=true)": 0.6},
             "c": {"AP": 0.3, "AP(judged_only=true)": 0.7}}
    assert order_flips(means, ["AP"]) == [("AP", "a", "b"), ("AP", "a", "c"), ("AP", "b", "c")]
    assert order_flips(means, ["nDCG@10"]) == []


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.sampled_from([f"d{i}" for i in range(10)]),
                       st.floats(-5, 5, allow_nan=False), min_size=1),
       st.dictionaries(st.sampled_from([f"d{i}" for i in range(10)]), st.integers(0, 3)),
       st.integers(1, 8))
def test_condensed_scores_equal_the_plain_ones_of_the_judged_only_run(
        run: dict, judged: dict, k: int) -> None:
    qrels = {"q": judged or {"zz": 0}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = ranklens.coverage(qrels, [{"q": run}], ["nDCG@5", "AP", "P@3"], k=k)[0]
        kept = {d: s for d, s in run.items() if d in qrels["q"]} or {"none": 0.0}
        direct = ranklens.evaluate(qrels, {"q": kept}, ["nDCG@5", "AP", "P@3"])
    for m, c in (("nDCG@5", "nDCG(judged_only=true)@5"), ("AP", "AP(judged_only=true)"),
                 ("P@3", "P(judged_only=true)@3")):
        assert got.aggregates[c] == pytest.approx(direct.aggregates[m], abs=1e-12)
    top = sorted(run, key=lambda d: (-run[d], [-ord(c) for c in d]))[:k]
    assert got.aggregates[f"Unj@{k}"] == pytest.approx(
        sum(d not in qrels["q"] for d in top) / k)
