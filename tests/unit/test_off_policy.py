"""Issue 43 item 3: off-policy estimates from logs (IPS, SNIPS, DR; slate, item-position,
cascade and position-based click weights) against analysis.md 3.3's golden values, direct
implementations written here, and seeded simulations with a known logging policy."""

from __future__ import annotations

import csv
import io
import itertools
import math
from pathlib import Path

import numpy as np
import pytest
from cli_support import one_error, run
from hypothesis import given, settings
from hypothesis import strategies as st

import ranklens
from ranklens import InputError, ParameterError
from ranklens._results.interval import bootstrap_means

BASE = {"slate": [1, 1, 2, 2], "position": [1, 2, 1, 2], "reward": [1, 0, 0, 1]}
#: analysis.md 3.3: joint, item-position and cascade propensities of the 2 x 2 log
LOGS = {"slate": {**BASE, "pscore": [.2, .2, .5, .5], "target_pscore": [.4, .4, .25, .25]},
        "item-position": {**BASE, "pscore": [.5, .4, .5, .6],
                          "target_pscore": [.7, .3, .4, .5]},
        "cascade": {**BASE, "pscore": [.5, .2, .5, .5], "target_pscore": [.7, .4, .4, .25]}}
GOLDEN = [("slate", "ips", 1.25), ("item-position", "ips", 1.116667), ("cascade", "ips", 0.95),
          ("slate", "snips", 1.0), ("item-position", "snips", 1.162679),
          ("cascade", "snips", 0.836364)]


@pytest.mark.parametrize(("weights", "estimator", "value"), GOLDEN)
def test_golden_values(weights: str, estimator: str, value: float) -> None:
    """SIPS, IIPS, RIPS and their self-normalised forms (analysis.md 3.3)."""
    got = ranklens.off_policy(LOGS[weights], estimator, weights)
    assert got.value == pytest.approx(value, abs=5e-7)
    assert (got.slates, got.rows) == (2, 4)


def direct(log: dict[str, list], estimator: str, weights: str) -> float:
    """The estimators written from their definitions, row by row."""
    rows = sorted(zip(*log.values(), strict=True), key=lambda r: (r[0], r[1]))
    names = list(log)
    rows = [dict(zip(names, r, strict=True)) for r in rows]
    slates = {r["slate"] for r in rows}
    w = [r["target_pscore"] / r["pscore"] for r in rows]
    total = 0.0
    for i, r in enumerate(rows):
        if estimator == "dr":
            prev = w[i - 1] if weights == "cascade" and i and \
                rows[i - 1]["slate"] == r["slate"] else 1.0
            total += prev * r["target_reward_model"] + w[i] * (r["reward"] - r["reward_model"])
        elif estimator == "ips":
            total += w[i] * r["reward"]
        else:
            same = [w[j] for j, o in enumerate(rows)
                    if weights == "slate" or o["position"] == r["position"]]
            total += w[i] * r["reward"] / (sum(same) / len(same)) if sum(same) else 0.0
    return total / len(slates)


@st.composite
def logs(draw: st.DrawFn, weights: str) -> dict[str, list]:
    n, k = draw(st.integers(1, 6)), draw(st.integers(1, 3))
    prob = st.floats(0.05, 1.0)
    log: dict[str, list] = {c: [] for c in ("slate", "position", "reward", "pscore",
                                            "target_pscore", "reward_model",
                                            "target_reward_model")}
    for s in range(n):
        joint = (draw(prob), draw(st.floats(0.0, 1.0)))
        for p in draw(st.permutations(range(1, k + 1))):  # rows in any order
            pb, pe = joint if weights == "slate" else (draw(prob), draw(st.floats(0.0, 1.0)))
            log["slate"].append(f"s{s}")
            log["position"].append(p)
            log["reward"].append(draw(st.sampled_from([0.0, 1.0, 0.5])))
            log["pscore"].append(pb)
            log["target_pscore"].append(pe)
            log["reward_model"].append(draw(st.floats(0, 1)))
            log["target_reward_model"].append(draw(st.floats(0, 1)))
    return log


@pytest.mark.parametrize("weights", ["slate", "item-position", "cascade"])
@pytest.mark.parametrize("estimator", ["ips", "snips", "dr"])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_equals_direct_implementation(weights: str, estimator: str,
                                      data: st.DataObject) -> None:
    log = data.draw(logs(weights))
    got = ranklens.off_policy(log, estimator, weights, resamples=0).value
    assert got == pytest.approx(direct(log, estimator, weights), rel=1e-9, abs=1e-12)


def test_pbm_click_estimator_is_the_formula() -> None:
    """Joachims et al.: sum over clicked documents of lambda(target rank) / theta(logged)."""
    log = {"slate": ["a", "a", "a", "b", "b"], "position": [1, 2, 3, 1, 2],
           "reward": [1, 0, 1, 0, 1], "target_rank": [2, 1, None, 1, 3]}
    theta = [1.0, 0.5, 0.25]
    want = (1 / math.log2(3) / 1.0 + 0 + 1 / math.log2(4) / 0.5) / 2
    assert ranklens.off_policy(log, weights="pbm", propensities=theta).value == \
        pytest.approx(want)
    clicks = ranklens.off_policy(log, weights="pbm", propensities=theta, discount="clicks",
                                 depth=2)
    assert clicks.value == pytest.approx((1 / 1.0 + 0) / 2)  # target rank 3 is below depth
    column = ranklens.off_policy({**log, "pscore": [theta[p - 1] for p in log["position"]]},
                                 weights="pbm")
    assert column.value == pytest.approx(want)


def _simulate(rng: np.random.Generator, n: int, weights: str) -> tuple[dict, float, float]:
    """A log of ``n`` slates from a known logging policy, the target's true value and the
    logged (naive) average. Two positions, three items."""
    attract = np.array([0.2, 0.5, 0.8])
    if weights == "item-position":  # positions independent; reward depends on (item, pos)
        pb = np.array([[.6, .3, .1], [.5, .3, .2]])
        pe = np.array([[.1, .3, .6], [.2, .3, .5]])
        exam = np.array([1.0, 0.5])
        items = np.stack([rng.choice(3, n, p=pb[k]) for k in range(2)], axis=1)
        props_b, props_e = pb[[0, 1], items], pe[[0, 1], items]
        mean = attract[items] * exam
        truth = float(np.sum(pe @ attract * exam))
    else:  # a slate is an ordered pair of distinct items; reward depends on the prefix
        slates = list(itertools.permutations(range(3), 2))
        pb = np.array([.3, .25, .15, .1, .1, .1])
        pe = np.array([.05, .05, .1, .2, .2, .4])
        drawn = rng.choice(len(slates), n, p=pb)
        items = np.array(slates)[drawn]
        second = attract[items[:, 1]] * (1 - attract[items[:, 0]])  # read after the first
        mean = np.stack([attract[items[:, 0]], second], axis=1)
        truth = float(sum(pe[i] * (attract[a] + attract[b] * (1 - attract[a]))
                          for i, (a, b) in enumerate(slates)))
        if weights == "slate":
            props_b = np.repeat(pb[drawn][:, None], 2, axis=1)
            props_e = np.repeat(pe[drawn][:, None], 2, axis=1)
        else:  # cascade: probability of the prefix
            first_b = np.array([pb[[i for i, s in enumerate(slates) if s[0] == a]].sum()
                                for a in range(3)])
            first_e = np.array([pe[[i for i, s in enumerate(slates) if s[0] == a]].sum()
                                for a in range(3)])
            props_b = np.stack([first_b[items[:, 0]], pb[drawn]], axis=1)
            props_e = np.stack([first_e[items[:, 0]], pe[drawn]], axis=1)
    reward = (rng.random(mean.shape) < mean).astype(float)
    log = {"slate": np.repeat(np.arange(n), 2), "position": np.tile([1, 2], n),
           "reward": reward.ravel(), "pscore": props_b.ravel(),
           "target_pscore": props_e.ravel()}
    return log, truth, float(reward.sum() / n)


# IPS and DR are means of independent per-slate terms: the mean of many seeded logs' estimates
# is the estimate on their union, whose error the bootstrap's standard error measures
SLATES = 20_000


@pytest.mark.parametrize("weights", ["item-position", "slate", "cascade"])
def test_unbiased_in_simulation(weights: str) -> None:
    """IPS over seeded logs is the target's true value within simulation error; the logged
    average (no weights) is not."""
    log, truth, logged = _simulate(np.random.default_rng(43), SLATES, weights)
    got = ranklens.off_policy(log, "ips", weights, resamples=200)
    assert abs(got.value - truth) < 4 * got.se
    assert abs(logged - truth) > 5 * got.se


def test_dr_unbiased_with_a_wrong_reward_model() -> None:
    """DR stays unbiased when the propensities are right, whatever the reward model."""
    log, truth, _ = _simulate(np.random.default_rng(5), SLATES, "item-position")
    rows = len(log["reward"])
    got = ranklens.off_policy({**log, "reward_model": np.full(rows, 0.3),
                               "target_reward_model": np.full(rows, 0.3)}, "dr", resamples=200)
    assert abs(got.value - truth) < 4 * got.se


def test_pbm_unbiased_in_simulation() -> None:
    """Clicks = examined and relevant; the click estimator's mean is the target ranking's
    DCG over the relevant documents shown."""
    rng = np.random.default_rng(11)
    rel = np.array([1, 0, 1, 1, 0])
    theta = np.array([1.0, 0.6, 0.3])
    target_rank = np.array([3, 4, 1, 2, 5])
    docs = np.argsort(rng.random((SLATES, 5)), axis=1)[:, :3].ravel()  # 3 of 5 shown
    clicks = rel[docs] * (rng.random(docs.size) < np.tile(theta, SLATES))
    log = {"slate": np.repeat(np.arange(SLATES), 3), "position": np.tile([1, 2, 3], SLATES),
           "reward": clicks, "target_rank": target_rank[docs]}
    got = ranklens.off_policy(log, weights="pbm", propensities=theta, resamples=200)
    # a document is shown at each of the 3 logged positions with probability 1/5
    truth = float(np.sum(rel / np.log2(target_rank + 1))) * 3 / 5
    assert abs(got.value - truth) < 4 * got.se
    naive = float(np.sum(clicks / np.log2(target_rank[docs] + 1))) / SLATES
    assert abs(naive - truth) > 10 * got.se


def test_bootstrap_interval_resamples_slates() -> None:
    log = LOGS["item-position"]
    got = ranklens.off_policy(log, resamples=200, seed=3)
    per_slate = np.array([1.4, 0.5 / 0.6])  # each slate's summed weight x reward
    draws = bootstrap_means(per_slate, 200, 3)
    assert got.se == pytest.approx(float(np.std(draws, ddof=1)))
    assert (got.low, got.high) == tuple(float(v) for v in np.quantile(draws, [.025, .975]))
    none = ranklens.off_policy(log, resamples=0)
    assert math.isnan(none.se) and math.isnan(none.low)
    assert ranklens.off_policy(log, clip=1.0).max_weight == 1.0


def test_zero_propensity_names_the_row_and_line(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"row 3: column 'pscore' must be a number in "
                                         r"\(0, 1\]; got 0.0 \(a logging propensity of 0"):
        ranklens.off_policy({**LOGS["item-position"], "pscore": [.5, .4, .5, 0.0]})
    path = tmp_path / "log.csv"
    path.write_text("slate,position,reward,pscore,target_pscore\n"
                    "a,2,1,,.5\na,1,0,.5,.5\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"log.csv:2: column 'pscore' must be .* got None"):
        ranklens.off_policy(path)


@pytest.mark.parametrize(("change", "kwargs", "message"), [
    ({"position": [1, 2, 1, 0]}, {}, r"row 3: column 'position' must be an integer >= 1"),
    ({"target_pscore": [.4, .4, .25, 1.5]}, {}, r"'target_pscore' must be a number in \[0, 1\]"),
    ({"pscore": [.2, .3, .5, .5]}, {"weights": "slate"}, r"row 1: slate weights need one"),
    ({}, {"weights": "pbm", "propensities": [1.0]},
     r"row 1: position 2 has no examination propensity \('propensities' gives 1"),
    ({}, {"estimator": "dr"}, r"the doubly robust estimator needs a 'reward_model' column"),
])
def test_input_errors(change: dict, kwargs: dict, message: str) -> None:
    log = {**LOGS["slate"], **change}
    if kwargs.get("weights") == "pbm":
        log["target_rank"] = [1, 2, 1, 2]
    with pytest.raises(InputError, match=message):
        ranklens.off_policy(log, **kwargs)


def test_missing_column_and_option_errors() -> None:
    with pytest.raises(InputError, match=r"a log needs a 'slate' column .*found columns"):
        ranklens.off_policy({"position": [1], "reward": [1]})
    with pytest.raises(ParameterError, match=r"'estimator' option must be one of ips, snips"):
        ranklens.off_policy(LOGS["slate"], "naive")
    with pytest.raises(ParameterError, match=r"must be ips with weights='pbm'"):
        ranklens.off_policy(LOGS["slate"], "snips", "pbm")
    with pytest.raises(ParameterError, match=r"'propensities' and 'depth' options are for"):
        ranklens.off_policy(LOGS["slate"], propensities=[1.0])


def test_cli_off_policy(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    rows = zip(*LOGS["cascade"].values(), strict=True)
    Path("log.csv").write_text("slate,position,reward,pscore,target_pscore\n" + "".join(
        ",".join(map(str, r)) + "\n" for r in rows), encoding="utf-8")
    out = run(["off-policy", "log.csv", "-w", "cascade", "-f", "csv"], capsys)
    assert out.code == 0, out.err
    rows = list(csv.DictReader(io.StringIO(out.out)))
    assert [(r["estimator"], r["weights"]) for r in rows] == [("ips", "cascade"),
                                                              ("snips", "cascade")]
    assert [float(r["value"]) for r in rows] == pytest.approx([0.95, 0.836364], abs=5e-7)
    bad = run(["off-policy", "log.csv", "-o", "log.csv"], capsys)
    assert bad.code == 2 and "is one of the input files" in one_error(bad.err)
    bad = run(["off-policy", "log.csv", "-w", "pbm", "--propensities", "1,x"], capsys)
    assert bad.code == 2 and "--propensities must be numbers" in one_error(bad.err)


def test_cli_compare_policies(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    log = {**LOGS["item-position"], "old": [.5, .4, .5, .6]}
    rows = zip(*log.values(), strict=True)
    Path("log.csv").write_text(",".join(log) + "\n" + "".join(
        ",".join(map(str, r)) + "\n" for r in rows), encoding="utf-8")
    out = run(["off-policy", "log.csv", "--compare", "new=target_pscore", "--compare",
               "old=pscore", "-f", "csv"], capsys)
    assert out.code == 0, out.err
    (row,) = csv.DictReader(io.StringIO(out.out))
    want = ranklens.compare_policies(log, {"new": "target_pscore", "old": "old"})
    # the logging policy as a target: weights 1, the logged reward per slate
    assert (row["policy"], int(row["slates"]), float(row["value_2"])) == ("new - old", 2, 1.0)
    assert [float(row[k]) for k in ("difference", "p_value")] == pytest.approx(
        [want.difference, want.p_value], rel=1e-6)
    for args, message in ((["--compare", "a=old"], "--compare needs two NAME=COLUMN"),
                          (["--compare", "a=old", "--compare", "a=pscore"], "different names"),
                          (["--compare", "a=old", "--compare", "b=old", "-e", "snips"],
                           "must be ips or dr")):
        bad = run(["off-policy", "log.csv", *args], capsys)
        assert bad.code == 2 and message in one_error(bad.err), bad.err


def test_docstring_examples() -> None:
    import doctest

    import ranklens._surfaces.off_policy as module

    failed, tried = doctest.testmod(module)
    assert tried and not failed


def test_bootstrap_means_of_columns_share_the_resamples() -> None:
    """2-D values: each column's means are those of the column alone (one index stream)."""
    v = np.random.default_rng(2).random((7, 3))
    both = bootstrap_means(v, 50, seed=4, block_size=6)
    for j in range(3):
        assert (both[:, j] == bootstrap_means(v[:, j], 50, seed=4)).all()


def test_missing_slate_names_the_row() -> None:
    with pytest.raises(InputError, match=r"row 2: missing value in column 'slate'"):
        ranklens.off_policy({**LOGS["item-position"], "slate": [1, 1, None, 2]})


def test_bootstrap_memory_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    import ranklens._surfaces.off_policy as module

    monkeypatch.setattr(module, "MAX_CELLS", 11)
    with pytest.raises(ParameterError, match=r"at most 11 \(MAX_CELLS\); got 12: ask for "
                                             r"resamples=0"):
        ranklens.off_policy(LOGS["item-position"], "snips")
    assert ranklens.off_policy(LOGS["item-position"], "snips", resamples=0).value == \
        pytest.approx(1.162679, abs=5e-7)


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 8), st.sampled_from(["item-position", "cascade", "dr"]),
       st.randoms(use_true_random=False))
def test_compare_policies_is_the_paired_t_test(slates: int, kind: str, rnd) -> None:
    """Per-slate terms computed directly; their paired difference, t-test and interval."""
    from scipy.stats import ttest_rel

    n = 2 * slates
    col = {k: [rnd.choice([.1, .4, .5, .9]) for _ in range(n)]
           for k in ("pscore", "a", "b", "q", "ma", "mb")}
    log = {"slate": np.repeat(np.arange(slates), 2), "position": np.tile([1, 2], slates),
           "reward": [float(rnd.random() < .5) for _ in range(n)], **col}
    r, p = np.array(log["reward"]), np.array(col["pscore"])

    def terms(target: str, model: str) -> np.ndarray:
        w = np.array(col[target]) / p  # cascade: each row's pscore is its prefix's
        # dr with item-position weights: the previous row's weight is 1
        value = np.array(col[model]) + w * (r - np.array(col["q"])) if kind == "dr" else w * r
        return value.reshape(slates, 2).sum(axis=1)

    weights = "item-position" if kind == "dr" else kind
    estimator = "dr" if kind == "dr" else "ips"
    targets = {"A": {"target_pscore": "a", "target_reward_model": "ma"},
               "B": {"target_pscore": "b", "target_reward_model": "mb"}}
    if kind == "cascade":  # cascade reads the previous row's weight only for dr
        targets = {"A": "a", "B": "b"}
    log["reward_model"] = col["q"]
    c = ranklens.compare_policies(log, targets, estimator, weights, level=0.9)
    ta, tb = terms("a", "ma"), terms("b", "mb")
    d = ta - tb
    assert c.values == pytest.approx((ta.mean(), tb.mean()), abs=1e-12)
    assert c.difference == pytest.approx(d.mean(), abs=1e-12)
    alone = ranklens.off_policy({**log, "target_pscore": col["a"],
                                 "target_reward_model": col["ma"]}, estimator, weights,
                                resamples=0)
    assert c.values[0] == pytest.approx(alone.value, abs=1e-12)
    if np.ptp(d) > 1e-9:
        assert c.p_value == pytest.approx(ttest_rel(ta, tb).pvalue, rel=1e-9)
        ci = ttest_rel(ta, tb).confidence_interval(0.9)
        assert (c.low, c.high) == pytest.approx((ci.low, ci.high), rel=1e-9)


def test_compare_policies_errors() -> None:
    log = {**LOGS["item-position"], "other": [.1, .2, .3, .4]}
    with pytest.raises(ParameterError, match=r"'estimator' option must be ips or dr"):
        ranklens.compare_policies(log, {"a": "target_pscore", "b": "other"}, "snips")
    with pytest.raises(ParameterError, match=r"'targets' option needs two policies"):
        ranklens.compare_policies(log, {"a": "other"})
    with pytest.raises(InputError, match=r"policy 'b': .*'missing'.*found columns"):
        ranklens.compare_policies(log, {"a": "other", "b": "missing"})
    with pytest.raises(InputError, match=r"row 0: column 'target_pscore' must be a number "
                                         r"in \[0, 1\]; got 1.5 \(policy 'b': "
                                         r"target_pscore is 'bad'\)"):
        ranklens.compare_policies({**log, "bad": [1.5, .1, .1, .1]}, {"a": "other", "b": "bad"})
