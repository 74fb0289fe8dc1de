"""Every explicit compare option is honoured or refused, never silently dropped; degenerate
comparisons (too few shared queries, unreachable significance) say so."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from test_compare import _qrels_runs

import ranklens
from ranklens import ParameterError, RanklensWarning
from ranklens._surfaces.compare.options import CompareOptions

SAKAI3 = np.array([[.7, .5, .0], [.3, .1, .0], [.2, .0, .2], [.6, .2, .1], [.4, .4, .3],
                   [.4, .3, .3], [.0, .0, .1], [.7, .5, .2], [.1, .3, .4], [.3, .3, .4]])


# -- (a) test and correction: resolved, or a conflict naming both ------------------------------


@pytest.mark.parametrize(("test", "correction"), [
    ("t", "tukey"), ("wilcoxon", "randomized-tukey"), ("tukey", "bonferroni"),
    ("randomized-tukey", "holm"), ("tukey", "randomized-tukey"), ("sign", "tukey"),
])
def test_a_tukey_name_with_another_explicit_choice_is_a_conflict(test: str,
                                                                 correction: str) -> None:
    qrels, runs = _qrels_runs(SAKAI3)
    with pytest.raises(ParameterError, match=(
            f"^the 'test' option '{test}' and the 'correction' option '{correction}' "
            "conflict")):
        ranklens.compare(qrels, runs, ["P@10"], test=test, correction=correction)


@pytest.mark.parametrize(("given", "resolved"), [
    ({}, ("t", "holm")),
    ({"test": "wilcoxon"}, ("wilcoxon", "holm")),
    ({"correction": "bonferroni"}, ("t", "bonferroni")),
    ({"test": "tukey"}, ("tukey", "tukey")),
    ({"correction": "tukey"}, ("tukey", "tukey")),
    ({"correction": "randomized-tukey"}, ("randomized-tukey", "randomized-tukey")),
    ({"test": "tukey", "correction": "tukey"}, ("tukey", "tukey")),
    ({"test": None, "correction": None}, ("t", "holm")),
])
def test_a_test_and_correction_resolve(given: dict, resolved: tuple[str, str]) -> None:
    options = CompareOptions(**given)
    assert (options.test, options.correction) == resolved
    qrels, runs = _qrels_runs(SAKAI3)
    cmp = ranklens.compare(qrels, runs, ["P@10"], permutations=99, **given)
    assert (cmp.test, cmp.correction) == resolved


# -- (b) seed: the range numpy's generators take ----------------------------------------------


@pytest.mark.parametrize("seed", [-1, 2 ** 63, 1.5, True])
def test_b_seed_out_of_range_is_a_parameter_error(seed: object) -> None:
    qrels, runs = _qrels_runs(SAKAI3[:, :2])
    with pytest.raises(ParameterError, match=(
            r"^the 'seed' option must be an integer from 0 to 9223372036854775807; got ")):
        ranklens.compare(qrels, runs, ["P@10"], test="randomization", seed=seed)


def test_b_largest_seed_works() -> None:
    qrels, runs = _qrels_runs(SAKAI3[:, :2])
    cmp = ranklens.compare(qrels, runs, ["P@10"], test="randomization", seed=2 ** 63 - 1,
                           permutations=99, ci="bca", resamples=99)
    assert cmp.seed == 2 ** 63 - 1 and not math.isnan(cmp.pairs[0].p_value)
    assert cmp.to_polars()["seed"][0] == 2 ** 63 - 1


# -- (d) fewer than two shared queries: no test, said; intervals within the range --------------


def test_d_one_shared_query_is_no_test_and_is_said() -> None:
    qrels, runs = _qrels_runs(SAKAI3[:4, :2])
    for q in ("t00", "t01", "t02"):
        del runs["B"][q]
    with pytest.warns(RanklensWarning, match=r"^P@10: no test for B vs A \(n = 1\): fewer "
                                             r"than 2 shared queries$"):
        cmp = ranklens.compare(qrels, runs, ["P@10"], missing="skip", test="randomization")
    pair = cmp.pair("P@10", "B", "A")
    assert pair.n == 1 and math.isnan(pair.p_value) and math.isnan(pair.p_adjusted)
    assert math.isnan(pair.ci_low) and math.isnan(pair.ci_high) and not pair.significant
    for fmt in ("table", "markdown", "latex"):
        assert "No test (fewer than 2 shared queries): P@10 B vs A (n = 1)." in cmp.render(fmt)


def test_d_per_pair_n_when_it_differs() -> None:
    qrels, runs = _qrels_runs(SAKAI3)
    del runs["C"]["t03"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        cmp = ranklens.compare(qrels, runs, ["P@10"], missing="skip")
    assert "Queries compared per pair: B vs A 10; C vs A 9; C vs B 9." in cmp.render("table")
    same = ranklens.compare(qrels, _qrels_runs(SAKAI3)[1], ["P@10"])
    assert "Queries compared per pair" not in same.render("table")


def test_d_interval_clipped_to_the_range_of_a_unit_measure() -> None:
    qrels, runs = _qrels_runs(np.array([[.9, .4], [.1, .4]]))  # d = 0.5, -0.3
    negative = "nDCG(gain=0:-1;1:1;2:2)@10"  # a level map with a negative gain
    cmp = ranklens.compare(qrels, runs, ["P@10", "nDCG@10", negative])
    p10 = cmp.pair("P@10", "B", "A")
    assert (p10.ci_low, p10.ci_high) == (-1.0, 1.0)
    # nDCG with gains >= 0 lies in [0, 1] (the n = 2 interval was [-2.78, 3.06])
    ndcg = cmp.pair("nDCG@10", "B", "A")
    assert (ndcg.ci_low, ndcg.ci_high) == (-1.0, 1.0)
    assert cmp.clipped == (("P@10", "B", "A"), ("nDCG@10", "B", "A"))
    assert ("Interval clipped to the measure's range [-1, 1]: P@10 B vs A; nDCG@10 B vs A."
            in cmp.render())
    free = cmp.pair(negative, "B", "A")  # a negative gain may leave [0, 1]: not clipped
    assert not (free.ci_low == -1.0 and free.ci_high == 1.0)
    plain = ranklens.compare(qrels, _qrels_runs(SAKAI3[:, :2])[1], ["P@10"])
    assert plain.clipped == () and "clipped" not in plain.render()


# -- (c) a level no p-value can reach ---------------------------------------------------------


def test_c_too_few_permutations_for_alpha() -> None:
    qrels, runs = _qrels_runs(SAKAI3[:, :2])
    with pytest.warns(RanklensWarning, match=(
            r"^the 'permutations' option 19 gives p-values of at least 1/\(19 \+ 1\) = 0.05 "
            r">= alpha 0.05: no test can be significant at this alpha \(use permutations "
            r">= 20\)$")):
        ranklens.compare(qrels, runs, ["P@10"], test="randomization", permutations=19)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RanklensWarning)
        ranklens.compare(qrels, runs, ["P@10"], test="randomization", permutations=20)
        ranklens.compare(qrels, runs, ["P@10"], test="randomization", permutations=19,
                         alpha=0.06)


def test_c_exact_test_on_few_differences() -> None:
    qrels, runs = _qrels_runs(SAKAI3[:4, :2])  # 4 non-zero differences: p >= 2/16
    for test in ("randomization", "sign"):
        with pytest.warns(RanklensWarning, match=(
                r"^no test can be significant at alpha 0.05 for P@10 B vs A \(4 non-zero "
                r"differences: p >= 2/2\*\*4 = 0.125\)$")):
            ranklens.compare(qrels, runs, ["P@10"], test=test)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RanklensWarning)
        ranklens.compare(qrels, runs, ["P@10"], test="t")
        ranklens.compare(qrels, runs, ["P@10"], test="sign", alpha=0.2)


def test_d_family_size_counts_only_the_pairs_with_a_test() -> None:
    qrels = {"q1": {"a": 1}, "q2": {"a": 1}, "q3": {"a": 1}}
    runs = {"x": {"q1": {"a": 1.0}, "q2": {"z": 1.0}, "q3": {"a": 1.0}},
            "y": {"q1": {"z": 1.0}, "q2": {"a": 1.0}, "q3": {"z": 1.0}},
            "w": {"q1": {"z": 1.0}}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        cmp = ranklens.compare(qrels, runs, ["P@1"], missing="skip")
    text = cmp.render("table")
    assert "Holm correction over 1 comparison of each measure" in text
    assert "No test (fewer than 2 shared queries): P@1 w vs x (n = 1); P@1 w vs y (n = 1)." \
        in text
    assert "Queries compared per pair: y vs x 3; w vs x 1; w vs y 1." in text
