"""The one tokenizer of TREC-style files (``ranklens._ingest.io._lines``)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from ranklens._base.errors import InputError
from ranklens._ingest.io import _lines
from ranklens._ingest.io._lines import c_atof, c_atol, check_text, data_lines, strict_int
from ranklens._surfaces.trec_eval import trec_eval


def test_blank_and_comment_lines_are_skipped_with_their_numbers_kept() -> None:
    data = b"# header\n\nq1 0 d1 1\r\n  \t\nq1\t0  d2\x0b0\n#q2 0 d3 1\n"
    assert list(data_lines(data, "f", 4, "query iter doc relevance")) == [
        (3, ["q1", "0", "d1", "1"]), (5, ["q1", "0", "d2", "0"])]


def test_only_ascii_blanks_and_newlines_split() -> None:
    # a no-break space and U+2028 are data, as in trec_eval's C parser
    data = "q1 0 d\u00a01 1\nq1 0 d\u20282 0\n".encode()
    assert [f[2] for _, f in data_lines(data, "f", 4, "x")] == ["d\u00a01", "d\u20282"]


@pytest.mark.parametrize(("fields", "want"), [(4, "expected 4 fields"),
                                              ((5, None), "expected at least 5 fields"),
                                              ((2, 3), "expected 2 to 3 fields")])
def test_a_wrong_line_names_file_line_expected_and_found(fields: int | tuple[int, int | None],
                                                         want: str) -> None:
    with pytest.raises(InputError) as info:
        list(data_lines(b"a b c d\n\na b c d e f g h\n", "run.txt", fields, "the layout"))
    assert info.value.source == "run.txt"
    line, found = (3, 8) if fields == 4 else (1, 4)
    assert info.value.line == line
    assert str(info.value) == f"run.txt:{line}: {want} (the layout), got {found}"


def test_invalid_utf8_names_its_line() -> None:
    with pytest.raises(InputError, match=r"^f:2: invalid UTF-8 text$"):
        list(data_lines(b"a b\nc \xff\n", "f", 2, "x"))


def test_empty_and_binary_text_are_refused() -> None:
    with pytest.raises(InputError, match=r"^z: file is empty, expected zscore lines$"):
        check_text(b" \n\n", "z", "zscore lines")
    with pytest.raises(InputError, match="binary data"):
        check_text(b"a\x00b", "z")


def test_numbers_strict_and_as_c_reads_them() -> None:
    assert strict_int("-12") == -12
    for bad in ("1_0", "1.0", "\u0661"):
        with pytest.raises(ValueError):
            strict_int(bad)
    assert (c_atol("12abc"), c_atol("x"), c_atol(" -3")) == (12, 0, -3)
    assert (c_atof(".5,"), c_atof("2e1x"), c_atof("abc")) == (0.5, 20.0, 0.0)


def test_docstring_examples_run() -> None:
    failed, tried = doctest.testmod(_lines)
    assert tried and not failed


@pytest.mark.parametrize(("judgments", "text", "want"), [
    ("prefs", "q1 u1 s1 A 2\nq1 u1 A 1\n",
     "expected 5 fields (query jg jsg doc relevance), got 4"),
    ("qrels_prefs", "q1 0 A 1\nq1 0 A 1 x\n", "expected 4 fields (query jg doc relevance), got 5"),
    ("qrels_jg", "# c\nq1 g1 A\n", "expected 4 fields (query jg doc relevance), got 3"),
])
def test_every_trec_file_reports_file_and_line(tmp_path: Path, judgments: str, text: str,
                                               want: str) -> None:
    path = tmp_path / "judgments"
    path.write_text(text)
    with pytest.raises(InputError) as info:
        trec_eval(path, {"q1": {"A": 1.0}}, "all_prefs" if "prefs" in judgments else "qrels_jg",
                  judgments=judgments)  # type: ignore[arg-type]
    assert (info.value.source, info.value.line) == (str(path), 2)
    assert info.value.detail == want
