"""Common file shapes (issue 39, item 2): headerless files with named columns, MS MARCO runs,
recommender exports' column names, ratings read as grades, and 20-digit TREC grades."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import pandas as pd
import pytest

import ranklens
from ranklens import InputError, ParameterError, RanklensWarning
from ranklens._ingest.columns import MAX_GRADE

QRELS = "1 0 10 1\n1 0 11 0\n1 0 12 2\n2 0 20 1\n2 0 21 0\n"
# the same ranking as a TREC run
TREC = ("1 Q0 12 1 3.0 t\n1 Q0 11 2 2.0 t\n1 Q0 10 3 1.0 t\n"
        "2 Q0 21 1 2.0 t\n2 Q0 20 2 1.0 t\n")
MEASURES = ["nDCG@10", "AP", "RR", "P@2"]


def _means(qrels: object, run: object) -> dict[str, float]:
    result = ranklens.evaluate(qrels, run, MEASURES)
    return {m: result[m] for m in MEASURES}


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    shapes = {
        "qrels": QRELS,
        "trec.run": TREC,
        # MS MARCO: qid \t pid \t rank, in rank order
        "msmarco.run": "1\t12\t1\n1\t11\t2\n1\t10\t3\n2\t21\t1\n2\t20\t2\n",
        "scores.txt": "1 10 1.0\n1 12 3.0\n1 11 2.0\n2 20 1.0\n2 21 2.0\n",
        "ordered.txt": "1 12\n1 11\n1 10\n2 21\n2 20\n",
        "four.tsv": "1\tQ0\t12\t1\n1\tQ0\t11\t2\n1\tQ0\t10\t3\n2\tQ0\t21\t1\n2\tQ0\t20\t2\n",
        "scores.csv": "1,10,1.0\n1,12,3.0\n1,11,2.0\n2,20,1.0\n2,21,2.0\n",
    }
    for name, text in shapes.items():
        (tmp_path / name).write_text(text)
    return {name: tmp_path / name for name in shapes}


def test_an_msmarco_run_is_read_without_columns(files: dict[str, Path]) -> None:
    assert _means(files["qrels"], files["msmarco.run"]) == _means(files["qrels"],
                                                                  files["trec.run"])


@pytest.mark.parametrize(("name", "columns"), [
    ("scores.txt", "qid,docid,score"),
    ("scores.txt", ["query_id", "doc_id", "score"]),
    ("ordered.txt", "qid,docid"),  # no score nor rank: the file's order
    ("four.tsv", "qid,_,docid,rank"),
    ("trec.run", "qid,_,docid,_,score,_"),
    ("scores.csv", "uid,iid,est"),
])
def test_named_columns_read_any_headerless_shape(files: dict[str, Path], name: str,
                                                 columns: object) -> None:
    run = ranklens.load_run(files[name], columns=columns)
    assert _means(files["qrels"], run) == _means(files["qrels"], files["trec.run"])


def test_headerless_qrels_with_named_columns(tmp_path: Path, files: dict[str, Path]) -> None:
    path = tmp_path / "qrels.tsv"
    path.write_text("1\t10\t1\n1\t11\t0\n1\t12\t2\n2\t20\t1\n2\t21\t0\n")
    qrels = ranklens.load_qrels(path, columns="qid,docid,rel")
    assert sorted(qrels.frame.rows()) == sorted(ranklens.load_qrels(files["qrels"]).frame.rows())


def test_an_unknown_column_name_is_refused_naming_the_option(files: dict[str, Path]) -> None:
    with pytest.raises(ParameterError, match="'columns' option names an unknown column 'x'"):
        ranklens.load_run(files["scores.txt"], columns="qid,docid,x")
    with pytest.raises(ParameterError, match="must name a query and a doc column"):
        ranklens.load_run(files["scores.txt"], columns="qid,score,score")


def test_three_columns_that_are_no_ranks_point_at_columns(tmp_path: Path) -> None:
    path = tmp_path / "three.txt"
    path.write_text("1 10 5\n1 11 3\n")
    with pytest.raises(InputError, match="qid,docid,score"):
        ranklens.load_run(path)


def _cli(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.run([sys.executable, "-m", "ranklens", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, env=env, check=False)


def test_the_command_line_reads_msmarco_runs_and_named_columns(files: dict[str, Path]) -> None:
    cwd = files["qrels"].parent
    trec = _cli("evaluate", "qrels", "trec.run", "-m", "AP", "-f", "csv", cwd=cwd)
    msmarco = _cli("evaluate", "qrels", "msmarco.run", "-m", "AP", "-f", "csv", cwd=cwd)
    named = _cli("evaluate", "qrels", "scores.txt", "--columns", "qid,docid,score", "-m", "AP",
                 "-f", "csv", cwd=cwd)
    assert trec.returncode == msmarco.returncode == named.returncode == 0, named.stderr
    value = trec.stdout.splitlines()[1].split(",")[1:]
    assert msmarco.stdout.splitlines()[1].split(",")[1:] == value
    assert named.stdout.splitlines()[1].split(",")[1:] == value
    bad = _cli("evaluate", "qrels", "scores.txt", "--columns", "qid,docid,nope", cwd=cwd)
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1 and "'--columns'" in bad.stderr
    hint = _cli("evaluate", "qrels", "scores.txt", cwd=cwd)
    assert hint.returncode == 2 and "--columns" in hint.stderr


@pytest.mark.parametrize("names", [("uid", "iid", "r_ui"), ("userID", "itemID", "rating"),
                                   ("user_id:token", "item_id:token", "rating:float")])
def test_recommender_export_column_names(names: tuple[str, str, str]) -> None:
    user, item, rating = names
    frame = pd.DataFrame({user: [1, 1, 2], item: [5, 6, 7], rating: [1.0, 1.0, 1.0]})
    qrels = ranklens.load_qrels(frame)
    assert qrels.frame.rows() == [("1", "5", 1.0), ("1", "6", 1.0), ("2", "7", 1.0)]
    run = ranklens.load_run(pd.DataFrame({"uid": [1], "iid": [5], "est": [4.2]}))
    assert run.frame.rows() == [("1", "5", 4.2, 0)]


def test_a_star_rating_read_as_a_grade_says_how_to_threshold_it() -> None:
    stars = pd.DataFrame({"user": [1, 1, 1], "item": [5, 6, 7], "rating": [1, 3, 5]})
    run = {"1": {"5": 3.0, "6": 2.0, "7": 1.0}}
    # said where rel is known: while it stays 1, whether the judgments come as a frame or
    # as the Qrels load_qrels made of it
    for judgments in (stars, ranklens.load_qrels(stars)):
        with pytest.warns(RanklensWarning, match=r"rel=4 \(--rel 4\)"):
            ranklens.evaluate(judgments, run, ["P@1"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # rel given: nothing to say
        result = ranklens.evaluate(stars, run, ["P@1"], rel=4)
    assert result["P@1"] == 0.0  # the 1-star item ranked first is not relevant at rel=4
    binary = pd.DataFrame({"user": [1, 1], "item": [5, 6], "rating": [0, 1]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ranklens.load_qrels(binary)  # 0/1 ratings: nothing to say


@pytest.mark.parametrize("grade", ["12345678901234567890", "-12345678901234567890"])
def test_a_20_digit_grade_is_read_as_trec_eval_reads_it(tmp_path: Path, grade: str) -> None:
    path = tmp_path / "qrels"
    path.write_text(f"q1 0 d1 {grade}\nq1 0 d2 1\n")
    qrels = ranklens.load_qrels(path)
    # atol saturates at C's long range: the largest grade the tables hold
    assert abs(qrels.frame["relevance"][0]) == MAX_GRADE
    result = ranklens.evaluate(qrels, {"q1": {"d2": 2.0, "d1": 1.0}}, ["P@1", "RR"])
    assert result["P@1"] == 1.0


def test_a_bad_value_names_the_file_line(tmp_path: Path) -> None:
    path = tmp_path / "ranks.txt"
    path.write_text("# ranked lists\n1 10 1\n1 11 x\n")
    with pytest.raises(InputError, match=r"ranks\.txt:3: expected a numeric rank, got 'x'"):
        ranklens.load_run(path, columns="qid,docid,rank")
    path.write_text("1 10 1\n1 11 x\n")
    with pytest.raises(InputError, match=r"ranks\.txt:2: expected a numeric relevance"):
        ranklens.load_qrels(path, columns="qid,docid,rel")
