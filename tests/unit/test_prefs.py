"""Preference measures through the engine: the one ranker, the one duplicate check, the
judgment-group and measure kernels, their registry, and the compute step on any subset of
topics. trec_eval's own outputs (``out.test.prefs``, ``out.test.qrels_prefs``) are checked
byte for byte by test_trec_eval_conformance.py and test_trec_eval_api.py.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import ranklens
from ranklens._base.errors import InputError
from ranklens._ingest.io._load import load_run
from ranklens._ingest.io._prefs import load_prefs
from ranklens._ingest.tables import PrefJudgments
from ranklens._measures._prefs import PREF_REGISTRY
from ranklens._model.ranking import run_index
from ranklens._pipeline.preferences import compute_prefs
from ranklens._surfaces.trec_eval import trec_eval
from ranklens._surfaces.trec_eval.qrels_jg import read_qrels_jg
from ranklens._surfaces.trec_eval.table import NICKNAMES, ORDER, PREFS


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def _ranked(run: ranklens.Run, ties: str) -> dict[str, list[str]]:
    index = run_index(run, ties)
    docs = run.doc_ids_at(index.src).to_list()
    offsets = index.offsets.tolist()
    return {q: docs[offsets[i]:offsets[i + 1]]
            for i, q in enumerate(index.query_ids.to_list())}


# -- the one ranker: trec_eval's prefs tie order is a named tie break ----------------------


@pytest.mark.parametrize("scores", [
    {"q1": {"b": 1.0, "c": 1.0, "a": 1.0, "z": 2.0}},  # best first, ties in one block
    {"q1": {"b": 1.0, "z": 2.0, "c": 1.0, "a": 1.0}},  # not best first: sorted
])
def test_docid_ascending_breaks_ties_the_other_way(scores: dict) -> None:
    run = load_run(scores)
    assert _ranked(run, "docid_ascending") == {"q1": ["z", "a", "b", "c"]}
    assert _ranked(run, "docid") == {"q1": ["z", "c", "b", "a"]}
    assert _ranked(run, "input")["q1"][0] == "z"


def test_prefs_rank_ties_by_doc_id_ascending(tmp_path: Path) -> None:
    prefs = _write(tmp_path / "prefs", "q1 g1 s1 A 1\nq1 g1 s1 B 0\n")
    # A and B tied: trec_eval's prefs rank A (ascending) first, so A > B is fulfilled
    for run in ({"q1": {"A": 1.0, "B": 1.0}}, {"q1": {"B": 1.0, "A": 1.0}}):
        report = trec_eval(prefs, run, ["prefs_num_prefs_ful_ret", "prefs_simp_ret"],
                           judgments="prefs")
        assert report.per_query == {"prefs_num_prefs_ful_ret": {"q1": 1.0},
                                    "prefs_simp_ret": {"q1": 1.0}}


# -- judgment groups ------------------------------------------------------------------------


def test_groups_that_disagree_by_hand(tmp_path: Path) -> None:
    # g1: A > B, g2: B > A, g3: A > C (qrels read as preferences: one sub-group per group)
    qrels = _write(tmp_path / "qrels", "q1 g1 A 1\nq1 g1 B 0\nq1 g2 B 1\nq1 g2 A 0\n"
                                       "q1 g3 A 1\nq1 g3 C 0\n")
    run = {"q1": {"A": 3.0, "B": 2.0, "C": 1.0}}
    report = trec_eval(qrels, run, "all_prefs", judgments="qrels_prefs")
    got = {name: values["q1"] for name, values in report.per_query.items()}
    assert got["prefs_num_prefs_poss"] == 3.0
    assert got["prefs_num_prefs_ful"] == 2.0  # g1's and g3's
    assert got["prefs_simp"] == pytest.approx(2 / 3)
    assert got["prefs_avgjg"] == pytest.approx((1 + 0 + 1) / 3)
    # pairs: (A, B) preferred by 2 groups, fulfilled for 1 -> 0.5; (A, C) -> 1
    assert got["prefs_pair"] == pytest.approx((0.5 + 1) / 2)
    assert got["prefs_pair_ret"] == pytest.approx((0.5 + 1) / 2)


def test_an_unretrieved_pair_counts_as_possible_only(tmp_path: Path) -> None:
    qrels = _write(tmp_path / "qrels", "q1 g1 A 1\nq1 g1 B 0\nq1 g1 C 1\n")
    report = trec_eval(qrels, {"q1": {"D": 1.0}}, "all_prefs", judgments="qrels_prefs")
    got = {name: values["q1"] for name, values in report.per_query.items()}
    assert got["prefs_num_prefs_poss"] == 2.0  # A > B and C > B, neither retrieved
    assert got["prefs_num_prefs_ful"] == 0.0
    assert got["prefs_simp"] == got["prefs_pair"] == 0.0
    assert got["prefs_simp_imp"] == got["prefs_simp_ret"] == 0.0


# -- the one duplicate check ----------------------------------------------------------------


def test_a_duplicate_is_the_engines_error(tmp_path: Path) -> None:
    prefs = _write(tmp_path / "prefs", "q1 g1 s1 A 1\nq1 g1 s1 B 0\n")
    run = _write(tmp_path / "run", "q1 Q0 A 1 3 t\nq1 Q0 B 2 2 t\nq1 Q0 A 3 1 t\n")
    with pytest.raises(InputError, match="'A' appears more than once for query 'q1' in the "
                                         "run") as info:
        trec_eval(prefs, str(run), "prefs_simp", judgments="prefs")
    assert str(run) in str(info.value)


def test_a_duplicate_below_the_depth_cut_is_no_error(tmp_path: Path) -> None:
    # trec_eval's form_prefs_counts checks the ranking after the -M cut
    prefs = _write(tmp_path / "prefs", "q1 g1 s1 A 1\nq1 g1 s1 B 0\n")
    run = _write(tmp_path / "run", "q1 Q0 A 1 3 t\nq1 Q0 B 2 2 t\nq1 Q0 A 3 1 t\n")
    report = trec_eval(prefs, str(run), "prefs_simp", judgments="prefs", depth=2)
    assert report.per_query == {"prefs_simp": {"q1": 1.0}}
    with pytest.raises(InputError, match="more than once"):
        trec_eval(prefs, str(run), "prefs_simp", judgments="prefs", depth=3)


def test_a_duplicate_in_an_unjudged_topic_is_no_error(tmp_path: Path) -> None:
    prefs = _write(tmp_path / "prefs", "q1 g1 s1 A 1\nq1 g1 s1 B 0\n")
    run = {"q1": {"B": 2.0, "A": 1.0}}
    dup = load_run(pl.DataFrame({"query_id": ["q1", "q1", "q9", "q9"],
                                 "doc_id": ["B", "A", "X", "X"],
                                 "score": [2.0, 1.0, 2.0, 1.0]}))
    assert (trec_eval(prefs, dup, "prefs_simp", judgments="prefs").summary
            == trec_eval(prefs, run, "prefs_simp", judgments="prefs").summary
            == {"prefs_simp": 0.0})


# -- the registry ---------------------------------------------------------------------------


def test_the_registry_is_trec_evals_table() -> None:
    # trec_eval 10.0's te_trec_measures order (measures.c)
    assert list(PREF_REGISTRY) == [
        "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret",
        "prefs_simp", "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel",
        "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret",
        "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp"]
    assert [n for n in ORDER if n.startswith("prefs_")] == list(PREFS)
    assert NICKNAMES["prefs"][2:] == PREFS[:6]
    counts = [n for n, d in PREF_REGISTRY.items() if d.aggregate == "sum"]
    assert counts == [n for n, d in PREF_REGISTRY.items() if d.trec_integer]
    assert counts == ["prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret"]


def test_summaries_follow_each_entrys_aggregate(trec_dir: Path) -> None:
    report = trec_eval(trec_dir / "prefs.test", str(trec_dir / "prefs.results.test"),
                       "all_prefs", judgments="prefs")
    for name, values in report.per_query.items():
        total = 0.0
        for v in values.values():
            total += v
        want = total if PREF_REGISTRY[name].aggregate == "sum" else total / len(values)
        assert report.summary[name] == want, name


# -- compute: a pure function of the tables, valid on any subset of topics ------------------


def test_any_subset_of_topics_gives_those_topics_values(trec_dir: Path) -> None:
    judgments = load_prefs(trec_dir / "prefs.test", qrels_format=False)
    run = load_run(str(trec_dir / "prefs.results.test"))
    measures = list(PREF_REGISTRY.values())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ranklens.RanklensWarning)
        qids, whole = compute_prefs(judgments, run, measures, complete=True, depth=None)
        assert len(qids) > 10
        for i, q in enumerate(qids):
            one = PrefJudgments(judgments.frame.filter(pl.col("query_id") == q), "part")
            got_q, got = compute_prefs(one, run, measures, complete=True, depth=None)
            assert got_q == [q]
            for name, values in whole.items():
                assert np.array_equal(got[name], values[i:i + 1], equal_nan=True), (q, name)


def test_no_common_topic_is_an_error(tmp_path: Path) -> None:
    prefs = _write(tmp_path / "prefs", "q1 g1 s1 A 1\nq1 g1 s1 B 0\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(InputError, match="share no query"):
            trec_eval(prefs, {"q2": {"A": 1.0}}, "prefs_simp", judgments="prefs")
    assert any("absent from the run" in str(w.message) for w in caught)


# -- one loader for judgment-group files ---------------------------------------------------


def test_prefs_and_qrels_jg_files_share_one_loader(tmp_path: Path) -> None:
    path = _write(tmp_path / "jg", "q1 g1 A 1.5\nq1 g1 B 0\n# a comment\nq1 g2 A 2x\n"
                                   "q1 g2 A 3\n")
    table = load_prefs(path, qrels_format=True)
    assert table.frame.rows() == [("q1", "g1", "0", "A", 1.5), ("q1", "g1", "0", "B", 0.0),
                                  ("q1", "g2", "0", "A", 2.0), ("q1", "g2", "0", "A", 3.0)]
    # qrels_jg reads levels with C's atol, a later line of a document winning (trec_eval)
    assert read_qrels_jg(path) == {"q1": {"g1": {"A": 1, "B": 0}, "g2": {"A": 3}}}
    with pytest.raises(InputError, match="expected 5 fields"):
        load_prefs(path, qrels_format=False)
