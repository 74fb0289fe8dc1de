"""Issue 42: derived groups on the command line (``--segments derived:BY`` with
``--segment-edges``) in evaluate, compare and report, and ``report --segments``."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
import pytest
from cli_support import one_error, run, write

import ranklens

#: query -> (relevant judgments, whether run "a" and run "b" rank a relevant doc first)
QUERIES = {f"q{i}": (1 + i % 4, i % 2 == 0, i % 3 != 0) for i in range(16)}


def _files(tmp_path: Path) -> list[str]:
    qrels = write(tmp_path / "qrels", "".join(
        f"{q} 0 r{j} 1\n" for q, (n, _, _) in QUERIES.items() for j in range(n)))
    paths = [str(qrels)]
    for at, name in ((1, "a"), (2, "b")):
        paths.append(str(write(tmp_path / f"{name}.run", "".join(
            f"{q} Q0 {'r0' if row[at] else 'x'} 1 2.0 {name}\n{q} Q0 y 2 1.0 {name}\n"
            for q, row in QUERIES.items()))))
    return paths


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def _bins(n: int) -> str:  # --segment-edges 2,4: the range holding n, written here
    return "<2" if n < 2 else "2-3" if n < 4 else ">=4"


def test_evaluate_groups_by_relevant_judgments(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    files = _files(tmp_path)
    out = run(["evaluate", *files, "-m", "P@1", "--segments", "derived:relevant",
               "--segment-edges", "2,4", "-f", "csv"], capsys)
    assert out.code == 0, out.err
    got = {(r["group"], r["run"]): (int(r["n"]), float(r["mean"])) for r in _rows(out.out)}
    want = {}
    for at, run_name in ((1, "a"), (2, "b")):
        for group in ("<2", "2-3", ">=4"):
            hits = [row[at] for row in QUERIES.values() if _bins(row[0]) == group]
            want[(group, run_name)] = (len(hits), float(np.mean(hits)))
    assert got == want


def test_compare_groups_equal_segments_of_derived_groups(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = _files(tmp_path)
    out = run(["compare", *files, "-m", "P@1", "--baseline", "a", "--segments",
               "derived:relevant", "--segment-edges", "2,4", "-f", "csv"], capsys)
    assert out.code == 0, out.err
    cmp = ranklens.compare(files[0], {"a": files[1], "b": files[2]}, ["P@1"], baseline="a")
    seg = ranklens.segments(cmp, ranklens.derived_groups("relevant", files[0], edges=[2, 4]))
    rows = _rows(out.out)
    assert [r["group"] for r in rows] == seg.pairs["group"].to_list()
    assert [float(r["p_adjusted"]) for r in rows] == pytest.approx(
        seg.pairs["p_adjusted"].to_list())


def test_training_interactions_and_query_length(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    files = _files(tmp_path)
    train = write(tmp_path / "train.tsv", "user_id\titem_id\n" + "".join(
        f"q{i}\titem{k}\n" for i in range(8) for k in range(i)))
    out = run(["evaluate", *files[:2], "-m", "P@1", "--segments", "derived:train",
               "--train", str(train), "--segment-edges", "1,4", "-f", "csv"], capsys)
    assert out.code == 0, out.err
    # q0 and q8..q15 have no interaction (cold start: <1), q1..q3 1-3, q4..q7 >=4
    assert {r["group"]: int(r["n"]) for r in _rows(out.out)} == {"1-3": 3, ">=4": 4, "<1": 9}
    texts = write(tmp_path / "queries.tsv", "".join(
        f"{q}\t{' '.join(['word'] * (1 + i % 3))}\n" for i, q in enumerate(QUERIES)))
    out = run(["evaluate", *files[:2], "-m", "P@1", "--segments",
               f"derived:query_length:{texts}", "--segment-edges", "2", "-f", "csv"], capsys)
    assert out.code == 0, out.err
    assert {r["group"]: int(r["n"]) for r in _rows(out.out)} == {"<2": 6, ">=2": 10}


def test_report_draws_derived_segments(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    files = _files(tmp_path)
    page = tmp_path / "r.html"
    out = run(["report", *files, "-m", "P@1", "--max-k", "2", "--segments",
               "derived:relevant", "--segment-edges", "2,4", "-o", str(page)], capsys)
    assert out.code == 0, out.err
    html = page.read_text("utf-8")
    assert 'id="chart-segments-means"' in html and '"group":"2-3"' in html


@pytest.mark.parametrize(("args", "message"), [
    (["--segments", "derived:bogus"], "expected derived:relevant, derived:train or "),
    (["--segments", "derived:query_length"], "derived:query_length:FILE"),
    (["--segments", "derived:query_length:nowhere.tsv"], "no such file nowhere.tsv"),
    (["--segments", "derived:train"], "give --train FILE"),
    (["--segments", "nowhere.txt"], "--segments nowhere.txt: no such file"),
    (["--segment-edges", "2"], "--segment-edges bins a derived count"),
    (["--segments", "derived:relevant", "--segment-edges", "4,2"], "got 4,2"),
    (["--segments", "derived:relevant", "--segment-edges", "two"], "increasing integers"),
])
@pytest.mark.parametrize("command", ["evaluate", "compare", "report"])
def test_bad_segments_exit_2_in_one_line(command: str, args: list[str], message: str,
                                         tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    files = _files(tmp_path)
    out = run([command, *files, "-m", "P@1", *args,
               *(["-o", str(tmp_path / "r.html")] if command == "report" else [])], capsys)
    assert out.code == 2
    assert message in one_error(out.err)
    assert not (tmp_path / "r.html").exists()


def test_derived_groups_need_qrels(capsys: pytest.CaptureFixture[str]) -> None:
    rag = Path(__file__).resolve().parents[2] / "src" / "ranklens" / "data" / "rag_example.jsonl"
    out = run(["evaluate", "--pairs", str(rag), "-m", "RR", "--segments", "derived:relevant"],
              capsys)
    assert out.code == 2
    assert "reads QRELS; not with --pairs" in one_error(out.err)


def test_no_command_writes_over_its_groups_file(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    files = _files(tmp_path)
    groups = write(tmp_path / "groups.tsv", "".join(f"{q}\tg{i % 2}\n"
                                                    for i, q in enumerate(QUERIES)))
    lengths = write(tmp_path / "topics.tsv", "".join(f"{q}\tone two\n" for q in QUERIES))
    before = {p: p.read_bytes() for p in (groups, lengths)}
    for command, segments, extra in (("evaluate", str(groups), []),
                                     ("compare", str(groups), []),
                                     ("compare", f"derived:query_length:{lengths}", []),
                                     ("report", str(groups), []),
                                     ("compare", "derived:relevant", ["--seeds"])):
        target = lengths if "query_length" in segments or extra else groups
        seeds = [str(target)] if extra else []
        out = run([command, *files, "--segments", segments, *extra, *seeds,
                   "-o", str(target)], capsys)
        assert out.code == 2, (command, segments, out.err)
        assert f"-o {target} is one of the input files" in one_error(out.err)
    assert {p: p.read_bytes() for p in before} == before
