"""``ranklens compare``'s output: ``--details`` and the rich table on a terminal."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from cli_support import run, run_subprocess

import ranklens

DATA = Path(ranklens.__file__).parent / "data"
QRELS, BM25, DENSE = (str(DATA / f) for f in ("demo.qrels", "demo-bm25.run", "demo-dense.run"))
ARGS = ["compare", QRELS, f"bm25={BM25}", f"dense={DENSE}", "-m", "nDCG@10", "-m", "P@10",
        "--baseline", "bm25"]


def _comparison() -> ranklens.Comparison:
    return ranklens.compare(QRELS, {"bm25": BM25, "dense": DENSE}, ["nDCG@10", "P@10"],
                            baseline="bm25")


@pytest.mark.parametrize("fmt", ["table", "markdown", "latex"])
def test_details_flag(fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = run([*ARGS, "-f", fmt, "--details"], capsys)
    assert out.code == 0, out.err
    assert out.out == _comparison().render(fmt, details=True)
    pair = _comparison().pair("P@10", "dense", "bm25")
    assert f"{pair.wins}/{pair.ties}/{pair.losses}" in out.out


def test_details_to_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "out.md"
    out = run([*ARGS, "-f", "markdown", "--details", "-o", str(target)], capsys)
    assert out.code == 0 and out.out == ""
    assert target.read_text() == _comparison().render("markdown", details=True)


def test_rich_table_on_a_terminal(monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    plain = _comparison().render("table")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    out = run(ARGS, capsys)
    assert out.code == 0, out.err
    assert out.out != plain
    assert "\u2503" in out.out or "\u2502" in out.out  # rich's box, not plain text
    assert "0.4" in out.out and "\u25b2" in out.out and "Holm" in out.out
    monkeypatch.setenv("COLUMNS", "160")  # the detail table's 11 columns on one line
    details = run([*ARGS, "--details"], capsys)
    assert "W/T/L" in details.out and "\u2502" in details.out


def test_no_rich_table_to_a_file_or_another_format(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert run([*ARGS, "-f", "markdown"], capsys).out == _comparison().render("markdown")
    target = tmp_path / "out.txt"
    assert run([*ARGS, "-o", str(target)], capsys).out == ""
    assert target.read_text() == _comparison().render("table")


def test_docs_details_example_is_current() -> None:
    """docs/compare.md shows ``--details`` output verbatim (run where the demo files are)."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "compare.md").read_text("utf-8")
    block = doc.split("<!-- compare-details-table")[1].split("```text\n", 1)[1].split("```")[0]
    proc = run_subprocess(["compare", "demo.qrels", "demo-bm25.run", "demo-dense.run", "-m",
                           "nDCG@10", "-m", "AP", "--baseline", "demo-bm25", "--details"],
                          cwd=DATA)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode("utf-8") == block
