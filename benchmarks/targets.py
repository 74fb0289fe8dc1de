"""The speed issue's targets, measured: ``python benchmarks/run.py --targets``.

Every workload of the target list (plus the real-data and generator-variant workloads that
have no target of their own, for the agreement check) runs as whole processes from the same
uncompressed files: the ``ranklens evaluate`` CLI against pytrec_eval's driver, alternating,
``--warmup`` untimed rounds then ``--reps`` timed ones; the medians give the wall and peak-RSS
ratios the targets are stated in (no warm-up round above a million run lines: counting the
lines has put the files in the page cache, and a round there costs minutes). ranx and
ir_measures run once per workload, for the agreement check (their single wall time is
shown, not a median). "17 runs" is one ranklens
process given all 17 run files against seventeen pytrec_eval processes, one per run (sum
of their walls, largest of their peak RSS). Doubling: ranklens's whole process on the 2x of
each target workload (two copies, query ids prefixed), ``--reps`` rounds right after the 1x
rounds, whose median is the 1x time.

Every tool's values are compared with ranklens's in-process reference to 1e-9 (run.py's
agreement check: where a peer's convention differs, the matching ranklens measure and a note);
a peer that differs is compared again with ranklens given the peer's own ranking of tied
scores (``peer_orders.py``), and one that differs there too fails the command.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import peer_orders
from measures import MEASURES, reference_measures
from workloads import (
    Workload,
    count_lines,
    dl19,
    doubled,
    generated,
    robust1,
    robust13,
    robust17,
    variant,
)

HERE = Path(__file__).resolve().parent
TOLERANCE = 1e-9
PEERS = ("pytrec_eval", "ranx", "ir_measures")
DOUBLING = 2.1
#: workloads with fewer run lines than this get the --warmup rounds
WARMUP_BELOW = 1_000_000


@dataclass(frozen=True)
class Target:
    """A workload and the ratios to pytrec_eval's whole process it should reach."""

    name: str
    make: Callable[[Path], Workload]
    wall: float | None = None  # ranklens / pytrec_eval, medians
    rss: float | None = None
    doubling: bool = False
    what: str = ""


TARGETS = (
    Target("trecdl", lambda c: generated(c, "trecdl", ["--preset", "trecdl"]), 0.75,
           doubling=True, what="generator preset: 43 queries x 1000, ~9k judgments"),
    Target("robust1", robust1, 0.5, doubling=True,
           what="one real Robust 2003 run (InexpC2), 128k judgments"),
    Target("robust13", robust13, 0.2, 0.5, doubling=True,
           what="13 Robust runs concatenated, qids prefixed by run"),
    Target("robust13x4", lambda c: robust13(c, 4), 0.2, 0.5, doubling=True,
           what="robust13 four times, qids prefixed by copy"),
    Target("msmarco", lambda c: generated(c, "msmarco", ["--preset", "msmarco"]), 0.1, 0.5,
           doubling=True, what="generator preset: 6980 queries x 1000, 1 judgment each"),
    Target("recsys", lambda c: generated(c, "recsys", ["--preset", "recsys"]), 0.2, 0.5,
           doubling=True, what="generator preset from files: 100k queries x 100, ~1M judgments"),
    Target("robust17", robust17, 0.3,
           what="17 runs (13 real Robust + 4 perturbed) against one qrels; pytrec_eval: "
                "17 processes"),
    # no target of their own: real shapes and generator variants, for speed and agreement
    Target("dl19", dl19, what="TREC DL 2019 RepLLaMA run (43k lines, 3-decimal scores)"),
    Target("dl19-ties", lambda c: dl19(c, ties=2),
           what="dl19 with scores rounded to 2 decimals: whole groups tie"),
    Target("judged500", lambda c: generated(
        c, "judged500", ["--queries", "300", "--depth", "1000", "--judged", "500",
                         "--grades", "4"]),
        what="generator: 300 queries x 1000, ~500 graded judgments per query"),
    Target("judged500-messy", lambda c: variant(
        c, generated(c, "judged500", ["--queries", "300", "--depth", "1000", "--judged", "500",
                                      "--grades", "4"]), shuffle=True, tabs=True, ties=1),
        what="judged500 with lines shuffled (seed 13), tab separators, scores rounded to 1 "
             "decimal"),
)


@dataclass
class Job:
    """One tool on one workload: one process, or several whose walls add up."""

    label: str
    tool: str
    cmds: list[list[str]]
    outs: list[Path]
    once: bool = False
    seconds: list[float] = field(default_factory=list)
    rss_mb: list[float] = field(default_factory=list)
    values: list[dict[str, float]] = field(default_factory=list)
    error: str = ""


def ranklens_cmd(cli: str, qrels: Path, runs: tuple[Path, ...], out: Path) -> list[str]:
    measures = [arg for m in MEASURES for arg in ("-m", m)]
    return [cli, "evaluate", str(qrels), *map(str, runs), *measures, "--format", "jsonl",
            "-o", str(out)]


def peer_cmd(tool: str, qrels: Path, run: Path, out: Path) -> list[str]:
    return [sys.executable, str(HERE / f"tool_{tool}.py"), "files", str(qrels), str(run),
            str(out)]


def cli_values(path: Path, runs: tuple[Path, ...]) -> list[dict[str, float]]:
    """Aggregates per run (in the order given) from ``ranklens evaluate --format jsonl``."""
    by_run: dict[str, dict[str, float]] = {}
    for line in path.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            if row.get("query", "all") == "all":
                by_run.setdefault(row.get("run", ""), {})[row["measure"]] = float(row["value"])
    # the rows come run by run in the order given; their names (file names since the run
    # names change, paths before) are not needed
    values = list(by_run.values())
    return [*values[:len(runs)], *[{}] * (len(runs) - len(values))]


def execute(job: Job, spawn: Callable) -> None:
    wall = rss = 0.0
    for cmd in job.cmds:
        w, r, err = spawn(cmd)
        if err:
            job.error = err.strip().splitlines()[-1] if err.strip() else "failed"
            return
        wall, rss = wall + w, max(rss, r)
    job.seconds.append(wall)
    job.rss_mb.append(rss)


def read_values(job: Job, runs: tuple[Path, ...]) -> None:
    if job.error or not job.seconds:
        return
    if job.tool == "ranklens":
        job.values = cli_values(job.outs[0], runs)
    else:
        job.values = [json.loads(o.read_text())["values"] for o in job.outs]


def rounds(jobs: list[Job], reps: int, warmup: int, spawn: Callable, name: str) -> None:
    """Warm-up then timed rounds, the order reversed every round (no tool always runs on
    the warmer page cache); ``once`` jobs run in the first timed round only."""
    for rep in range(warmup + reps):
        order = jobs if rep % 2 == 0 else jobs[::-1]
        for job in order:
            if job.error or (job.once and rep != warmup):
                continue
            before = len(job.seconds)
            execute(job, spawn)
            if rep < warmup and len(job.seconds) > before:
                job.seconds.pop()
                job.rss_mb.pop()
                print(f"  {name:<16} {job.label:<14} warm-up", flush=True)
            elif job.seconds and len(job.seconds) > before:
                print(f"  {name:<16} {job.label:<14} {job.seconds[-1]:8.2f} s "
                      f"{job.rss_mb[-1]:7.0f} MB", flush=True)
            elif job.error:
                print(f"  {name:<16} {job.label:<14} FAILED: {job.error}", flush=True)


def reference(w: Workload) -> list[dict[str, float]]:
    """ranklens's values of every compared measure, per run, from a separate process."""
    code = ("import json, sys, ranklens\n"
            "q, ms, runs = sys.argv[1], sys.argv[2].split(','), sys.argv[3:]\n"
            "r = ranklens.evaluate(q, {str(i): p for i, p in enumerate(runs)}, ms, "
            "missing='zero')\n"
            "print(json.dumps([dict(r[str(i)]) for i in range(len(runs))]))")
    out = subprocess.run([sys.executable, "-c", code, str(w.qrels),
                          ",".join(reference_measures()), *map(str, w.runs)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def agreement(job: Job, refs: list[dict[str, float]], check: Callable) -> tuple[float, list[str]]:
    """Largest |difference| over the runs and measures, with run.py's notes."""
    worst, notes = 0.0, []
    for values, ref in zip(job.values, refs, strict=False):
        w, n = check(job.tool, values, ref)
        worst = max(worst, w)
        notes += n
    if len(job.values) != len(refs):
        worst = float("inf")
        notes.append(f"{job.tool}: values for {len(job.values)} of {len(refs)} runs")
    return worst, list(dict.fromkeys(notes))


def median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def bench_target(t: Target, args: argparse.Namespace, cli: str, spawn: Callable,
                 check: Callable, installed: Callable) -> tuple[dict, dict | None]:
    w = prepare(t, args.cache, double=t.doubling and args.doubling)
    run_lines = sum(count_lines(r) for r in w.runs)
    judgments = count_lines(w.qrels)
    print(f"\n{t.name}: {len(w.runs)} run file(s), {run_lines:,} run lines, "
          f"{judgments:,} judgments", flush=True)
    peers = [p for p in PEERS if p in args.tools and installed(p)]
    if len(w.runs) > 1:  # 17 runs: pytrec_eval alone (one process per run)
        peers = [p for p in peers if p == "pytrec_eval"]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        out = work / "ranklens.jsonl"
        jobs = [Job("ranklens", "ranklens", [ranklens_cmd(cli, w.qrels, w.runs, out)], [out])]
        for p in peers:
            outs = [work / f"{p}.{i}.json" for i in range(len(w.runs))]
            cmds = [peer_cmd(p, w.qrels, r, o) for r, o in zip(w.runs, outs, strict=True)]
            jobs.append(Job(p, p, cmds, outs, once=p != "pytrec_eval"))
        # large files: counting their lines above already put them in the page cache, and
        # a warm-up round would cost minutes; small ones get the --warmup rounds
        rounds(jobs, args.reps, args.warmup if run_lines < WARMUP_BELOW else 0, spawn, t.name)
        for job in jobs:
            read_values(job, w.runs)
    refs = reference(w)
    by = {j.tool: j for j in jobs}
    rl, pt = by["ranklens"], by.get("pytrec_eval")
    row: dict = {"workload": t.name, "what": t.what, "run_files": len(w.runs),
                 "run_lines": run_lines, "judgments": judgments,
                 "target_wall": t.wall, "target_rss": t.rss, "reps": args.reps,
                 "tools": {}}
    for job in jobs:
        entry: dict = {"median_s": median(job.seconds), "peak_rss_mb": median(job.rss_mb),
                       "rounds": len(job.seconds), "error": job.error}
        if not job.error:
            entry["max_abs_diff"], entry["notes"] = agreement(job, refs, check)
            entry["agree"] = entry["max_abs_diff"] <= TOLERANCE
            if not entry["agree"] and job.tool in peer_orders.ORDERS:
                # the peer's own ranking of tied (or float32-tied) scores: does it agree
                # with ranklens given the same ranking?
                own = peer_orders.reference(job.tool, w.qrels, w.runs, reference_measures())
                entry["max_abs_diff_own_order"], _ = agreement(job, own, check)
                entry["agree_own_order"] = entry["max_abs_diff_own_order"] <= TOLERANCE
                entry["own_order"] = peer_orders.own_order(job.tool)
        row["tools"][job.label] = entry
    if pt is not None and not rl.error and not pt.error:
        row["wall_ratio"] = median(rl.seconds) / median(pt.seconds)
        row["rss_ratio"] = median(rl.rss_mb) / median(pt.rss_mb)
        row["met"] = ((t.wall is None or row["wall_ratio"] <= t.wall)
                      and (t.rss is None or row["rss_ratio"] <= t.rss))
    dbl = doubling(t, w, rl, args, cli, spawn) if t.doubling and args.doubling else None
    return row, dbl


def prepare(t: Target, cache: Path, double: bool) -> Workload:
    """Write ``t``'s files (and its 2x) in a child process, then name them here.

    The child's peak RSS that ``os.wait4`` reports includes this process's at the fork (the
    exec keeps the high-water mark of the memory it replaced), so building hundreds of MB of
    lines here would inflate every later measurement: this process stays small.
    """
    subprocess.run([sys.executable, str(Path(__file__)), "--prepare", t.name, "--cache",
                    str(cache), *(["--double"] if double else [])], check=True)
    return t.make(cache)  # written: only reads the stamps


def doubling(t: Target, w: Workload, one: Job, args: argparse.Namespace, cli: str,
             spawn: Callable) -> dict:
    """ranklens on the 2x of ``w``, ``--reps`` rounds right after the 1x rounds ``one``
    (whose median is the 1x time: the same command, minutes apart at most)."""
    w2 = doubled(args.cache, w)
    with tempfile.TemporaryDirectory() as tmp:
        two = Job("ranklens 2x", "ranklens",
                  [ranklens_cmd(cli, w2.qrels, w2.runs, Path(tmp) / "2x.jsonl")], [])
        rounds([two], args.reps, 0, spawn, f"{t.name} doubling")
    x1, x2 = median(one.seconds), median(two.seconds)
    ratio = x2 / x1
    return {"workload": t.name, "x1_s": x1, "x2_s": x2, "ratio": ratio,
            "x1_rss_mb": median(one.rss_mb), "x2_rss_mb": median(two.rss_mb),
            "target": DOUBLING, "met": ratio <= DOUBLING, "error": one.error or two.error}


def run_targets(args: argparse.Namespace, cli: str | None, spawn: Callable, check: Callable,
                installed: Callable) -> dict:
    if cli is None:
        sys.exit("--targets needs the ranklens CLI (pip install -e .)")
    wanted = set(args.only.split(",")) if args.only else None
    rows, dbl = [], []
    for t in TARGETS:
        if wanted is not None and t.name not in wanted:
            continue
        t0 = time.perf_counter()
        row, d = bench_target(t, args, cli, spawn, check, installed)
        # what the workload costs to benchmark: data (first use), rounds, peers, doubling
        row["bench_s"] = time.perf_counter() - t0
        rows.append(row)
        if d is not None:
            dbl.append(d)
    report = {"targets": rows, "doubling": dbl}
    print()
    print(markdown(report))
    return report


# -- reporting ---------------------------------------------------------------------------
def fmt_target(row: dict) -> str:
    parts = []
    if row["target_wall"] is not None:
        parts.append(f"wall <= {row['target_wall']}x")
    if row["target_rss"] is not None:
        parts.append(f"RSS <= {row['target_rss']}x")
    return ", ".join(parts) or "-"


def fmt_agree(row: dict) -> str:
    out = []
    for tool, e in row["tools"].items():
        if tool == "ranklens":
            continue
        if e.get("error"):
            out.append(f"{tool}: failed")
        else:
            out.append(f"{tool}: {peer_orders.agree_label(e, 1)}")
    rl = row["tools"].get("ranklens", {})
    head = "ranklens: failed" if rl.get("error") else (
        "" if rl.get("agree") else f"ranklens: no ({rl.get('max_abs_diff', 0):.1e})")
    return "; ".join(([head] if head else []) + out)


def markdown(report: dict) -> str:
    """The targets and doubling tables as Markdown (docs/benchmarks.md pastes this)."""
    out = ["| workload | run lines | judgments | target (vs pytrec_eval) | ranklens s | "
           "pytrec_eval s | wall ratio | RSS MB (ranklens / pytrec_eval) | RSS ratio | met | "
           "ranx s | ir_measures s | agrees with ranklens (1e-9) | benchmark cost s |",
           "|---|---:|---:|---|---:|---:|---:|---:|---:|---|---:|---:|---|---:|"]
    for r in report.get("targets", []):
        tools = r["tools"]

        def sec(tool: str, tools: dict = tools) -> str:
            e = tools.get(tool)
            return "-" if not e or e.get("error") else f"{e['median_s']:.2f}"

        rl, pt = tools.get("ranklens", {}), tools.get("pytrec_eval", {})
        rss = (f"{rl['peak_rss_mb']:.0f} / {pt['peak_rss_mb']:.0f}"
               if rl and pt and not rl.get("error") and not pt.get("error") else "-")
        wall = f"{r['wall_ratio']:.2f}" if "wall_ratio" in r else "-"
        rssx = f"{r['rss_ratio']:.2f}" if "rss_ratio" in r else "-"
        met = "-" if r["target_wall"] is None and r["target_rss"] is None else (
            "yes" if r.get("met") else "**no**")
        files = f" ({r['run_files']} files)" if r["run_files"] > 1 else ""
        cost = f"{r['bench_s']:.0f}" if "bench_s" in r else "-"
        out.append(f"| {r['workload']} | {r['run_lines']:,}{files} | {r['judgments']:,} | "
                   f"{fmt_target(r)} | {sec('ranklens')} | {sec('pytrec_eval')} | {wall} | "
                   f"{rss} | {rssx} | {met} | {sec('ranx')} | {sec('ir_measures')} | "
                   f"{fmt_agree(r)} | {cost} |")
    if report.get("doubling"):
        out += ["", "| doubling (ranklens CLI) | 1x s | 2x s | ratio | target | met |",
                "|---|---:|---:|---:|---|---|"]
        for d in report["doubling"]:
            met = "yes" if d["met"] else "**no**"
            out.append(f"| {d['workload']} | {d['x1_s']:.2f} | {d['x2_s']:.2f} | "
                       f"{d['ratio']:.2f} | <= {d['target']}x | {met} |")
    notes = list(dict.fromkeys(n for r in report.get("targets", [])
                               for e in r["tools"].values() for n in e.get("notes", [])
                               if "differs by" not in n))
    if notes:
        out += [""] + [f"- {n}" for n in notes]
    total = sum(r.get("bench_s", 0.0) for r in report.get("targets", []))
    if total:
        out += ["", f"Whole benchmark: {total / 60:.1f} min."]
    return "\n".join(out)


def main() -> None:
    """``--prepare NAME``: write one workload's files (the parent stays small)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--prepare", required=True)
    ap.add_argument("--cache", type=Path, required=True)
    ap.add_argument("--double", action="store_true")
    a = ap.parse_args()
    (t,) = [t for t in TARGETS if t.name == a.prepare]
    w = t.make(a.cache)
    if a.double:
        doubled(a.cache, w)


if __name__ == "__main__":
    main()
