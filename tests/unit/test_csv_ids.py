"""CSV/TSV ids are text: "007" and "7", "00" and "0", "1.50" and "1.5" are different ids.

Type inference read them as numbers (found by the columnar fuzz property): query "00" merged
into query "0" and doc "007" matched a judgment of doc "7".
"""

from __future__ import annotations

from pathlib import Path

import pytest

import ranklens


def _write(path: Path, text: str) -> str:
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("ext,sep", [("csv", ","), ("tsv", "\t")])
def test_ids_that_read_as_the_same_number_stay_apart(tmp_path: Path, ext: str,
                                                     sep: str) -> None:
    qrels = _write(tmp_path / f"q.{ext}", "\n".join(sep.join(r) for r in [
        ("query_id", "doc_id", "relevance"), ("00", "007", "1"), ("0", "7", "1"),
        ("0", "1.50", "1")]) + "\n")
    run = _write(tmp_path / f"r.{ext}", "\n".join(sep.join(r) for r in [
        ("query_id", "doc_id", "score"), ("00", "7", "1.5"), ("0", "007", "2.5"),
        ("0", "7", "0.5"), ("0", "1.5", "3.5")]) + "\n")
    frame = ranklens.evaluate(qrels, run, ["P@1", "P@3", "num_rel_ret"]).to_polars()
    rows = {row["query_id"]: row for row in frame.iter_rows(named=True)}
    assert set(rows) == {"0", "00"}
    # query 0 ranks 1.5, 007, 7: only 7 is judged relevant ("1.50" is another doc)
    assert rows["0"]["P@1"] == 0.0
    assert rows["0"]["P@3"] == pytest.approx(1 / 3)
    assert rows["0"]["num_rel_ret"] == 1.0
    # query 00 retrieved 7; its relevant doc is 007
    assert rows["00"]["num_rel_ret"] == 0.0


def test_canonical_integer_ids_stay_integers(tmp_path: Path) -> None:
    qrels = _write(tmp_path / "q.csv", "user,item,rating\n10,5,1\n2,6,1\n")
    run = _write(tmp_path / "r.csv", "user,item,score\n10,5,0.5\n2,7,0.25\n")
    frame = ranklens.evaluate(qrels, run, ["P@1"]).to_pandas()
    assert frame["query_id"].tolist() == [2, 10]  # integers, in numeric order
    assert frame["P@1"].tolist() == [0.0, 1.0]


def test_a_grade_that_is_not_a_number_names_its_line(tmp_path: Path) -> None:
    qrels = _write(tmp_path / "q.csv", "query_id,doc_id,relevance\nq1,d1,1\nq1,d2,high\n")
    with pytest.raises(ranklens.InputError, match=r"q.csv:3: expected a numeric relevance, "
                                                  r"got 'high'"):
        ranklens.load_qrels(qrels)
