"""Issue 39: a recommender's CSV files (user and item columns) get users and items in the
command line's tables, warnings and errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import one_error, run, write

TEST_ITEMS = "user_id,item_id\n1,10\n2,12\n4,13\n"
RECS = "user_id,item_id,score\n1,10,0.9\n1,11,0.5\n2,10,0.8\n2,12,0.1\n3,11,0.7\n"
OTHER = "user_id,item_id,score\n1,10,0.5\n1,11,0.9\n2,10,0.1\n2,12,0.8\n3,11,0.7\n"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    return {"test": str(write(tmp_path / "test.csv", TEST_ITEMS)),
            "recs": str(write(tmp_path / "recs.csv", RECS)),
            "other": str(write(tmp_path / "other.csv", OTHER)),
            "twice": str(write(tmp_path / "twice.csv",
                               "user_id,item_id,score\n1,10,0.9\n1,10,0.5\n"))}


def test_per_query_table_and_warning_say_users(files: dict[str, str],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    r = run(["evaluate", files["test"], files["recs"], "-m", "P@1", "--per-query"], capsys)
    assert r.code == 0, r.err
    assert r.out.splitlines()[0].split()[:3] == ["run", "user", "P@1"]
    assert r.err.startswith("ranklens: warning: 1 users with test items are absent from the "
                            "recommendations (")


def test_duplicate_error_says_items(files: dict[str, str],
                                    capsys: pytest.CaptureFixture[str]) -> None:
    r = run(["evaluate", files["test"], files["twice"], "-m", "P@1"], capsys)
    assert r.code == 2
    assert ("twice.csv: item '10' appears more than once for user '1' in the recommendations "
            "(1 duplicated (user, item) pair)") in one_error(r.err)


def test_compare_says_users(files: dict[str, str],
                            capsys: pytest.CaptureFixture[str]) -> None:
    r = run(["compare", files["test"], files["recs"], files["other"], "-m", "P@1"], capsys)
    assert r.code == 0, r.err
    assert "n = 3 users; seed 0." in r.out.splitlines()


def test_report_says_users(files: dict[str, str],
                           capsys: pytest.CaptureFixture[str]) -> None:
    r = run(["report", files["test"], files["recs"], files["other"], "-m", "P@1", "--max-k",
             "2", "-o", "-"], capsys)
    assert r.code == 0, r.err
    assert "<h2>Per user</h2>" in r.out and "3 users, 2 runs" in r.out
    # the sections' prose too: no query, document or qrels left
    assert "Per-user differences" in r.out and "Which users each run wins" in r.out
    assert "items per user by judged grade" in r.out and "absent from the test items" in r.out
    assert "averaged over users" in r.out


@pytest.mark.usefixtures("no_floor")
def test_chunked_grade_warning_says_test_items(files: dict[str, str],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    r = run(["evaluate", files["test"], files["recs"], "-m", "P@1", "--rel", "2",
             "--missing", "skip", "--memory-limit", "100", "--jobs", "1"], capsys)
    assert r.code == 0, r.err
    assert "ranklens: warning: no test item reaches rel >= 2 (grades go up to 1) in the test " \
        "items (" in r.err
