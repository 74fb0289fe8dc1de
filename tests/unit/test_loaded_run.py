"""A loaded run holds everything evaluation reads: no file I/O after loading.

The TREC run reader parses a plain file a block of lines at a time; the run it gives back
holds every row's doc id, score and query, so evaluating it (any measures, any judgments,
any tie policy, any duplicates policy) never opens the file again, and the results equal
those of the same run built in memory.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import ranklens
from ranklens import InputError, load_qrels, load_run
from ranklens._ingest.io.trec import files

MEASURES = ["AP", "RR@10", "nDCG@10", "P@5", "R@20", "Rprec", "bpref", "nDCG(ties=average)@5",
            "num_rel_ret", "success@3"]


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks of a few lines, so ties and queries cross block boundaries."""
    monkeypatch.setattr(files, "BLOCK", 120)


def _write(tmp_path: Path, seed: int, *, rise: bool = False,
           duplicate: bool = False) -> tuple[Path, Path, dict]:
    """A qrels and a run file, and the run as a nested mapping."""
    rng = np.random.default_rng(seed)
    run, qrels = [], []
    mapping: dict[str, dict[str, float]] = {}
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
        kept = mapping.setdefault(f"q{q}", {})
        for doc, s in zip(docs, scores, strict=True):
            kept.setdefault(doc, float(s))  # a repeated doc: its first occurrence
        judged = [*rng.choice(docs, size=min(depth, 4), replace=False),
                  *(f"d{int(d)}" for d in rng.choice(400, size=4, replace=False))]
        for doc in dict.fromkeys(judged):
            qrels.append(f"q{q} 0 {doc} {int(rng.integers(0, 3))}")
    qrels.append("q99 0 d1 1")  # a judged query absent from the run
    run_path, qrels_path = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run_path.write_text("\n".join(run) + "\n")
    qrels_path.write_text("\n".join(qrels) + "\n")
    return qrels_path, run_path, mapping


def _per_query(qrels: object, run: object, **options: object) -> dict:
    result = ranklens.evaluate(qrels, run, MEASURES, missing="zero", **options)
    return {m: result.per_query(m) for m in MEASURES}


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("ties", ["docid", "input", "average"])
def test_a_run_file_evaluates_after_the_file_is_gone(tmp_path: Path, small_blocks: None,
                                                     seed: int, ties: str) -> None:
    qrels_path, run_path, mapping = _write(tmp_path, seed)
    qrels = load_qrels(qrels_path)
    run = load_run(run_path)
    run_path.unlink()  # nothing may read it again
    got = _per_query(qrels, run, ties=ties)
    assert got == _per_query(qrels, load_run(mapping, name="tag"), ties=ties)
    assert run.doc_id.to_list() == [d for docs in mapping.values() for d in docs]
    assert run.frame.height == len(run)


@pytest.mark.parametrize("seed", range(3))
def test_a_score_rise_keeps_the_results_exact(tmp_path: Path, small_blocks: None,
                                              seed: int) -> None:
    qrels_path, run_path, mapping = _write(tmp_path, seed, rise=True)
    run = load_run(run_path)
    run_path.unlink()
    assert _per_query(qrels_path, run) == _per_query(qrels_path, mapping)


@pytest.mark.parametrize("seed", range(3))
def test_a_repeated_unjudged_doc_is_found_without_the_file(tmp_path: Path, small_blocks: None,
                                                           seed: int) -> None:
    qrels_path, run_path, mapping = _write(tmp_path, seed, duplicate=True)
    run = load_run(run_path)
    run_path.unlink()
    with pytest.raises(InputError, match="more than once") as exc:
        ranklens.evaluate(qrels_path, run, "AP", missing="zero")
    assert str(run_path) in str(exc.value)
    kept = _per_query(qrels_path, run, duplicates="first")
    # the mapping holds each (query, doc) once: the first, highest-ranked occurrence
    assert kept == _per_query(qrels_path, mapping, duplicates="first")


def test_one_run_evaluates_the_same_against_different_judgments(tmp_path: Path) -> None:
    run_path = tmp_path / "run.txt"
    run_path.write_text("".join(
        f"q1 Q0 d{i} {i} {s} tag\n" for i, s in enumerate([9, 8, 8, 7, 6, 5, 4, 3, 2, 1])))
    run = load_run(run_path)
    run_path.unlink()
    first = ranklens.evaluate({"q1": {"d5": 1}}, run, ["AP", "P@3"])
    second = ranklens.evaluate({"q1": {"d0": 1, "d2": 1}}, run, ["AP", "P@3"])
    assert first["AP"] == pytest.approx(1 / 6)
    assert second["AP"] == pytest.approx((1 / 1 + 2 / 2) / 2)  # ties: d2 before d1
    assert second["P@3"] == pytest.approx(2 / 3)
    assert run.doc_ids_at(np.array([2, 5])).to_list() == ["d2", "d5"]


def test_the_cli_evaluates_run_files(tmp_path: Path, small_blocks: None,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    from cli_support import run

    qrels_path, run_path, _ = _write(tmp_path, 3)
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
