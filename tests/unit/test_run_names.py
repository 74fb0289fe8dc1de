"""The one rule runs given as paths are named by (:mod:`ranklens._ingest.io._run_names`)."""

from __future__ import annotations

from pathlib import Path

import pytest

import ranklens
from ranklens._ingest.io._run_names import name_runs, path_name


@pytest.mark.parametrize(("path", "name"), [
    ("bm25.run", "bm25"),
    ("runs/dl19.BM25.run.gz", "dl19.BM25"),
    ("/abs/dir/dense.trec.bz2", "dense"),
    ("a/b/c.TXT.XZ", "c"),
    ("x.tsv", "x"), ("x.csv", "x"), ("x.parquet", "x"), ("x.jsonl", "x"), ("x.res", "x"),
    ("results.test", "results.test"),  # not a run suffix: kept
    ("bm25", "bm25"),
    ("bm25.run.txt", "bm25.run"),  # one format suffix at most
    (".run", ".run"),  # nothing would be left
    ("-", "-"),
    (Path("p/q/splade.run"), "splade"),
])
def test_a_path_is_named_by_its_file_name_without_suffixes(path: str | Path, name: str) -> None:
    assert path_name(path) == name
    assert name_runs([path]) == [name]


@pytest.mark.parametrize(("paths", "names"), [
    (["a/bm25.run", "b/dense.run.gz"], ["bm25", "dense"]),
    (["a/bm25.run", "b/bm25.run"], ["a/bm25", "b/bm25"]),
    (["x/a/bm25.run", "y/a/bm25.run", "b/bm25.run"], ["x/a/bm25", "y/a/bm25", "b/bm25"]),
    (["a/bm25.run", "bm25.run.gz"], ["a/bm25", "bm25.run.gz"]),
    (["/r/1/bm25.run", "/r/2/bm25.run", "/r/2/dense.run"], ["1/bm25", "2/bm25", "dense"]),
    # alike but for their suffixes: the file names as they are
    (["bm25.run", "bm25.tsv"], ["bm25.run", "bm25.tsv"]),
    # the same path twice: its position
    (["bm25.run", "dense.run", "bm25.run"], ["bm25#1", "dense", "bm25#3"]),
])
def test_colliding_names_take_the_shortest_distinguishing_trail(paths: list[str],
                                                                names: list[str]) -> None:
    assert name_runs(paths) == names


def test_runs_that_are_not_paths_get_no_name_here() -> None:
    assert name_runs([{"q": {"d": 1.0}}, "a/bm25.run", 3]) == [None, "bm25", None]


def test_a_python_list_of_paths_is_named_by_the_rule(tmp_path: Path) -> None:
    qrels = {"q1": {"d1": 1}}
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
        (tmp_path / sub / "bm25.run.gz").write_bytes(__import__("gzip").compress(
            b"q1 Q0 d1 1 1.0 rank\n"))
    (tmp_path / "dense.run").write_text("q1 Q0 d1 1 1.0 rank\n")
    paths = [tmp_path / "a" / "bm25.run.gz", str(tmp_path / "b" / "bm25.run.gz"),
             tmp_path / "dense.run"]
    res = ranklens.evaluate(qrels, paths, ["P@1"])
    # every file is tagged "rank": the tags would read rank#1, rank#2, rank#3
    assert res.run_names == ("a/bm25", "b/bm25", "dense")
    # a mapping keeps its keys
    named = ranklens.evaluate(qrels, {"one": paths[0], "two": paths[2]}, ["P@1"])
    assert named.run_names == ("one", "two")
