"""The small-file reader (``ranklens._ingest.io.trec.small``): which files it takes, and
that what it reads equals the polars path's reading, table for table and error for error.

The hypothesis properties over generated and damaged files are in tests/fuzz/test_fuzz.py; these
are the cases chosen by hand, each at a boundary of the reader's rules.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_fuzz import both_readers

import ranklens
from ranklens._ingest.io.trec import small as small_reader
from ranklens._ingest.io.trec.files import read_bytes

QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 2\n"
RUN = "q1 Q0 d1 1 2.5 tag\nq1 Q0 d2 2 1 tag\nq2 Q0 d1 1 -0.5 last\n"


def _taken(tmp_path: Path, which: str, text: bytes) -> bool:
    """Whether the small reader reads ``text`` itself (rather than handing it over)."""
    path = tmp_path / which
    path.write_bytes(text)
    read = small_reader.read_small_qrels if which == "qrels" else small_reader.read_small_run
    return read(read_bytes(path), str(path)) is not None


def test_a_regular_qrels_file_is_read_here(tmp_path: Path) -> None:
    path = tmp_path / "qrels"
    path.write_text(QRELS)
    q = small_reader.read_small_qrels(read_bytes(path), str(path))
    assert q is not None
    assert q.frame.to_dict(as_series=False) == {
        "query_id": ["q1", "q1", "q2"], "doc_id": ["d1", "d2", "d1"],
        "relevance": [1.0, 0.0, 2.0]}
    assert q.source == str(path)


def test_a_regular_run_file_is_read_here(tmp_path: Path) -> None:
    path = tmp_path / "run"
    path.write_text(RUN)
    r = small_reader.read_small_run(read_bytes(path), str(path))
    assert r is not None
    assert r.name == "last"  # the last line's tag, as trec_eval reports it
    assert r.block_ids.to_list() == ["q1", "q2"] and r.block_lengths.tolist() == [2, 1]
    assert r.doc_id.to_list() == ["d1", "d2", "d1"]
    assert r.score.tolist() == [2.5, 1.0, -0.5]
    named = small_reader.read_small_run(read_bytes(path), str(path), "mine")
    assert named is not None and named.name == "mine"


@pytest.mark.parametrize(("which", "text", "taken"), [
    ("qrels", QRELS.replace(" ", "\t"), True),
    ("qrels", QRELS.replace("\n", "\r\n"), True),  # \r is a blank, as in the tokenizer
    ("qrels", "\n\n" + QRELS + "   \n", True),  # blank lines are skipped
    ("qrels", "\ufeff" + QRELS, True),  # the BOM is dropped by read_bytes
    ("qrels", QRELS.replace("\n", "\r"), True),  # classic Mac line ends
    ("qrels", "# judged by hand\n" + QRELS, False),  # a comment: the line parser
    ("qrels", QRELS + "q3 0 d9 +1\n", True),
    ("qrels", QRELS + "q3 0 d9 -1\n", True),
    ("qrels", QRELS + "q3 0 d9 1.0\n", False),  # not an integer: the error is worded there
    ("qrels", QRELS + "q3 0 d9 1_0\n", False),
    ("qrels", QRELS + "q3 0 d9 +\n", False),
    ("qrels", QRELS + "q3 0 d9 9007199254740992\n", False),  # 2**53: 16 digits
    ("qrels", QRELS + "q3 0 d9 9007199254740993\n", False),
    ("qrels", QRELS + "q3 0 d9\n", False),
    ("qrels", QRELS + "q3 0 d9 1 x\n", False),
    ("qrels", QRELS + "q\x1c3 0 d\xa09 1\n", True),  # not ASCII blanks: part of the ids
    ("qrels", QRELS + "q3 0 d\u2028 1\n", True),
    ("qrels", "", False),
    ("qrels", "# only\n", False),
    ("run", RUN.replace(" ", "\t"), True),
    ("run", RUN + "q3 Q0 d9 1 1e999 t\n", True),  # inf, with the loader's warning
    ("run", RUN + "q3 Q0 d9 1 .5 t\n", True),
    ("run", RUN + "q3 Q0 d9 1 5. t\n", True),
    ("run", RUN + "q3 Q0 d9 1 1E-3 t\n", True),
    ("run", RUN + "q3 Q0 d9 1 inf t\n", False),
    ("run", RUN + "q3 Q0 d9 1 nan t\n", False),
    ("run", RUN + "q3 Q0 d9 1 1_0 t\n", False),
    ("run", RUN + "q3 Q0 d9 1 1.2.3 t\n", False),
    ("run", RUN + "q3 Q0 d9 1 e5 t\n", False),
    ("run", RUN + "q3 Q0 d9 1 2.0 t extra\n", False),  # trailing fields: the polars path
    ("run", RUN + "q3 Q0 d9 1 2.0\n", False),
    ("run", RUN + "q3 Q0 d9 x 2.0 t\n", True),  # the rank column is never read
    ("run", RUN + "q3 Q0 d\x009 1 2.0 t\n", False),  # binary data
    ("run", RUN.encode("utf-8").decode("latin-1") + "q3 Q0 d\udcff 1 1 t\n", False),
])
def test_edge_files_read_alike(tmp_path: Path, which: str, text: str, taken: bool) -> None:
    data = text.encode("utf-8", errors="surrogateescape")
    assert _taken(tmp_path, which, data) is taken
    small, large = both_readers(tmp_path / which, which)
    assert small == large


def test_files_above_the_size_limit_go_to_polars(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "run"
    path.write_text(RUN)
    assert small_reader.small_file(path)
    monkeypatch.setattr(small_reader, "SMALL_BYTES", path.stat().st_size - 1)
    assert not small_reader.small_file(path)
    assert not small_reader.small_file("-")  # standard input cannot be read twice
    assert not small_reader.small_file(tmp_path / "absent")
    assert not small_reader.small_file(tmp_path)  # a directory: the loader says so


def test_evaluation_is_the_same_through_either_reader(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text(QRELS)
    r.write_text(RUN)
    small = ranklens.evaluate(str(q), str(r), ["AP", "nDCG@2", "P@1"]).to_dict()
    monkeypatch.setattr(small_reader, "SMALL_BYTES", -1)
    assert ranklens.evaluate(str(q), str(r), ["AP", "nDCG@2", "P@1"]).to_dict() == small
    # q1: d1 (rel 1) first, d2 (0) second; q2: d1 (rel 2) first
    assert small["AP"] == {"q1": 1.0, "q2": 1.0, "all": 1.0}


def test_a_small_compressed_file_of_many_lines_goes_to_polars(tmp_path: Path) -> None:
    import gzip

    text = "".join(f"q{i % 50} 0 d{i} {i % 3}\n" for i in range(40_000)).encode()
    path = tmp_path / "qrels.gz"
    path.write_bytes(gzip.compress(text))
    assert small_reader.small_file(path)  # small on disk ...
    data = read_bytes(path)
    assert len(data) > 2 * small_reader.SMALL_BYTES  # ... but not once decompressed
    assert small_reader.read_small_qrels(data, str(path)) is None
    small, large = both_readers(path, "qrels")
    assert small == large and small[0] == "qrels"
