"""ties="pessimistic" / "optimistic": scikit-learn's tie convention, and its mirror.

Under ``pessimistic`` each document is ranked after everything it ties with: it stands at its
group's last position and its whole group is at or above it (scikit-learn's
``average_precision_score``, ``label_ranking_average_precision_score`` and
``label_ranking_loss`` on tied scores). Under ``optimistic`` each relevant document stands at
its group's first position with only itself of its group at or above it; measures counting
the documents within a cutoff refuse it. Differential tests against scikit-learn on random
tied scores with several relevant items per tied group, toy cases by hand, and
scikit-learn's documented examples.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ranklens

metrics = pytest.importorskip("sklearn.metrics")

# y_true [1, 0, 1, 1, 0], scores [1, 1, 1, .5, .5]: a group of three holding two relevant
# items (positions 1-3), then a group of two holding one (positions 4-5)
LABELS = [[1, 0, 1, 1, 0]]
SCORES = [[1.0, 1.0, 1.0, 0.5, 0.5]]


def _eval(measures: list[str], ties: str, labels: object = LABELS, scores: object = SCORES,
          **options: object) -> ranklens.Result:
    return ranklens.evaluate_arrays(labels, measures, scores=scores,
                                    ties=ties, **options)  # type: ignore[arg-type]


def test_pessimistic_by_hand() -> None:
    res = _eval(["AP", "RR", "P@2", "P@3", "R@4", "Rprec", "Success@2", "nDCG@3", "DCG",
                 "AUC", "F@3", "AR@4", "AR"], "pessimistic")
    # each relevant item of group 1 at position 3 with 2 relevant at or above; group 2's at 5
    assert res["AP"] == pytest.approx((2 / 3 + 2 / 3 + 3 / 5) / 3, abs=1e-15)
    assert res["RR"] == 1 / 3
    assert res["P@2"] == 0.0  # group 1 straddles k = 2: none of it is in the top 2
    assert res["P@3"] == 2 / 3
    assert res["R@4"] == 2 / 3  # group 2 ends at 5
    assert res["Rprec"] == 2 / 3  # R = 3: group 1 is inside
    assert res["Success@2"] == 0.0
    ideal3 = 1 + 1 / np.log2(3) + 1 / np.log2(4)
    assert res["nDCG@3"] == pytest.approx(2 / np.log2(4) / ideal3, abs=1e-15)
    assert res["DCG"] == pytest.approx(2 / np.log2(4) + 1 / np.log2(6), abs=1e-15)
    # of the 6 (relevant, non-relevant) pairs, 3 are tied and 1 misordered (item 4 below
    # item 2): only the pairs of group 1's relevant items with item 5 are in order
    assert res["AUC"] == pytest.approx(1 - 4 / 6, abs=1e-15)
    assert res["F@3"] == pytest.approx(2 * (2 / 3) * (2 / 3) / (4 / 3), abs=1e-15)
    # recall at each relevant item within 4 (group 1's, at position 3: 2/3 each), over R
    assert res["AR@4"] == pytest.approx((2 / 3 + 2 / 3) / 3, abs=1e-15)
    assert res["AR"] == pytest.approx((1 / 3 + 2 / 3 + 3 / 3) / 3, abs=1e-15)  # order-free


def test_optimistic_by_hand() -> None:
    res = _eval(["AP", "RR", "Success@1", "AUC", "AP@3"], "optimistic")
    # group 1's relevant items each at position 1, alone; group 2's at 4 with 2 above it
    assert res["AP"] == pytest.approx((1 + 1 + 3 / 4) / 3, abs=1e-15)
    assert res["AP@3"] == pytest.approx(2 / 3, abs=1e-15)
    assert res["RR"] == 1.0
    assert res["Success@1"] == 1.0
    # tied pairs are in order: only relevant item 4 (score .5) below non-relevant item 2
    # (score 1) is misordered, 1 of 6 pairs
    assert res["AUC"] == pytest.approx(1 - 1 / 6, abs=1e-15)


def test_rbp_and_err_pessimistic_by_hand() -> None:
    qrels = {"q": {"a": 2, "b": 1, "c": 0}}
    run = {"q": {"a": 1.0, "b": 1.0, "x": 1.0, "c": 0.5}}  # a group of three, then c
    res = ranklens.evaluate(qrels, run, ["RBP(p=0.5)", "RBP(p=0.5)@2", "ERR", "ERR@2"],
                            ties="pessimistic")
    # RBP rescales grades 0..2 to 0, .5, 1; a and b both weigh p^2 at position 3
    assert res["RBP(p=0.5)"] == pytest.approx(0.5 * (1.0 + 0.5) * 0.25, abs=1e-15)
    assert res["RBP(p=0.5)@2"] == 0.0  # the group ends at 3
    # ERR (max grade 4): R(a) = 3/16, R(b) = 1/16; each at position 3 below the other
    ra, rb = 3 / 16, 1 / 16
    assert res["ERR"] == pytest.approx((ra * (1 - rb) + rb * (1 - ra)) / 3, abs=1e-15)
    assert res["ERR@2"] == 0.0
    plain = ranklens.evaluate(qrels, {"q": {"a": 3.0, "b": 2.0, "x": 1.0}}, ["ERR", "RBP"],
                              ties="pessimistic")
    assert plain["ERR"] == ranklens.evaluate(qrels, {"q": {"a": 3.0, "b": 2.0, "x": 1.0}},
                                             ["ERR"])["ERR"]


def test_not_a_bound_over_orders_for_ap() -> None:
    # scikit-learn's convention is not the worst order: with several relevant items in a
    # group, each gets the precision at the group's end, above the worst order's; and under
    # "optimistic" each at the group's start alone, at most the best order's
    ap = {t: _eval(["AP"], t)["AP"] for t in ("worst", "pessimistic", "optimistic", "best")}
    assert ap["worst"] == pytest.approx((1 / 2 + 2 / 3 + 3 / 5) / 3, abs=1e-15)
    assert ap["worst"] < ap["pessimistic"] < ap["optimistic"] == ap["best"]
    labels, scores = [[1, 0, 1, 0]], [[1.0, 1.0, 1.0, 1.0]]
    ap = {t: _eval(["AP"], t, labels, scores)["AP"] for t in ("optimistic", "best")}
    assert ap == {"optimistic": 1.0, "best": 1.0}
    labels, scores = [[0, 1, 1, 1]], [[2.0, 1.0, 1.0, 1.0]]  # a group after a miss
    ap = {t: _eval(["AP"], t, labels, scores)["AP"] for t in ("optimistic", "best")}
    assert ap["optimistic"] == pytest.approx(1 / 2, abs=1e-15)  # each 1/2
    assert ap["best"] == pytest.approx((1 / 2 + 2 / 3 + 3 / 4) / 3, abs=1e-15)


def test_refused_where_the_definition_says_nothing() -> None:
    with pytest.raises(ranklens.ParameterError,
                       match=r"ties='optimistic' is not defined for P@2: .*exceed k"):
        _eval(["P@2"], "optimistic")
    with pytest.raises(ranklens.ParameterError,
                       match=r"ties='optimistic' is not defined for nDCG@3"):
        _eval(["nDCG@3"], "optimistic")
    with pytest.raises(ranklens.ParameterError,
                       match=r"ties='pessimistic' is not defined for Bpref: .*'worst'"):
        _eval(["Bpref"], "pessimistic")
    with pytest.raises(ranklens.ParameterError,
                       match=r"ties='pessimistic' is not defined for AUC@3: .*cutoff"):
        _eval(["AUC@3"], "pessimistic")
    # refused whatever the data: scores without a tie too
    with pytest.raises(ranklens.ParameterError, match="'optimistic' is not defined for ERR"):
        _eval(["ERR@5"], "optimistic", scores=[[5.0, 4.0, 3.0, 2.0, 1.0]])
    with pytest.raises(ranklens.ParameterError, match="'pessimistic' is not defined for Unj"):
        _eval(["Unj@5"], "pessimistic", scores=[[5.0, 4.0, 3.0, 2.0, 1.0]])
    # a per-measure parameter too
    with pytest.raises(ranklens.ParameterError,
                       match=r"'optimistic' is not defined for P\(ties=optimistic\)@2"):
        ranklens.evaluate_arrays(LABELS, ["P(ties=optimistic)@2"], scores=SCORES)


def test_order_free_measures_and_untied_queries_keep_their_values() -> None:
    res = _eval(["P", "NumRelRet", "AP"], "pessimistic", labels=[[1, 0, 1, 1, 0]] * 2,
                scores=[[1.0, 1.0, 1.0, 0.5, 0.5], [5.0, 4.0, 3.0, 2.0, 1.0]])
    assert res.per_query("P") == {"0": 0.6, "1": 0.6}
    plain = ranklens.evaluate_arrays([[1, 0, 1, 1, 0]], ["AP"], scores=[[5.0, 4, 3, 2, 1]])
    assert res.per_query("AP")["1"] == plain["AP"]  # bit for bit


def test_sklearn_documented_examples() -> None:
    # average_precision_score's docstring: 0.83
    res = _eval(["AP"], "pessimistic", labels=[[0, 0, 1, 1]], scores=[[0.1, 0.4, 0.35, 0.8]])
    assert res["AP"] == pytest.approx(0.8333333333333333, abs=1e-15)
    # label_ranking_average_precision_score's docstring: 0.416...
    y_true, y_score = [[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]]
    res = _eval(["AP", "AUC"], "pessimistic", labels=y_true, scores=y_score, empty="one")
    assert res["AP"] == pytest.approx(0.41666666666666663, abs=1e-15)
    # label_ranking_loss's docstring: 0.75 (AUC = 1 - loss on each sample)
    assert 1 - res["AUC"] == pytest.approx(0.75, abs=1e-15)
    assert metrics.label_ranking_loss(y_true, y_score) == pytest.approx(0.75)


def _tied_rows(draw: st.DrawFn, n_rows: int) -> tuple[list[list[int]], list[list[float]]]:
    n = draw(st.integers(2, 12))
    labels = [draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)) for _ in range(n_rows)]
    # few distinct scores: tied groups holding several relevant items
    scores = [draw(st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0]), min_size=n, max_size=n))
              for _ in range(n_rows)]
    return labels, scores


@st.composite
def _one_row(draw: st.DrawFn) -> tuple[list[int], list[float]]:
    labels, scores = _tied_rows(draw, 1)
    return labels[0], scores[0]


@st.composite
def _matrix(draw: st.DrawFn) -> tuple[list[list[int]], list[list[float]]]:
    return _tied_rows(draw, draw(st.integers(1, 6)))


@settings(max_examples=150, deadline=None)
@given(_one_row())
def test_ap_equals_average_precision_score(row: tuple[list[int], list[float]]) -> None:
    labels, scores = row
    if not any(labels):
        return  # scikit-learn warns and has no value without a positive item
    got = _eval(["AP"], "pessimistic", labels=[labels], scores=[scores])["AP"]
    assert got == pytest.approx(metrics.average_precision_score(labels, scores), abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(_matrix())
def test_mean_ap_equals_lrap(matrix: tuple[list[list[int]], list[list[float]]]) -> None:
    labels, scores = matrix
    got = _eval(["AP"], "pessimistic", labels=labels, scores=scores, empty="one")["AP"]
    want = metrics.label_ranking_average_precision_score(np.array(labels), np.array(scores))
    assert got == pytest.approx(want, abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(_one_row())
def test_auc_equals_one_minus_label_ranking_loss(row: tuple[list[int], list[float]]) -> None:
    labels, scores = row
    if not 0 < sum(labels) < len(labels):
        return  # the loss is 0 there by convention; AUC has its own (see auc.py)
    got = _eval(["AUC"], "pessimistic", labels=[labels], scores=[scores])["AUC"]
    want = 1.0 - metrics.label_ranking_loss([labels], [scores])
    assert got == pytest.approx(want, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(_one_row())
def test_pessimistic_rank_is_sklearns_rank(row: tuple[list[int], list[float]]) -> None:
    # RR: 1 / the rank scikit-learn gives the best relevant item, |{j: s_j >= s_i}| (the
    # rank of label_ranking_average_precision_score and coverage_error)
    labels, scores = row
    if not any(labels):
        return
    s = np.array(scores)
    best = s[np.array(labels) == 1].max()
    got = _eval(["RR"], "pessimistic", labels=[labels], scores=[scores])["RR"]
    assert got == 1.0 / int((s >= best).sum())


def test_sklearns_dcg_and_ndcg_average_ties_instead() -> None:
    # dcg_score / ndcg_score(ignore_ties=False) average over tied orders: ties="average",
    # not scikit-learn's pessimistic convention of average_precision_score
    y_true, y_score = np.array([[3, 0, 2, 1, 0]]), np.array([[1.0, 1.0, 1.0, 0.5, 0.5]])
    average = ranklens.evaluate_arrays(y_true, ["nDCG", "DCG"], scores=y_score,
                                       convention="sklearn")
    pessimistic = ranklens.evaluate_arrays(y_true, ["nDCG", "DCG"], scores=y_score,
                                           convention="sklearn", ties="pessimistic")
    assert average["nDCG"] == pytest.approx(metrics.ndcg_score(y_true, y_score), abs=1e-12)
    assert average["DCG"] == pytest.approx(metrics.dcg_score(y_true, y_score), abs=1e-12)
    assert pessimistic["DCG"] < average["DCG"]
    # pessimistic DCG: grades 3 and 2 discounted at position 3, grade 1 at position 5
    assert pessimistic["DCG"] == pytest.approx(5 / np.log2(4) + 1 / np.log2(6), abs=1e-12)
