"""``ranklens.fuse``: closed-form toy cases from the methods' papers, the stated rules for
ties and degenerate lists, the candidate arrays, and the validation messages."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import ranklens
from ranklens import ParameterError
from ranklens._surfaces.fusion.candidates import align_runs
from ranklens._surfaces.fusion.order import quicksort_argsort

A = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}
B = {"q": {"b": 9.0, "c": 8.0, "d": 7.0}}


def scores(run: ranklens.Run) -> dict[str, float]:
    return dict(zip(run.doc_id.to_list(), run.score.tolist(), strict=True))


def test_rrf_k60_hand_values() -> None:
    # Cormack et al. 2009: 1 / (60 + rank), summed over the runs that retrieve the document
    fused = ranklens.fuse({"A": A, "B": B}, "rrf")
    assert scores(fused) == pytest.approx({
        "a": 1 / 61, "b": 1 / 62 + 1 / 61, "c": 1 / 63 + 1 / 62, "d": 1 / 63}, rel=1e-15)
    assert fused.doc_id.to_list() == ["b", "c", "a", "d"]
    assert fused.name == "rrf"


def test_rrf_k_is_a_parameter() -> None:
    fused = ranklens.fuse([A, B], "rrf", k=0)
    assert scores(fused)["b"] == pytest.approx(1 / 2 + 1 / 1)


def test_combsum_and_combmnz_on_raw_scores() -> None:
    # Fox & Shaw 1993: CombSUM adds the scores, CombMNZ multiplies the sum by the number of
    # runs retrieving the document
    x = {"q": {"a": 3.0, "b": 2.0}}
    y = {"q": {"b": 1.0, "c": 4.0}}
    assert scores(ranklens.fuse([x, y], "sum", norm="none")) == {"a": 3.0, "b": 3.0, "c": 4.0}
    assert scores(ranklens.fuse([x, y], "CombMNZ", norm="none")) == {
        "a": 3.0, "b": 6.0, "c": 4.0}
    assert scores(ranklens.fuse([x, y], "anz", norm="none")) == {"a": 3.0, "b": 1.5, "c": 4.0}
    assert scores(ranklens.fuse([x, y], "max", norm="none")) == {"a": 3.0, "b": 2.0, "c": 4.0}
    assert scores(ranklens.fuse([x, y], "min", norm="none")) == {"a": 3.0, "b": 1.0, "c": 4.0}


def test_combmnz_after_min_max() -> None:
    # A: a 1, b 0.5, c 0; B: b 1, c 0.5, d 0
    fused = scores(ranklens.fuse([A, B], "mnz"))
    assert fused == pytest.approx({"a": 1.0, "b": 3.0, "c": 1.0, "d": 0.0})


def test_combmed_takes_the_middle_present_score() -> None:
    runs = [{"q": {"a": 1.0}}, {"q": {"a": 5.0, "b": 2.0}}, {"q": {"a": 3.0, "b": 4.0}}]
    assert scores(ranklens.fuse(runs, "med", norm="none")) == {"a": 3.0, "b": 3.0}


def test_isr_family() -> None:
    # Mourao et al.: ISR = n * sum 1/rank^2; log-ISR = log(n) * sum; logN-ISR log(n + sigma)
    isr = scores(ranklens.fuse([A, B], "isr"))
    assert isr["b"] == pytest.approx(2 * (1 / 4 + 1))
    assert isr["a"] == pytest.approx(1.0)
    log = scores(ranklens.fuse([A, B], "log_isr"))
    assert log["a"] == 0.0 and log["b"] == pytest.approx(np.log(2) * 1.25)
    logn = scores(ranklens.fuse([A, B], "logn_isr", sigma=0.5))
    assert logn["a"] == pytest.approx(np.log(1.5))


def test_bordafuse_points() -> None:
    # Aslam & Montague 2001: c = 4 candidates; A ranks a, b, c (4, 3, 2 points) and gives d
    # (4 - 3 + 1) / 2 = 1; B ranks b, c, d (4, 3, 2) and gives a 1
    assert scores(ranklens.fuse([A, B], "bordafuse")) == {"a": 5.0, "b": 7.0, "c": 5.0,
                                                          "d": 3.0}
    weighted = scores(ranklens.fuse([A, B], "w_bordafuse", weights=[1.0, 2.0]))
    assert weighted == {"a": 6.0, "b": 11.0, "c": 8.0, "d": 5.0}


def test_rbc_and_weighted_methods() -> None:
    rbc = scores(ranklens.fuse([A, B], "rbc", phi=0.5))
    assert rbc["b"] == pytest.approx(0.5 * 0.5 + 0.5)
    wsum = scores(ranklens.fuse([A, B], "wsum", weights=[2.0, 1.0]))
    assert wsum == pytest.approx({"a": 2.0, "b": 2.0, "c": 0.5, "d": 0.0})
    wmnz = scores(ranklens.fuse([A, B], "wmnz", weights=[2.0, 1.0]))
    assert wmnz == pytest.approx({"a": 2.0, "b": 4.5, "c": 1.5, "d": 0.0})
    mixed = scores(ranklens.fuse([A, B], "mixed", weights=[2.0, 1.0]))
    assert mixed["b"] == pytest.approx((2 * 0.5 + 1.0) * np.sqrt(2))


def test_condorcet_copeland_scores_and_cycles_tie() -> None:
    # three runs in a Condorcet cycle: a > b > c > a by two votes to one each
    runs = [{"q": {"a": 3, "b": 2, "c": 1}}, {"q": {"b": 3, "c": 2, "a": 1}},
            {"q": {"c": 3, "a": 2, "b": 1}}]
    assert scores(ranklens.fuse(runs, "condorcet")) == {"a": 1.0, "b": 1.0, "c": 1.0}
    # a majority order: a beats b and c, b beats c
    runs = [{"q": {"a": 3, "b": 2, "c": 1}}, {"q": {"a": 3, "c": 2, "b": 1}},
            {"q": {"b": 3, "a": 2, "c": 1}}]
    fused = ranklens.fuse(runs, "condorcet")
    assert fused.doc_id.to_list() == ["a", "b", "c"]
    assert fused.score.tolist() == [2.0, 1.0, 0.0]
    # a heavy third run wins every pair
    heavy = ranklens.fuse(runs, "w_condorcet", weights=[1, 1, 5])
    assert heavy.doc_id.to_list() == ["b", "a", "c"]


def test_fused_ties_keep_equal_scores_in_evaluates_order() -> None:
    # each document first in one run only: equal RRF scores, listed by doc id descending
    fused = ranklens.fuse([{"q": {"a": 1.0}}, {"q": {"b": 1.0}}], "rrf")
    assert fused.doc_id.to_list() == ["b", "a"]
    assert fused.score[0] == fused.score[1]
    qrels = {"q": {"a": 1}}
    assert ranklens.evaluate(qrels, fused, ["RR"], ties="average")["RR"] == pytest.approx(0.75)


def test_input_ties_read_in_evaluates_order_or_ranxs() -> None:
    tied = {"q": {"a": 1.0, "b": 1.0}}
    # ranklens: ties by doc id descending (b ranked 1); ranx: the order given (a first)
    assert scores(ranklens.fuse([tied, {"q": {}}], "rrf"))["b"] == pytest.approx(1 / 61)
    ranx = scores(ranklens.fuse([tied, {"q": {}}], "rrf", convention="ranx"))
    assert ranx["a"] == pytest.approx(1 / 61)


def test_normalisation_rules_for_degenerate_lists() -> None:
    one = {"q": {"a": 5.0}}
    equal = {"q": {"b": 2.0, "c": 2.0}}
    for norm in ("min-max", "min-max-inverted", "sum", "zmuv"):
        assert set(scores(ranklens.fuse([one, equal], "sum", norm=norm)).values()) == {0.0}
    assert scores(ranklens.fuse([one, equal], "sum", norm="max")) == {"a": 1.0, "b": 1.0,
                                                                        "c": 1.0}
    assert scores(ranklens.fuse([one, equal], "sum", norm="rank")) == {"a": 1.0, "b": 0.5,
                                                                         "c": 1.0}
    # borda: c = 3 candidates; one ranks a (1) and gives b, c 0.5 - 0 / 6 = 0.5
    assert scores(ranklens.fuse([one, equal], "sum", norm="borda")) == pytest.approx(
        {"a": 1.0 + 0.5 - 1 / 6, "b": 0.5 + 2 / 3, "c": 1.5})


def test_depth_keeps_each_runs_top_documents() -> None:
    fused = ranklens.fuse([A, B], "rrf", depth=1)
    assert sorted(fused.doc_id.to_list()) == ["a", "b"]


def test_queries_of_any_run_are_fused_in_id_order() -> None:
    fused = ranklens.fuse([{"q2": {"a": 1.0}, "q1": {"a": 1.0}}, {"q3": {"b": 1.0}}], "sum")
    assert fused.block_ids.to_list() == ["q1", "q2", "q3"]


def test_candidates_arrays() -> None:
    runs = [ranklens.load_run(A), ranklens.load_run(B)]
    c = align_runs(runs, ["A", "B"])
    row = {d: i for i, d in enumerate(c.doc_ids.gather(c.doc).to_list())}
    assert sorted(row) == ["a", "b", "c", "d"] and c.query.tolist() == [0, 0, 0, 0]
    assert [c.rank[row[d]].tolist() for d in "abcd"] == [[1, 0], [2, 1], [3, 2], [0, 3]]
    assert c.length.tolist() == [[3, 3]] * 4
    assert np.isnan(c.score[row["a"], 1]) and c.score[row["d"], 1] == 7.0
    assert c.names == ("A", "B") and c.runs == 2 and c.starts.tolist() == [0, 4]


def test_candidates_match_ids_exactly_when_hashes_collide(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # every id hashed alike: the exact coding takes over, and nothing is merged
    from ranklens._surfaces.fusion import candidates

    monkeypatch.setattr(candidates, "_hash_keys",
                        lambda runs, queries, n: [q << 40 for q in queries])
    fused = ranklens.fuse([A, B], "sum", norm="none")
    assert scores(fused) == {"a": 3.0, "b": 11.0, "c": 9.0, "d": 7.0}


def test_quicksort_argsort_sorts_and_keeps_short_ties_in_order() -> None:
    keys = np.array([3.0, 1.0, 2.0, 1.0, 3.0])
    order = quicksort_argsort(keys)
    assert keys[order].tolist() == sorted(keys.tolist())
    assert order.tolist() == [1, 3, 2, 0, 4]  # up to 16 items: insertion sort, stable
    long = np.random.default_rng(0).integers(0, 4, 100).astype(float)
    assert long[quicksort_argsort(long)].tolist() == sorted(long.tolist())


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"method": "nope"}, "the 'method' option must be one of anz, bayesfuse, bordafuse"),
    ({"method": "rrf", "weights": [1, 2]}, "the method 'rrf' takes none"),
    ({"method": "wsum", "weights": [1, 2, 3]}, "one weight per run (2); got 3"),
    ({"method": "wsum", "weights": [1, float("nan")]}, "one finite number per run"),
    ({"method": "rrf", "params": {"k": -1}}, "the 'k' parameter of 'rrf' must be a number "
                                             ">= 0; got -1"),
    ({"method": "rrf", "params": {"kk": 1}}, "'rrf' takes k; got the parameter 'kk'"),
    ({"method": "rbc"}, "'rbc' needs the parameter 'phi'"),
    ({"method": "rbc", "params": {"phi": 1.0}}, "must be a number in (0, 1); got 1.0"),
    ({"method": "logn_isr", "params": {"sigma": 2}}, "must be a number in [0, 1]; got 2"),
    ({"method": "rrf", "norm": "l2"}, "the 'norm' option must be one of min-max"),
    ({"method": "rrf", "depth": 0}, "the 'depth' option must be a positive integer"),
    ({"method": "rrf", "convention": "trec"}, "the 'convention' option must be one of"),
    ({"method": "rrf", "train": {"q": {"a": 1}}}, "the method 'rrf' learns nothing"),
])
def test_bad_options_name_the_option_and_the_value(kwargs: dict, message: str) -> None:
    with pytest.raises(ParameterError) as err:
        ranklens.fuse([A, B], **kwargs)
    assert message in str(err.value)


def test_one_run_is_not_enough_and_duplicates_are_refused() -> None:
    with pytest.raises(ParameterError, match="at least two runs"):
        ranklens.fuse(A, "rrf")
    with pytest.raises(ranklens.InputError, match="lists the document 'a' more than once"):
        ranklens.fuse([A, pl.DataFrame({"query_id": ["q", "q"], "doc_id": ["a", "a"],
                                        "score": [1.0, 2.0]})])


def test_a_supervised_method_registers_by_name_and_reads_its_training_judgments(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from ranklens._surfaces.fusion import registry

    seen = []

    def kernel(inputs: registry.Inputs) -> np.ndarray:
        seen.append(inputs.train)
        return np.nan_to_num(inputs.score[:, 0])

    monkeypatch.setattr(registry, "METHODS", registry.METHODS.copy())
    registry.register("toyfuse", "a test method", supervised=True)(kernel)
    with pytest.raises(ParameterError, match="'toyfuse' is supervised: give its training"):
        ranklens.fuse([A, B], "toyfuse")
    fused = ranklens.fuse([A, B], "ToyFuse", train={"q": {"a": 1}})
    assert isinstance(seen[0], ranklens.Qrels) and len(fused) == 4


# -- issue 39: fusion's bad inputs ---------------------------------------------------------

def test_norm_none_means_no_normalisation_as_in_ranx() -> None:
    assert scores(ranklens.fuse([A, B], "sum", norm=None)) == \
        scores(ranklens.fuse([A, B], "sum", norm="none"))
    assert scores(ranklens.fuse([A, B], "sum", norm=None))["b"] == 11.0
    # the default stays min-max
    assert scores(ranklens.fuse([A, B], "sum")) == \
        scores(ranklens.fuse([A, B], "sum", norm="min-max"))


def test_an_infinite_score_under_min_max_is_refused_by_run_query_and_doc() -> None:
    inf = {"q": {"a": float("inf"), "b": 1.0}}
    with pytest.warns(ranklens.RanklensWarning), \
            pytest.raises(ranklens.InputError) as err:
        ranklens.fuse({"A": A, "inf": inf}, "sum")
    message = str(err.value)
    assert "the run 'inf' scores the document 'a' of the query 'q' inf" in message
    assert "'min-max' normalisation cannot scale" in message and "norm='rank'" in message


def test_a_parameter_given_twice_is_refused() -> None:
    with pytest.raises(ParameterError, match=r"the parameter 'k' is given twice, in 'params' "
                                             r"\(60\) and as a keyword \(20\)"):
        ranklens.fuse([A, B], "rrf", params={"k": 60}, k=20)


@pytest.mark.parametrize("weights", [[1, -1], [0, 0], [-1, -1]])
def test_negative_or_all_zero_weights_are_refused(weights: list[float]) -> None:
    with pytest.raises(ParameterError, match="each at least 0 and one above 0"):
        ranklens.fuse([A, B], "wsum", weights=weights)
    # one zero weight is a policy: that run adds nothing
    assert scores(ranklens.fuse([A, B], "wsum", weights=[0, 1])) == \
        scores(ranklens.fuse([A, B], "wsum", weights=[0.0, 1.0]))


@pytest.mark.parametrize("values", [60, [], "60"])
def test_a_grid_value_that_is_not_a_non_empty_list_is_named(values: object) -> None:
    qrels = {"q": {"a": 1}, "r": {"b": 1}}
    with pytest.raises(ParameterError, match="the 'grid' option's 'k' must be a non-empty "
                                             "list of values"):
        ranklens.optimize_fusion(qrels, [A, B], "rrf", grid={"k": values}, folds=2)
