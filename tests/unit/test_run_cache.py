"""A Run keeps its run-only alignment work between evaluations; results must not change."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import ranklens
from ranklens import Qrels, Run
from ranklens._model.matching import QRELS_INDEX
from ranklens._model.ranking import RUN_INDEX, run_index

MEASURES = ["AP", "RR@10", "nDCG@10", "P@5", "R@20", "Rprec", "nDCG(ties=average)@5"]


def _data(seed: int) -> tuple[dict, dict]:
    rng = np.random.default_rng(seed)
    run: dict[str, dict[str, float]] = {}
    qrels: dict[str, dict[str, int]] = {}
    for q in range(12):
        docs = [f"d{i}" for i in rng.choice(60, size=25, replace=False)]
        # coarse scores: many ties, broken by doc id
        run[f"q{q}"] = {d: float(rng.integers(0, 6)) for d in docs}
        judged = rng.choice(60, size=10, replace=False)
        qrels[f"q{q}"] = {f"d{i}": int(rng.integers(0, 3)) for i in judged}
    return qrels, run


def _fresh(run: Run) -> Run:
    return Run(run.frame, run.source, run.name)


@pytest.mark.parametrize("options", [
    {},
    {"missing": "skip"},
    {"depth": 7},
    {"judged_only": True},
    {"ties": "input"},
    {"rel": 2, "depth": 3, "missing": "skip"},
])
def test_reused_run_gives_fresh_results(options: dict) -> None:
    qrels, run_dict = _data(3)
    run = ranklens.load_run(run_dict)
    # judgment sets that cover the run's queries differently: all, a subset, extra queries
    variants = [
        qrels,
        {q: v for q, v in qrels.items() if q in ("q1", "q10", "q5")},
        {**qrels, "q99": {"d1": 1}, "a0": {"d2": 2}},
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ranklens.RanklensWarning)
        for qr in variants * 2:  # the second round hits the cache only
            got = ranklens.evaluate(qr, run, MEASURES, **options)
            want = ranklens.evaluate(qr, _fresh(run), MEASURES, **options)
            assert list(got.query_ids) == list(want.query_ids)
            for m in MEASURES:
                assert got.per_query(m) == want.per_query(m)
                assert got[m] == want[m]
    assert run._derived  # the work was kept


def test_cached_arrays_are_read_only() -> None:
    qrels, run_dict = _data(4)
    run = ranklens.load_run(run_dict)
    ranklens.evaluate(qrels, run, ["AP"])
    index = run._derived.peek(RUN_INDEX["docid"])
    assert index is not None
    with pytest.raises(ValueError):
        index.code[0] = 5


def test_run_with_duplicates_still_reported_after_caching() -> None:
    run = ranklens.load_run({"q1": {"a": 1.0, "b": 0.5}})
    frame = run.frame.vstack(run.frame.head(1))
    dup = Run(frame, "dup.run")
    with pytest.raises(ranklens.InputError, match="more than once"):
        ranklens.evaluate({"q1": {"a": 1}}, dup, ["AP"])
    r = ranklens.evaluate({"q1": {"a": 1}}, dup, ["AP"], duplicates="first")
    assert r["AP"] == 1.0


@pytest.mark.parametrize("options", [{}, {"missing": "skip"}, {"depth": 4, "rel": 2}])
def test_reused_qrels_gives_fresh_results(options: dict) -> None:
    qrels_dict, run_dict = _data(5)
    qrels = ranklens.load_qrels(qrels_dict)
    runs = [run_dict, {q: v for q, v in run_dict.items() if q in ("q2", "q7")},
            {**run_dict, "zz": {"d1": 1.0}}]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ranklens.RanklensWarning)
        for run in runs * 2:
            got = ranklens.evaluate(qrels, run, MEASURES, **options)
            fresh = ranklens.Qrels(qrels.frame, qrels.source)
            want = ranklens.evaluate(fresh, run, MEASURES, **options)
            assert list(got.query_ids) == list(want.query_ids)
            for m in MEASURES:
                assert got.per_query(m) == want.per_query(m)
    assert QRELS_INDEX in qrels._derived


def test_qrels_with_duplicates_still_reported_after_caching() -> None:
    qrels = ranklens.load_qrels({"q1": {"a": 1, "b": 0}})
    dup = ranklens.Qrels(qrels.frame.vstack(qrels.frame.head(1)), "dup.qrels")
    run = {"q1": {"a": 1.0, "b": 0.5}}
    for _ in range(2):
        with pytest.raises(ranklens.InputError, match="more than once"):
            ranklens.evaluate(dup, run, ["AP"])
    assert ranklens.evaluate(dup, run, ["AP"], duplicates="first")["AP"] == 1.0


def test_ranks_at_positions_agree_with_the_full_ranks() -> None:
    from ranklens._model.align import align

    qrels, run = _data(5)
    aligned, _ = align(ranklens.load_qrels(qrels), ranklens.load_run(run))
    idx = np.arange(aligned.qidx.size)[::3]
    sparse = aligned.rank_at(idx)  # from the offsets, before the full ranks exist
    full = aligned.rank
    assert np.array_equal(sparse, full[idx])
    assert np.array_equal(aligned.rank_at(idx), sparse)  # now read from the full ranks
    starts = aligned.offsets[:-1][np.diff(aligned.offsets) > 0]
    assert (full[starts] == 1).all()
    assert np.array_equal(np.diff(full)[np.diff(aligned.qidx) == 0], np.ones(
        int((np.diff(aligned.qidx) == 0).sum()), dtype=np.int64))


@pytest.mark.parametrize("options", [
    {"missing": "zero"},
    {"missing": "skip"},
    {"depth": 5, "missing": "zero"},
    {"judged_only": True, "missing": "zero"},
    {"ties": "average", "missing": "zero"},
])
def test_a_run_in_any_query_order_gives_the_sorted_runs_results(options: dict) -> None:
    # the run lists its queries out of order; some judged queries are absent, and one run
    # query is not judged: the results must be those of the same run sorted by query id
    qrels, run_dict = _data(7)
    order = ["q7", "q2", "q11", "q0", "q9", "q4", "zz", "q1"]
    run_dict["zz"] = {"d1": 1.0}
    shuffled = {q: run_dict[q] for q in order}
    ordered = {q: run_dict[q] for q in sorted(order)}
    measures = [*MEASURES, "relstring@5", "P(ties=input)@5", "num_q", "gm_map"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ranklens.RanklensWarning)
        got = ranklens.evaluate(qrels, shuffled, measures, **options)
        want = ranklens.evaluate(qrels, ordered, measures, **options)
    assert list(got.query_ids) == sorted(got.query_ids)
    assert list(got.query_ids) == list(want.query_ids)
    assert got.text_values == want.text_values
    assert got.text_values["relstring@5"] != [got.text_values["relstring@5"][0]] * len(
        got.query_ids)  # the text differs between queries: its order is tested
    for m in measures:
        a, b = np.array(list(got.per_query(m).values())), np.array(list(want.per_query(m).values()))
        assert np.array_equal(a, b, equal_nan=True), m
        assert got[m] == want[m] or (np.isnan(got[m]) and np.isnan(want[m])), m


def test_query_numbers_at_positions_agree_with_the_full_ones() -> None:
    from ranklens._model.align import align

    qrels, run = _data(6)
    qrels["zz"] = {"d1": 1}  # judged, absent from the run: an empty query at the end
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ranklens.RanklensWarning)
        aligned, _ = align(ranklens.load_qrels(qrels), ranklens.load_run(run))
    assert aligned.given_qidx is None  # every run query is evaluated: derived on demand
    idx = np.array([0, 1, aligned.n_ranked // 2, aligned.n_ranked - 1])
    sparse = aligned.qidx_at(idx)  # searched in the offsets
    full = aligned.qidx
    assert np.array_equal(sparse, full[idx])
    assert np.array_equal(np.bincount(full, minlength=aligned.nq), np.diff(aligned.offsets))


@pytest.mark.parametrize(("start", "stop"), [(0, 10), (0, 3), (3, 7), (2, 8), (5, 6), (7, 10)])
def test_group_numbers_of_a_slice(start: int, stop: int) -> None:
    from ranklens._model.keys import codes as _codes

    offsets = np.array([0, 3, 3, 7, 7, 10])  # groups 1 and 3 are empty
    full = np.repeat(np.arange(5), np.diff(offsets))
    assert np.array_equal(_codes(offsets, start, stop), full[start:stop])


def test_source_rows_at_positions_agree_with_the_full_map() -> None:
    _, run_dict = _data(7)
    frame = ranklens.load_run(run_dict).frame.sort(["query_id", "score"],
                                                   descending=[False, True])
    run = ranklens.load_run(frame)
    index = run_index(run, "docid")
    assert index.ties_only  # written best first: only tied rows are re-sorted
    moved, rows = index.moves
    assert moved.size and (moved != rows).any()  # coarse scores: tied rows do move
    assert np.array_equal(run.score[index.src], run.score)  # ...only among equal scores
    pos = np.arange(len(run))
    assert np.array_equal(index.src_at(pos), index.src)
    assert np.array_equal(index.src_at(moved[::-1].copy()), index.src[moved[::-1]])
    assert np.array_equal(index.src_at(pos[:0]), pos[:0])
    assert sorted(index.src.tolist()) == pos.tolist()  # a permutation of the rows


def test_an_index_in_another_tie_order_reuses_the_doc_hashes() -> None:
    from ranklens._ingest.io.trec.run import read_trec_run

    qrels, run_dict = _data(8)
    text = "".join(f"{q} Q0 {d} 0 {s!r} tag\n" for q, docs in run_dict.items()
                   for d, s in docs.items())
    run = read_trec_run("r.txt", data=text.encode())  # the TREC reader hashes the doc ids
    by_id = ranklens.evaluate(qrels, _fresh(run), MEASURES, ties="input")
    assert run.hints.doc_hashes is not None  # the reader's
    run_index(run, "docid")  # built from the reader's doc hashes, which it takes
    assert run.hints.doc_hashes is None  # taken: the run no longer holds them
    assert RUN_INDEX["docid"] in run._derived
    assert dict(ranklens.evaluate(qrels, run, MEASURES, ties="input")) == dict(by_id)


def test_an_alignment_keeps_query_and_rank_only_for_the_arrays_it_hands_out() -> None:
    from ranklens._model.align import align

    qrels, run = _data(9)
    aligned, _ = align(ranklens.load_qrels(qrels), ranklens.load_run(run))
    relevant = aligned.relevant_positions(1)
    assert aligned.relevant_positions(1) is relevant  # kept
    for idx in (aligned.judged_at, relevant):
        q, rank = aligned.qidx_at(idx), aligned.rank_at(idx)
        assert aligned.qidx_at(idx) is q and aligned.rank_at(idx) is rank  # kept, shared
        assert not q.flags.writeable and not rank.flags.writeable
    assert _at_keys(aligned) == {"judged_at", ("relevant_positions", 1)}
    copy = relevant.copy()  # equal, but not an array the alignment handed out
    assert np.array_equal(aligned.qidx_at(copy), aligned.qidx_at(relevant))
    assert aligned.qidx_at(copy) is not aligned.qidx_at(copy)
    assert len(_at_keys(aligned)) == 2


def _at_keys(aligned: Any) -> set[Any]:
    """What an alignment keeps query index and rank for."""
    return {k[1] for k in aligned._derived.kept if isinstance(k, tuple) and k[0] == "at"}


def test_derived_slots_are_typed_places_of_their_own() -> None:
    from ranklens._ingest.tables import Derived, Slot

    derived = Derived()
    a: Slot[list[int]] = Slot("a")
    b: Slot[list[int]] = Slot("a")  # the same name, another slot
    assert derived.peek(a) is None and a not in derived and not derived
    built = derived.get(a, lambda: [1])
    assert derived.get(a, lambda: [2]) is built  # built once
    assert derived.peek(b) is None and derived.get(b, lambda: [2]) == [2]
    assert len(derived) == 2

    qrels = ranklens.load_qrels({"q1": {"a": 1}})
    ranklens.evaluate(qrels, {"q1": {"a": 1.0}}, ["AP"])
    assert QRELS_INDEX in qrels._derived
    assert QRELS_INDEX not in Qrels(qrels.frame, "other")._derived  # made anew
