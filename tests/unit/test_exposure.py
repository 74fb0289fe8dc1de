"""Issue 43 item 4: expected exposure against expeval's golden values (analysis.md 3.4) and
the paper's formulas written here; AWRF against the TREC Fair 2021 formula with scipy's
Jensen-Shannon distance; group attention from item groups."""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import numpy as np
import pytest
from cli_support import one_error, run
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.distance import jensenshannon

import ranklens
from ranklens import ParameterError

QRELS = {"q1": {"d1": 2, "d2": 1, "d3": 1, "d4": 0}}
S1 = {"q1": {"d1": 4, "d2": 3, "d4": 2, "d3": 1}}  # d1, d2, d4, d3
S2 = {"q1": {"d2": 4, "d3": 3, "d1": 2, "d4": 1}}  # d2, d3, d1, d4
#: expeval executed on these samples (analysis.md 3.4), as it prints them ("%f"): options ->
#: disparity, relevance, difference
GOLDEN = [({"user": "rbp", "normalise": False}, ("1.085938", "1.023438", "0.320312")),
          ({"user": "rbp"}, ("0.814453", "0.798780", "0.097619")),
          ({"user": "rbp", "complete": True, "normalise": False},
           ("1.085938", "1.046875", "0.289062")),
          ({"user": "rbp", "complete": True}, ("0.460870", "0.673469", "0.185000")),
          ({"normalise": False}, ("0.694153", "0.650879", "0.441223"))]


@pytest.mark.parametrize(("options", "values"), GOLDEN)
def test_expeval_golden_values(options: dict, values: tuple[str, ...]) -> None:
    ee = ranklens.expected_exposure(QRELS, [S1, S2], **options)
    assert ee["query_id"].to_list() == ["q1"]
    assert tuple(f"{v:f}" for v in ee.row(0)[1:]) == values


def paper(grades: dict[str, int], samples: list[list[str]], gamma: float
          ) -> tuple[float, float, float]:
    """Diaz et al.'s RBP exposure and target written out: ||e||^2, e.t, ||e - t||^2."""
    e: dict[str, float] = {}
    for ranking in samples:
        for i, d in enumerate(ranking):
            e[d] = e.get(d, 0.0) + gamma ** i / len(samples)
    relevant = {d: g for d, g in grades.items() if g > 0}
    t = {}
    for d, g in relevant.items():
        m = sum(1 for v in relevant.values() if v == g)
        b = sum(1 for v in relevant.values() if v > g)
        t[d] = (gamma ** b - gamma ** (b + m)) / (m * (1 - gamma))
    docs = set(e) | set(t)
    ev = np.array([e.get(d, 0.0) for d in docs])
    tv = np.array([t.get(d, 0.0) for d in docs])
    return float(ev @ ev), float(ev @ tv), float((ev - tv) @ (ev - tv))


@settings(max_examples=60, deadline=None)
@given(grades=st.lists(st.integers(0, 3), min_size=1, max_size=6).filter(any),
       orders=st.lists(st.permutations(range(6)), min_size=1, max_size=4),
       depth=st.integers(1, 6), gamma=st.floats(0.1, 0.9))
def test_rbp_equals_the_paper(grades: list[int], orders: list[list[int]], depth: int,
                              gamma: float) -> None:
    """Raw RBP values equal the formulas, and EE-L = EE-D - 2 e.t + ||t||^2."""
    judged = {f"d{i}": g for i, g in enumerate(grades)}
    samples = [[f"d{i}" for i in order[:depth]] for order in orders]
    runs = [{"q": {d: float(depth - r) for r, d in enumerate(s)}} for s in samples]
    ee = ranklens.expected_exposure({"q": judged}, runs, user="rbp", patience=gamma,
                                    normalise=False)
    want = paper(judged, samples, gamma)
    assert ee.row(0)[1:] == pytest.approx(want, rel=1e-9, abs=1e-12)
    t = paper(judged, [[]], gamma)  # no exposure: the difference is ||t||^2
    assert want[2] == pytest.approx(want[0] - 2 * want[1] + t[2])


def test_query_no_sample_ranks_gets_expevals_values() -> None:
    """expeval: disparity's upper bound, relevance's lower bound, relevance's upper bound."""
    qrels = {**QRELS, "q2": {"d9": 1, "d8": 2}}
    raw = ranklens.expected_exposure(qrels, [S1, S2], user="rbp", normalise=False)
    t = [1.0, 0.5]  # targets of grades 2 and 1 at patience 0.5
    assert raw.row(1) == ("q2", pytest.approx(1 / (1 - 0.25)), 0.0,
                          pytest.approx(sum(v * v for v in t)))


def test_group_exposure_is_summed_per_group() -> None:
    groups = {"d1": "a", "d2": "b", "d3": "b"}
    g = ranklens.group_exposure([S1, S2], groups)
    e = {"d1": 0.625, "d2": 0.75, "d3": 0.3125}  # analysis.md 3.4's exposures
    assert g["exposure"].to_list() == pytest.approx([e["d1"], e["d2"] + e["d3"]])
    assert sum(g["share"].to_list()) == pytest.approx(1.0)
    ee = ranklens.expected_exposure(QRELS, [S1, S2], user="rbp", item_groups=groups)
    run_g, target_g = np.array([0.625, 1.0625]), np.array([1.0, 0.75])
    assert ee.row(0)[1:] == pytest.approx((run_g @ run_g, run_g @ target_g,
                                           (run_g - target_g) @ (run_g - target_g)))


def trec_awrf(ranking: list[str], groups: dict[str, str], target: dict[str, float]) -> float:
    """fair-trec 2021 qr_awrf: discounted alignment sum, 1 - JS distance squared."""
    names = sorted(target)
    disc = [1 / math.log2(max(i, 2)) for i in range(1, len(ranking) + 1)]
    a = np.array([sum(w for d, w in zip(ranking, disc, strict=True) if groups.get(d) == g)
                  for g in names]) / sum(disc)
    if a.sum() == 0:
        a = np.ones_like(a)
    with np.errstate(invalid="ignore"):
        js = float(jensenshannon(a, [target[g] for g in names]))
    return 1 - (0.0 if math.isnan(js) else js) ** 2  # NaN: the root of a rounding-negative JS


@settings(max_examples=60, deadline=None)
@given(order=st.permutations(range(8)), depth=st.integers(1, 8),
       membership=st.lists(st.sampled_from(["x", "y", "z", None]), min_size=8, max_size=8),
       weights=st.lists(st.floats(0.0, 5.0).filter(lambda w: w == 0 or w >= 1e-290),
                       min_size=3, max_size=3).filter(lambda w: sum(w) > 0))
def test_awrf_equals_the_trec_formula(order: list[int], depth: int, membership: list,
                                      weights: list[float]) -> None:
    groups = {f"d{i}": g for i, g in enumerate(membership) if g is not None}
    ranking = [f"d{i}" for i in order[:depth]]
    target = dict(zip("xyz", weights, strict=True))
    run_ = {"q": {d: float(depth - r) for r, d in enumerate(ranking)}}
    got = ranklens.awrf(run_, groups or {"other": "x"}, target)["awrf"][0]
    assert got == pytest.approx(trec_awrf(ranking, groups, target), abs=1e-12)
    assert 1 - math.log(2) - 1e-12 <= got <= 1 + 1e-12


def test_awrf_default_target_and_samples() -> None:
    groups = {"d1": "a", "d2": "b", "d3": "b", "d4": "a"}
    each = [trec_awrf(["d1", "d2", "d4", "d3"], groups, {"a": 1, "b": 1}),
            trec_awrf(["d2", "d3", "d1", "d4"], groups, {"a": 1, "b": 1})]
    got = ranklens.awrf([S1, S2], groups)["awrf"].to_list()
    assert got == pytest.approx([np.mean(each)])
    assert each[0] != pytest.approx(each[1])  # the mean is over two different values


@settings(max_examples=30, deadline=None)
@given(orders=st.lists(st.permutations(range(6)), min_size=1, max_size=4),
       depth=st.integers(1, 6), k=st.integers(1, 7),
       membership=st.lists(st.sampled_from(["x", "y", "z", None]), min_size=6, max_size=6))
def test_awrf_measure_in_evaluate(orders: list[list[int]], depth: int, k: int,
                                  membership: list) -> None:
    """AWRF@k of the registry equals awrf() on the top k, per query, and compares."""
    groups = {f"d{i}": g for i, g in enumerate(membership) if g is not None} or {"d9": "x"}
    runs = {f"q{j}": {f"d{i}": float(depth - r) for r, i in enumerate(order[:depth])}
            for j, order in enumerate(orders)}
    qrels = {q: {"d0": 1} for q in runs}
    got = ranklens.evaluate(qrels, runs, [f"AWRF@{k}"], item_groups=groups)
    top = {q: {d: s for d, s in docs.items() if s > depth - k} for q, docs in runs.items()}
    want = ranklens.awrf(top, groups)
    assert got.per_query(f"AWRF@{k}") == pytest.approx(dict(want.iter_rows()), abs=1e-12)
    for q, docs in top.items():
        ranking = sorted(docs, key=lambda d: -docs[d])
        target = dict.fromkeys(sorted(set(groups.values())), 1.0)
        assert got.per_query(f"AWRF@{k}")[q] == pytest.approx(
            trec_awrf(ranking, groups, target), abs=1e-12)


def test_awrf_measure_compares() -> None:
    groups = {"d1": "a", "d2": "b", "d3": "b", "d4": "a"}
    cmp = ranklens.compare(QRELS, {"s1": S1, "s2": S2}, ["AWRF@4"], item_groups=groups)
    assert cmp.results.values("AWRF@4").shape == (1, 2)


def test_errors() -> None:
    with pytest.raises(ParameterError, match="'normalise' option must be False or None with "
                                             "'item_groups'"):
        ranklens.expected_exposure(QRELS, S1, normalise=True, item_groups={"d1": "a"})
    with pytest.raises(ParameterError, match=r"'user' option must be one of gerr, rbp"):
        ranklens.expected_exposure(QRELS, S1, user="dcg")
    with pytest.raises(ParameterError, match=r"'patience' option must be between 0 and 1"):
        ranklens.expected_exposure(QRELS, S1, patience=1.0)
    with pytest.raises(ParameterError, match=r"'qrels' option is needed with user='gerr'"):
        ranklens.group_exposure(S1, {"d1": "a"}, user="gerr")
    with pytest.raises(ParameterError, match=r"'target' option must give finite weights >= 0"):
        ranklens.awrf(S1, {"d1": "a"}, {"a": -1.0})
    # a share that underflows the Jensen-Shannon midpoint (AWRF would be -inf), or infinite
    for weights in ({"a": 1.0, "b": 5e-324}, {"a": math.inf}):
        with pytest.raises(ParameterError, match=r"each other one 0 or at least 1e-300"):
            ranklens.awrf(S1, {"d1": "a"}, weights)


def test_awrf_of_nearly_equal_distributions_is_one() -> None:
    # the divergence rounds below 0 and scipy's distance is NaN (hypothesis found it)
    value = ranklens.awrf({"q": {"d0": 1.0}}, {"d0": "x"},
                          {"x": 1.5, "y": 0.0, "z": 2.220446049250313e-16})["awrf"][0]
    assert value == 1.0


def test_cli_exposure(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("qrels").write_text("".join(f"q1 0 {d} {g}\n" for d, g in QRELS["q1"].items()),
                             encoding="utf-8")
    for name, sample in (("s1.run", S1), ("s2.run", S2)):
        Path(name).write_text("".join(f"q1 Q0 {d} 0 {s} x\n" for d, s in sample["q1"].items()),
                              encoding="utf-8")
    out = run(["exposure", "qrels", "s1.run", "s2.run", "--user", "rbp", "--raw", "-f",
               "csv"], capsys)
    assert out.code == 0, out.err
    row = next(csv.DictReader(io.StringIO(out.out)))
    assert tuple(f"{float(row[c]):f}" for c in ("disparity", "relevance", "difference")) \
        == GOLDEN[0][1]
    Path("groups.tsv").write_text("item_id\tgroup\nd1\ta\nd2\tb\nd3\tb\n", encoding="utf-8")
    out = run(["exposure", "qrels", "s1.run", "s2.run", "--item-groups", "groups.tsv",
               "--target", "a=1,b=3", "-f", "csv"], capsys)
    row = next(csv.DictReader(io.StringIO(out.out)))
    groups = {"d1": "a", "d2": "b", "d3": "b"}
    want = np.mean([trec_awrf(r, groups, {"a": 1, "b": 3})
                    for r in (["d1", "d2", "d4", "d3"], ["d2", "d3", "d1", "d4"])])
    assert float(row["awrf"]) == pytest.approx(want)
    bad = run(["exposure", "qrels", "s1.run", "--target", "a=1"], capsys)
    assert bad.code == 2 and "--target needs --item-groups" in one_error(bad.err)
    bad = run(["exposure", "qrels", "s1.run", "--item-groups", "groups.tsv", "--target", "a"],
              capsys)
    assert bad.code == 2 and "--target must be group=weight pairs" in one_error(bad.err)


def test_docstring_examples() -> None:
    import doctest

    import ranklens._surfaces.exposure as module

    failed, tried = doctest.testmod(module)
    assert tried and not failed
