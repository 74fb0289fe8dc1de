"""Runs holding their doc ids as numbers are keyed on the numbers, not on their text."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

import ranklens
from ranklens._ingest.io.trec import files, small
from ranklens._ingest.tables import _DOC_TEXT
from ranklens._model import matching
from ranklens._model.align import align
from ranklens._model.ranking import run_index

MEASURES = ["AP", "nDCG@10", "P@5", "NumRelRet"]


def _frames(coded: Path | None) -> tuple[ranklens.Qrels, pl.DataFrame]:
    rng = np.random.default_rng(5)
    docs = np.stack([rng.choice(100, 40, replace=False) for _ in range(6)])
    run = pl.DataFrame({"query_id": np.repeat(np.arange(6), 40), "doc_id": docs.ravel(),
                        "score": rng.integers(0, 4, 240).astype(np.float64)})
    # judged ids written as numbers, and others no number is written as ("007", "+5", "x")
    judged = [(str(q), str(d) if i % 10 else f"00{d}", int(rng.integers(0, 3)))
              for q in range(7) for i, d in enumerate(rng.choice(100, 60, replace=False))]
    judged += [("1", "+5", 1), ("2", "x", 2), ("3", str(2**32 + 1), 1)]
    frame = pl.DataFrame(judged, schema=["query_id", "doc_id", "relevance"], orient="row")
    if coded:  # judgments read from a TREC file are held as codes
        coded.write_text("".join(f"{q} 0 {d} {g}\n" for q, d, g in judged))
        qrels = ranklens.load_qrels(coded)
        assert qrels.coded is not None
        return qrels, run
    return ranklens.load_qrels(frame), run


@pytest.mark.parametrize("coded", [False, True])
def test_number_ids_match_as_their_text(coded: bool, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files, "BLOCK", 160)  # blocks of a few lines: the ids coded
    monkeypatch.setattr(small, "SMALL_BYTES", -1)
    qrels, frame = _frames(tmp_path / "qrels.txt" if coded else None)
    numbers = ranklens.load_run(frame)
    text = ranklens.load_run(frame.with_columns(pl.col("doc_id").cast(pl.String)))
    assert not numbers.text_doc_ids and text.text_doc_ids
    got = ranklens.evaluate(qrels, numbers, MEASURES, missing="zero")
    want = ranklens.evaluate(qrels, text, MEASURES, missing="zero")
    assert dict(got) == dict(want)
    assert got.per_query("AP") == want.per_query("AP")


def test_number_ids_are_hashed_without_their_text() -> None:
    qrels, frame = _frames(None)
    run = ranklens.load_run(frame)
    run_index(run, "docid")
    align(qrels, run)
    assert _DOC_TEXT not in run._derived  # never written out as text


def test_a_number_is_matched_whole_not_by_its_low_bits() -> None:
    # 5 + 2**20 shares 5's low bits (the screen lets it through; the key table does not);
    # the largest UInt32 is a doc id like any other
    top = 2**32 - 1
    qrels = ranklens.load_qrels({"1": {"5": 1, str(top): 2, "9": 1}})
    frame = pl.DataFrame({"query_id": [1] * 3, "doc_id": [5 + 2**20, top, 9],
                          "score": [3.0, 2.0, 1.0]})
    numbers = ranklens.load_run(frame)
    assert not numbers.text_doc_ids
    aligned, _ = align(qrels, numbers)
    assert aligned.judged_at.tolist() == [1, 2]
    assert aligned.judged_grade.tolist() == [2.0, 1.0]


def test_frame_judgments_sharing_a_hash_are_told_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    # ids of one length share a hash here: the frame's dictionary is made on the strings
    qrels = {"q1": {"ab": 2, "cd": 1, "xyz": 1}, "q2": {"cd": 2, "ef": 1}}
    run = {"q1": {"cd": 3.0, "ab": 2.0, "zz": 1.0}, "q2": {"ef": 2.0, "ab": 1.0}}
    want = ranklens.evaluate(ranklens.load_qrels(qrels), ranklens.load_run(run), MEASURES)
    monkeypatch.setattr(matching, "doc_hashes", lambda ids: ids.str.len_bytes().cast(
        pl.UInt64).to_numpy())
    got = ranklens.evaluate(ranklens.load_qrels(qrels), ranklens.load_run(run), MEASURES)
    assert got.per_query("AP") == want.per_query("AP")
    assert dict(got) == dict(want)
