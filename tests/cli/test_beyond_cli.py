"""``ranklens evaluate --train --items --item-features --item-groups``: the beyond-accuracy
tables from files, and their errors on one line."""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import pytest
from cli_support import one_error, run, write

QRELS = "u1 0 c 1\nu2 0 d 1\n"
RUN = "u1 Q0 a 1 3 r\nu1 Q0 b 2 2 r\nu1 Q0 c 3 1 r\nu2 Q0 d 1 3 r\nu2 Q0 a 2 2 r\n"
# a: 3 users, 4 rows; b, c: 1 user, 1 row (tests/unit/test_beyond.py works the values out)
TRAIN = "user_id\titem_id\nu1\ta\nu1\ta\nu1\tb\nu2\ta\nu2\tc\nu3\ta\n"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    return {"qrels": write(tmp_path / "t.qrels", QRELS), "run": write(tmp_path / "r.run", RUN),
            "train": write(tmp_path / "train.tsv", TRAIN),
            "items": write(tmp_path / "items.txt", "a\nb\nc\nd\ne\n"),
            "features": write(tmp_path / "emb.txt", "a 1 0\nb 0 1\nc 1 1\nd 1 0\n"),
            "groups": write(tmp_path / "groups.txt", "a head\nb head\nd tail\n")}


def _values(out: str) -> dict[str, float]:
    rows = list(csv.DictReader(io.StringIO(out), delimiter="\t"))
    return {k: float(v) for k, v in rows[0].items() if k not in ("run", "query")}


def test_tables_from_files(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    r = run(["evaluate", str(files["qrels"]), str(files["run"]), "--train", str(files["train"]),
             "--items", str(files["items"]), "--item-features", str(files["features"]),
             "--item-groups", str(files["groups"]),
             "-m", "Novelty@2 Coverage@2 ILD@2 ARP@2 Gini@2 APLT@2", "-f", "tsv"], capsys)
    assert r.code == 0, r.err
    assert _values(r.out) == pytest.approx({
        "Novelty@2": math.log2(3) / 2, "Coverage@2": 0.6, "ILD@2": 0.5, "ARP@2": 2.25,
        "Gini@2": 0.5, "APLT@2": 0.25})


def test_conventions_reach_the_tables(files: dict[str, Path],
                                      capsys: pytest.CaptureFixture[str]) -> None:
    r = run(["evaluate", str(files["qrels"]), str(files["run"]), "--train", str(files["train"]),
             "--items", str(files["items"]), "-m", "Gini@2", "--convention", "recbole", "-f",
             "tsv"], capsys)
    assert r.code == 0, r.err
    assert _values(r.out)["Gini@2"] == pytest.approx(14 / 24)


@pytest.mark.parametrize(("extra", "message"), [
    ([], "Novelty@2 needs the training interactions (train=...; on the command line "
         "--train)"),
    (["--train", "absent.tsv"], "absent.tsv: no such file (expected training interactions)"),
])
def test_errors_are_one_line(files: dict[str, Path], capsys: pytest.CaptureFixture[str],
                             extra: list[str], message: str) -> None:
    r = run(["evaluate", str(files["qrels"]), str(files["run"]), "-m", "Novelty@2", *extra],
            capsys)
    assert r.code == 2
    assert r.err.strip().splitlines() == [f"ranklens: error: {message}"]


def test_a_bad_line_is_named(files: dict[str, Path], tmp_path: Path,
                             capsys: pytest.CaptureFixture[str]) -> None:
    bad = write(tmp_path / "bad.txt", "u1 a\nu2 b 1 extra\n")
    r = run(["evaluate", str(files["qrels"]), str(files["run"]), "--train", str(bad), "-m",
             "ARP@2"], capsys)
    assert r.code == 2
    assert f"{bad}:2: expected 2 to 3 fields (user item [weight]), got 4" in r.err


def test_never_writes_over_a_table(files: dict[str, Path],
                                   capsys: pytest.CaptureFixture[str]) -> None:
    before = files["train"].read_text()
    r = run(["evaluate", str(files["qrels"]), str(files["run"]), "--train", str(files["train"]),
             "-m", "ARP@2", "-o", str(files["train"])], capsys)
    assert r.code == 2 and "is one of the input files" in r.err
    assert files["train"].read_text() == before


def test_tables_are_for_qrels_and_runs(files: dict[str, Path], tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    pairs = write(tmp_path / "rag.jsonl", '{"query_id": "u1", "retrieved": ["a"], '
                                          '"relevant": ["a"]}\n')
    r = run(["evaluate", "--pairs", str(pairs), "--train", str(files["train"]),
             "-m", "ARP@2"], capsys)
    assert r.code == 2 and "--train is for QRELS and RUNS, not --pairs" in r.err


def test_compare_reads_the_tables(files: dict[str, Path], tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    other = write(tmp_path / "o.run", "u1 Q0 e 1 3 o\nu2 Q0 e 1 3 o\n")
    r = run(["compare", str(files["qrels"]), str(files["run"]), str(other), "--train",
             str(files["train"]), "-m", "ARP@2", "-f", "csv", "--details"], capsys)
    assert r.code == 0, r.err
    assert "ARP@2" in r.out
    r = run(["compare", str(files["qrels"]), str(files["run"]), str(other), "--train",
             str(files["train"]), "--items", str(files["items"]), "-m", "Coverage@2"], capsys)
    assert r.code == 2 and "Coverage@2 is catalogue-level" in r.err


@pytest.mark.parametrize("verb", ["evaluate", "compare"])
def test_tables_no_measure_reads_are_refused_not_ignored(
        verb: str, files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    runs = [str(files["run"])] * (2 if verb == "compare" else 1)
    r = run([verb, str(files["qrels"]), *runs, "--train", str(files["train"]), "--items",
             str(files["items"]), "-m", "AP", "-m", "P@2"], capsys)
    assert r.code == 2
    assert one_error(r.err).startswith("--train, --items are read by beyond-accuracy "
                                       "measures"), r.err
    assert "none of the measures given reads them" in r.err
    # with the default measures too: none of them reads an item table
    r = run([verb, str(files["qrels"]), *runs, "--item-groups", str(files["groups"])], capsys)
    assert r.code == 2 and "none of the measures given reads it" in one_error(r.err)


def test_report_refuses_item_tables_without_train_nor_a_measure_reading_them(
        files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.html"
    r = run(["report", str(files["qrels"]), str(files["run"]), "--items", str(files["items"]),
             "-m", "AP", "-o", str(out)], capsys)
    assert r.code == 2 and not out.exists()
    assert "with --train, the report's beyond-accuracy panel; none of the measures given " \
           "reads it" in one_error(r.err)
    # a measure reading the catalogue reads it
    r = run(["report", str(files["qrels"]), str(files["run"]), "--items", str(files["items"]),
             "-m", "AP", "-m", "Coverage@2", "-o", str(out)], capsys)
    assert r.code == 0, r.err


@pytest.mark.parametrize(("embeddings", "message"), [
    ("item_id,x1,x2\na,1,0\nb,0,0.5\nd,zz,0\n", "emb.csv:4: expected a numeric feature in "
     "column 'x1', got 'zz'"),
    ("item_id,x1,x2\na,1,0\nb,0.0,0\nd,1,0\n", "item 'b' of {path} has a zero vector")])
def test_delimited_embeddings_errors_are_one_line(files: dict[str, Path], tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str],
                                                  embeddings: str, message: str) -> None:
    path = write(tmp_path / "emb.csv", embeddings)
    r = run(["evaluate", str(files["qrels"]), str(files["run"]), "--item-features",
             str(path), "-m", "ILD@2"], capsys)
    assert r.code == 2
    assert len(r.err.strip().splitlines()) == 1
    assert message.format(path=path) in r.err
