"""ranklens.compare: the public API, the result type, Sakai's golden values, corrections."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import ranklens
from ranklens import Comparison, PairComparison, ParameterError, RanklensWarning
from ranklens._surfaces.compare.corrections import adjust
from ranklens._surfaces.compare.differences import snap, wins_ties_losses
from ranklens._surfaces.compare.paired import effect_size, t_interval, t_test
from ranklens._surfaces.compare.tukey import blocked_tukey, residual_variance

# Sakai (2018), Laboratory Experiments in Information Retrieval, Table 5.1: 3 systems x 20 topics
SAKAI = np.array([
    [float(v) for v in row.split()] for row in (
        ".70 .30 .20 .60 .40 .40 .00 .70 .10 .30 .50 .40 .00 .60 .50 .30 .10 .50 .20 .10",
        ".50 .10 .00 .20 .40 .30 .00 .50 .30 .30 .40 .40 .10 .40 .20 .10 .10 .60 .30 .20",
        ".00 .00 .20 .10 .30 .30 .10 .20 .40 .40 .40 .30 .30 .20 .20 .20 .10 .50 .40 .30",
    )
]).T  # topics x systems


def _qrels_runs(scores: np.ndarray) -> tuple[dict, dict]:
    """Judgments and runs whose P@10 per topic are ``scores`` (topics x systems, tenths)."""
    hits = np.rint(scores * 10).astype(int)
    qrels = {f"t{i:02d}": {f"d{j}": 1 for j in range(10)} for i in range(len(hits))}
    runs = {}
    for s, name in enumerate("ABCDEFG"[: hits.shape[1]]):
        runs[name] = {f"t{i:02d}": {(f"d{j}" if j < hits[i, s] else f"x{j}"): 10.0 - j
                                    for j in range(10)} for i in range(len(hits))}
    return qrels, runs


# -- the golden values of Sakai's book ---------------------------------------------------------


def test_sakai_paired_t() -> None:
    d = snap(SAKAI[:, 0], SAKAI[:, 1])
    assert float(np.mean(d)) == pytest.approx(0.0750, abs=5e-5)
    assert float(np.var(d, ddof=1)) == pytest.approx(0.0251, abs=5e-5)
    assert t_test(d) == pytest.approx(0.048, abs=5e-4)
    assert effect_size(d) == pytest.approx(0.473, abs=5e-4)
    low, high = t_interval(d)
    assert (high - low) / 2 == pytest.approx(0.0742, abs=5e-5)


def test_sakai_two_way_anova_and_blocked_tukey() -> None:
    n, k = SAKAI.shape
    v_e = residual_variance(SAKAI)
    assert v_e * (k - 1) * (n - 1) == pytest.approx(0.8317, abs=5e-5)  # S_E
    assert v_e == pytest.approx(0.0219, abs=5e-5)
    s_a = n * float(np.sum((SAKAI.mean(axis=0) - SAKAI.mean()) ** 2))
    assert s_a == pytest.approx(0.1083, abs=5e-5)
    assert (s_a / (k - 1)) / v_e == pytest.approx(2.475, abs=5e-4)  # F
    p, es = blocked_tukey(SAKAI)
    assert [p[0, 1], p[0, 2], p[1, 2]] == pytest.approx([0.257, 0.096, 0.855], abs=5e-4)
    assert [es[0, 1], es[0, 2], es[1, 2]] == pytest.approx([0.507, 0.676, 0.169], abs=5e-4)


def test_sakai_through_compare() -> None:
    qrels, runs = _qrels_runs(SAKAI)
    cmp = ranklens.compare(qrels, runs, ["P@10"], baseline="B")
    ab = cmp.pair("P@10", "A", "B")
    assert (ab.mean_system, ab.mean_baseline) == pytest.approx((0.345, 0.27), abs=1e-12)
    assert ab.difference == pytest.approx(0.075, abs=1e-12)
    assert ab.p_value == pytest.approx(0.0478, abs=1e-4)
    assert ab.effect_size == pytest.approx(0.473, abs=5e-4)
    assert ab.ci_high - ab.difference == pytest.approx(0.0742, abs=5e-5)
    assert ab.n == 20 and ab.excluded == 0
    tukey = ranklens.compare(qrels, runs, ["P@10"], test="tukey")
    assert tukey.correction == "tukey"
    assert tukey.pair("P@10", "B", "A").p_adjusted == pytest.approx(0.257, abs=5e-4)
    assert tukey.pair("P@10", "A", "C").p_value == pytest.approx(0.096, abs=5e-4)
    assert tukey.pair("P@10", "A", "C").effect_size == pytest.approx(0.676, abs=5e-4)


# -- differences and ties ----------------------------------------------------------------------


def test_snap_makes_float_noise_ties_exact() -> None:
    x = np.array([0.3, 0.2, 0.4, 0.7, 0.1])
    y = np.array([0.2, 0.1, 0.3, 0.8, 0.1])
    raw = x - y
    assert len(set(np.abs(raw[:4]).tolist())) > 1  # the noise this is about
    d = snap(x, y)
    assert len(set(np.abs(d[:4]).tolist())) == 1
    assert d[4] == 0.0 and not math.copysign(1.0, d[4]) < 0
    assert np.sign(d).tolist() == [1.0, 1.0, 1.0, -1.0, 0.0]
    assert wins_ties_losses(d) == (3, 1, 1)


def test_snap_is_identity_on_tie_free_data() -> None:
    rng = np.random.default_rng(5)
    x, y = rng.random(500), rng.random(500)
    assert snap(x, y).tobytes() == (x - y).tobytes()


def test_identical_systems_give_p_one_everywhere() -> None:
    qrels, runs = _qrels_runs(SAKAI[:, :2])
    runs["B"] = runs["A"]
    for test in ("t", "randomization", "wilcoxon", "sign"):
        pair = ranklens.compare(qrels, runs, ["P@10"], test=test).pair("P@10", "B", "A")
        assert pair.p_value == 1.0, test
        assert (pair.wins, pair.ties, pair.losses) == (0, 20, 0)
        assert (pair.ci_low, pair.ci_high, pair.effect_size) == (0.0, 0.0, 0.0)
    x = SAKAI[:, 0]
    d = snap(x + 1e-17, x)
    assert not d.any() and t_test(d) == 1.0


# -- the result type ---------------------------------------------------------------------------


def test_result_type_and_pair_lookup() -> None:
    qrels, runs = _qrels_runs(SAKAI)
    cmp = ranklens.compare(qrels, runs, ["P@10", "RR"])
    assert isinstance(cmp, Comparison)
    assert cmp.run_names == ("A", "B", "C") and cmp.measures == ("P@10", "RR")
    assert cmp.baseline is None and cmp.test == "t" and cmp.correction == "holm"
    assert (cmp.alpha, cmp.seed, cmp.permutations) == (0.05, 0, None)
    assert len(cmp) == 6  # 3 pairs x 2 measures
    assert [(p.system, p.baseline) for p in cmp.pairs[:3]] == [("B", "A"), ("C", "A"),
                                                              ("C", "B")]
    assert all(isinstance(p, PairComparison) for p in cmp)
    ba = cmp.pair("P@10", "B", "A")
    ab = cmp.pair("P@10", "A", "B")
    assert ab.difference == -ba.difference and ab.p_value == ba.p_value
    assert (ab.wins, ab.losses) == (ba.losses, ba.wins)
    assert (ab.ci_low, ab.ci_high) == (-ba.ci_high, -ba.ci_low)
    assert cmp.means["P@10"]["A"] == pytest.approx(0.345)
    frame = cmp.to_polars()
    assert frame.height == 6 and frame["p_value"].to_list()[0] == cmp.pairs[0].p_value
    with pytest.raises(ParameterError, match="no comparison of 'A' with 'Z'"):
        cmp.pair("P@10", "A", "Z")


def test_compare_accepts_results_and_compare_results() -> None:
    qrels, runs = _qrels_runs(SAKAI)
    results = ranklens.evaluate(qrels, runs, ["P@10", "AP"])
    one = ranklens.compare(None, results, baseline="A")
    two = ranklens.compare_results(results, ["P@10"], baseline="A")
    assert one.measures == ("P@10", "AP") and two.measures == ("P@10",)
    assert one.pairs[0] == two.pairs[0]
    again = ranklens.compare(qrels, runs, ["P@10", "AP"], baseline="A")
    assert again.pairs == one.pairs


def test_missing_skip_is_never_silent() -> None:
    qrels, runs = _qrels_runs(SAKAI[:, :2])
    del runs["B"]["t03"]
    with pytest.warns(RanklensWarning, match=r"1 queries without a value for B or A .*t03"):
        cmp = ranklens.compare(qrels, runs, ["P@10"], missing="skip")
    pair = cmp.pair("P@10", "B", "A")
    assert (pair.n, pair.excluded) == (19, 1)
    keep = np.arange(20) != 3
    assert pair.p_value == pytest.approx(t_test(snap(SAKAI[keep, 1], SAKAI[keep, 0])),
                                         rel=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        zero = ranklens.compare(qrels, runs, ["P@10"]).pair("P@10", "B", "A")
    assert (zero.n, zero.excluded) == (20, 0)  # the default policy: the missing query is 0
    assert zero.mean_system == pytest.approx((SAKAI[:, 1].sum() - SAKAI[3, 1]) / 20)


# -- corrections -------------------------------------------------------------------------------


def test_corrections_closed_form() -> None:
    p = np.array([0.01, 0.04, 0.03, 0.005])
    assert adjust(p, "bonferroni").tolist() == pytest.approx([0.04, 0.16, 0.12, 0.02])
    assert adjust(p, "holm").tolist() == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert adjust(p, "fdr_bh").tolist() == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert adjust(p, "none").tolist() == p.tolist()


def test_nan_is_left_out_of_the_family() -> None:
    p = np.array([0.01, np.nan, 0.04])
    for method in ("holm", "bonferroni", "fdr_bh"):
        out = adjust(p, method)
        assert math.isnan(out[1])
        assert out[[0, 2]].tolist() == adjust(p[[0, 2]], method).tolist()
    assert adjust(p, "fdr_bh")[[0, 2]].tolist() == pytest.approx([0.02, 0.04])


def test_correction_family_is_each_measure_or_all() -> None:
    qrels, runs = _qrels_runs(SAKAI)
    per = ranklens.compare(qrels, runs, ["P@10", "RR"], correction="bonferroni")
    pooled = ranklens.compare(qrels, runs, ["P@10", "RR"], correction="bonferroni",
                              correction_scope="all")
    for a, b in zip(per.pairs, pooled.pairs, strict=True):
        assert a.p_value == b.p_value
        assert a.p_adjusted == pytest.approx(min(1.0, 3 * a.p_value), rel=1e-15)
        assert b.p_adjusted == pytest.approx(min(1.0, 6 * a.p_value), rel=1e-15)
        assert a.significant == (a.p_adjusted < 0.05)
        assert a.direction == (int(np.sign(a.difference)) if a.significant else 0)


# -- errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"test": "z"}, r"'test' option must be one of t, randomization.*got 'z'"),
    ({"correction": "sidak"}, r"'correction' option must be one of .*got 'sidak'"),
    ({"alpha": 1.5}, r"'alpha' option must be between 0 and 1; got 1.5"),
    # the bound is named (issue 39: every resource bounded)
    ({"permutations": 0}, r"'permutations' option must be an integer from 1 to 1000000; got 0"),
    ({"baseline": "Z"}, r"'baseline' option must name one of the runs \(A, B\); got 'Z'"),
    ({"test": "tukey"}, r"'tukey' test compares three or more runs; got 2"),
    ({"ci": "normal"}, r"'ci' option must be one of t, percentile, basic, bca, bootstrap; "
                       r"got 'normal'"),
])
def test_bad_options(kwargs: dict, match: str) -> None:
    qrels, runs = _qrels_runs(SAKAI[:, :2])
    with pytest.raises(ParameterError, match=match):
        ranklens.compare(qrels, runs, ["P@10"], **kwargs)


def test_one_run_is_an_error() -> None:
    qrels, runs = _qrels_runs(SAKAI[:, :1])
    with pytest.raises(ParameterError, match="at least two runs; got 1"):
        ranklens.compare(qrels, runs, ["P@10"])


# -- the docstrings' examples ------------------------------------------------------------------


@pytest.mark.parametrize("module", ["api", "bootstrap", "corrections", "differences", "paired",
                                    "randomization", "render", "result", "tukey"])
def test_docstring_examples(module: str) -> None:
    import doctest
    import importlib

    failed, tried = doctest.testmod(importlib.import_module(f"ranklens._surfaces.compare.{module}"))
    assert tried > 0 and failed == 0


def test_import_ranklens_does_not_import_scipy() -> None:
    import subprocess
    import sys

    code = "import sys, ranklens; print('scipy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_bootstrap_interval_option() -> None:
    qrels, runs = _qrels_runs(SAKAI)
    bca = ranklens.compare(qrels, runs, ["P@10"], ci="bca", resamples=999, seed=3)
    alias = ranklens.compare(qrels, runs, ["P@10"], ci="bootstrap", resamples=999, seed=3)
    assert alias.ci == "bca" and alias.resamples == 999
    assert [(p.ci_low, p.ci_high) for p in alias] == [(p.ci_low, p.ci_high) for p in bca]
    from ranklens._surfaces.compare.bootstrap import bootstrap_interval

    pair = bca.pair("P@10", "B", "A")
    d = snap(SAKAI[:, 1], SAKAI[:, 0])
    assert (pair.ci_low, pair.ci_high) == bootstrap_interval(d, resamples=999, seed=3)
    assert pair.ci_low < pair.difference < pair.ci_high


def test_randomized_tukey_on_sakai_data() -> None:
    """Sakai's randomised Tukey HSD (B = 9999): 0.304 / 0.111 / 0.890 in the research notes,
    equal within Monte Carlo error (4 standard errors) for any seed."""
    qrels, runs = _qrels_runs(SAKAI)
    cmp = ranklens.compare(qrels, runs, ["P@10"], correction="randomized-tukey")
    assert (cmp.test, cmp.correction, cmp.permutations) == ("randomized-tukey",
                                                            "randomized-tukey", 9999)
    for (a, b), want in zip([("A", "B"), ("A", "C"), ("B", "C")], [0.304, 0.111, 0.890],
                            strict=True):
        pair = cmp.pair("P@10", b, a)
        assert not pair.exact and pair.p_value == pair.p_adjusted
        assert abs(pair.p_value - want) <= 4 * math.sqrt(want * (1 - want) / 9999)
    with pytest.raises(ParameterError, match="the 'test' option 'tukey' and the "
                                             "'correction' option 'randomized-tukey' conflict"):
        ranklens.compare(qrels, runs, ["P@10"], test="tukey", correction="randomized-tukey")


def test_direction_of_a_significant_sign_test_with_zero_mean() -> None:
    """Ten small wins and one large loss: mean 0, the sign test rejects, direction is +1."""
    scores = np.zeros((11, 2))
    scores[:10, 1] = 0.1  # B one hit in ten more than A on ten topics
    scores[10] = [1.0, 0.0]  # and ten hits fewer on the last
    qrels, runs = _qrels_runs(scores)
    cmp = ranklens.compare(qrels, runs, ["P@10"], test="sign")
    pair = cmp.pair("P@10", "B", "A")
    assert (pair.wins, pair.ties, pair.losses) == (10, 0, 1)
    assert pair.difference == pytest.approx(0.0, abs=1e-15)
    assert pair.p_value == pytest.approx(24 / 2048, rel=1e-12)  # 2 * (1 + 11) / 2^11
    assert pair.significant and pair.direction == 1


def test_too_few_queries_give_nan_left_out_of_the_family() -> None:
    import json

    qrels = {"q1": {"a": 1}, "q2": {"a": 1}, "q3": {"a": 1}}
    runs = {"x": {"q1": {"a": 1.0}, "q2": {"z": 1.0}, "q3": {"a": 1.0}},
            "y": {"q1": {"z": 1.0}, "q2": {"a": 1.0}, "q3": {"z": 1.0}},
            "w": {"q1": {"z": 1.0}}}
    with pytest.warns(RanklensWarning, match="left out of their comparison"), \
            pytest.warns(RanklensWarning, match=r"P@1: no test for w vs x \(n = 1\), w vs y "
                                                r"\(n = 1\): fewer than 2 shared queries"):
        cmp = ranklens.compare(qrels, runs, ["P@1"], missing="skip", correction="holm")
    lone = cmp.pair("P@1", "w", "x")
    assert (lone.n, lone.excluded) == (1, 2)
    assert math.isnan(lone.p_value) and math.isnan(lone.p_adjusted) and not lone.significant
    both = cmp.pair("P@1", "y", "x")
    # w and y agree on their one shared query, but one query is no test: p is NaN, and the
    # family is y-x alone (m = 1); w-x and w-y stay out
    same = cmp.pair("P@1", "w", "y")
    assert same.n == 1 and math.isnan(same.p_value) and math.isnan(same.ci_low)
    assert both.p_adjusted == pytest.approx(both.p_value, rel=1e-15)
    rows = [json.loads(line) for line in cmp.render("jsonl").splitlines()]
    assert any(r["p_value"] is None and r["system"] == "w" for r in rows)


def test_bootstrap_test_through_compare() -> None:
    from ranklens._surfaces.compare.bootstrap import bootstrap_test

    qrels, runs = _qrels_runs(SAKAI)
    cmp = ranklens.compare(qrels, runs, ["P@10"], baseline="B", test="bootstrap",
                           resamples=1999, seed=5)
    assert (cmp.test, cmp.resamples, cmp.permutations, cmp.ci) == ("bootstrap", 1999, None, "t")
    pair = cmp.pair("P@10", "A", "B")
    assert not pair.exact
    assert pair.p_value == bootstrap_test(snap(SAKAI[:, 0], SAKAI[:, 1]), 1999, seed=5)
    assert 1 / 2000 <= pair.p_value < 0.05  # liberal with 20 topics: t gives 0.048
    assert "paired bootstrap test" in cmp.render("table")
    assert "bootstrap, 1999 resamples; seed 5." in cmp.render("table")


def test_per_query_differences_are_what_the_test_read() -> None:
    qrels, runs = _qrels_runs(SAKAI)
    for test in ("t", "tukey"):
        cmp = ranklens.compare(qrels, runs, ["P@10"], test=test)
        for p in cmp.pairs:
            got = p.per_query()
            assert list(got) == [f"t{i:02d}" for i in range(20)] == list(p.per_query("P@10"))
            s, b = cmp.run_names.index(p.system), cmp.run_names.index(p.baseline)
            d = np.array(list(got.values()))
            assert d.tobytes() == snap(SAKAI[:, s], SAKAI[:, b]).tobytes()
            assert wins_ties_losses(d) == (p.wins, p.ties, p.losses)
            swapped = cmp.pair("P@10", p.baseline, p.system).per_query()
            assert swapped == {q: -v + 0.0 for q, v in got.items()}
        by_query = cmp.per_query("P@10")
        assert by_query["t00"] == {(p.system, p.baseline): p.per_query()["t00"]
                                   for p in cmp.pairs}
        frame = cmp.to_polars(per_query=True)
        assert frame.columns == ["measure", "system", "baseline", "query_id", "difference"]
        assert frame.height == 3 * 20
        assert cmp.to_polars().height == 3  # one row per comparison, as released
    for ask in (cmp.pairs[0].per_query, cmp.per_query):  # as Result.per_query
        with pytest.raises(ranklens.MeasureError, match="'RR' was not evaluated"):
            ask("RR")
    two = ranklens.compare(qrels, runs, ["P@10", "RR"])
    with pytest.raises(ParameterError, match="this comparison is on P@10"):
        two.pairs[0].per_query("RR")


def test_per_query_differences_leave_out_what_the_pair_left_out() -> None:
    qrels, runs = _qrels_runs(SAKAI[:6])
    del runs["C"]["t00"]
    with pytest.warns(RanklensWarning):
        cmp = ranklens.compare(qrels, runs, ["P@10"], missing="skip", test="tukey")
    # a Tukey test reads the topics every system has: t00 is out of every pair
    for p in cmp.pairs:
        got = p.per_query()
        assert math.isnan(got["t00"]) and sum(not math.isnan(v) for v in got.values()) == p.n
    with pytest.warns(RanklensWarning):
        cmp = ranklens.compare(qrels, runs, ["P@10"], missing="skip")
    assert not math.isnan(cmp.pair("P@10", "B", "A").per_query()["t00"])
    assert math.isnan(cmp.pair("P@10", "C", "A").per_query()["t00"])


def test_a_pair_made_by_hand_has_no_per_query_values() -> None:
    qrels, runs = _qrels_runs(SAKAI[:4])
    made = ranklens.compare(qrels, runs, ["P@10"]).pairs[0]
    fields = {k: getattr(made, k) for k in made.__dataclass_fields__
              if k not in ("source", "together")}
    with pytest.raises(ParameterError, match="without its per-query values"):
        PairComparison(**fields).per_query()
    assert PairComparison(**fields) == made  # the values compared are not a field's
