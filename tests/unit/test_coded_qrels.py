"""Judgments held as codes (the TREC qrels reader's, for a whole file): one dictionary of
the distinct doc ids, each judgment's doc id a code into it, and query ids once per block of
rows. The ids must come back exactly as written, and every evaluation must equal the one of
the same judgments held as strings (a ``Qrels`` made from their frame), whatever the run's
doc ids (text, numbers) and the options. Files whose doc ids are mostly distinct, and blocks
handed over by a chunked evaluation, keep their strings.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from result_support import assert_same

import ranklens
from ranklens import InputError, Qrels
from ranklens._ingest.hashcodes import HashCodes
from ranklens._ingest.io.trec import codes as trec_codes
from ranklens._ingest.io.trec import files, small
from ranklens._ingest.io.trec import qrels as trec_qrels
from ranklens._model import matching
from ranklens._model.matching import qrels_index

MEASURES = ["AP", "RR@10", "nDCG@10", "P@5", "R@20", "Rprec", "bpref", "num_rel_ret",
            "success@3", "judged@10"]

#: ids whose UTF-8 bytes order them otherwise than their code points or case-folding do
ODD_IDS = ["é", "e", "z", "Z", "ä", "a\x7f", "ab", "a", "ā", "😀", "\uffff", "Ω",
           "10", "9", "09", "-1", "a#1"]


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks of a few lines, so the ids of later blocks are found in earlier ones'."""
    monkeypatch.setattr(files, "BLOCK", 160)
    monkeypatch.setattr(small, "SMALL_BYTES", -1)


def _write(path: Path, rows: list[tuple[str, str, int]]) -> Path:
    path.write_text("".join(f"{q} 0 {d} {g}\n" for q, d, g in rows), encoding="utf-8")
    return path


def _random_rows(rng: np.random.Generator, docs: list[str], n_queries: int,
                 per_query: int) -> list[tuple[str, str, int]]:
    rows = []
    for q in rng.permutation(n_queries):  # queries not in id order
        for d in rng.choice(len(docs), size=min(per_query, len(docs)), replace=False):
            rows.append((f"q{q}", docs[d], int(rng.integers(-1, 4))))
    return rows


@pytest.mark.parametrize("sorted_most", [1 << 18, 5])
def test_the_dictionary_holds_each_id_once_in_strcmp_order(
        tmp_path: Path, small_blocks: None, monkeypatch: pytest.MonkeyPatch,
        sorted_most: int) -> None:
    # sorted byte-wise as strcmp compares them (not by code point or case); more ids than
    # are sorted stay in order of first appearance
    monkeypatch.setattr(trec_codes, "_SORTED_IDS", sorted_most)
    rows = [(f"q{q}", d, q % 3) for q in range(4) for d in ODD_IDS]
    qrels = trec_qrels.read_trec_qrels(_write(tmp_path / "q.txt", rows))
    assert qrels.coded is not None
    expected = sorted(ODD_IDS, key=lambda s: s.encode("utf-8")) if sorted_most > 5 \
        else ODD_IDS
    assert qrels.coded.dictionary.to_list() == expected
    codes = qrels.coded.doc_code
    assert codes.dtype == np.uint32
    assert [qrels.coded.dictionary[int(c)] for c in codes] == [d for _, d, _ in rows]
    assert_same(ranklens.evaluate(qrels, {"q1": {"é": 2.0, "z": 1.0}}, MEASURES),
                ranklens.evaluate(Qrels(qrels.frame), {"q1": {"é": 2.0, "z": 1.0}},
                                  MEASURES))


def test_mostly_distinct_doc_ids_are_kept_as_strings(tmp_path: Path, small_blocks: None,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # a recommender's qrels: every judgment of its own document (codes would not pay)
    rows = [(f"q{i // 3}", f"item{i}", 1) for i in range(60)]
    qrels = trec_qrels.read_trec_qrels(_write(tmp_path / "q.txt", rows))
    assert qrels.coded is None
    assert qrels.frame.rows() == [(q, d, float(g)) for q, d, g in rows]
    # repeated documents first, then new ones: given up part way, the same rows
    rows = [(f"q{i}", "same", 1) for i in range(30)] + rows
    qrels = trec_qrels.read_trec_qrels(_write(tmp_path / "r.txt", rows))
    assert qrels.coded is None
    assert qrels.frame.rows() == [(q, d, float(g)) for q, d, g in rows]
    # one block (the whole file's bytes), decided at its end
    monkeypatch.setattr(files, "BLOCK", 1 << 20)
    assert trec_qrels.read_trec_qrels(_write(tmp_path / "s.txt", rows[30:])).coded is None
    assert trec_qrels.read_trec_qrels(_write(tmp_path / "t.txt", rows[:30])).coded is not None


def test_a_block_handed_over_keeps_its_strings() -> None:
    data = b"q2 0 b 1\nq1 0 a 2\nq2 0 a 0\nq1 0 b 1\n"
    qrels = trec_qrels.read_trec_qrels("<block>", data=data)
    assert qrels.coded is None
    assert qrels.frame.rows() == [("q2", "b", 1.0), ("q1", "a", 2.0), ("q2", "a", 0.0),
                                  ("q1", "b", 1.0)]


@pytest.mark.parametrize("seed", range(4))
def test_codes_give_back_every_row_as_written(tmp_path: Path, small_blocks: None,
                                              seed: int) -> None:
    rng = np.random.default_rng(seed)
    docs = [f"D{i:03d}-{'x' * int(rng.integers(0, 20))}" for i in range(40)] + ODD_IDS
    rows = _random_rows(rng, docs, 18, 12)  # documents judged for several queries
    path = _write(tmp_path / "q.txt", rows)
    qrels = trec_qrels.read_trec_qrels(path)
    assert qrels.coded is not None
    assert qrels.frame.rows() == [(q, d, float(g)) for q, d, g in rows]
    assert len(qrels) == len(rows)
    assert qrels.grades.tolist() == [float(g) for _, _, g in rows]
    at = rng.choice(len(rows), size=7)
    docs_at = qrels.coded.dictionary.gather(qrels.coded.doc_code[at])
    assert docs_at.to_list() == [rows[i][1] for i in at]
    # a query's rows in two blocks (or more) stay one block of rows
    blocks = qrels.coded.block_ids.to_list()
    assert all(a != b for a, b in itertools.pairwise(blocks))
    assert repr(qrels) == repr(Qrels(qrels.frame, str(path)))


def _runs(rng: np.random.Generator, docs: list[str], n_queries: int) -> list[dict]:
    """Runs over the judged docs and others (text doc ids, then numbers): score ties,
    queries without judgments."""
    others = [f"U{i}" for i in range(30)]
    runs = []
    for numeric in (False, True):
        pool = [str(i) for i in range(60)] if numeric else docs + others
        run: dict = {}
        for q in range(n_queries + 2):  # two queries without judgments
            picked = rng.choice(len(pool), size=int(rng.integers(1, 25)), replace=False)
            run[f"q{q}"] = {pool[d]: float(rng.integers(0, 6)) for d in picked}
        runs.append(run)
    return runs


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("options", [
    {},
    {"duplicates": "first"},
    {"missing": "skip"},
    {"judged_only": True},
    {"depth": 5},
    {"ties": "input"},
    {"rel": 2},
    {"missing": "zero", "depth": 3, "ties": "input"},
])
def test_evaluations_equal_those_of_the_same_judgments_as_strings(
        tmp_path: Path, small_blocks: None, seed: int, options: dict) -> None:
    rng = np.random.default_rng(seed)
    docs = list(dict.fromkeys([f"d{i}" for i in range(50)]
                              + [str(i) for i in range(0, 60, 3)] + ODD_IDS))
    rows = _random_rows(rng, docs, 20, 15)  # documents judged for several queries
    coded = trec_qrels.read_trec_qrels(_write(tmp_path / "q.txt", rows))
    assert coded.coded is not None
    for run in _runs(rng, docs, 20):
        # the run file read by the TREC reader too (numeric doc ids held as numbers)
        lines = [f"{q} Q0 {d} {r} {s} t" for q, ranking in run.items()
                 for r, (d, s) in enumerate(ranking.items())]
        run_path = tmp_path / "run.txt"
        run_path.write_text("\n".join(lines) + "\n")
        for given in (run, ranklens.load_run(run_path)):
            strings = Qrels(coded.frame, coded.source)
            a = ranklens.evaluate(coded, given, MEASURES, **options)
            b = ranklens.evaluate(strings, given, MEASURES, **options)
            assert_same(a, b)


def test_a_doc_judged_twice_is_found_and_handled_as_with_strings(tmp_path: Path,
                                                                small_blocks: None) -> None:
    rows = [("q1", "a", 1), ("q1", "b", 0), ("q2", "a", 2), ("q1", "a", 3), ("q2", "c", 1),
            ("q3", "a", 0), ("q3", "b", 1), ("q3", "c", 2)]
    coded = trec_qrels.read_trec_qrels(_write(tmp_path / "q.txt", rows))
    assert coded.coded is not None and qrels_index(coded).duplicated
    run = {"q1": {"a": 2.0, "b": 1.0}, "q2": {"c": 3.0, "a": 1.0}}
    strings = Qrels(coded.frame, coded.source)
    assert_same(ranklens.evaluate(coded, run, MEASURES, duplicates="first"),
                ranklens.evaluate(strings, run, MEASURES, duplicates="first"))
    with pytest.raises(InputError, match="document 'a' appears more than once for query 'q1'"):
        ranklens.evaluate(coded, run, ["AP"], duplicates="error")
    distinct = trec_qrels.read_trec_qrels(_write(tmp_path / "d.txt", rows[:3] + rows[4:]))
    assert distinct.coded is not None and not qrels_index(distinct).duplicated


def _few_hashes(ids: pl.Series) -> np.ndarray:
    """A hash with many collisions: the length in bytes (ids of one length collide)."""
    return ids.str.len_bytes().cast(pl.UInt64).to_numpy()


def test_ids_sharing_a_hash_are_told_apart(tmp_path: Path, small_blocks: None,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # the qrels' own ids collide: the file is read again, the strings looked up; the run's
    # ids collide with judged ones: compared as strings, they are not judged
    rng = np.random.default_rng(5)
    docs = [f"d{i}" for i in range(40)] + ODD_IDS
    rows = _random_rows(rng, docs, 16, 12)
    path = _write(tmp_path / "q.txt", rows)
    expected = trec_qrels.read_trec_qrels(path)
    run = _runs(rng, docs, 16)[0]
    want = ranklens.evaluate(Qrels(expected.frame, expected.source), run, MEASURES)
    monkeypatch.setattr(trec_codes, "doc_hashes", _few_hashes)
    monkeypatch.setattr(matching, "doc_hashes", _few_hashes)
    exact = []
    looked_up = trec_codes.Dictionary._exact
    monkeypatch.setattr(trec_codes.Dictionary, "_exact",
                        lambda self, doc: exact.append(1) or looked_up(self, doc))
    coded = trec_qrels.read_trec_qrels(path)
    assert exact  # read again, looking up the strings
    assert coded.coded is not None
    assert coded.frame.rows() == expected.frame.rows()
    assert expected.coded is not None
    assert coded.coded.dictionary.to_list() == expected.coded.dictionary.to_list()
    assert_same(ranklens.evaluate(coded, run, MEASURES), want)


def test_a_run_id_sharing_a_judged_ids_hash_is_not_judged(
        tmp_path: Path, small_blocks: None, monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [(f"q{q}", d, 1) for q in (1, 2, 3) for d in ("ab", "c")]
    qrels = trec_qrels.read_trec_qrels(_write(tmp_path / "q.txt", rows))
    assert qrels.coded is not None
    # "xy" shares "ab"'s hash here (two bytes); the dictionary's own hashes are distinct
    monkeypatch.setattr(matching, "doc_hashes", _few_hashes)
    run = {q: {"xy": 3.0, "c": 2.0, "ab": 1.0} for q in ("q1", "q2", "q3")}
    result = ranklens.evaluate(qrels, run, ["P@1", "P@2", "num_rel_ret"])
    assert result.query_values["P@1"].tolist() == [0.0] * 3
    assert result.query_values["P@2"].tolist() == [0.5] * 3
    assert result.query_values["num_rel_ret"].tolist() == [2.0] * 3


@pytest.mark.parametrize("n", [0, 1, 5, 3000])
def test_hash_codes_find_every_hash_and_only_those(n: int) -> None:
    rng = np.random.default_rng(n)
    # low bits shared by many (slots shared), and full hashes differing only in high bits
    hashes = np.unique(np.concatenate([
        rng.integers(0, 2**63, size=n, dtype=np.uint64),
        (rng.integers(0, 2**20, size=n // 2, dtype=np.uint64) << np.uint64(40))
        | np.uint64(12345)]))
    rng.shuffle(hashes)
    table = HashCodes(hashes)
    others = rng.integers(0, 2**63, size=500, dtype=np.uint64)
    others = others[~np.isin(others, hashes)]
    probe = np.concatenate([hashes, others, hashes[: n // 3]])
    expected = np.concatenate([np.arange(hashes.size), np.full(others.size, -1),
                               np.arange(hashes[: n // 3].size)])
    assert table.find(probe).tolist() == expected.tolist()


@pytest.mark.parametrize("n_queries", [3, 70_000])
def test_pair_keys_fit_their_width(n_queries: int) -> None:
    # 70,000 queries of a 70,000-id dictionary: keys beyond 32 bits, held in 64
    dictionary = pl.Series([f"d{i:05d}" for i in range(70_000)])
    code = np.array([0, 0, 1, n_queries - 1], dtype=np.int32)
    doc = np.array([3, 69_999, 0, 69_999], dtype=np.uint32)
    pairs = matching._judged_pairs(code, doc, dictionary)
    assert pairs.keys.dtype == (np.uint32 if n_queries == 3 else np.uint64)
    hit, rows = pairs.find(np.array([n_queries - 1, 0, 1, 0]),
                           np.array([69_999, 69_999, 1, 4], dtype=np.uint32))
    assert hit.tolist() == [True, True, False, False]
    assert rows.tolist() == [3, 1]


def test_a_compressed_file_is_held_as_codes_when_they_pay(tmp_path: Path,
                                                          small_blocks: None) -> None:
    import gzip

    repeated = [(f"q{q}", f"d{d}", 1) for q in range(40) for d in range(30)]
    distinct = [(f"q{i // 30}", f"d{i}", 1) for i in range(1200)]
    for rows, coded in ((repeated, True), (distinct, False)):
        path = tmp_path / "q.txt.gz"
        path.write_bytes(gzip.compress("".join(f"{q} 0 {d} {g}\n"
                                               for q, d, g in rows).encode()))
        qrels = trec_qrels.read_trec_qrels(path)
        assert (qrels.coded is not None) is coded
        assert qrels.frame.rows() == [(q, d, float(g)) for q, d, g in rows]
