"""Fuzzing of the readers (hypothesis): random bytes and structured mutations of valid qrels,
runs, CSV, Parquet, JSON Lines and id-list pairs.

Each property: evaluation of the data either equals a reference reading of the same data
(the tables built directly from what was generated, evaluated as dicts), or raises a
ranklens :class:`~ranklens.InputError` naming the file (and the line, where a line was
damaged); never another exception, never a hang (every example runs under an alarm).

CI runs the small ``ci`` profile; ``RANKLENS_FUZZ=local`` runs many more examples.
"""

from __future__ import annotations

import json
import math
import os
import signal
import tempfile
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ranklens
from ranklens import InputError, RanklensWarning

settings.register_profile(
    "ranklens-ci", max_examples=25, deadline=None, derandomize=True, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile(
    "ranklens-local", max_examples=1500, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PROFILE = settings.get_profile(
    "ranklens-local" if os.environ.get("RANKLENS_FUZZ") == "local" else "ranklens-ci")

MEASURES = ["P@2", "AP", "nDCG@3", "RR", "R@5"]
SECONDS = 20  # one example taking longer is a hang


class Hang(Exception):
    pass


@contextmanager
def alarm(seconds: int = SECONDS) -> Iterator[None]:
    """Raise :class:`Hang` if the block runs longer than ``seconds``."""
    def expire(signum: int, frame: Any) -> None:
        raise Hang(f"no answer after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@contextmanager
def folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as name:
        yield Path(name)


@contextmanager
def quiet() -> Iterator[None]:
    """The policies' warnings are expected here: only errors are under test."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        yield


# -- generated valid data ---------------------------------------------------------------------

ID = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:/",
             min_size=1, max_size=8).filter(lambda s: not s.startswith("#"))
GRADE = st.integers(min_value=-1, max_value=4)
SCORE = st.one_of(st.integers(-1000, 1000).map(float),
                  st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False))


@st.composite
def tables(draw: st.DrawFn) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, float]]]:
    """Judgments and a run sharing queries and documents (unique per query)."""
    queries = draw(st.lists(ID, min_size=1, max_size=4, unique=True))
    docs = draw(st.lists(ID, min_size=1, max_size=8, unique=True))
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in queries:
        judged = draw(st.lists(st.sampled_from(docs), min_size=1, max_size=6, unique=True))
        qrels[q] = {d: draw(GRADE) for d in judged}
        ranked = draw(st.lists(st.sampled_from(docs), min_size=1, max_size=8, unique=True))
        run[q] = {d: draw(SCORE) for d in ranked}
    return qrels, run


def _score_text(x: float) -> str:
    return repr(x) if not x.is_integer() else str(int(x))


@st.composite
def trec_texts(draw: st.DrawFn) -> tuple[dict, dict, bytes, bytes]:
    """Valid tables, written as TREC files with any blanks, line ends, BOM, comments."""
    qrels, run = draw(tables())
    blank = draw(st.sampled_from([" ", "\t", "  ", " \t", "\t\t"]))
    end = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    bom = draw(st.sampled_from(["", "\ufeff"]))

    def lines(rows: list[list[str]]) -> bytes:
        out = []
        for fields in rows:
            if draw(st.integers(0, 9)) == 0:
                out.append(draw(st.sampled_from(["", "# a comment", "   "])))
            out.append(blank.join(fields))
        return (bom + end.join(out) + draw(st.sampled_from([end, ""]))).encode()

    qrows = [[q, "0", d, str(g)] for q, docs in qrels.items() for d, g in docs.items()]
    rrows = [[q, "Q0", d, str(i), _score_text(s), "tag"]
             for q, docs in run.items() for i, (d, s) in enumerate(docs.items(), 1)]
    return qrels, run, lines(qrows), lines(rrows)


def per_query(qrels: Any, run: Any) -> dict[str, dict[str, float]]:
    """Every measure's value per query (and ``*``, the aggregates: no generated id has a
    ``*``, while ``all``, the default key, is an id hypothesis draws)."""
    with quiet():
        return ranklens.evaluate(qrels, run, MEASURES).to_dict(aggregate_key="*")


reference = per_query  # given the generated tables as dicts


def same(a: dict, b: dict) -> bool:
    if a.keys() != b.keys():
        return False
    for q in a:
        for m in a[q]:
            x, y = a[q][m], b[q][m]
            if not (x == y or (math.isnan(x) and math.isnan(y)) or math.isclose(x, y)):
                return False
    return True


# -- valid data: equal to the reference reading -----------------------------------------------

@PROFILE
@given(trec_texts())
def test_trec_files_equal_the_reference_reading(data: tuple[dict, dict, bytes, bytes]) -> None:
    qrels, run, qtext, rtext = data
    with folder() as d, alarm():
        (d / "q").write_bytes(qtext)
        (d / "r").write_bytes(rtext)
        assert same(per_query(str(d / "q"), str(d / "r")), reference(qrels, run))


@PROFILE
@given(tables(), st.sampled_from(["csv", "tsv", "parquet", "jsonl"]))
def test_columnar_files_equal_the_reference_reading(data: tuple[dict, dict], kind: str) -> None:
    import polars as pl

    qrels, run = data
    qf = pl.DataFrame([(q, d, g) for q, docs in qrels.items() for d, g in docs.items()],
                      schema=["query_id", "doc_id", "relevance"], orient="row")
    rf = pl.DataFrame([(q, d, s) for q, docs in run.items() for d, s in docs.items()],
                      schema=["query_id", "doc_id", "score"], orient="row")
    with folder() as d, alarm():
        for name, frame in (("q", qf), ("r", rf)):
            path = d / f"{name}.{kind}"
            if kind == "parquet":
                frame.write_parquet(path)
            elif kind == "jsonl":
                frame.write_ndjson(path)
            else:
                frame.write_csv(path, separator="\t" if kind == "tsv" else ",")
        got = per_query(str(d / f"q.{kind}"), str(d / f"r.{kind}"))
        assert same(got, reference(qrels, run))


@PROFILE
@given(tables())
def test_pairs_equal_the_reference_reading(data: tuple[dict, dict]) -> None:
    qrels, run = data
    ranked = {q: sorted(docs, key=lambda doc: -docs[doc]) for q, docs in run.items()}
    gold = {q: {d: g for d, g in docs.items()} for q, docs in qrels.items()}
    # the id lists' ranking is the list order: the reference run scores it so
    as_run = {q: {doc: float(len(ids) - i) for i, doc in enumerate(ids)}
              for q, ids in ranked.items()}
    want = reference(gold, as_run)
    with alarm():
        assert same(per_query(*ranklens.from_pairs(gold, ranked)), want)
        with folder() as d:
            path = d / "rag.jsonl"
            path.write_text("".join(json.dumps({"query_id": q, "retrieved": ranked[q],
                                                "relevant": gold[q]}) + "\n" for q in gold))
            assert same(per_query(*ranklens.load_pairs(str(path))), want)


# -- damaged data: the same numbers or an InputError naming file and line ---------------------

def _outcome(load: Any, path: Path, damaged_line: int | None = None) -> Any:
    """``load()``'s value, or None after an InputError naming ``path`` (and, when the damage
    is on one line, either no line or that line). Anything else fails the test."""
    try:
        with alarm(), quiet():
            return load()
    except InputError as exc:
        assert exc.source == str(path), f"{exc!r} does not name {path}"
        if damaged_line is not None and exc.line is not None:
            assert exc.line == damaged_line, f"{exc!r}: expected line {damaged_line}"
        return None


@PROFILE
@given(st.binary(max_size=300),
       st.sampled_from(["qrels", "run", "q.csv", "r.tsv", "q.jsonl", "r.parquet", "rag.jsonl"]))
def test_random_bytes_load_or_raise_an_input_error(data: bytes, name: str) -> None:
    with folder() as d:
        path = d / name
        path.write_bytes(data)
        if name == "rag.jsonl":
            _outcome(lambda: ranklens.load_pairs(str(path)), path)
        elif name.startswith("q"):
            _outcome(lambda: ranklens.load_qrels(str(path)), path)
        else:
            _outcome(lambda: ranklens.load_run(str(path)), path)


DAMAGE = st.sampled_from(["drop_field", "extra_field", "byte", "text_number", "empty_field",
                          "huge_number", "nul", "bad_utf8"])


def _damaged(line: bytes, how: str, where: int, byte: int) -> bytes:
    fields = line.split(b" ")
    i = where % len(fields)
    if how == "drop_field":
        del fields[i]
    elif how == "extra_field":
        fields.insert(i, b"x")
    elif how == "byte":
        pos = where % (len(line) + 1)
        return line[:pos] + bytes([byte]) + line[pos:]
    elif how == "text_number":
        fields[-1 if len(fields) == 4 else 4] = b"many"
    elif how == "empty_field":
        fields[i] = b""
    elif how == "huge_number":
        fields[3 if len(fields) == 4 else 4] = b"9" * 400
    elif how == "nul":
        fields[i] += b"\x00"
    else:
        fields[i] += b"\xff\xfe"
    return b" ".join(fields)


def _damaged_lines(data: tuple[dict, dict], which: str, how: str, where: int,
                   byte: int) -> tuple[list[bytes], int]:
    """The qrels or run of ``data`` as TREC lines, one of them damaged; and its index."""
    qrels, run = data
    rows = ([f"{q} 0 {d} {g}" for q, docs in qrels.items() for d, g in docs.items()]
            if which == "qrels" else
            [f"{q} Q0 {d} {i} {_score_text(s)} tag"
             for q, docs in run.items() for i, (d, s) in enumerate(docs.items(), 1)])
    lines = [r.encode() for r in rows]
    at = where % len(lines)
    lines[at] = _damaged(lines[at], how, where, byte)
    return lines, at


@PROFILE
@given(tables(), st.sampled_from(["qrels", "run"]), DAMAGE, st.integers(0, 1000),
       st.integers(0, 255))
def test_a_damaged_trec_line_is_read_or_named(data: tuple[dict, dict], which: str, how: str,
                                             where: int, byte: int) -> None:
    lines, at = _damaged_lines(data, which, how, where, byte)
    with folder() as d:
        path = d / which
        path.write_bytes(b"\n".join(lines) + b"\n")
        load = ranklens.load_qrels if which == "qrels" else ranklens.load_run
        line = None if how == "nul" else at + 1  # NUL: "binary data", a file-wide finding
        _outcome(lambda: load(str(path)), path, line)


@PROFILE
@given(tables(), st.sampled_from(["csv", "jsonl"]), st.integers(0, 10_000),
       st.sampled_from([b",", b"\"", b"{", b"}", b"x", b"\n", b"\xff", b" ", b"1e999"]))
def test_a_damaged_csv_or_jsonl_file_is_read_or_named(data: tuple[dict, dict], kind: str,
                                                      where: int, junk: bytes) -> None:
    import polars as pl

    qrels, _ = data
    frame = pl.DataFrame([(q, d, g) for q, docs in qrels.items() for d, g in docs.items()],
                         schema=["query_id", "doc_id", "relevance"], orient="row")
    with folder() as d:
        path = d / f"q.{kind}"
        if kind == "csv":
            frame.write_csv(path)
        else:
            frame.write_ndjson(path)
        text = path.read_bytes()
        pos = where % (len(text) + 1)
        path.write_bytes(text[:pos] + junk + text[pos:])
        _outcome(lambda: ranklens.load_qrels(str(path)), path)


JSON_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                max_size=3),
    max_leaves=6)


@PROFILE
@given(st.lists(st.fixed_dictionaries(
    {"query_id": JSON_VALUE | ID, "retrieved": JSON_VALUE | st.lists(ID, max_size=4),
     "relevant": JSON_VALUE | st.dictionaries(ID, JSON_VALUE, max_size=3)}),
    min_size=1, max_size=4))
def test_odd_pairs_records_load_or_raise_an_input_error(records: list[dict]) -> None:
    with folder() as d:
        path = d / "rag.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
        _outcome(lambda: ranklens.load_pairs(str(path)), path)
    try:
        with alarm(), quiet():
            ranklens.load_pairs(records)
    except InputError as exc:
        assert exc.source == "<records>"


@PROFILE
@given(st.lists(st.lists(st.one_of(st.integers(-5, 5), st.floats(allow_nan=True),
                                   st.just(10**30)), max_size=4), min_size=1, max_size=3))
def test_odd_label_matrices_evaluate_or_raise_a_ranklens_error(rows: list[list[Any]]) -> None:
    try:
        with alarm(), quiet():
            ranklens.evaluate_arrays(rows, ["P@2", "nDCG@3"])
    except ranklens.RanklensError:
        pass


@pytest.mark.parametrize("junk", [b"\x1f\x8b", b"BZh9", b"\xfd7zXZ\x00", b"BZh91AY&SY"])
def test_a_broken_compressed_file_is_named(tmp_path: Path, junk: bytes) -> None:
    path = tmp_path / "q"
    path.write_bytes(junk + b"garbage")
    if junk == b"BZh9":  # no bzip2 block magic: text, read as such
        with pytest.raises(InputError, match="expected 4 fields"):
            ranklens.load_qrels(str(path))
        return
    with pytest.raises(InputError, match=r"corrupt compressed data"):
        ranklens.load_qrels(str(path))


@PROFILE
@given(st.binary(max_size=200), st.sampled_from(["qrels", "run"]))
def test_the_command_line_answers_random_bytes_in_one_line(data: bytes, which: str) -> None:
    import contextlib
    import io

    from ranklens.cli import main

    with folder() as d:
        (d / "qrels").write_text("q1 0 d1 1\nq1 0 d2 0\n")
        (d / "run").write_text("q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 t\n")
        (d / which).write_bytes(data)
        err, out = io.StringIO(), io.StringIO()
        with (alarm(), contextlib.redirect_stderr(err), contextlib.redirect_stdout(out),
              pytest.raises(SystemExit) as exc):
            main(["evaluate", str(d / "qrels"), str(d / "run"), "-m", "P@1", "-f", "csv"])
        lines = [x for x in err.getvalue().splitlines() if not x.startswith("ranklens: warning")]
        if exc.value.code == 0:
            assert lines == [] and out.getvalue().startswith("run,query,P@1")
        else:
            assert exc.value.code == 2
            assert len(lines) == 1 and lines[0].startswith("ranklens: error: ")
            assert "unexpected" not in lines[0]


# -- the small-file reader (ranklens._ingest.io.trec.small): the same table or the same error --

@contextmanager
def without_small_reader() -> Iterator[None]:
    """Files of any size read by the polars path (the small reader's size limit at -1)."""
    from ranklens._ingest.io.trec import small

    limit = small.SMALL_BYTES
    small.SMALL_BYTES = -1
    try:
        yield
    finally:
        small.SMALL_BYTES = limit


def _reading(read: Any) -> tuple[str, Any]:
    """``read()``'s table as comparable values, or its InputError's words and place."""
    try:
        with alarm(), quiet():
            table = read()
    except InputError as exc:
        return "error", (str(exc), exc.source, exc.line)
    if isinstance(table, ranklens.Run):
        return "run", (table.frame.drop("order").to_dicts(), table.name, len(table))
    return "qrels", (table.frame.to_dicts(), table.frame.schema)


def both_readers(path: Path, which: str) -> tuple[tuple[str, Any], tuple[str, Any]]:
    """The reading of ``path`` by the small reader's dispatch and by the polars path."""
    from ranklens._ingest.io.trec.qrels import read_trec_qrels
    from ranklens._ingest.io.trec.run import read_trec_run

    read = read_trec_qrels if which == "qrels" else read_trec_run
    small = _reading(lambda: read(str(path)))
    with without_small_reader():
        large = _reading(lambda: read(str(path)))
    return small, large


@PROFILE
@given(trec_texts())
def test_the_small_reader_equals_the_polars_path(data: tuple[dict, dict, bytes, bytes]) -> None:
    from ranklens._ingest.io.trec.files import read_bytes
    from ranklens._ingest.io.trec.small import read_small_qrels, read_small_run

    _, _, qtext, rtext = data
    with folder() as d:
        for which, text in (("qrels", qtext), ("run", rtext)):
            path = d / which
            path.write_bytes(text)
            small, large = both_readers(path, which)
            assert small == large
            assert small[0] == which
            if b"#" not in text:  # no comment line: regular, taken by the small reader
                read = read_small_qrels if which == "qrels" else read_small_run
                assert read(read_bytes(path), str(path)) is not None


@PROFILE
@given(tables(), st.sampled_from(["qrels", "run"]), DAMAGE, st.integers(0, 1000),
       st.integers(0, 255))
def test_the_small_reader_equals_the_polars_path_on_damaged_lines(
        data: tuple[dict, dict], which: str, how: str, where: int, byte: int) -> None:
    lines, _ = _damaged_lines(data, which, how, where, byte)
    with folder() as d:
        path = d / which
        path.write_bytes(b"\n".join(lines) + b"\n")
        small, large = both_readers(path, which)
        assert small == large


@PROFILE
@given(st.binary(max_size=300), st.sampled_from(["qrels", "run"]))
def test_the_small_reader_equals_the_polars_path_on_random_bytes(data: bytes,
                                                                 which: str) -> None:
    with folder() as d:
        path = d / which
        path.write_bytes(data)
        small, large = both_readers(path, which)
        assert small == large
