"""Issue 39: on the command line, the report draws its curves at each measure's own rel."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cli_support import run, write

QRELS = "q1 0 a 2\nq1 0 b 1\nq2 0 c 1\nq2 0 d 2\n"
RUN_A = "q1 Q0 a 1 3.0 A\nq1 Q0 b 2 2.0 A\nq2 Q0 c 1 1.0 A\n"
RUN_B = "q1 Q0 b 1 3.0 B\nq2 Q0 d 1 2.0 B\nq2 Q0 c 2 1.0 B\n"


def _page(tmp_path: Path, capsys: pytest.CaptureFixture[str], *measures: str) -> str:
    files = [str(write(tmp_path / name, text)) for name, text in
             (("qrels.txt", QRELS), ("a.run", RUN_A), ("b.run", RUN_B))]
    out = run(["report", *files, *(a for m in measures for a in ("-m", m)), "--max-k", "3",
               "-o", "-"], capsys)
    assert out.code == 0, out.err
    return out.out


def test_curves_at_the_measures_rel(tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    page = _page(tmp_path, capsys, "AP(rel=2)", "nDCG@10")
    assert re.findall(r"<li>rel: ([^<]*)</li>", page) == [
        "1, AP(rel=2) 2 (curves drawn at rel 2)"]


def test_one_set_of_curves_per_rel(tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    page = _page(tmp_path, capsys, "AP", "P(rel=2)@3")
    assert "curves drawn at rel 1 and 2: one set per level" in page
    assert '"P@k (rel 2)"' in page and '"strokeDash"' in page
