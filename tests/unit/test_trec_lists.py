"""trec_eval's -m list spellings in evaluate: several cutoffs at once, a bare cutoff family."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import run, write

import ranklens
from ranklens._names import expand_trec_lists

QRELS = {"q": {"a": 1, "b": 2, "z": 1}}
RUN = {"q": {"a": 1.0, "b": 0.5, "c": 0.7}}


def test_several_cutoffs_give_one_result_each_named_the_trec_eval_way() -> None:
    res = ranklens.evaluate(QRELS, RUN, ["P_5,10", "ndcg_cut.5,10", "map"])
    assert list(res.names) == ["P_5", "P_10", "ndcg_cut_5", "ndcg_cut_10", "map"]
    single = ranklens.evaluate(QRELS, RUN, ["P@5", "P@10", "nDCG@5", "nDCG@10"])
    assert [res["P_5"], res["P_10"], res["ndcg_cut_5"], res["ndcg_cut_10"]] == [
        single["P@5"], single["P@10"], single["nDCG@5"], single["nDCG@10"]]


def test_a_bare_cutoff_family_means_its_default_cutoffs() -> None:
    res = ranklens.evaluate(QRELS, RUN, ["ndcg_cut"])
    assert list(res.names) == [f"ndcg_cut_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500,
                                                         1000)]
    assert expand_trec_lists("iprec_at_recall_0.10,0.20") == [
        "iprec_at_recall_0.10", "iprec_at_recall_0.20"]


def test_p_alone_stays_ranklens_precision_and_other_names_pass_through() -> None:
    assert expand_trec_lists("P") == ["P"]
    res = ranklens.evaluate(QRELS, RUN, ["P"])
    assert res["P"] == pytest.approx(2 / 3)  # every retrieved document, trec_eval's set_P
    for name in ("utility_2,-1,0,0", "nDCG@10", "ndcg_1=3,2=9"):
        assert expand_trec_lists(name) == [name]


def test_a_name_given_twice_through_a_list_is_computed_once() -> None:
    res = ranklens.evaluate(QRELS, RUN, ["P_5", "P_5,10"])
    assert list(res.names) == ["P_5", "P_10"]


def test_the_cli_takes_the_lists_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    qrels = write(tmp_path / "qrels.txt", "q 0 a 1\nq 0 b 2\n")
    ranked = write(tmp_path / "r.run", "q Q0 a 1 1.0 r\nq Q0 c 2 0.7 r\nq Q0 b 3 0.5 r\n")
    r = run(["evaluate", str(qrels), str(ranked), "-m", "P_1,2", "-m", "ndcg_cut.3"], capsys)
    assert r.code == 0, r.err
    assert r.out.splitlines()[0].split() == ["run", "P_1", "P_2", "ndcg_cut.3"]  # as written
    assert r.out.splitlines()[2].split()[1:3] == ["1.0000", "0.5000"]
