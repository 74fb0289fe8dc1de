"""Input forms: TREC files in their many layouts, compressed files, frames and mappings."""

from __future__ import annotations

import bz2
import gzip
import lzma
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ranklens
from ranklens import Qrels, Run, load_qrels, load_run

COMPRESS: dict[str, Callable[[bytes], bytes]] = {
    "": lambda b: b, ".gz": gzip.compress, ".bz2": bz2.compress, ".xz": lzma.compress,
}


def qrows(q: Qrels) -> list[tuple[str, str, float]]:
    return sorted(q.frame.select("query_id", "doc_id", "relevance").iter_rows())


def rrows(r: Run) -> list[tuple[str, str, float]]:
    """Rows in input order (order matters for ties='input')."""
    return list(r.frame.sort("order").select("query_id", "doc_id", "score").iter_rows())


def _write(tmp_path: Path, name: str, data: bytes | str) -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


QRELS_TEXT = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d#3 2\nq2 0 d4 -1\n"
QRELS_ROWS = [("q1", "d1", 1.0), ("q1", "d2", 0.0), ("q2", "d#3", 2.0), ("q2", "d4", -1.0)]
RUN_TEXT = "q1 Q0 d1 1 1.5 tag\nq1 Q0 d2 2 -0.25 tag\nq2 Q0 d#3 1 1e3 tag\n"
RUN_ROWS = [("q1", "d1", 1.5), ("q1", "d2", -0.25), ("q2", "d#3", 1000.0)]


@pytest.mark.parametrize(
    "transform",
    [
        lambda t: t,
        lambda t: t.replace(" ", "\t"),
        lambda t: t.replace(" ", "   "),
        lambda t: t.replace(" ", " \t "),
        lambda t: t.replace("\n", "\r\n"),
        lambda t: "# a comment\n" + t.replace("\n", "\n\n"),
        lambda t: "  # indented comment\n" + t + "# trailing comment\n",
        lambda t: "\n".join("  " + line + "  " for line in t.splitlines()) + "\n",
        lambda t: t.rstrip("\n"),
    ],
    ids=["spaces", "tabs", "multi-space", "mixed", "crlf", "comments", "indented-comments",
         "padded", "no-final-newline"],
)
def test_trec_layouts(tmp_path: Path, transform: Callable[[str], str]) -> None:
    q = load_qrels(_write(tmp_path, "x.qrels", transform(QRELS_TEXT)))
    r = load_run(_write(tmp_path, "x.run", transform(RUN_TEXT)))
    assert qrows(q) == sorted(QRELS_ROWS)
    assert rrows(r) == RUN_ROWS
    assert r.name == "tag"


@pytest.mark.parametrize("ext", sorted(COMPRESS))
def test_compressed(tmp_path: Path, ext: str) -> None:
    q = load_qrels(_write(tmp_path, "x.qrels" + ext, COMPRESS[ext](QRELS_TEXT.encode())))
    r = load_run(_write(tmp_path, "x.run" + ext, COMPRESS[ext](RUN_TEXT.encode())))
    assert qrows(q) == sorted(QRELS_ROWS)
    assert rrows(r) == RUN_ROWS


def test_compression_detected_by_content(tmp_path: Path) -> None:
    r = load_run(_write(tmp_path, "run.txt", gzip.compress(RUN_TEXT.encode())))
    assert rrows(r) == RUN_ROWS


def test_run_extra_columns_and_tag(tmp_path: Path) -> None:
    text = "q1 Q0 d1 1 1.5 first x y\nq1 Q0 d2 2 -0.25 last z\n"
    r = load_run(_write(tmp_path, "x.run", text))
    assert rrows(r) == [("q1", "d1", 1.5), ("q1", "d2", -0.25)]
    assert r.name == "last"  # trec_eval reports the tag of the last line
    tabbed = load_run(_write(tmp_path, "y.run", text.replace(" ", "\t")))
    assert rrows(tabbed) == rrows(r)


def test_run_name_override(tmp_path: Path) -> None:
    path = _write(tmp_path, "x.run", RUN_TEXT)
    assert load_run(path, name="mine").name == "mine"
    res = ranklens.evaluate(_write(tmp_path, "x.qrels", QRELS_TEXT), path, ["AP"],
                            run_name="other")
    assert res.run_name == "other"


def test_hash_inside_doc_id_is_data(tmp_path: Path) -> None:
    qrels = _write(tmp_path, "x.qrels", "q1 0 msmarco_doc_00_0#4_1 1\n#q1 0 skipped 1\n")
    run = _write(tmp_path, "x.run", "q1 Q0 msmarco_doc_00_0#4_1 1 1.0 t\n")
    assert qrows(load_qrels(qrels)) == [("q1", "msmarco_doc_00_0#4_1", 1.0)]
    assert ranklens.evaluate(qrels, run, ["AP"])["AP"] == 1.0


def test_path_and_string_equivalent(tmp_path: Path) -> None:
    path = _write(tmp_path, "x.qrels", QRELS_TEXT)
    assert qrows(load_qrels(path)) == qrows(load_qrels(str(path)))


# -- random TREC files: the fast reader and the line parser agree with the data ----------------

_ID = st.text(st.characters(min_codepoint=33, max_codepoint=0x2FF, blacklist_characters="#"),
              min_size=1, max_size=6)
_SCORE = st.floats(allow_nan=False, allow_infinity=False, width=64)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(
    rows=st.lists(st.tuples(_ID, _ID, _SCORE, st.integers(-2, 4)), min_size=1, max_size=30),
    sep=st.sampled_from([" ", "\t", "  ", " \t"]),
    eol=st.sampled_from(["\n", "\r\n"]),
    ext=st.sampled_from(sorted(COMPRESS)),
)
def test_random_trec_files(tmp_path: Path, rows: list, sep: str, eol: str, ext: str) -> None:
    run_text = eol.join(sep.join([q, "Q0", d, str(i), repr(s), "t"])
                        for i, (q, d, s, _) in enumerate(rows)) + eol
    qrels_text = eol.join(sep.join([q, "0", d, str(g)]) for q, d, _, g in rows) + eol
    r = load_run(_write(tmp_path, "r.run" + ext, COMPRESS[ext](run_text.encode())))
    q = load_qrels(_write(tmp_path, "r.qrels" + ext, COMPRESS[ext](qrels_text.encode())))
    assert rrows(r) == [(a, b, float(s)) for a, b, s, _ in rows]
    assert qrows(q) == sorted((a, b, float(g)) for a, b, _, g in rows)


# -- in-memory forms ----------------------------------------------------------------------------

QRELS = {"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 2, "d4": -1}}
RUN = {"q1": {"d1": 1.5, "d2": -0.25}, "q2": {"d3": 1000.0, "d9": 3.0}}


def _long(mapping: dict) -> tuple[list, list, list]:
    qs, ds, vs = [], [], []
    for q, docs in mapping.items():
        for d, v in docs.items():
            qs.append(q)
            ds.append(d)
            vs.append(v)
    return qs, ds, vs


@pytest.mark.parametrize(
    ("qcols", "rcols"),
    [
        (("query_id", "doc_id", "relevance"), ("query_id", "doc_id", "score")),
        (("qid", "docno", "label"), ("qid", "docno", "score")),
        (("topic", "docid", "rel"), ("topic", "docid", "sim")),
        (("user_id", "item_id", "rating_ignored", "grade"), ("user_id", "item_id", "pred")),
        (("QID", "DocNo", "Relevance"), ("QID", "DocNo", "Score")),
    ],
)
@pytest.mark.parametrize("lib", ["polars", "pandas"])
def test_frames_with_aliases(lib: str, qcols: tuple[str, ...], rcols: tuple[str, ...]) -> None:
    mod = pytest.importorskip(lib)
    qs, ds, vs = _long(QRELS)
    qdata = {qcols[0]: qs, qcols[1]: ds, qcols[-1]: vs}
    if len(qcols) == 4:
        qdata[qcols[2]] = [9] * len(qs)  # an unrelated column is ignored
    rq, rd, rv = _long(RUN)
    rdata = {rcols[0]: rq, rcols[1]: rd, rcols[-1]: rv}
    qframe, rframe = mod.DataFrame(qdata), mod.DataFrame(rdata)
    assert qrows(load_qrels(qframe)) == qrows(load_qrels(QRELS))
    assert rrows(load_run(rframe)) == rrows(load_run(RUN))
    names = ["AP", "nDCG@5", "P@1", "NumRet"]
    assert dict(ranklens.evaluate(qframe, rframe, names)) == dict(
        ranklens.evaluate(QRELS, RUN, names))


def test_lazy_frame_and_arrow() -> None:
    pl = pytest.importorskip("polars")
    qs, ds, vs = _long(QRELS)
    lazy = pl.DataFrame({"qid": qs, "docno": ds, "rel": vs}).lazy()
    assert qrows(load_qrels(lazy)) == qrows(load_qrels(QRELS))
    pa = pytest.importorskip("pyarrow")
    table = pa.table({"qid": qs, "docno": ds, "rel": vs})
    assert qrows(load_qrels(table)) == qrows(load_qrels(QRELS))


def test_int_ids_everywhere() -> None:
    pl = pytest.importorskip("polars")
    qrels = {1: {10: 1, 20: 0}, 2: {30: 1}}
    run = {1: {10: 0.5, 20: 0.9}, 2: {30: 1.0}}
    frame = pl.DataFrame({"qid": [1, 1, 2], "docno": [10, 20, 30], "rel": [1, 0, 1]})
    assert qrows(load_qrels(qrels)) == qrows(load_qrels(frame))
    assert qrows(load_qrels(qrels))[0] == ("1", "10", 1.0)
    res = ranklens.evaluate(qrels, run, ["AP", "RR"])
    assert res["AP"] == pytest.approx((0.5 + 1.0) / 2)
    assert res.query_ids.tolist() == ["1", "2"]


def test_numpy_scalars_in_dicts() -> None:
    qrels = {np.str_("q1"): {"d1": np.int64(1), "d2": np.int8(0), "d3": np.bool_(True)}}
    run = {"q1": {"d1": np.float32(0.5), "d2": np.float64(0.75), "d3": np.int32(0)}}
    res = ranklens.evaluate(qrels, run, ["AP", "P@2"])
    assert res["P@2"] == 0.5
    assert res["AP"] == pytest.approx((1 / 2 + 2 / 3) / 2)


def test_qrels_and_run_objects_pass_through() -> None:
    q, r = load_qrels(QRELS), load_run(RUN)
    assert load_qrels(q) is q and load_run(r) is r
    assert "2 queries" in repr(q) and "4 judgments" in repr(q)
    assert len(r) == 4


def test_columnar_files(tmp_path: Path) -> None:
    pl = pytest.importorskip("polars")
    qs, ds, vs = _long(QRELS)
    frame = pl.DataFrame({"query_id": qs, "doc_id": ds, "relevance": vs})
    frame.write_csv(tmp_path / "q.csv")
    frame.write_csv(tmp_path / "q.tsv", separator="\t")
    frame.write_parquet(tmp_path / "q.parquet")
    frame.write_ndjson(tmp_path / "q.jsonl")
    frame.write_ipc(tmp_path / "q.arrow")
    (tmp_path / "q.csv.gz").write_bytes(gzip.compress((tmp_path / "q.csv").read_bytes()))
    want = qrows(load_qrels(QRELS))
    for name in ("q.csv", "q.tsv", "q.parquet", "q.jsonl", "q.arrow", "q.csv.gz"):
        assert qrows(load_qrels(tmp_path / name)) == want, name
    frame.rename({"relevance": "stars"}).write_csv(tmp_path / "bad.csv")
    with pytest.raises(ranklens.InputError, match="'relevance'") as info:
        load_qrels(tmp_path / "bad.csv")
    assert info.value.source == str(tmp_path / "bad.csv")
    _write(tmp_path, "broken.parquet", b"not parquet at all")
    with pytest.raises(ranklens.InputError, match="parquet"):
        load_qrels(tmp_path / "broken.parquet")


def test_stdin_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import sys

    class _Stdin:
        buffer = io.BytesIO(RUN_TEXT.encode())

    monkeypatch.setattr(sys, "stdin", _Stdin())
    assert rrows(load_run("-")) == RUN_ROWS


def test_evaluate_same_for_every_form(tmp_path: Path) -> None:
    qpath = _write(tmp_path, "x.qrels", QRELS_TEXT)
    rpath = _write(tmp_path, "x.run", RUN_TEXT)
    qdict = {"q1": {"d1": 1, "d2": 0}, "q2": {"d#3": 2, "d4": -1}}
    rdict = {"q1": {"d1": 1.5, "d2": -0.25}, "q2": {"d#3": 1000.0}}
    names = ["AP", "nDCG", "bpref", "P@5", "NumRelRet"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a = ranklens.evaluate(qpath, rpath, names)
        b = ranklens.evaluate(qdict, rdict, names)
    assert dict(a) == dict(b)


@pytest.mark.parametrize("sep", [" ", "  ", "\t", " \t"])
def test_only_ascii_blanks_separate_fields(tmp_path: Path, sep: str) -> None:
    """trec_eval splits at ASCII blanks only: NBSP, NEL and U+2028 belong to the id."""
    ids = ["d\u00a0x", "e\u0085y", "f\u2028z", "g\u3000w"]
    text = "".join(sep.join(["q1", "Q0", d, "1", "1.0", "t"]) + "\n" for d in ids)
    r = load_run(_write(tmp_path, "u.run", text))
    assert [row[1] for row in rrows(r)] == ids


@pytest.mark.parametrize("sep", [" ", "  "])
@pytest.mark.parametrize(("field", "qrels"), [("1_0", True), ("\u0661", True), ("1_0.5", False)])
def test_python_only_number_syntax_rejected(tmp_path: Path, sep: str, field: str,
                                            qrels: bool) -> None:
    """``int("1_0")`` is 10 in Python; a TREC file never means that."""
    if qrels:
        path = _write(tmp_path, "u.qrels", sep.join(["q1", "0", "d1", field]) + "\n")
        with pytest.raises(ranklens.InputError, match="integer relevance"):
            load_qrels(path)
    else:
        path = _write(tmp_path, "u.run", sep.join(["q1", "Q0", "d1", "1", field, "t"]) + "\n")
        with pytest.raises(ranklens.InputError, match="numeric score"):
            load_run(path)


@pytest.mark.parametrize("text", ["1.5", "-2", "+3.25", ".5", "1e3", "-1E-2", "7.", "inf",
                                  "-inf", "1e400", "4.9e-324"])
@pytest.mark.parametrize("sep", [" ", "  "])
def test_score_syntax(tmp_path: Path, text: str, sep: str) -> None:
    """The fast and the line reader accept the same score spellings, with the same values."""
    path = _write(tmp_path, "s.run", sep.join(["q1", "Q0", "d1", "1", text, "t"]) + "\n")
    assert rrows(load_run(path))[0][2] == float(text)


_QID = st.sampled_from(["q1", "q2", "10", "9", "é"])
_DOC = st.text(st.characters(min_codepoint=33, max_codepoint=0x3FF), min_size=1,
               max_size=5).filter(lambda s: not s.startswith("#"))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(
    qrels=st.dictionaries(_QID, st.dictionaries(_DOC, st.integers(-2, 3), min_size=1,
                                                max_size=8), min_size=1, max_size=4),
    run=st.dictionaries(_QID, st.dictionaries(_DOC, st.floats(-1e9, 1e9, allow_nan=False),
                                              min_size=1, max_size=10), min_size=1, max_size=4),
    sep=st.sampled_from([" ", "\t", "  "]),
    presorted=st.booleans(),
)
def test_files_and_dicts_evaluate_alike(tmp_path: Path, qrels: dict, run: dict,
                                        sep: str, presorted: bool) -> None:
    """Whatever the reader path, a TREC file means exactly its nested-dict form."""
    if not set(qrels) & set(run):
        run = {**run, next(iter(qrels)): {"shared": 1.0}}
    qtext = "".join(sep.join([q, "0", d, str(g)]) + "\n"
                    for q, docs in qrels.items() for d, g in docs.items())
    if presorted:  # grouped by query, scores descending, ties in doc id ascending order
        run = {q: dict(sorted(sorted(run[q].items()), key=lambda kv: -kv[1]))
               for q in sorted(run)}
    rtext = "".join(sep.join([q, "Q0", d, "0", repr(s), "t"]) + "\n"
                    for q, docs in run.items() for d, s in docs.items())
    qpath = _write(tmp_path, "h.qrels", qtext)
    rpath = _write(tmp_path, "h.run", rtext)
    names = ["AP", "nDCG@5", "P@3", "Bpref", "RR", "NumRet", "NumRelRet", "R@10"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ranklens.RanklensWarning)
        a = ranklens.evaluate(qpath, rpath, names, missing="zero")
        b = ranklens.evaluate(qrels, run, names, missing="zero")
        c = ranklens.evaluate(qpath, rpath, names, missing="zero", ties="input")
        d = ranklens.evaluate(qrels, run, names, missing="zero", ties="input")
    for name in names:
        assert a.per_query(name) == b.per_query(name), name
        assert c.per_query(name) == d.per_query(name), name


def test_pandas_named_index_holds_ids() -> None:
    pd = pytest.importorskip("pandas")
    qs, ds, vs = _long(QRELS)
    frame = pd.DataFrame({"qid": qs, "docno": ds, "rel": vs})
    want = qrows(load_qrels(QRELS))
    assert qrows(load_qrels(frame.set_index(["qid", "docno"]))) == want
    assert qrows(load_qrels(frame.set_index("qid"))) == want
    assert qrows(load_qrels(frame.iloc[::-1])) == want  # unnamed index: dropped


@pytest.mark.parametrize("lead", [0, 60, 3000])
def test_a_stray_tab_splits_like_trec_eval(tmp_path: Path, lead: int) -> None:
    """A tab inside a space-separated file (past the lines used to pick the separator) is a
    field break for trec_eval: ``q1 Q0<TAB>x d2 2 2.0 t`` ranks doc x with score 2."""
    head = "".join(f"q0 Q0 h{i} {i} 1.0 t\n" for i in range(lead))
    r = load_run(_write(tmp_path, "m.run", head + "q1 Q0 d1 1 3.0 t\nq1 Q0\tx d2 2 2.0 t\n"))
    assert rrows(r)[-2:] == [("q1", "d1", 3.0), ("q1", "x", 2.0)]
    q = load_qrels(_write(tmp_path, "m.qrels", "q1 0 d1 1\nq1 0 d2\t2\n"))
    assert qrows(q) == [("q1", "d1", 1.0), ("q1", "d2", 2.0)]
    # a space inside a tab-separated field is a break too: 5 fields, not a doc id "d 2"
    with pytest.raises(ranklens.InputError, match=r"t\.qrels:2: expected 4 fields.*got 5"):
        load_qrels(_write(tmp_path, "t.qrels", "q1\t0\td1\t1\nq1\t0\td 2\t2\n"))


def test_float_id_columns_are_integers() -> None:
    """pandas turns integer ids into floats (1 -> 1.0); they must still match "1"."""
    pd = pytest.importorskip("pandas")
    qrels = pd.DataFrame({"qid": [1.0, 2.0], "docno": [10.0, 11.0], "rel": [1, 1]})
    run = {"1": {"10": 1.0}, "2": {"11": 1.0, "12": 2.0}}
    assert qrows(load_qrels(qrels)) == [("1", "10", 1.0), ("2", "11", 1.0)]
    assert ranklens.evaluate(qrels, run, ["AP"])["AP"] == 0.75
    pl = pytest.importorskip("polars")
    for bad in (1.5, float("nan"), 1e30):
        frame = pl.DataFrame({"qid": [bad], "docno": ["a"], "rel": [1]})
        with pytest.raises(ranklens.InputError, match=r"column 'qid'.*not an integer id"):
            load_qrels(frame)
