"""The TREC qrels reader's typed pass (and its blocks) against the plain line parser.

The typed pass reads a plain file a block of whole lines at a time with integer grades and
no iter column kept; every file it cannot take cleanly goes to the general path. Both must
give the line parser's rows, and the judgment index built on them must not depend on which
path read them.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

from ranklens import InputError, load_qrels
from ranklens._ingest.io.trec import files, small, tokens
from ranklens._ingest.io.trec import qrels as trec_qrels
from ranklens._model.matching import qrels_index


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks of a few lines, so every test file spans many of them."""
    monkeypatch.setattr(files, "BLOCK", 80)
    # these files are small: without this the polars-free small-file reader would take them
    monkeypatch.setattr(small, "SMALL_BYTES", -1)


def _line_parser_rows(path: Path) -> list[tuple[str, str, float]]:
    cols = tokens.line_qrels(path.read_bytes(), str(path))
    return list(zip(cols["query_id"], cols["doc_id"], cols["relevance"], strict=True))


def _qrels_text(seed: int, *, extras: bool, sep: str = " ") -> str:
    rng = np.random.default_rng(seed)
    lines = []
    for q in rng.permutation(12):
        for d in rng.choice(500, size=int(rng.integers(1, 25)), replace=False):
            grade = int(rng.integers(-1, 4))
            lines.append(sep.join((f"q{q}", "0", f"doc-{d}#{q}", str(grade))))
            if extras and rng.random() < 0.05:
                lines.append("" if rng.random() < 0.5 else "# a comment line")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("extras", [False, True])
@pytest.mark.parametrize("sep", [" ", "\t"])
def test_blocks_read_like_the_line_parser(tmp_path: Path, small_blocks: None, seed: int,
                                          extras: bool, sep: str) -> None:
    path = tmp_path / "qrels.txt"
    path.write_text(_qrels_text(seed, extras=extras, sep=sep))
    qrels = load_qrels(path)
    assert list(qrels.frame.iter_rows()) == _line_parser_rows(path)


def test_typed_pass_takes_a_regular_file_in_blocks(tmp_path: Path, small_blocks: None,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "qrels.txt"
    path.write_text(_qrels_text(7, extras=False))
    expected = _line_parser_rows(path)
    # the general path is not reached for a regular file: it would fail this test
    monkeypatch.setattr(trec_qrels, "line_qrels", None)
    parsed = []
    typed = trec_qrels.scan_qrels
    monkeypatch.setattr(trec_qrels, "scan_qrels", lambda *a: parsed.append(1) or typed(*a))
    qrels = trec_qrels.read_trec_qrels(path)
    assert len(parsed) > 1  # read in several blocks
    assert qrels.frame.rows() == expected
    assert qrels.frame.schema == {"query_id": pl.String, "doc_id": pl.String,
                                  "relevance": pl.Float64}


@pytest.mark.parametrize("line", [
    "q1 0  d9 1",     # an empty field: a short line to trec_eval
    "q1  0 d9 1",
    " q1 0 d9 1",     # a leading blank: read by the line parser
    "q1 0 d9 1 ",     # a trailing one
    "q1 0 d9 1.0",    # not an integer
    "q1 0 d9 1e2",
    "q1 0 d9 +1",
    "q1 0 d9",        # short
    "q1 0 d9 1 x",    # long
    "q1\t0 d9 1",     # a tab in a space-separated file
    "q1 0 d9 9007199254740993",  # beyond 2**53
    "q1 0 d9 -9223372036854775808",  # int64's least: no absolute value in int64
])
def test_irregular_lines_read_like_the_line_parser(tmp_path: Path, small_blocks: None,
                                                   line: str) -> None:
    good = [f"q1 0 d{i} {i % 3}" for i in range(30)]
    path = tmp_path / "qrels.txt"
    path.write_text("\n".join([*good, line, *good[:5]]) + "\n")
    try:
        expected = _line_parser_rows(path)
    except InputError as exc:
        with pytest.raises(InputError) as err:
            load_qrels(path)
        assert (err.value.line, str(err.value)) == (exc.line, str(exc))
        return
    assert list(load_qrels(path).frame.iter_rows()) == expected


def test_only_comments_in_a_block(tmp_path: Path, small_blocks: None) -> None:
    path = tmp_path / "qrels.txt"
    path.write_text("\n".join(["# header"] * 12 + ["q2 0 b 1", "q1 0 a 2"]) + "\n")
    assert list(load_qrels(path).frame.iter_rows()) == [("q2", "b", 1.0), ("q1", "a", 2.0)]


def test_index_orders_judgments_by_query_then_grade(tmp_path: Path) -> None:
    path = tmp_path / "qrels.txt"
    # queries out of order, grades in every order within them
    path.write_text("qb 0 x 1\nqa 0 y 0\nqb 0 z 3\nqa 0 w 2\nqb 0 v 1\nqa 0 u -1\n")
    index = qrels_index(load_qrels(path))
    assert index.query_ids == ["qa", "qb"]
    assert index.sorted_code.tolist() == [0, 0, 0, 1, 1, 1]
    assert index.sorted_grade.tolist() == [2.0, 0.0, -1.0, 3.0, 1.0, 1.0]
