"""``columns=`` on the functions that take run files (issue 39: every common file shape,
the same keyword in Python as ``--columns``): headerless run paths read with those columns."""

from __future__ import annotations

from pathlib import Path

import pytest

import ranklens
from ranklens import ParameterError

QRELS = {"q1": {"a": 1, "c": 1}, "q2": {"b": 1}}
# headerless qid,docid,score files (a TREC reader would refuse three fields with a score)
BM25 = "q1\ta\t3.5\nq1\tb\t2.5\nq1\tc\t1.5\nq2\tb\t0.5\n"
DENSE = "q1\tc\t0.9\nq1\ta\t0.8\nq2\ta\t0.7\nq2\tb\t0.6\n"
COLS = "qid,docid,score"


@pytest.fixture
def paths(tmp_path: Path) -> list[str]:
    (tmp_path / "bm25.tsv").write_text(BM25)
    (tmp_path / "dense.tsv").write_text(DENSE)
    return [str(tmp_path / "bm25.tsv"), str(tmp_path / "dense.tsv")]


def _loaded(paths: list[str]) -> dict[str, ranklens.Run]:
    return {Path(p).stem: ranklens.load_run(p, name=Path(p).stem, columns=COLS) for p in paths}


def test_evaluate_reads_headerless_paths(paths: list[str]) -> None:
    one = ranklens.evaluate(QRELS, paths[0], ["AP", "P@2"], columns=COLS)
    assert one["P@2"] == 0.5
    both = ranklens.evaluate(QRELS, paths, ["AP"], columns=("qid", "docid", "score"))
    assert list(both.run_names) == ["bm25", "dense"]
    expected = ranklens.evaluate(QRELS, _loaded(paths), ["AP"])
    # files that fit memory_limit= are read in memory, with the columns
    fits = ranklens.evaluate(QRELS, paths, ["AP"], columns=COLS, memory_limit="1GB")
    assert fits.aggregates("AP").tolist() == expected.aggregates("AP").tolist()
    assert both.aggregates("AP").tolist() == expected.aggregates("AP").tolist()
    named = ranklens.evaluate(QRELS, {"x": paths[0], "y": paths[1]}, ["AP"], columns=COLS)
    assert list(named.run_names) == ["x", "y"]


def test_compare_reads_headerless_paths(paths: list[str]) -> None:
    cmp = ranklens.compare(QRELS, paths, ["AP"], columns=COLS)
    expected = ranklens.compare(QRELS, _loaded(paths), ["AP"])
    assert [(p.system, p.baseline, p.difference) for p in cmp.pairs] == \
        [(p.system, p.baseline, p.difference) for p in expected.pairs]


def test_report_reads_headerless_paths(paths: list[str]) -> None:
    page = ranklens.report(QRELS, paths, ["AP"], columns=COLS)
    assert "bm25" in page and "dense" in page


def test_agreement_reads_headerless_paths(paths: list[str]) -> None:
    agree = ranklens.agreement(paths[0], paths[1], "Overlap@2", columns=COLS)
    loaded = _loaded(paths)
    assert agree["Overlap@2"] == ranklens.agreement(loaded["bm25"], loaded["dense"],
                                                    "Overlap@2")["Overlap@2"]
    matrix = ranklens.agreement(paths, measures="Overlap@2", columns=COLS)
    assert list(matrix.runs) == ["bm25", "dense"]


def test_fuse_reads_headerless_paths(paths: list[str]) -> None:
    fused = ranklens.fuse(paths, "rrf", columns=COLS)
    expected = ranklens.fuse(list(_loaded(paths).values()), "rrf")
    assert fused.doc_id.to_list() == expected.doc_id.to_list()
    assert fused.score.tolist() == expected.score.tolist()


def test_pool_reads_headerless_paths(paths: list[str]) -> None:
    pooled = ranklens.pool(paths, depth=1, columns=COLS)
    expected = ranklens.pool(list(_loaded(paths).values()), depth=1)
    assert pooled.frame.equals(expected.frame) and len(pooled) > 0


def test_columns_without_a_path_or_with_a_bad_name_are_refused(paths: list[str]) -> None:
    with pytest.raises(ParameterError, match="no run was given as a path"):
        ranklens.evaluate(QRELS, {"q1": {"a": 1.0}}, ["AP"], columns=COLS)
    with pytest.raises(ParameterError, match="unknown column 'nope'"):
        ranklens.evaluate(QRELS, paths, ["AP"], columns="qid,nope,score")
