"""A run file read for one set of judgments keeps only the doc ids evaluation reads.

``evaluate(qrels, "run.txt")`` and the CLI read a plain run file knowing the judgments: the
rows whose doc id may be judged and the rows with tied scores keep their doc ids, the rest
are dropped and read again from the file only if some later step asks for them. Every result
must equal that of the run read whole.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import ranklens
from ranklens import InputError, load_qrels, load_run
from ranklens._io import _trec
from ranklens._io._load import load_run_for
from ranklens._keyset import KeySet
from ranklens._qrels_index import qrels_index

MEASURES = ["AP", "RR@10", "nDCG@10", "P@5", "R@20", "Rprec", "bpref", "nDCG(ties=average)@5",
            "num_rel_ret", "success@3"]


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks of a few lines, so ties and queries cross block boundaries."""
    monkeypatch.setattr(_trec, "_BLOCK", 120)


def _write(tmp_path: Path, seed: int, *, rise: bool = False,
           duplicate: bool = False) -> tuple[Path, Path]:
    rng = np.random.default_rng(seed)
    run, qrels = [], []
    for n, q in enumerate(rng.permutation(8)):
        depth = int(rng.integers(3, 25))
        scores = np.sort(rng.integers(0, 6, size=depth))[::-1] / 2  # many ties
        if rise and n == 4:
            scores[-1] = scores[0] + 1  # a query not written best first
        docs = [f"d{int(d)}" for d in rng.choice(400, size=depth, replace=False)]
        if duplicate and n == 2 and depth > 2:
            docs[-1] = docs[1]
        for rank, (doc, s) in enumerate(zip(docs, scores, strict=True), 1):
            run.append(f"q{q} Q0 {doc} {rank} {s} tag")
        # every query judged (none ignored): some of its docs, some others (judged here,
        # ranked for another query, maybe)
        judged = [*rng.choice(docs, size=min(depth, 4), replace=False),
                  *(f"d{int(d)}" for d in rng.choice(400, size=4, replace=False))]
        for doc in dict.fromkeys(judged):
            qrels.append(f"q{q} 0 {doc} {int(rng.integers(0, 3))}")
    qrels.append("q99 0 d1 1")  # a judged query absent from the run
    run_path, qrels_path = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run_path.write_text("\n".join(run) + "\n")
    qrels_path.write_text("\n".join(qrels) + "\n")
    return qrels_path, run_path


def _both(qrels_path: Path, run_path: Path, *, read_again: bool = False,
          **options: object) -> tuple[dict, dict]:
    """Per-query values from the run read whole and read for the judgments; whether the
    latter had to read the file again is checked against ``read_again``."""
    whole = ranklens.evaluate(load_qrels(qrels_path), load_run(run_path), MEASURES,
                              missing="zero", **options)
    qrels = load_qrels(qrels_path)
    run = load_run_for(qrels, run_path)
    judged = ranklens.evaluate(qrels, run, MEASURES, missing="zero", **options)
    assert (run._partial is None) == read_again
    return ({m: whole.per_query(m) for m in MEASURES},
            {m: judged.per_query(m) for m in MEASURES})


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("ties", ["docid", "input", "average"])
def test_results_equal_those_of_the_whole_run(tmp_path: Path, small_blocks: None, seed: int,
                                              ties: str) -> None:
    qrels_path, run_path = _write(tmp_path, seed)
    whole, judged = _both(qrels_path, run_path, ties=ties)
    assert judged == whole
    assert judged == _both(qrels_path, run_path, ties=ties)[1]  # read for the judgments


@pytest.mark.parametrize("seed", range(4))
def test_a_score_rise_keeps_the_results_exact(tmp_path: Path, small_blocks: None,
                                              seed: int) -> None:
    qrels_path, run_path = _write(tmp_path, seed, rise=True)
    whole, judged = _both(qrels_path, run_path, read_again=True)
    assert judged == whole


@pytest.mark.parametrize("seed", range(4))
def test_a_repeated_unjudged_doc_is_still_found(tmp_path: Path, small_blocks: None,
                                                seed: int) -> None:
    qrels_path, run_path = _write(tmp_path, seed, duplicate=True)
    with pytest.raises(InputError) as whole:
        ranklens.evaluate(load_qrels(qrels_path), load_run(run_path), "AP", missing="zero")
    with pytest.raises(InputError) as judged:
        ranklens.evaluate(qrels_path, run_path, "AP", missing="zero")
    assert str(judged.value) == str(whole.value)
    assert "more than once" in str(judged.value)
    first = _both(qrels_path, run_path, read_again=True, duplicates="first")
    assert first[1] == first[0]


def test_only_rows_that_can_matter_keep_their_doc_ids(tmp_path: Path) -> None:
    run_path = tmp_path / "run.txt"
    run_path.write_text("".join(
        f"q1 Q0 d{i} {i} {s} tag\n" for i, s in enumerate([9, 8, 8, 7, 6, 5, 4, 3, 2, 1])))
    qrels = load_qrels({"q1": {"d5": 1}, "q2": {"d7": 0}})
    run = load_run_for(qrels, run_path)
    assert run._partial is not None
    # the first and last rows, the tie (rows 1-2), and the doc ids judged for any query
    assert run._partial[0].tolist() == [0, 1, 2, 5, 7, 9]
    assert run.doc_ids_at(np.array([2, 5])).to_list() == ["d2", "d5"]
    assert run.doc_id.to_list() == [f"d{i}" for i in range(10)]  # read again, whole
    assert run._partial is None


def test_a_run_not_written_best_first_keeps_the_rest(tmp_path: Path) -> None:
    run_path = tmp_path / "run.txt"
    run_path.write_text("q1 Q0 a 1 1 t\nq1 Q0 b 2 3 t\nq1 Q0 c 3 2 t\n")
    run = load_run_for(load_qrels({"q1": {"zz": 1}}), run_path)
    assert run._partial is None
    assert run.doc_id.to_list() == ["a", "b", "c"]


def test_standard_input_and_compressed_files_keep_every_doc_id(tmp_path: Path) -> None:
    import gzip

    run_path = tmp_path / "run.txt.gz"
    run_path.write_bytes(gzip.compress(b"q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq1 Q0 c 3 1 t\n"))
    run = load_run_for(load_qrels({"q1": {"zz": 1}}), run_path)
    assert run._partial is None
    assert run.doc_id.to_list() == ["a", "b", "c"]


@pytest.mark.parametrize("change", ["rewrite", "remove"])
def test_a_file_changed_before_it_is_read_again_is_reported(tmp_path: Path,
                                                            change: str) -> None:
    run_path = tmp_path / "run.txt"
    run_path.write_text("q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq1 Q0 c 3 1 t\n")
    run = load_run_for(load_qrels({"q1": {"zz": 1}}), run_path)
    assert run._partial is not None
    if change == "rewrite":
        run_path.write_text("q1 Q0 x 1 3 t\nq1 Q0 y 2 2 t\nq1 Q0 z 3 1 t\n")
        os.utime(run_path, ns=(1, 1))
    else:
        run_path.unlink()
    with pytest.raises(InputError, match="the file changed after it was read") as exc:
        _ = run.doc_id
    assert str(run_path) in str(exc.value)


def test_the_cli_reads_runs_for_its_judgments(tmp_path: Path, small_blocks: None,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    from cli_support import run

    qrels_path, run_path = _write(tmp_path, 3)
    out = run(["evaluate", str(qrels_path), str(run_path), "-m", "AP", "-m", "nDCG@10",
               "--format", "csv", "--per-query", "--missing", "zero"], capsys)
    assert out.code == 0, out.err
    whole = ranklens.evaluate(load_qrels(qrels_path), load_run(run_path), ["AP", "nDCG@10"],
                              missing="zero")
    rows = [line.split(",") for line in out.out.splitlines()]
    assert rows[0] == ["run", "query", "AP", "nDCG@10"]
    assert len(rows) == len(whole.query_ids) + 2
    for _, query, ap, ndcg in rows[1:-1]:
        assert float(ap) == pytest.approx(whole.per_query("AP")[query], abs=1e-12)
        assert float(ndcg) == pytest.approx(whole.per_query("nDCG@10")[query], abs=1e-12)


def test_a_run_whose_doc_ids_are_mostly_judged_keeps_them_all(
        tmp_path: Path, small_blocks: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_trec, "_SETTLED", 10)
    qrels_path, run_path = _write(tmp_path, 1)
    # every doc id is judged for some query: looking them up saves nothing
    qrels_path.write_text(qrels_path.read_text() + "".join(
        f"q98 0 d{i} 0\n" for i in range(400)))
    hashes = qrels_index(load_qrels(qrels_path)).doc_hash
    parts = _trec._RunParts.read(_trec._file_blocks(str(run_path)), run_path.stat().st_size,
                                 KeySet(hashes))
    assert parts is not None
    assert parts.judged is None  # it stopped looking doc ids up
    assert parts.doc_rows is None  # ...and, having kept every one, tracking which
    whole, judged = _both(qrels_path, run_path, read_again=True)
    assert judged == whole
