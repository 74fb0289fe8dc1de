"""The real-data and generator-variant benchmark workloads (benchmarks/workloads.py), the
``--targets`` table and the per-phase profile: the data is what it claims to be, and every
tool's values agree (not timing tests: one round, timings are not asserted)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import ranklens

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks"
SHARED = Path(os.environ.get("RANKLENS_SHARED_DIR", ROOT.parent / "shared"))
MEASURES = ["AP", "nDCG@10", "P@10", "R@1000", "Rprec", "RR"]


@pytest.fixture(scope="module")
def workloads() -> Iterator[object]:
    if not (SHARED / "realdata").exists() or not (SHARED / "bench").exists():
        message = f"shared real data or generator not found under {SHARED}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    sys.path.insert(0, str(BENCH))
    try:
        import workloads as module

        yield module
    finally:
        sys.path.remove(str(BENCH))


def _aggregates(qrels: Path, run: object) -> dict[str, float]:
    return dict(ranklens.evaluate(qrels, run, MEASURES, missing="zero"))


def test_robust13_is_the_13_runs_under_prefixed_query_ids(workloads, tmp_path: Path) -> None:
    w = workloads.robust13(tmp_path)
    assert workloads.count_lines(w.run) == 1_110_973
    assert workloads.count_lines(w.qrels) == 13 * 128_796
    assert w.run.open().readline().startswith("InexpC2_303\t")
    assert w.qrels.open().readline().startswith("InexpC2_303 0 ")
    # every prefixed query is judged and holds one run's ranking: the mean over the 1,300
    # queries is the mean of the 13 runs' means (100 queries each)
    many = workloads.robust17(tmp_path)
    apart = ranklens.evaluate(many.qrels, {str(p): p for p in many.runs[:13]}, MEASURES,
                              missing="zero")
    together = _aggregates(w.qrels, w.run)
    for m in MEASURES:
        mean = sum(dict(apart[str(p)])[m] for p in many.runs[:13]) / 13
        assert together[m] == pytest.approx(mean, abs=1e-12), m
    # the four extra runs are perturbed copies: same lines' documents, other scores and order
    noisy = many.runs[13].read_text().splitlines()
    real = many.runs[0].read_text().splitlines()
    assert len(noisy) == len(real) == 100_000
    assert noisy != real
    assert {tuple(x.split()[:3:2]) for x in noisy} == {tuple(x.split()[:3:2]) for x in real}


def test_generator_variants_and_doubling_keep_the_values(workloads, tmp_path: Path) -> None:
    base = workloads.generated(tmp_path, "small", ["--queries", "40", "--depth", "200",
                                                  "--judged", "300", "--grades", "4"])
    assert workloads.count_lines(base.qrels) > 40 * 200  # hundreds of judgments per query
    messy = workloads.variant(tmp_path, base, shuffle=True, tabs=True)
    lines = messy.run.read_text().splitlines()
    assert all("\t" in x and " " not in x for x in lines)
    assert lines != [
        "\t".join(x.split()) for x in base.run.read_text().splitlines()]  # reordered
    assert sorted(lines) == sorted("\t".join(x.split())
                                   for x in base.run.read_text().splitlines())
    # ties broken by doc id: the line order and the separators change nothing
    assert _aggregates(messy.qrels, messy.run) == _aggregates(base.qrels, base.run)
    tied = workloads.variant(tmp_path, base, ties=0)
    scores = [x.split()[4] for x in tied.run.read_text().splitlines()]
    assert all("." not in s for s in scores) and len(set(scores)) < 40
    # two prefixed copies: twice the lines, the same means
    two = workloads.doubled(tmp_path, tied)
    assert workloads.count_lines(two.run) == 2 * workloads.count_lines(tied.run)
    one_v, two_v = _aggregates(tied.qrels, tied.run), _aggregates(two.qrels, two.run)
    for m in MEASURES:
        assert two_v[m] == pytest.approx(one_v[m], abs=1e-12), m
    # three copies, ids moved up by the generator's range (recsys x30): 3x the lines, same means
    three = workloads.copies(tmp_path, tied, 3, "three")
    assert workloads.count_lines(three.run) == 3 * workloads.count_lines(tied.run)
    base_lines = tied.qrels.read_text().splitlines()
    three_lines = three.qrels.read_text().splitlines()
    moved = [[f"{int(x.split()[0]) + i * workloads.GENERATOR_QUERY_IDS}", *x.split()[1:]]
             for i in (1, 2) for x in base_lines]
    assert three_lines == [*base_lines, *(" ".join(x) for x in moved)]
    # integer query ids, as the generator's are, three times as many
    qids = {x.split()[0] for x in three_lines}
    assert all(q.isdigit() for q in qids)
    assert len(qids) == 3 * len({x.split()[0] for x in base_lines})
    three_v = _aggregates(three.qrels, three.run)
    for m in MEASURES:
        assert three_v[m] == pytest.approx(one_v[m], abs=1e-12), m


def test_targets_table_runs_and_tools_agree(workloads, tmp_path: Path) -> None:
    out = tmp_path / "targets.json"
    proc = subprocess.run(
        [sys.executable, str(BENCH / "run.py"), "--targets", "--only", "trecdl,dl19-ties,robust17",
         "--reps", "1", "--warmup", "0", "--tools", "ranklens,pytrec_eval",
         "--cache", str(tmp_path / "cache"), "--json", str(out)],
        capture_output=True, text=True, timeout=1200,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(out.read_text())
    rows = {r["workload"]: r for r in report["targets"]}
    assert set(rows) == {"trecdl", "dl19-ties", "robust17"}
    assert rows["robust17"]["run_files"] == 17 and rows["robust17"]["target_wall"] == 0.3
    assert rows["dl19-ties"]["run_lines"] == 43_000
    for row in rows.values():
        assert row["tools"]["ranklens"]["agree"], row
        peer = row["tools"]["pytrec_eval"]
        # pytrec_eval rounds scores to float32; where that moves a value, it must agree
        # with ranklens on float32 scores
        assert peer["agree"] or peer["agree_own_order"], peer
        assert row["wall_ratio"] > 0 and row["rss_ratio"] > 0
    assert rows["trecdl"]["target_wall"] == 0.75 and isinstance(rows["trecdl"]["met"], bool)
    doubling = {d["workload"]: d for d in report["doubling"]}
    assert set(doubling) == {"trecdl"} and doubling["trecdl"]["x2_s"] > 0
    table = subprocess.run([sys.executable, str(BENCH / "run.py"), "--markdown", str(out)],
                           capture_output=True, text=True, check=True).stdout
    assert "| robust17 | 1,510,973 (17 files) | 128,796 | wall <= 0.3x |" in table
    assert "| doubling (ranklens CLI) |" in table


def test_phases_profile_names_every_phase(workloads, tmp_path: Path) -> None:
    out = tmp_path / "phases.json"
    subprocess.run([sys.executable, str(BENCH / "phases.py"), "--only", "dl19", "--cache",
                    str(tmp_path / "cache"), "--json", str(out)],
                   capture_output=True, text=True, check=True, timeout=600)
    (row,) = json.loads(out.read_text())
    phases = row["phases"]
    assert {"interpreter", "import", "read qrels", "read run", "render+write"} <= set(phases)
    assert {"index/align", "compute", "plan+assemble"} <= set(phases) or "evaluate" in phases
    assert all(v >= 0 for v in phases.values())
    assert row["sum_s"] == pytest.approx(sum(phases.values()))
    assert row["run_mb"] == pytest.approx((tmp_path / "cache" / "dl19" / "run1.txt").stat()
                                          .st_size / 1e6)


def test_each_peer_equals_ranklens_given_its_own_ranking_of_ties(workloads,
                                                                 tmp_path: Path) -> None:
    """dl19-ties (whole groups of ~100 documents tie): ranx and ir_measures differ from
    trec_eval's ranking there, and equal ranklens given their own (peer_orders.py)."""
    ranx = pytest.importorskip("ranx")
    ir_measures = pytest.importorskip("ir_measures")
    sys.path.insert(0, str(BENCH))
    try:
        import peer_orders
    finally:
        sys.path.remove(str(BENCH))
    w = workloads.dl19(tmp_path, ties=2)
    names = ["AP", "nDCG@10", "P@10", "Rprec", "RR@10"]
    default = _aggregates(w.qrels, w.run) | dict(ranklens.evaluate(w.qrels, w.run, ["RR@10"]))

    got = ranx.evaluate(ranx.Qrels.from_file(str(w.qrels), kind="trec"),
                        ranx.Run.from_file(str(w.run), kind="trec"),
                        ["map", "ndcg@10", "precision@10", "r-precision", "mrr@10"])
    ranx_values = dict(zip(names, map(float, got.values()), strict=True))
    (own,) = peer_orders.reference("ranx", w.qrels, [w.run], names)
    assert max(abs(ranx_values[m] - default[m]) for m in names) > 1e-3
    assert ranx_values == pytest.approx(own, abs=1e-12)

    measures = [ir_measures.parse_measure(m) for m in names]
    got = ir_measures.calc_aggregate(measures, ir_measures.read_trec_qrels(str(w.qrels)),
                                     ir_measures.read_trec_run(str(w.run)))
    irm_values = {str(k): float(v) for k, v in got.items()}
    (own,) = peer_orders.reference("ir_measures", w.qrels, [w.run], names)
    assert abs(irm_values["RR@10"] - default["RR@10"]) > 1e-3
    assert irm_values == pytest.approx(own, abs=1e-12)
