"""Issue 14's catalogue of bad or unusual inputs: each gives the right number, a ranklens
error naming what is wrong (and where), or a warning, never a foreign exception."""

from __future__ import annotations

import bz2
import warnings
from pathlib import Path

import numpy as np
import pytest

import ranklens
from ranklens import InputError, ParameterError, RanklensWarning

QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 1\n"
RUN = "q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 t\nq2 Q0 d3 1 5.0 t\n"


def _files(tmp_path: Path, qrels: bytes, run: bytes) -> tuple[str, str]:
    (tmp_path / "q.txt").write_bytes(qrels)
    (tmp_path / "r.txt").write_bytes(run)
    return str(tmp_path / "q.txt"), str(tmp_path / "r.txt")


def _p1(tmp_path: Path, qrels: bytes, run: bytes) -> dict[str, float]:
    q, r = _files(tmp_path, qrels, run)
    return ranklens.evaluate(q, r, ["P@1"]).per_query("P@1")


# -- wrong numbers --------------------------------------------------------------------------

@pytest.mark.parametrize("blank", ["  ", "\t"])
def test_a_byte_order_mark_is_dropped_on_every_path(tmp_path: Path, blank: str) -> None:
    bom = b"\xef\xbb\xbf"
    # an irregular blank (two spaces, a tab among spaces) sends the file to the line parser
    qrels = bom + QRELS.replace(" ", "  ", 1).encode()
    run = bom + RUN.replace(" ", blank, 1).encode()
    assert _p1(tmp_path, qrels, run) == {"q1": 1.0, "q2": 1.0}
    assert ranklens.load_qrels(tmp_path / "q.txt").frame["query_id"][0] == "q1"
    assert ranklens.load_run(tmp_path / "r.txt").block_ids[0] == "q1"


def test_classic_mac_line_ends_are_line_ends(tmp_path: Path) -> None:
    qrels = QRELS.replace("\n", "\r").encode()
    run = RUN.replace("\n", "\r").encode()
    loaded = ranklens.load_run(_files(tmp_path, qrels, run)[1])
    assert len(loaded) == 3
    assert _p1(tmp_path, qrels, run) == {"q1": 1.0, "q2": 1.0}


def test_a_stray_carriage_return_is_a_blank_on_the_fast_path_too(tmp_path: Path) -> None:
    run = ("\r" + RUN).encode()
    loaded = ranklens.load_run(_files(tmp_path, QRELS.encode(), run)[1])
    assert loaded.block_ids.to_list() == ["q1", "q2"]
    assert _p1(tmp_path, QRELS.encode(), run) == {"q1": 1.0, "q2": 1.0}


def test_a_query_id_starting_with_bzh_is_text(tmp_path: Path) -> None:
    qrels = QRELS.replace("q1", "BZh1").encode()
    run = RUN.replace("q1", "BZh1").encode()
    assert _p1(tmp_path, qrels, run) == {"BZh1": 1.0, "q2": 1.0}
    # and real bzip2 data is still read
    assert _p1(tmp_path, bz2.compress(qrels), bz2.compress(run)) == {"BZh1": 1.0, "q2": 1.0}


@pytest.mark.parametrize("grade", [float("inf"), 1e999, 10**30, 10**400])
def test_an_infinite_or_huge_pair_grade_is_an_input_error(grade: float) -> None:
    with pytest.raises(InputError, match=r"query 'q1', gold id 'a': expected a finite grade"):
        ranklens.from_pairs({"q1": {"a": grade}}, {"q1": ["a", "b"]})


def test_an_infinite_grade_in_a_jsonl_record_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "rag.jsonl"
    path.write_text('{"query_id": "q0", "retrieved": ["a"], "relevant": ["a"]}\n'
                    '{"query_id": "q1", "retrieved": ["a"], "relevant": {"a": 1e999}}\n')
    with pytest.raises(InputError, match=r"rag\.jsonl:2: .*expected a finite grade"):
        ranklens.load_pairs(str(path))


def test_grades_near_the_float_limit_are_refused_not_nan() -> None:
    with pytest.raises(InputError, match=r"relevance grade between -2\*\*63 and 2\*\*63"):
        ranklens.evaluate_arrays([[1.2e308, 1.2e308]], ["nDCG@5"])
    with pytest.raises(InputError, match=r"relevance grade between"):
        ranklens.evaluate({"q1": {"d1": 1e300}}, {"q1": {"d1": 1.0}}, ["nDCG"])
    # the largest grade allowed still gives a number
    r = ranklens.evaluate_arrays([[2.0**53, 2.0**53]], ["nDCG@5"], n_relevant=[2])
    assert r["nDCG@5"] == 1.0


# -- foreign exceptions ---------------------------------------------------------------------

def test_a_400_digit_grade_is_read_as_trec_eval_reads_it(tmp_path: Path) -> None:
    # trec_eval's atol saturates at C's long range: the grade is the largest one held
    qrels = f"q1 0 d1 1\nq1 0 d2 {'9' * 400}\n".encode()
    q, r = _files(tmp_path, qrels, RUN.encode())
    assert ranklens.load_qrels(q).frame["relevance"].to_list() == [1.0, 2.0**63 - 1024]
    assert ranklens.evaluate(q, r, ["P@1"])["P@1"] == 1.0


def test_a_20_digit_rank_on_the_line_parser_is_ignored_as_ranks_are(tmp_path: Path) -> None:
    run = RUN.replace("d1 1", "d1 " + "9" * 20).replace(" ", "  ", 1).encode()
    assert _p1(tmp_path, QRELS.encode(), run) == {"q1": 1.0, "q2": 1.0}


def test_mixed_type_pandas_columns_are_named() -> None:
    pd = pytest.importorskip("pandas")
    qrels = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": [1, "d2"], "relevance": [1, 0]})
    with pytest.raises(InputError, match=r"column 'doc_id' mixes value types \(int, str\)"):
        ranklens.load_qrels(qrels)
    run = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["d1", "d2"],
                        "score": [1.0, "x"]})
    with pytest.raises(InputError, match=r"column 'score' mixes value types \(float, str\)"):
        ranklens.load_run(run)


def test_a_bad_rel_option_of_evaluate_arrays_is_a_parameter_error() -> None:
    with pytest.raises(ParameterError, match=r"the 'rel' option must be an integer >= 0; "
                                             r"got 'x'"):
        ranklens.evaluate_arrays([[1, 0]], ["P@1"], rel="x")  # type: ignore[arg-type]


def test_ragged_flat_arrays_are_an_input_error() -> None:
    with pytest.raises(InputError, match=r"<target>: expected a 1-D array of numbers or ids, "
                                         r"got nested lists of different lengths"):
        ranklens.evaluate_arrays([[1, 0], [1]], ["P@1"], scores=[0.5, 0.2, 0.1],
                                 indexes=[0, 0, 1])


def test_n_relevant_counts_are_built_column_wise() -> None:
    r = ranklens.evaluate_arrays([[1, 0, 1], [0, 1, 0]], ["R@3", "P@3"],
                                 n_relevant=[4, 200_000])
    assert r.per_query("R@3") == pytest.approx({"0": 0.5, "1": 1 / 200_000})
    qrels, _ = ranklens.from_arrays([[1, 0]], n_relevant=[3])
    # the two relevant items not in the labels stay a count (tests/unit/test_arrays_counts.py)
    assert sorted(qrels.frame["doc_id"].to_list()) == ["0", "1"]
    assert qrels.unretrieved is not None
    assert qrels.unretrieved.rows() == [("0", 1.0, 2)]
    with pytest.raises(InputError, match=r"n_relevant says 0 relevant items but the labels "
                                         r"already hold 1"):
        ranklens.from_arrays([[1, 0]], n_relevant=[0])


# -- unclear or silent ----------------------------------------------------------------------

def test_csv_errors_name_the_file_line(tmp_path: Path) -> None:
    path = tmp_path / "q.csv"
    path.write_text("query_id,doc_id,relevance\nq1,d1,1\n\nq1,d2,x\n")
    with pytest.raises(InputError, match=r"q\.csv:4: expected a numeric relevance, got 'x'"):
        ranklens.load_qrels(str(path))
    ragged = tmp_path / "r.csv"
    ragged.write_text("query_id,doc_id,score\nq1,d1,1\nq1,d2,2,7\n")
    with pytest.raises(InputError, match=r"r\.csv:3: expected 3 fields \(as in the header\), "
                                         r"got 4"):
        ranklens.load_run(str(ragged))


def test_invalid_utf8_in_a_csv_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "q.csv"
    path.write_bytes(b"query_id,doc_id,relevance\nq1,d1,1\nq1,d\xff\xfe2,1\n")
    with pytest.raises(InputError, match=r"q\.csv:3: invalid UTF-8 text"):
        ranklens.load_qrels(str(path))


def test_jsonl_errors_name_the_file_line(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text('{"query_id": "q1", "doc_id": "d1", "relevance": 1}\n'
                    '{"query_id": "q1", "doc_id": "d2", "relevance": }\n')
    with pytest.raises(InputError, match=r"q\.jsonl:2: not valid JSON"):
        ranklens.load_qrels(str(path))
    path.write_text('{"query_id": "q1", "doc_id": "d1", "relevance": 1}\n'
                    '{"query_id": null, "doc_id": "d2", "relevance": 1}\n')
    with pytest.raises(InputError, match=r"q\.jsonl:2: missing value in column 'query_id'"):
        ranklens.load_qrels(str(path))


def test_parquet_errors_count_rows_from_one(tmp_path: Path) -> None:
    import polars as pl

    path = tmp_path / "q.parquet"
    pl.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["d1", "d2"],
                  "relevance": [1.0, float("inf")]}).write_parquet(path)
    with pytest.raises(InputError, match=r"q\.parquet: row 2 \(counting from 1\): expected a "
                                         r"finite relevance, got inf"):
        ranklens.load_qrels(str(path))


def test_infinite_scores_are_said_to_tie(tmp_path: Path) -> None:
    run = RUN.replace("2.0", "1e999").replace("1.0", "1e400").encode()
    _, r = _files(tmp_path, QRELS.encode(), run)
    with pytest.warns(RanklensWarning, match=r"r\.txt: 2 scores are infinite .* tie"):
        ranklens.load_run(r)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ranklens.load_run(_files(tmp_path, QRELS.encode(), RUN.encode())[1])


def test_a_run_whose_ids_never_match_is_warned_of() -> None:
    qrels = {"q1": {"D1": 1}, "q2": {"D2": 1}}
    run = {"q1": {"p1": 1.0, "p2": 0.5}, "q2": {"p3": 1.0}}
    with pytest.warns(RanklensWarning, match=r"the run \(<run dict>\) retrieved no judged "
                                             r"document for any of its 2 queries: do its doc "
                                             r"ids match the judgments'"):
        r = ranklens.evaluate(qrels, run, ["P@1"])
    assert r["P@1"] == 0.0
    many = {f"q{i}": {f"D{i}": 1} for i in range(40)}
    ran = {f"q{i}": {"x": 1.0} for i in range(40)}
    ran["q0"] = {"D0": 1.0}
    with pytest.warns(RanklensWarning, match=r"retrieved a judged document for only 1 of its "
                                             r"40 queries"):
        ranklens.evaluate(many, ran, ["P@1"])
    # a run where most queries retrieve something judged says nothing
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ranklens.evaluate({"q1": {"a": 1}, "q2": {"b": 1}},
                          {"q1": {"a": 1.0, "z": 0.5}, "q2": {"y": 1.0}}, ["P@1"])


def test_swapped_qrels_and_run_are_said_to_look_swapped(tmp_path: Path) -> None:
    q, r = _files(tmp_path, QRELS.encode(), RUN.encode())
    with pytest.raises(InputError, match=r"r\.txt:1: expected 4 fields .* got 6; this looks "
                                         r"like a run line: are QRELS and RUN given in the "
                                         r"wrong order\?"):
        ranklens.evaluate(r, q, ["P@1"])
    with pytest.raises(InputError, match=r"q\.txt:1: .* got 4; this looks like a qrels line"):
        ranklens.load_run(q)


def test_nothing_else_escapes_from_odd_arrays() -> None:
    for labels, kwargs in [
        ([[1, 0], [1]], {"scores": [[0.1, 0.2], [0.3, 0.4, 0.5]]}),
        ([[[1], [0, 1]]], {}),
        (np.array([1, 0]), {"scores": np.array([0.5, 0.1]), "indexes": [[0], [0, 1]]}),
    ]:
        with pytest.raises(ranklens.RanklensError):
            ranklens.evaluate_arrays(labels, ["P@1"], **kwargs)
