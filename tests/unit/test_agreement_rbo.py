"""RBO between two runs: the paper's formulas written out, Corsi & Urbano's example.

The brute force below sums the definition over explicit continuations of the two prefixes
(and Webber, Moffat & Zobel's Eq. 32 term by term); Corsi & Urbano's worked example is the
one their implementation's README gives (sigir2024-rbo, rbo/Python/README.md). The `rbo`
package's comparison is tests/peers/test_agreement_rbo_peer.py.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ranklens
from ranklens import MeasureError


def _run(rankings: list[list[str]]) -> dict[str, dict[str, float]]:
    """Each ranking as one query of a run, scores strictly descending (no ties)."""
    return {f"q{i}": {doc: float(len(r) - k) for k, doc in enumerate(r)}
            for i, r in enumerate(rankings)}


def _random_pair(rng: np.random.Generator) -> tuple[list[str], list[str]]:
    universe = [f"d{i}" for i in range(int(rng.integers(2, 40)))]
    s = list(rng.permutation(universe)[: int(rng.integers(1, len(universe) + 1))])
    t = list(rng.permutation(universe)[: int(rng.integers(1, len(universe) + 1))])
    return s, t


def _overlap(s: list[str], t: list[str], d: int) -> int:
    return len(set(s[:d]) & set(t[:d]))


def _brute(s: list[str], t: list[str], p: float, form: str, depth: int = 4000) -> float:
    """The definition summed to ``depth`` over explicit continuations of the prefixes:
    ``min`` continues both with documents nobody else holds; the maximum continues each
    with the other's documents it lacks (in the other's order), then both with the same new
    ones; ``ext`` is
    Eq. 32 term by term."""
    if form == "ext":
        short, long_ = (s, t) if len(s) < len(t) else (t, s)
        k, lng = len(short), len(long_)
        xs, xl = _overlap(short, long_, k), _overlap(short, long_, lng)
        total = sum(_overlap(short, long_, d) / d * p ** d for d in range(1, lng + 1))
        total += sum(xs * (d - k) / (k * d) * p ** d for d in range(k + 1, lng + 1))
        return (1 - p) / p * total + ((xl - xs) / lng + xs / k) * p ** lng

    def value(a: list[str], b: list[str]) -> float:
        seen_a, seen_b, x, total = set(), set(), 0, 0.0
        for d in range(1, depth + 1):
            da, db = a[d - 1], b[d - 1]
            x += (da in seen_b) + (db in seen_a) + (da == db)
            seen_a.add(da)
            seen_b.add(db)
            total += x / d * p ** d
        return (1 - p) / p * total

    fresh_s = [f"s{i}" for i in range(depth)]
    fresh_t = [f"t{i}" for i in range(depth)]
    low = value(s + fresh_s, t + fresh_t)
    if form == "min":
        return low
    # both then go on with the same new documents, in the same order
    common = [f"c{i}" for i in range(depth)]
    high = value(s + [x for x in t if x not in s] + common,
                 t + [x for x in s if x not in t] + common)
    return high - low


@pytest.mark.parametrize("form", ["min", "res", "ext"])
def test_rbo_equals_the_definition_summed_over_continuations(form: str) -> None:
    rng = np.random.default_rng(7 + len(form))
    for p in (0.6, 0.9, 0.95):
        pairs = [_random_pair(rng) for _ in range(25)]
        pairs.append((["a", "b", "c"], ["a", "b", "c"]))       # identical
        pairs.append((["a", "b"], ["c", "d", "e", "f"]))       # disjoint, uneven
        got = ranklens.agreement(_run([s for s, _ in pairs]), _run([t for _, t in pairs]),
                                 f"RBO(p={p},form={form})")
        want = [_brute(s, t, p, form) for s, t in pairs]
        np.testing.assert_allclose(got.query_values[f"RBO(p={p},form={form})"], want,
                                   rtol=0, atol=1e-12)


def test_rbo_on_a_toy_case_worked_by_hand() -> None:
    # S = a b c, T = b a d, p = 0.5: X_1 = 0, X_2 = 2, X_3 = 2 (A = 0, 1, 2/3)
    # min (Eq. 11, k = 3): (1-p)/p [sum_d A_d p^d + X_3 (ln 1/(1-p) - sum_{d<=3} p^d/d)]
    #   = 1/4 + 1/12 + 2 (ln 2 - 1/2 - 1/8 - 1/24) = 1/3 + 2 ln 2 - 4/3 = 2 ln 2 - 1
    # ext (Eq. 32, s = l = 3): sum_d A_d p^d + A_3 p^3 = 1/4 + 1/12 + (2/3)(1/8) = 5/12
    # res: the maximum continues S with d and T with c, so X_4 = 4 and A_d = 1 from
    #   f = 2k - X_k = 4 on: max = 1/4 + 1/12 + p^4 / (1 - p) = 11/24, res = max - min
    s, t = _run([["a", "b", "c"]]), _run([["b", "a", "d"]])
    got = ranklens.agreement(s, t, ["RBO(p=0.5,form=min)", "RBO(p=0.5)",
                                    "RBO(p=0.5,form=res)"])
    assert got["RBO(p=0.5,form=min)"] == pytest.approx(2 * math.log(2) - 1, abs=1e-15)
    assert got["RBO(p=0.5)"] == pytest.approx(5 / 12, abs=1e-15)
    assert got["RBO(p=0.5,form=res)"] == pytest.approx(11 / 24 - (2 * math.log(2) - 1),
                                                       abs=1e-15)


@pytest.mark.parametrize(("p", "d", "weight"), [(0.9, 10, 0.85558544674735182),
                                                 (0.98, 50, 0.85223391031940043)])
def test_rbo_min_of_an_agreeing_prefix_is_the_papers_prefix_weight(
        p: float, d: int, weight: float) -> None:
    # Webber, Moffat & Zobel's worked example for choosing p (Eq. 21, Section 4.2): "the
    # first 10 ranks have 86% of the weight" at p = 0.9, the first 50 at p = 0.98. That
    # weight is the RBO of two rankings identical on d items and disjoint after, i.e. RBO_min
    # (Eq. 11) of two identical lists of d items.
    ranking = _run([[f"d{i}" for i in range(d)]])
    got = ranklens.agreement(ranking, ranking, [f"RBO(p={p},form=min)"])
    assert got[f"RBO(p={p},form=min)"] == pytest.approx(weight, rel=1e-12)


def test_rbo_of_a_ranking_with_itself_is_one_when_extrapolated() -> None:
    run = _run([["a", "b", "c", "d"], ["x"]])
    got = ranklens.agreement(run, run, ["RBO(p=0.9)", "RBO(p=0.9,ties=b)"])
    np.testing.assert_allclose(got.query_values["RBO(p=0.9)"], 1.0, atol=1e-15)


# Corsi & Urbano's worked example (their README): x = red (blue green) yellow pink,
# y = (blue red) white (yellow black purple) green, p = 0.95, values to 7 decimals
X_TIED = {"q": {"red": 5.0, "blue": 4.0, "green": 4.0, "yellow": 3.0, "pink": 2.0}}
Y_TIED = {"q": {"blue": 5.0, "red": 5.0, "white": 4.0, "yellow": 3.0, "black": 3.0,
                "purple": 3.0, "green": 2.0}}
CORSI_URBANO = {
    "a": {"ext": 0.6922853, "min": 0.3310519, "res": 0.5620173},
    "w": {"ext": 0.7068257, "min": 0.3429684, "res": 0.5620173},
    "b": {"ext": 0.7207131, "min": 0.3509163, "res": 0.5620173},
}


@pytest.mark.parametrize("variant", sorted(CORSI_URBANO))
def test_tie_aware_rbo_reproduces_corsi_and_urbanos_example(variant: str) -> None:
    for form, want in CORSI_URBANO[variant].items():
        name = f"RBO(p=0.95,ties={variant},form={form})"
        assert ranklens.agreement(X_TIED, Y_TIED, name)[name] == pytest.approx(want, abs=5e-8)


def test_tie_aware_rbo_without_ties_is_plain_rbo() -> None:
    rng = np.random.default_rng(3)
    pairs = [_random_pair(rng) for _ in range(30)]
    a, b = _run([s for s, _ in pairs]), _run([t for _, t in pairs])
    for form in ("ext", "min", "res"):
        plain = ranklens.agreement(a, b, f"RBO(form={form})").query_values[f"RBO(form={form})"]
        for variant in "wab":
            name = f"RBO(form={form},ties={variant})"
            np.testing.assert_allclose(ranklens.agreement(a, b, name).query_values[name],
                                       plain, atol=1e-12)


def test_tie_aware_a_is_the_mean_over_every_order_of_the_ties() -> None:
    # x = a (b c) d, y = (c a) b e: RBO^a equals the mean of plain RBO over the 2 x 2 orders
    x_orders = [["a", *m, "d"] for m in itertools.permutations(["b", "c"])]
    y_orders = [[*m, "b", "e"] for m in itertools.permutations(["c", "a"])]
    x = {"q": {"a": 3.0, "b": 2.0, "c": 2.0, "d": 1.0}}
    y = {"q": {"c": 3.0, "a": 3.0, "b": 2.0, "e": 1.0}}
    for form in ("min", "ext"):
        name = f"RBO(p=0.8,ties=a,form={form})"
        want = np.mean([_brute(s, t, 0.8, form) for s in x_orders for t in y_orders])
        assert ranklens.agreement(x, y, name)[name] == pytest.approx(want, abs=1e-12)


def test_a_cutoff_reads_the_prefixes_only() -> None:
    s, t = ["a", "b", "c", "d", "e"], ["b", "a", "x", "y", "c"]
    got = ranklens.agreement(_run([s]), _run([t]), "RBO(p=0.7,form=min)@3")
    assert got["RBO(p=0.7,form=min)@3"] == pytest.approx(_brute(s[:3], t[:3], 0.7, "min"),
                                                         abs=1e-12)


@pytest.mark.parametrize("text", ["RBO(p=1)", "RBO(p=0)", "RBO(p=-0.2)", "RBO(p=1.5)"])
def test_p_outside_the_open_unit_interval_is_refused(text: str) -> None:
    with pytest.raises(MeasureError, match=r"parameter 'p' of RBO must be a number strictly "
                                           r"between 0 and 1"):
        ranklens.agreement(_run([["a"]]), _run([["a"]]), text)


def test_names_parse_back() -> None:
    for text in ["RBO", "RBO(form=min,p=0.8)@100", "RBO(ties=a)", "Overlap@10",
                 "Jaccard@5", "KendallTau@20"]:
        m = ranklens.parse_agreement(text)
        assert str(m) == text
        assert ranklens.parse_agreement(str(m)) == m
        assert hash(m) == hash(ranklens.parse_agreement(text.lower()))


def _tied_ranking(draw: st.DrawFn) -> list[list[str]]:
    docs = draw(st.lists(st.sampled_from("abcdefgh"), min_size=1, max_size=5, unique=True))
    cuts = sorted(draw(st.sets(st.integers(1, len(docs) - 1), max_size=len(docs) - 1))
                  if len(docs) > 1 else set())
    bounds = [0, *cuts, len(docs)]
    return [docs[i:j] for i, j in itertools.pairwise(bounds)]


@st.composite
def tied_pairs(draw: st.DrawFn) -> tuple[list[list[str]], list[list[str]]]:
    return _tied_ranking(draw), _tied_ranking(draw)


def _orders(groups: list[list[str]]) -> list[list[str]]:
    return [[d for g in choice for d in g]
            for choice in itertools.product(*(itertools.permutations(g) for g in groups))]


def _scores(groups: list[list[str]]) -> dict[str, dict[str, float]]:
    return {"q": {d: float(len(groups) - i) for i, g in enumerate(groups) for d in g}}


@settings(max_examples=50, deadline=None)
@given(tied_pairs())
def test_tie_aware_a_lower_bound_is_the_mean_over_every_order(
        pair: tuple[list[list[str]], list[list[str]]]) -> None:
    # the lower bound is linear in the overlaps, so RBO^a's is the mean over the orders of
    # the ties (rankings of uneven lengths, groups of any size)
    x, y = pair
    want = np.mean([_brute(s, t, 0.8, "min", depth=160)
                    for s in _orders(x) for t in _orders(y)])
    name = "RBO(p=0.8,ties=a,form=min)"
    assert ranklens.agreement(_scores(x), _scores(y), name)[name] == pytest.approx(
        want, abs=1e-12)
