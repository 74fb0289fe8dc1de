"""A duplicated (query, document) pair: the error counts the duplicated pairs, says which
occurrence ``duplicates="first"`` keeps, and names the same pair in every engine."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import one_error, run

import ranklens
from ranklens import InputError

DUPLICATED = (150, 201, 77)  # in file order; "q150" is the first byte-wise


def _files(tmp_path: Path) -> tuple[Path, Path, Path]:
    """Judgments and a run of 300 queries with one doc twice in three queries each, and
    judgments without a duplicate."""
    qrels, run, clean = [], [], []
    for q in range(300):
        for d in range(20):
            qrels.append(f"q{q} 0 d{d} {(q + d) % 3}\n")
            run.append(f"q{q} Q0 d{d} {d + 1} {100 - d} x\n")
        clean += qrels[-20:]
        if q in DUPLICATED:
            qrels.append(f"q{q} 0 d3 0\n")
            run.append(f"q{q} Q0 d5 30 0.5 x\n")
    paths = tmp_path / "qrels.txt", tmp_path / "run.txt", tmp_path / "clean.txt"
    for path, lines in zip(paths, (qrels, run, clean), strict=True):
        path.write_text("".join(lines))
    return paths


def test_a_judgment_twice_counts_the_pairs_and_speaks_of_file_order(tmp_path: Path) -> None:
    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels.write_text("q 0 d 3\nq 0 d 0\nq 0 e 1\nr 0 d 1\nr 0 f 2\nr 0 g 0\n")
    run.write_text("q Q0 d 1 2.0 x\nq Q0 e 2 1.0 x\nr Q0 d 1 3.0 x\n")
    with pytest.raises(InputError) as info:
        ranklens.evaluate(str(qrels), str(run), ["P@1"])
    message = str(info.value)
    assert "(1 duplicated (query, document) pair)" in message
    assert "first occurrence in file order" in message
    assert "rows are involved" not in message and "highest-ranked" not in message
    # the first judgment in file order is kept: grade 3, so 'd' is relevant
    kept = ranklens.evaluate(str(qrels), str(run), ["P@1"], duplicates="first")
    assert kept.per_query("P@1")["q"] == 1.0


def test_a_run_duplicate_counts_the_pairs(tmp_path: Path) -> None:
    _, run, clean = _files(tmp_path)
    with pytest.raises(InputError, match=r"for query 'q150' in the run \(3 duplicated "
                       r"\(query, document\) pairs\); .*first \(highest-ranked\) occurrence"):
        ranklens.evaluate(str(clean), str(run), ["nDCG"])


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.usefixtures("no_floor")  # a 40KB limit then forces chunking
def test_in_memory_and_chunked_name_the_same_duplicate(tmp_path: Path, jobs: int) -> None:
    qrels, run, clean = _files(tmp_path)
    for judged in (qrels, clean):
        messages = []
        for limit in (None, "40KB"):
            with pytest.raises(InputError) as info:
                ranklens.evaluate(str(judged), str(run), ["nDCG"], memory_limit=limit,
                                  jobs=jobs)
            messages.append(str(info.value))
        assert messages[0] == messages[1]
        assert "query 'q150'" in messages[0] and "3 duplicated" in messages[0]
    kept = [ranklens.evaluate(str(qrels), str(run), ["nDCG", "NumRelRet"],
                              duplicates="first", memory_limit=limit, jobs=jobs)
            for limit in (None, "40KB")]
    assert kept[0].per_query("nDCG") == kept[1].per_query("nDCG")
    assert kept[0].per_query("NumRelRet") == kept[1].per_query("NumRelRet")


def test_the_command_line_prints_one_line_and_exits_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    qrels, ranked, _ = _files(tmp_path)
    out = run(["evaluate", str(qrels), str(ranked), "-m", "nDCG"], capsys)
    assert out.code == 2
    message = one_error(out.err)
    assert "3 duplicated (query, document) pairs" in message
    assert "--duplicates first to keep only the first occurrence in file order" in message
