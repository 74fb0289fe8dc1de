"""Overlap@k, Jaccard@k and KendallTau@k against direct computations and scipy."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

import ranklens


def _run(rankings: list[list[str]]) -> dict[str, dict[str, float]]:
    return {f"q{i}": {doc: float(len(r) - k) for k, doc in enumerate(r)}
            for i, r in enumerate(rankings)}


rankings = st.lists(st.sampled_from([f"d{i}" for i in range(25)]), min_size=1, max_size=25,
                    unique=True)


def _kendall(s: list[str], t: list[str], k: int) -> float:
    top_s, top_t = s[:k], t[:k]
    union = list(dict.fromkeys(top_s + top_t))
    rs = [top_s.index(x) + 1 if x in top_s else k + 1 for x in union]
    rt = [top_t.index(x) + 1 if x in top_t else k + 1 for x in union]
    if len(union) < 2:
        return math.nan
    return float(scipy.stats.kendalltau(rs, rt).statistic)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(rankings, rankings), min_size=1, max_size=8),
       st.integers(1, 30))
def test_overlap_jaccard_and_kendall_equal_direct_computations(
        pairs: list[tuple[list[str], list[str]]], k: int) -> None:
    names = [f"Overlap@{k}", f"Jaccard@{k}", f"KendallTau@{k}"]
    got = ranklens.agreement(_run([s for s, _ in pairs]), _run([t for _, t in pairs]), names)
    overlap = [len(set(s[:k]) & set(t[:k])) / k for s, t in pairs]
    jaccard = [len(set(s[:k]) & set(t[:k])) / len(set(s[:k]) | set(t[:k])) for s, t in pairs]
    np.testing.assert_allclose(got.query_values[names[0]], overlap, rtol=0, atol=1e-15)
    np.testing.assert_allclose(got.query_values[names[1]], jaccard, rtol=0, atol=1e-15)
    with np.errstate(invalid="ignore"):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            kendall = [_kendall(s, t, k) for s, t in pairs]
    np.testing.assert_allclose(got.query_values[names[2]], kendall, rtol=0, atol=1e-12)
    defined = [v for v in kendall if not math.isnan(v)]
    want_mean = float(np.mean(defined)) if defined else math.nan
    np.testing.assert_allclose(got[names[2]], want_mean, rtol=0, atol=1e-12)


def test_kendall_on_a_toy_case_worked_by_hand() -> None:
    # top 3: a b c vs b a d; union a b c d, ranks (1 2 3 4) vs (2 1 4 3) with 4 = absent:
    # pairs: ab discordant, ac C, ad C, bc C, bd C, cd: a 3 < 4, b 4 > 3: D -> C - D = 2;
    # no ties but the absent: c absent from b's top 3 alone, d from a's: tau-b = 2 / 6
    got = ranklens.agreement(_run([["a", "b", "c", "z"]]), _run([["b", "a", "d", "c"]]),
                             "KendallTau@3")
    assert got["KendallTau@3"] == pytest.approx(2 / 6, abs=1e-15)


def test_a_query_both_runs_rank_empty_has_no_value() -> None:
    a = ranklens.load_run({"q1": {"x": 1.0}, "q2": {}})
    b = ranklens.load_run({"q1": {"x": 1.0}, "q2": {}})
    got = ranklens.agreement(a, b, ["Overlap@5", "Jaccard@5", "RBO"])
    assert got.query_ids == ("q1", "q2")
    assert math.isnan(got.query_values["Jaccard@5"][1])
    assert got["Jaccard@5"] == 1.0 and got["Overlap@5"] == 0.2


def test_many_runs_give_a_symmetric_matrix_of_pairwise_means() -> None:
    runs = {"a": _run([["x", "y", "z"]]), "b": _run([["y", "x", "w"]]),
            "c": _run([["q", "r", "s"]])}
    got = ranklens.agreement(runs, measures=["Jaccard@3", "RBO"])
    assert isinstance(got, ranklens.AgreementMatrix)
    m = got["Jaccard@3"]
    np.testing.assert_array_equal(m, m.T)
    np.testing.assert_allclose(np.diag(m), 1.0)
    assert m[0, 1] == pytest.approx(2 / 4) and m[0, 2] == 0.0
    assert got.pairs["a", "b"]["RBO"] == pytest.approx(
        ranklens.agreement(runs["a"], runs["b"], "RBO")["RBO"])
    assert "Jaccard@3" in got.render("csv")


def test_mismatched_query_sets_are_an_error_unless_skipped() -> None:
    a, b = _run([["x"], ["y"]]), {"q0": {"x": 1.0}}
    with pytest.raises(ranklens.InputError, match=r"run 'a' holds 1 queries that run 'b' "
                                                  r"lacks \(e.g. 'q1'\); pass missing='skip'"):
        ranklens.agreement({"a": a, "b": b}, measures="Overlap@1")
    with pytest.warns(ranklens.RanklensWarning, match="left out: 1 only in"):
        got = ranklens.agreement(a, b, "Overlap@1", missing="skip")
    assert got.query_ids == ("q0",) and got.skipped == {"run#1": ("q1",)}


def test_runs_without_a_common_query_and_single_runs_are_refused() -> None:
    with pytest.raises(ranklens.InputError, match="no query in common"):
        ranklens.agreement({"q1": {"x": 1.0}}, {"q2": {"x": 1.0}}, "RBO", missing="skip")
    with pytest.raises(ranklens.ParameterError, match="at least two runs"):
        ranklens.agreement([{"q1": {"x": 1.0}}], measures="RBO")
    with pytest.raises(ranklens.ParameterError, match="'ties' option must be one of docid, "
                                                      "input; got 'average'"):
        ranklens.agreement({"q1": {"x": 1.0}}, {"q1": {"x": 1.0}}, "RBO",
                           ties="average")  # type: ignore[arg-type]


def test_ties_follow_the_tie_policy() -> None:
    # x and y tie: trec_eval's order puts y (doc id descending) first, input order x
    a = ranklens.load_run({"q": {"x": 1.0, "y": 1.0}})
    b = ranklens.load_run({"q": {"x": 2.0, "y": 1.0}})
    assert ranklens.agreement(a, b, "Overlap@1")["Overlap@1"] == 0.0
    assert ranklens.agreement(a, b, "Overlap@1", ties="input")["Overlap@1"] == 1.0


def test_kendall_on_long_random_rankings_equals_scipy() -> None:
    # long enough for many merge levels of the inversion count
    rng = np.random.default_rng(11)
    universe = [f"d{i}" for i in range(600)]
    pairs = [(list(rng.permutation(universe)[: int(rng.integers(1, 400))]),
              list(rng.permutation(universe)[: int(rng.integers(1, 400))])) for _ in range(12)]
    got = ranklens.agreement(_run([s for s, _ in pairs]), _run([t for _, t in pairs]),
                             "KendallTau@300").query_values["KendallTau@300"]
    np.testing.assert_allclose(got, [_kendall(s, t, 300) for s, t in pairs], rtol=0,
                               atol=1e-12)


def test_a_ranking_against_an_empty_one() -> None:
    a = ranklens.load_run({"q1": {"x": 2.0, "y": 1.0}})
    b = ranklens.load_run({"q1": {}})
    got = ranklens.agreement(a, b, ["RBO", "RBO(form=min)", "RBO(form=res)", "Overlap@2",
                                    "Jaccard@2", "KendallTau@2"])
    # nothing shared: every similarity 0; the maximum (the empty ranking continued with x,
    # y, ...) agrees fully, so the residual is 1; tau-b is undefined (b ties them all)
    assert [got[n] for n in got.names[:5]] == [0.0, 0.0, pytest.approx(1.0), 0.0, 0.0]
    assert math.isnan(got["KendallTau@2"])


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(rankings, rankings), min_size=1, max_size=5))
def test_per_query_and_frames_give_the_query_values(pairs: list[tuple[list[str], list[str]]]
                                                   ) -> None:
    a, b = _run([s for s, _ in pairs]), _run([t for _, t in pairs])
    agree = ranklens.agreement(a, b, ["Overlap@3", "KendallTau@3"])
    for name in agree.names:
        got = agree.per_query(name)
        assert list(got) == list(agree.query_ids)
        want = agree.query_values[name].tolist()
        assert [v if not math.isnan(v) else "nan" for v in got.values()] == \
            [v if not math.isnan(v) else "nan" for v in want]
    long = agree.to_polars(wide=False)
    assert long.columns == ["query_id", "measure", "value"] and long.height == 2 * len(pairs)
    assert agree.to_polars()["query_id"].to_list() == list(agree.query_ids)


def test_a_matrix_reads_each_pairs_per_query_values() -> None:
    runs = {"a": {"q1": {"x": 2.0, "y": 1.0}, "q2": {"z": 1.0}},
            "b": {"q1": {"y": 2.0, "x": 1.0}},
            "c": {"q1": {"x": 1.0}, "q2": {"z": 1.0}}}
    with pytest.warns(ranklens.RanklensWarning):
        matrix = ranklens.agreement(runs, measures="Overlap@1", missing="skip")
    assert matrix.query_ids == ("q1", "q2")
    got = matrix.per_query("Overlap@1")
    assert got["q1"] == {("a", "b"): 0.0, ("a", "c"): 1.0, ("b", "c"): 0.0}
    assert got["q2"][("a", "c")] == 1.0 and math.isnan(got["q2"][("a", "b")])
    frame = matrix.to_polars()
    assert frame.columns == ["run_a", "run_b", "query_id", "Overlap@1"]
    assert frame.height == 4  # the pairs' compared queries, none invented
    assert matrix.to_polars(wide=False).columns == ["run_a", "run_b", "query_id", "measure",
                                                    "value"]
