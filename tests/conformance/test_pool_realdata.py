"""``pool`` on the real TREC 2003 Robust runs equals a set computation over the run files.

The pairs of a depth-k pool are read straight from the files: each run's rows of each
query sorted by score descending, then doc id descending (trec_eval's order), the first k
kept, the union taken, the judged pairs removed.
"""

from __future__ import annotations

import gzip
import os
from collections import defaultdict
from pathlib import Path

import pytest
from cli_support import run as run_cli
from conftest import conformance_root

import ranklens

ROBUST = conformance_root().parent / "realdata" / "robust03"
RUNS = ["InexpC2", "NLPR03vb10", "humR03dc", "uwmtCR0", "pircRBa1"]


def _need_data() -> None:
    if not ROBUST.is_dir():  # CI fails without it, a plain checkout skips
        if os.environ.get("CI"):
            pytest.fail(f"the real data is not at {ROBUST}")
        pytest.skip(f"the real data is not at {ROBUST}")


def _top(path: Path, depth: int) -> set[tuple[str, str]]:
    rows: dict[str, list[tuple[float, str]]] = defaultdict(list)
    with gzip.open(path, "rt") as f:
        for line in f:
            q, _, doc, _, score, _ = line.split()
            rows[q].append((float(score), doc))
    out = set()
    for q, docs in rows.items():
        docs.sort(reverse=True)  # score descending, then doc id descending: trec_eval
        out.update((q, doc) for _, doc in docs[:depth])
    return out


def _judged() -> set[tuple[str, str]]:
    with gzip.open(ROBUST / "robust03_qrels.txt.gz", "rt") as f:
        return {(q, doc) for q, _, doc, _ in (line.split() for line in f)}


@pytest.mark.parametrize("depth", [1, 10, 100])
def test_pool_equals_the_union_of_the_top_k_less_the_judged(depth: int) -> None:
    _need_data()
    paths = [ROBUST / f"input.{name}.gz" for name in RUNS]
    want = set().union(*(_top(p, depth) for p in paths))
    assert ranklens.pool([str(p) for p in paths], depth=depth).pairs() == want
    judged = _judged()
    got = ranklens.pool([str(p) for p in paths], depth=depth,
                        qrels=str(ROBUST / "robust03_qrels.txt.gz"))
    assert got.pairs() == want - judged
    assert got.judged == len(want & judged)


def test_the_cli_pool_writes_the_same_pairs_and_merging_back_is_idempotent(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _need_data()
    paths = [str(ROBUST / f"input.{name}.gz") for name in RUNS]
    out = tmp_path / "pool.txt"
    result = run_cli(["pool", *paths, "--depth", "20", "-o", str(out)], capsys)
    assert result.code == 0, result.err
    lines = [line.split() for line in out.read_text().splitlines()]
    assert {(q, d) for q, _, d, _ in lines} == set().union(
        *(_top(Path(p), 20) for p in paths))
    assert {grade for *_, grade in lines} == {"?"}
    # an assessor's grades, merged into judgments that hold part of the pool already
    graded = {}
    for i, (q, _, d, _) in enumerate(lines):
        graded.setdefault(q, {})[d] = i % 3
    half = {q: dict(list(docs.items())[: len(docs) // 2]) for q, docs in graded.items()}
    once = ranklens.merge_judgments(half, graded)
    twice = ranklens.merge_judgments(once, graded)
    assert once.frame.rows() == twice.frame.rows()
    assert {(q, d) for q, d, _ in once.frame.rows()} == {(q, d) for q, _, d, _ in lines}
