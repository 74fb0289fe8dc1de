"""The benchmark's DuckDB SQL (benchmarks/tool_duckdb.py) equals ranklens per query on P@10,
nDCG@10 and AP, so the SQL the benchmark times cannot drift from what it claims to compute:
random data with tied scores, graded and non-relevant judgments, judged queries without a
relevant document, queries only in the run and only in the qrels; TREC text (spaces and
tabs) and Parquet."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import ranklens

duckdb = pytest.importorskip("duckdb")

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def sql() -> Iterator[ModuleType]:
    sys.path.insert(0, str(BENCH))
    try:
        import tool_duckdb as module

        yield module
    finally:
        sys.path.remove(str(BENCH))


def write_random(folder: Path, seed: int, sep: str = " ") -> tuple[Path, Path]:
    """Seeded TREC files: 30 queries, ids sharing prefixes (byte order matters), scores
    rounded to one decimal (many ties), grades 0-3, some queries judged only non-relevant,
    some only in the run or only in the qrels."""
    rng = np.random.default_rng(seed)
    docs = [f"d{i}" for i in range(60)] + [f"D{i:03d}" for i in range(20)]
    qrels_lines, run_lines = [], []
    for q in range(30):
        qid = f"q{q}"
        judged = rng.choice(len(docs), size=rng.integers(1, 25), replace=False)
        top = 0 if q % 7 == 3 else 4  # some queries judged, none relevant
        if q % 11 != 5:  # some queries only in the run
            qrels_lines += [f"{qid}{sep}0{sep}{docs[d]}{sep}{rng.integers(0, top)}"
                            for d in judged] if top else \
                [f"{qid}{sep}0{sep}{docs[d]}{sep}0" for d in judged]
        if q % 13 == 6:  # some queries only in the qrels
            continue
        ranked = rng.choice(len(docs), size=rng.integers(1, 40), replace=False)
        scores = np.round(rng.normal(0, 1, size=len(ranked)), 1)
        run_lines += [f"{qid}{sep}Q0{sep}{docs[d]}{sep}{i + 1}{sep}{s!r}{sep}t"
                      for i, (d, s) in enumerate(zip(ranked, scores.tolist(), strict=True))]
    order = rng.permutation(len(run_lines))  # lines out of rank order
    qrels, run = folder / "qrels.txt", folder / "run.txt"
    qrels.write_text("\n".join(qrels_lines) + "\n")
    run.write_text("\n".join(run_lines[i] for i in order) + "\n")
    return qrels, run


def as_parquet(qrels: Path, run: Path) -> tuple[Path, Path]:
    q = ranklens.load_qrels(qrels).frame.select("query_id", "doc_id", "relevance")
    r = ranklens.load_run(run).frame.select("query_id", "doc_id", "score")
    q.write_parquet(qrels.with_suffix(".parquet"))
    r.write_parquet(run.with_suffix(".parquet"))
    return qrels.with_suffix(".parquet"), run.with_suffix(".parquet")


def expected(qrels: Path, run: Path) -> dict[str, dict[str, float]]:
    result = ranklens.evaluate(qrels, run, list(("P@10", "nDCG@10", "AP")), missing="skip")
    by_measure = {m: result.per_query(m) for m in ("P@10", "nDCG@10", "AP")}
    return {q: {m: by_measure[m][q] for m in by_measure} for q in by_measure["AP"]}


@pytest.mark.filterwarnings("ignore:.*have no judgments:ranklens.RanklensWarning")
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("form", ["spaces", "tabs", "parquet"])
def test_sql_equals_ranklens_per_query(sql: ModuleType, tmp_path: Path, seed: int,
                                       form: str) -> None:
    qrels, run = write_random(tmp_path, seed, "\t" if form == "tabs" else " ")
    want = expected(qrels, run)
    if form == "parquet":
        qrels, run = as_parquet(qrels, run)
    con = duckdb.connect()
    got = sql.per_query(con, qrels, run)
    assert set(got) == set(want)
    for q, values in want.items():
        for m, v in values.items():
            assert got[q][m] == pytest.approx(v, abs=1e-12), (q, m)
    means = sql.evaluate(con, qrels, run)
    for m in means:
        assert means[m] == pytest.approx(np.mean([want[q][m] for q in want]), abs=1e-12)


def test_closed_form(sql: ModuleType, tmp_path: Path) -> None:
    """One query by hand: d3 (grade 2) and d1 (grade 1) relevant, d9 judged relevant but not
    retrieved; the run ties d1 and d2 at 0.5 (d2 first: doc id descending)."""
    (tmp_path / "qrels.txt").write_text("q 0 d1 1\nq 0 d3 2\nq 0 d9 1\nq 0 d2 0\n")
    (tmp_path / "run.txt").write_text("q Q0 d1 1 0.5 t\nq Q0 d2 2 0.5 t\nq Q0 d3 3 0.9 t\n")
    got = sql.per_query(duckdb.connect(), tmp_path / "qrels.txt",
                        tmp_path / "run.txt")["q"]
    # ranking d3, d2, d1: relevant at ranks 1 and 3
    assert got["P@10"] == pytest.approx(2 / 10)
    assert got["AP"] == pytest.approx((1 / 1 + 2 / 3) / 3)
    dcg = 2 / np.log2(2) + 1 / np.log2(4)
    idcg = 2 / np.log2(2) + 1 / np.log2(3) + 1 / np.log2(4)
    assert got["nDCG@10"] == pytest.approx(dcg / idcg)


def test_sql_workload_on_parquet_runs_and_agrees(tmp_path: Path) -> None:
    """benchmarks/run.py's sql workload end to end on the tiny preset's Parquet copies: all
    four variants run, and each one's means pass the benchmark's own 1e-9 check."""
    import json
    import os
    import subprocess

    shared = Path(os.environ.get("RANKLENS_SHARED_DIR", BENCH.parent.parent / "shared"))
    if not (shared / "bench" / "make_trec_data.py").exists():
        message = f"benchmark data generator not found under {shared}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    report = tmp_path / "report.json"
    proc = subprocess.run(
        [sys.executable, str(BENCH / "run.py"), "--preset", "tiny", "--workload", "sql",
         "--data-format", "parquet", "--reps", "1", "--warmup", "0", "--cache",
         str(tmp_path / "cache"), "--json", str(report)],
        capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "cache" / "tiny-parquet" / "run1.parquet").exists()
    rows = json.loads(report.read_text())["tiny"]
    assert {r["tool"] for r in rows} == {"ranklens", "ranklens (limit 512MB)", "duckdb",
                                         "duckdb (limit 512MB)"}
    for row in rows:
        assert "error" not in row, row
        assert row["agree"], row
        assert 0 < row["values"]["AP"] < 1
