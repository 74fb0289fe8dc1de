"""``ranklens trec_eval`` on small hand-made cases (rules of research/trec_eval.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import run, write


def rows(out: str) -> list[tuple[str, str, str]]:
    return [tuple(line.split("\t")) for line in out.splitlines()]  # type: ignore[misc]


@pytest.fixture
def data(tmp_path: Path) -> dict[str, str]:
    qrels = write(tmp_path / "qrels", "9 0 A 0\n9 0 B 1\n10 0 x 2\n10 0 y 1\n10 0 z 0\n"
                                      "11 0 w 1\n")
    runf = write(tmp_path / "run", "9 Q0 A 1 1.0 tag\n9 Q0 B 2 1.0 tag\n"
                                   "10 Q0 z 1 3 tag\n10 Q0 u 2 2 tag\n10 Q0 x 3 1 tag\n"
                                   "12 Q0 q 1 1 tag\n")
    return {"qrels": str(qrels), "run": str(runf)}


def test_ties_by_docno_descending_and_strcmp_topic_order(data: dict[str, str],
                                                         capsys: pytest.CaptureFixture[str]):
    r = run(["trec_eval", "-q", "-m", "recip_rank", data["qrels"], data["run"]], capsys)
    assert r.code == 0, r.err
    # topic "10" sorts before "9"; in 9, B (tied with A) is ranked first: RR = 1
    assert rows(r.out) == [
        ("recip_rank            ", "10", "0.3333"),
        ("recip_rank            ", "9", "1.0000"),
        ("recip_rank            ", "all", "0.6667"),
    ]


def test_complete_adds_missing_topics_and_num_rel_rule(data: dict[str, str],
                                                       capsys: pytest.CaptureFixture[str]):
    r = run(["trec_eval", "-c", "-q", "-l2", "-m", "num_q", "-m", "num_rel", "-m", "num_ret",
             data["qrels"], data["run"]], capsys)
    got = rows(r.out)
    assert ("num_ret               ", "11", "0") in got
    assert ("num_rel               ", "11", "0") in got  # w is level 1 < -l2
    # with -c the summary num_rel counts every judgment > 0, ignoring -l (m_num_rel.c)
    assert ("num_rel               ", "all", "4") in got
    assert ("num_q                 ", "all", "3") in got


def test_without_complete_missing_topics_are_left_out(data: dict[str, str],
                                                      capsys: pytest.CaptureFixture[str]):
    r = run(["trec_eval", "-m", "num_q", "-m", "num_rel", data["qrels"], data["run"]], capsys)
    assert rows(r.out) == [("num_q                 ", "all", "2"),
                           ("num_rel               ", "all", "3")]


def test_no_summary_depth_and_judged_only(data: dict[str, str],
                                          capsys: pytest.CaptureFixture[str]):
    r = run(["trec_eval", "-n", "-q", "-M1", "-m", "num_ret", "-m", "P.1",
             data["qrels"], data["run"]], capsys)
    assert rows(r.out) == [
        ("num_ret               ", "10", "1"), ("P_1                   ", "10", "0.0000"),
        ("num_ret               ", "9", "1"), ("P_1                   ", "9", "1.0000"),
    ]
    r = run(["trec_eval", "-q", "-J", "-m", "num_ret", "-m", "P.2", data["qrels"],
             data["run"]], capsys)
    # -J drops the unjudged u: topic 10 ranks z, x -> P_2 = 1/2
    assert ("num_ret               ", "10", "2") in rows(r.out)
    assert ("P_2                   ", "10", "0.5000") in rows(r.out)


def test_utility_with_collection_size(data: dict[str, str], capsys: pytest.CaptureFixture[str]):
    r = run(["trec_eval", "-q", "-N", "100", "-m", "utility.1,-1,0,1", data["qrels"],
             data["run"]], capsys)
    got = dict(((name.strip(), q), v) for name, q, v in rows(r.out))
    # topic 9: RR=1, n=2, R=1: 1 - 1 + 0 + (100 + 1 - 2 - 1) = 98
    assert got[("utility_1,-1,0,1", "9")] == "98.0000"


def test_runid_and_nickname_set(data: dict[str, str], capsys: pytest.CaptureFixture[str]):
    r = run(["trec_eval", "-m", "set", data["qrels"], data["run"]], capsys)
    names = [name.strip() for name, _, _ in rows(r.out)]
    # printed in trec_eval's table order, not the nickname's list order
    assert names == ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P",
                     "set_relative_P", "set_recall", "set_map", "set_F"]
    assert rows(r.out)[0] == ("runid                 ", "all", "tag")


def test_help(capsys: pytest.CaptureFixture[str]):
    r = run(["trec_eval", "-h"], capsys)
    assert r.code == 0
    assert r.out.startswith("Usage: ranklens trec_eval")


def prefs_values(out: str) -> dict[str, str]:
    return {name.strip(): value for name, q, value in rows(out) if q == "q1"}


def test_prefs_equivalence_classes_by_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    prefs = write(tmp_path / "prefs", "q1 u1 s1 A 2\nq1 u1 s1 B 1\nq1 u1 s1 C 0\n")
    runf = write(tmp_path / "run", "q1 Q0 B 1 3 t\nq1 Q0 A 2 2 t\nq1 Q0 D 3 1 t\n")
    r = run(["trec_eval", "-q", "-R", "prefs", "-m", "all_prefs", str(prefs), str(runf)], capsys)
    assert r.code == 0, r.err
    v = prefs_values(r.out)
    # A>B violated among retrieved docs; A>C and B>C fulfilled with C not retrieved (implied)
    assert v["prefs_num_prefs_poss"] == "3"
    assert v["prefs_num_prefs_ful"] == "2"
    assert v["prefs_num_prefs_ful_ret"] == "0"
    assert v["prefs_simp"] == v["prefs_simp_imp"] == v["prefs_avgjg"] == f"{2 / 3:.4f}"
    assert v["prefs_simp_ret"] == v["prefs_pair_ret"] == v["prefs_avgjg_ret"] == "0.0000"
    assert v["prefs_pair"] == v["prefs_pair_imp"] == f"{2 / 3:.4f}"
    # R=2 relevant, N=1 non-relevant: (2 + 2*1) / (3 + 2*1); retrieved-only: (0 + 2*2)/(1 + 2*2)
    assert v["prefs_avgjg_Rnonrel"] == "0.8000"
    assert v["prefs_avgjg_Rnonrel_ret"] == "0.8000"


def test_prefs_sub_groups_are_transitive(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    prefs = write(tmp_path / "prefs", "q1 u1 s1 A 2\nq1 u1 s1 B 1\nq1 u1 s2 B 2\nq1 u1 s2 C 1\n")
    for order, simp in (("A B C", "1.0000"), ("C B A", "0.0000")):
        runf = write(tmp_path / "run", "".join(
            f"q1 Q0 {d} {i} {10 - i} t\n" for i, d in enumerate(order.split(), 1)))
        r = run(["trec_eval", "-q", "-R", "prefs", "-m", "prefs", str(prefs), str(runf)],
                capsys)
        v = prefs_values(r.out)
        assert v["prefs_num_prefs_poss"] == "3"  # A>B, B>C and the implied A>C
        assert v["prefs_simp"] == simp


def test_prefs_inconsistent_group_is_an_error(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]):
    prefs = write(tmp_path / "prefs", "q1 u1 s1 A 2\nq1 u1 s1 B 1\nq1 u1 s2 B 2\nq1 u1 s2 A 1\n")
    runf = write(tmp_path / "run", "q1 Q0 A 1 2 t\n")
    r = run(["trec_eval", "-R", "prefs", "-m", "prefs_simp", str(prefs), str(runf)], capsys)
    assert r.code == 2
    assert r.err == "ranklens: error: inconsistent preferences within one judgment group\n"


def test_qrels_jg_averages_groups(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    qrels = write(tmp_path / "jg", "q1 g1 A 1\nq1 g1 B 0\nq1 g2 A 0\nq1 g2 B 1\n")
    runf = write(tmp_path / "run", "q1 Q0 A 1 2 t\nq1 Q0 B 2 1 t\n")
    r = run(["trec_eval", "-q", "-R", "qrels_jg", "-m", "map_avgjg", "-m", "P_avgjg.1",
             str(qrels), str(runf)], capsys)
    v = prefs_values(r.out)
    assert v["map_avgjg"] == f"{(1 + 0.5) / 2:.4f}"
    assert v["P_avgjg_1"] == "0.5000"
