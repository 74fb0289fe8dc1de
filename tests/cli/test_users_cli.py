"""Issue 39: a recommender's CSV files speak of users and test items on the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import run

import ranklens


def _files(tmp_path: Path) -> tuple[Path, Path]:
    """A recommender's test items and recommendations; user 3 has no test item."""
    test_items = tmp_path / "test.csv"
    test_items.write_text("user_id,item_id,rating\n1,10,1\n2,12,1\n")
    recs = tmp_path / "recs.csv"
    recs.write_text("user_id,item_id,score\n1,10,0.9\n1,11,0.5\n2,10,0.8\n2,12,0.1\n"
                    "3,11,0.7\n")
    return test_items, recs


def test_users_without_test_items_are_one_summary_line_with_verbose(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    test_items, recs = _files(tmp_path)
    r = run(["evaluate", str(test_items), str(recs), "-m", "nDCG@2"], capsys)
    assert r.code == 0, r.err
    assert r.err == ""  # normal in recommendation: no warning on every call
    r = run(["evaluate", str(test_items), str(recs), "-m", "nDCG@2", "-v"], capsys)
    assert r.code == 0, r.err
    assert ("ranklens: 1 users of the recommendations (recs) have no test items and were left "
            "out of the means") in r.err.splitlines()


@pytest.mark.usefixtures("no_floor")
def test_chunked_evaluation_says_users_in_the_same_words(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    test_items, recs = _files(tmp_path)
    r = run(["evaluate", str(test_items), str(recs), "-m", "nDCG@2", "--memory-limit", "100",
             "--jobs", "1", "-v"], capsys)
    assert r.code == 0, r.err
    lines = r.err.splitlines()
    assert lines[0].startswith("ranklens: engine: chunked")
    assert lines[1:] == ["ranklens: 1 users of the recommendations (recs) have no test items "
                         "and were left out of the means"]
    result = ranklens.evaluate(str(test_items), str(recs), "nDCG@2", memory_limit="100")
    assert result.engine["engine"] == "chunked"
    assert result.diagnostics["users_without_test_items"] == 1
