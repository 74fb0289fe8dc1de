"""Benchmark ranklens against pytrec_eval, ranx and ir_measures on the same files.

    python benchmarks/run.py --preset tiny|trecdl|msmarco|recsys [--reps N] [--json OUT]
    python benchmarks/run.py --scaling          # doubling the queries: time ratio <= 2.2?
    python benchmarks/run.py --targets [--json OUT]   # the speed issue's target table
    python benchmarks/run.py --preset trecdl --judged 500 --shuffle --tabs --ties 1
    python benchmarks/run.py --preset recsys --workload chunks --memory-limit 512MB --jobs 2
    python benchmarks/run.py --preset recsys --scale 10 --workload chunks --memory-limit 2GB
    python benchmarks/run.py --preset msmarco --preset recsys --workload jobs --jobs 2 --reps 5
    python benchmarks/run.py --preset recsys --workload sql --data-format parquet

Data comes from the shared generator (``make_trec_data.py``; found in ``$RANKLENS_SHARED_DIR``
or ``../shared`` next to the repository) and is written once to ``benchmarks/.cache/``.
Workloads:

``cli``     each tool as a separate whole process from the TREC files (the ``ranklens``
            CLI when it has an ``evaluate`` command, else ``tool_ranklens.py``), tools
            alternating, ``--reps`` timed rounds after ``--warmup`` untimed ones (page
            cache, shared libraries); wall time and peak RSS of each child.
``chunks``  the ranklens CLI alone, whole process, alternating: in memory on one core
            (``--jobs 1``), chunked under ``--memory-limit`` on one and on ``--jobs``
            workers, and in memory with ``--jobs`` (files that fit are never chunked);
            wall time and peak RSS (the workers' included).
``jobs``    the ranklens CLI alone, in memory, whole process: ``--jobs 1`` (one core
            throughout, polars' pool included) against ``--jobs N``, alternating; wall
            time, CPU time (user + system) and peak RSS of each process, and the ratio of
            the medians (what the other cores buy). The untimed warm-up rounds also write
            every per-query value with ``--per-query`` and check that the outputs are the
            same bytes.
``sql``     P@10, nDCG@10 and AP (those three alone): DuckDB SQL (``tool_duckdb.py``) and
            the ranklens CLI, each a whole process, alternating, each with its defaults
            (every core) and under ``--memory-limit``; wall time and peak RSS.
``memory``  inside one process per tool: data loaded first (not timed), then only the
            evaluate call is timed, ``--reps`` times (peers get plain dicts; ranklens
            gets its loaded ``Qrels``/``Run`` and, separately, the same plain dicts).

``--data-format parquet`` gives the chunks and sql workloads Parquet copies of the files
(``workloads.parquet``, written once by polars' streaming engine); the other workloads
read TREC text whatever it says (the peers read nothing else).

Every tool's aggregates are compared with ranklens's (computed in a child process) to 1e-9;
where a peer's convention differs the comparison uses the matching ranklens measure and
says so, and where a peer ranks tied scores its own way (float32 scores, doc ids ascending,
ranx's sort) it is compared again with ranklens given that ranking (``peer_orders.py``).
Peers that are not installed are skipped. Before timing, the installed ranklens package is
byte-compiled, as ``pip install`` does for the peers' wheels.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import peer_orders  # noqa: E402
import workloads  # noqa: E402
from measures import MEASURES, NAMES, reference_measures  # noqa: E402
from targets import markdown as targets_markdown  # noqa: E402
from targets import run_targets  # noqa: E402

PRESETS = ("tiny", "trecdl", "msmarco", "recsys")
PEERS = ("pytrec_eval", "ranx", "ir_measures")
TOLERANCE = 1e-9
#: workloads run by default for each preset (the recsys one is the in-memory target)
DEFAULT_WORKLOADS = {"recsys": ("memory",)}


# -- data -------------------------------------------------------------------------------
def generator() -> Path:
    shared = Path(os.environ.get("RANKLENS_SHARED_DIR", HERE.parent.parent / "shared"))
    return shared / "bench" / "make_trec_data.py"


def dataset(cache: Path, name: str, args: list[str]) -> Path:
    """Generate ``name`` once (``args`` for the generator); return its folder."""
    out = cache / name
    stamp = out / "params.json"
    if stamp.exists() and json.loads(stamp.read_text()) == args:
        return out
    gen = generator()
    if not gen.exists():
        sys.exit(f"data generator not found at {gen} (set RANKLENS_SHARED_DIR)")
    tmp = cache / f".{name}.partial"
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"generating {name} ({' '.join(args)}) ...", flush=True)
    subprocess.run([sys.executable, str(gen), *args, "--runs", "1", "--out", str(tmp)],
                   check=True)
    (tmp / "params.json").write_text(json.dumps(args))
    shutil.rmtree(out, ignore_errors=True)
    tmp.rename(out)
    return out


# -- running children --------------------------------------------------------------------
@dataclass
class Measured:
    tool: str
    workload: str
    seconds: list[float] = field(default_factory=list)
    rss_mb: list[float] = field(default_factory=list)
    values: dict[str, float] = field(default_factory=dict)
    error: str = ""


def spawn(cmd: list[str]) -> tuple[float, float, str]:
    """Run ``cmd``; wall seconds, the child's peak RSS in MB, and stderr (on failure)."""
    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        msg = "" if proc.returncode == 0 else err.read().decode(errors="replace")[-2000:]
    return wall, usage.ru_maxrss / 1024, msg  # ru_maxrss is in KiB on Linux


def _tree_rss(pid: int) -> int:
    """The summed resident memory (bytes) of ``pid`` and its descendants, now (Linux)."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/statm") as f:
                total += int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo += [int(c) for c in f.read().split()]
        except (OSError, ValueError):
            continue
    return total


def spawn_tree(cmd: list[str]) -> tuple[float, float, str]:
    """As :func:`spawn`, but the peak RSS is of the whole process tree (a chunked run's
    worker processes included), sampled every 20 ms and summed over the processes, or the
    child's own peak when that is larger (a peak between two samples)."""
    import threading

    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        peak = [0]
        done = threading.Event()

        def sample() -> None:
            while not done.wait(0.02):
                peak[0] = max(peak[0], _tree_rss(proc.pid))

        watcher = threading.Thread(target=sample, daemon=True)
        watcher.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        done.set()
        watcher.join()
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        msg = "" if proc.returncode == 0 else err.read().decode(errors="replace")[-2000:]
    return wall, max(usage.ru_maxrss / 1024, peak[0] / 2**20), msg


def chunk_variants(memory_limit: str, jobs: int) -> dict[str, list[str]]:
    """The chunks workload's ranklens command lines (extra CLI arguments), by label."""
    return {
        "ranklens (memory, jobs 1)": ["--jobs", "1"],
        f"ranklens (limit {memory_limit}, jobs 1)": ["--memory-limit", memory_limit,
                                                     "--jobs", "1"],
        f"ranklens (limit {memory_limit}, jobs {jobs})": ["--memory-limit", memory_limit,
                                                          "--jobs", str(jobs)],
        f"ranklens (jobs {jobs})": ["--jobs", str(jobs)],
    }


def alternating(labels: list[str], reps: int) -> Iterator[tuple[int, str]]:
    """``(round, label)`` of ``reps`` rounds over ``labels``, the order reversed every other
    round (a slow stretch of the shared host falls on every variant alike)."""
    for rep in range(reps):
        for label in (labels if rep % 2 == 0 else labels[::-1]):
            yield rep, label


def run_chunks(qrels: Path, run: Path, args: argparse.Namespace, work: Path,
               cli: str) -> dict[str, Measured]:
    """The chunks workload: each variant a whole ranklens process, alternating."""
    variants = chunk_variants(args.memory_limit, args.jobs)
    results = {label: Measured("ranklens", "chunks") for label in variants}

    def command(label: str) -> list[str]:
        return [*cli_command("ranklens", qrels, run, work / "chunks.jsonl", cli),
                *variants[label]]

    for _ in range(args.warmup):
        for label in variants:
            spawn_tree(command(label))
    for rep, label in alternating(list(variants), args.reps):
        m = results[label]
        if m.error:
            continue
        wall, rss, err = spawn_tree(command(label))
        if err:
            m.error = err.strip().splitlines()[-1] if err.strip() else "failed"
            continue
        m.seconds.append(wall)
        m.rss_mb.append(rss)
        m.values = read_cli_jsonl(work / "chunks.jsonl")
        print(f"  chunks {label:<34} round {rep + 1}: {wall:7.2f} s {rss:8.0f} MB",
              flush=True)
    return results


def sql_variants(memory_limit: str) -> dict[str, tuple[str, list[str]]]:
    """The sql workload's commands by label: (tool, extra arguments). Each tool as it is
    used: its defaults (DuckDB runs a thread per core; ranklens evaluates in memory when
    the files fit and reads them with polars' threads), then under the memory limit
    (ranklens's chunks on its default workers, one per core; DuckDB's ``memory_limit``)."""
    return {
        "ranklens": ("ranklens", []),
        f"ranklens (limit {memory_limit})": ("ranklens", ["--memory-limit", memory_limit]),
        "duckdb": ("duckdb", []),
        f"duckdb (limit {memory_limit})": ("duckdb", ["--memory-limit", memory_limit]),
    }


@dataclass
class SqlMeasured(Measured):
    """A sql workload variant's rounds, with the CPU seconds of each (user + system, the
    process and its workers: on a shared machine wall time moves with the others' load)."""

    cpu_s: list[float] = field(default_factory=list)


def children_cpu() -> float:
    """CPU seconds of every waited-for child of this process so far (user + system)."""
    import resource

    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def run_sql(qrels: Path, run: Path, args: argparse.Namespace, work: Path,
            cli: str) -> dict[str, SqlMeasured]:
    """The sql workload: ranklens and DuckDB's SQL on the three measures, whole processes,
    alternating (the order reversed every round)."""
    from tool_duckdb import SQL_MEASURES

    variants = sql_variants(args.memory_limit)
    results = {label: SqlMeasured(tool, "sql") for label, (tool, _) in variants.items()}
    measures = [arg for m in SQL_MEASURES for arg in ("-m", m)]

    def command(label: str) -> tuple[list[str], Path]:
        tool, extra = variants[label]
        if tool == "ranklens":
            out = work / "sql.ranklens.jsonl"
            return [cli, "evaluate", str(qrels), str(run), *measures, "--format", "jsonl",
                    "-o", str(out), *extra], out
        out = work / "sql.duckdb.json"
        return [sys.executable, str(HERE / "tool_duckdb.py"), "files", str(qrels), str(run),
                str(out), *extra], out

    for _ in range(args.warmup):
        for label in variants:
            spawn_tree(command(label)[0])
    for rep, label in alternating(list(variants), args.reps):
        m = results[label]
        if m.error:
            continue
        cmd, out = command(label)
        cpu0 = children_cpu()
        wall, rss, err = spawn_tree(cmd)
        if err:
            m.error = err.strip().splitlines()[-1] if err.strip() else "failed"
            continue
        m.seconds.append(wall)
        m.rss_mb.append(rss)
        m.cpu_s.append(children_cpu() - cpu0)
        m.values = (read_cli_jsonl(out) if m.tool == "ranklens"
                    else json.loads(out.read_text())["values"])
        print(f"  sql    {label:<30} round {rep + 1}: {wall:7.2f} s (CPU "
              f"{m.cpu_s[-1]:6.2f} s) {rss:8.0f} MB", flush=True)
    return results


def sql_table(results: dict[str, SqlMeasured], ref: dict[str, float]) -> list[dict]:
    """The sql workload's rows: ratios to the first ranklens variant (in memory), and each
    tool's three means checked against ranklens's in-process reference to 1e-9."""
    from tool_duckdb import SQL_MEASURES

    base = next((m for m in results.values() if m.tool == "ranklens" and m.seconds), None)
    base_t = statistics.median(base.seconds) if base else float("nan")
    base_rss = statistics.median(base.rss_mb) if base else float("nan")
    base_cpu = statistics.median(base.cpu_s) if base else float("nan")
    rows = []
    for label, m in results.items():
        if m.error:
            rows.append({"tool": label, "workload": "sql", "error": m.error})
            continue
        diffs = {name: abs(m.values[name] - ref[name]) if name in m.values else float("inf")
                 for name in SQL_MEASURES}
        worst = max(diffs.values())
        notes = [f"{label} (sql): {name} differs by {d:.1e}" for name, d in diffs.items()
                 if d > TOLERANCE]
        t, rss = statistics.median(m.seconds), statistics.median(m.rss_mb)
        rows.append({
            "tool": label, "workload": "sql", "median_s": t, "runs": len(m.seconds),
            "peak_rss_mb": rss, "time_x_ranklens": t / base_t, "rss_x_ranklens": rss / base_rss,
            "max_abs_diff": worst, "agree": worst <= TOLERANCE, "notes": notes,
            "values": m.values, "seconds": m.seconds, "rss_all_mb": m.rss_mb,
            "median_cpu_s": statistics.median(m.cpu_s), "cpu_s": m.cpu_s,
            "cpu_x_ranklens": statistics.median(m.cpu_s) / base_cpu,
        })
    return rows


def print_sql_cpu(rows: list[dict]) -> None:
    """The sql workload's CPU seconds (the wall times are in the main table)."""
    print("sql: median CPU s (user + system, workers included), ratio to ranklens")
    for r in rows:
        if r["workload"] == "sql" and "median_cpu_s" in r:
            print(f"  {r['tool']:<34} {r['median_cpu_s']:8.2f} {r['cpu_x_ranklens']:6.2f}")


def spawn_cpu(cmd: list[str]) -> tuple[float, float, float, str]:
    """Run ``cmd``; wall seconds, CPU seconds (user + system of the child and its
    children), peak RSS in MB, and stderr (on failure)."""
    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        code = os.waitstatus_to_exitcode(status)
        err.seek(0)
        msg = "" if code == 0 else err.read().decode(errors="replace")[-2000:]
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, msg


def run_jobs(qrels: Path, run: Path, args: argparse.Namespace, work: Path,
             cli: str) -> tuple[dict[str, Measured], dict[str, list[float]]]:
    """The jobs workload: ``--jobs 1`` against ``--jobs N``, in memory, whole processes,
    alternating; the measured runs and each variant's CPU seconds."""
    variants = {"ranklens (jobs 1)": ["--jobs", "1"],
                f"ranklens (jobs {args.jobs})": ["--jobs", str(args.jobs)]}
    results = {label: Measured("ranklens", "jobs") for label in variants}
    cpus: dict[str, list[float]] = {label: [] for label in variants}

    def command(label: str, out: Path, *extra: str) -> list[str]:
        return [*cli_command("ranklens", qrels, run, out, cli), *variants[label], *extra]

    for _ in range(max(1, args.warmup)):  # untimed; every per-query value compared
        outputs = []
        for i, label in enumerate(variants):
            out = work / f"jobs-{i}.jsonl"
            _, _, _, err = spawn_cpu(command(label, out, "--per-query"))
            if err:
                sys.exit(f"{label} failed: {err.strip().splitlines()[-1]}")
            outputs.append(out.read_bytes())
        if any(o != outputs[0] for o in outputs[1:]):
            sys.exit("the jobs variants wrote different per-query values")
    for rep, label in alternating(list(variants), args.reps):
        m = results[label]
        wall, cpu, rss, err = spawn_cpu(command(label, work / "jobs.jsonl"))
        if err:
            m.error = err.strip().splitlines()[-1] if err.strip() else "failed"
            continue
        m.seconds.append(wall)
        m.rss_mb.append(rss)
        cpus[label].append(cpu)
        m.values = read_cli_jsonl(work / "jobs.jsonl")
        print(f"  jobs {label:<22} round {rep + 1}: {wall:7.2f} s wall {cpu:7.2f} s CPU "
              f"{rss:8.0f} MB  load {os.getloadavg()[0]:.1f}", flush=True)
    one, many = (statistics.median(m.seconds) if m.seconds else float("nan")
                 for m in results.values())
    cpu_one, cpu_many = (statistics.median(c) if c else float("nan") for c in cpus.values())
    print(f"\n  jobs: --jobs 1 {one:.2f} s (CPU {cpu_one:.2f} s), --jobs {args.jobs} "
          f"{many:.2f} s (CPU {cpu_many:.2f} s): {one / many:.2f}x faster "
          f"(target >= 1.6x with 2); cores busy {cpu_many / many:.2f}", flush=True)
    return results, cpus


def ranklens_cli() -> str | None:
    """The ``ranklens`` executable when it has an ``evaluate`` command."""
    # the one installed next to this interpreter first: the PATH may hold another's
    beside = Path(sys.executable).parent / "ranklens"
    exe = str(beside) if beside.exists() else shutil.which("ranklens")
    if exe is None:
        return None
    probe = subprocess.run([exe, "evaluate", "--help"], capture_output=True, text=True)
    usable = probe.returncode == 0 and "--format" in probe.stdout
    return exe if usable else None


def cli_command(tool: str, qrels: Path, run: Path, out: Path, cli: str | None) -> list[str]:
    if tool == "ranklens" and cli:
        measures = [arg for m in MEASURES for arg in ("-m", m)]
        return [cli, "evaluate", str(qrels), str(run), *measures, "--format", "jsonl",
                "-o", str(out)]
    return [sys.executable, str(HERE / f"tool_{tool}.py"), "files", str(qrels), str(run),
            str(out)]


def read_cli_jsonl(path: Path) -> dict[str, float]:
    """Aggregates from ``ranklens evaluate --format jsonl`` (rows with measure and value)."""
    values: dict[str, float] = {}
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        qid = row.get("query_id", row.get("query", "all"))
        if qid in ("all", None) and "measure" in row:
            values[row["measure"]] = float(row["value"])
    return values


def run_cli(tools: list[str], qrels: Path, run: Path, reps: int, work: Path,
            cli: str | None, warmup: int = 1) -> dict[str, Measured]:
    results = {t: Measured(t, "cli") for t in tools}
    for _ in range(warmup):  # untimed: page cache, shared libraries, byte-code
        for tool in tools:
            _, _, err = spawn(cli_command(tool, qrels, run, work / f"{tool}.warm.json", cli))
            print(f"  cli    {tool:<22} warm-up{' (failed)' if err else ''}", flush=True)
    for rep in range(reps):
        # alternate the order every round so no tool always runs on a warm page cache
        order = tools if rep % 2 == 0 else tools[::-1]
        for tool in order:
            m = results[tool]
            if m.error:
                continue
            out = work / f"{tool}.cli.json"
            wall, rss, err = spawn(cli_command(tool, qrels, run, out, cli))
            if err:
                m.error = err.strip().splitlines()[-1] if err.strip() else "failed"
                continue
            m.seconds.append(wall)
            m.rss_mb.append(rss)
            if tool == "ranklens" and cli:
                m.values = read_cli_jsonl(out)
            else:
                m.values = json.loads(out.read_text())["values"]
            print(f"  cli    {tool:<22} round {rep + 1}: {wall:7.2f} s {rss:8.0f} MB",
                  flush=True)
    return results


def run_memory(tools: list[tuple[str, str]], qrels: Path, run: Path, reps: int,
               work: Path) -> dict[str, Measured]:
    results: dict[str, Measured] = {}
    for tool, variant in tools:
        label = f"{tool} ({variant})" if variant else tool
        m = results[label] = Measured(tool, "memory")
        out = work / f"{tool}.{variant}.mem.json"
        cmd = [sys.executable, str(HERE / f"tool_{tool}.py"), "memory", str(qrels), str(run),
               str(out), "--reps", str(reps), "--variant", variant]
        _, rss, err = spawn(cmd)
        if err:
            m.error = err.strip().splitlines()[-1] if err.strip() else "failed"
            continue
        payload = json.loads(out.read_text())
        m.seconds, m.values, m.rss_mb = payload["seconds"], payload["values"], [rss]
        print(f"  memory {label:<22} {statistics.median(m.seconds):7.3f} s (median of "
              f"{len(m.seconds)})", flush=True)
    return results


# -- checking and reporting --------------------------------------------------------------
def reference(qrels: Path, run: Path) -> dict[str, float]:
    """ranklens's values of every measure compared against, from a separate process (this
    one stays small: a child's peak RSS starts from its parent's at the fork)."""
    code = ("import json, sys, ranklens; print(json.dumps(dict(ranklens.evaluate("
            "sys.argv[1], sys.argv[2], sys.argv[3].split(','), missing='zero'))))")
    out = subprocess.run([sys.executable, "-c", code, str(qrels), str(run),
                          ",".join(reference_measures())],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


#: why a peer's numbers can differ where no named convention explains it
KNOWN_CAUSES = {
    "pytrec_eval": "pytrec_eval holds scores as 32-bit floats: scores that differ only past "
                   "float32's ~7 digits (real runs print 16) tie there and are ordered by doc "
                   "id, where ranklens compares the doubles",
    "ranx": "ranx sorts each query with numba's unstable quicksort, which leaves tied scores "
            "in neither trec_eval's order (doc id descending) nor the input's; that moves a "
            "measure when a relevant doc ties with others",
    "ir_measures": "ir_measures computes RR@10 with its MS MARCO provider (trec_eval's "
                   "recip_rank has no cutoff), which orders tied scores by doc id ascending; "
                   "its other measures come from pytrec_eval (32-bit scores, as above)",
}


def agreement(m: Measured, ref: dict[str, float]) -> tuple[float, list[str]]:
    """Largest |difference| from ranklens over the measures, and the notes explaining it."""
    worst = 0.0
    notes = []
    for name in MEASURES:
        _, ref_name, note = NAMES[m.tool][name]
        if name not in m.values:
            notes.append(f"{m.tool}: {name} missing")
            worst = float("inf")
            continue
        diff = abs(m.values[name] - ref[ref_name])
        worst = max(worst, diff)
        if note:
            notes.append(note)
        if diff > TOLERANCE:
            notes.append(f"{m.tool} ({m.workload}): {name} differs by {diff:.1e}")
    if worst > TOLERANCE and m.tool in KNOWN_CAUSES:
        notes.append(f"{m.tool}: {KNOWN_CAUSES[m.tool]}")
    return worst, notes


@functools.cache
def own_reference(tool: str, qrels: Path, run: Path) -> dict[str, float]:
    """ranklens's values given ``tool``'s own ranking of ties (one child process per tool
    and files, however many of the tool's rows need it)."""
    (own,) = peer_orders.reference(tool, qrels, [run], reference_measures())
    return own


def own_order_agreement(m: Measured, qrels: Path, run: Path) -> dict:
    """A disagreeing peer checked again against ranklens given the peer's own ranking of
    tied scores (benchmarks/peer_orders.py): the row's ``agree_own_order`` fields."""
    if m.tool not in peer_orders.ORDERS:
        return {}
    worst, _ = agreement(m, own_reference(m.tool, qrels, run))
    return {"max_abs_diff_own_order": worst, "agree_own_order": worst <= TOLERANCE,
            "own_order": peer_orders.own_order(m.tool)}


def table(results: dict[str, Measured], ref: dict[str, float], workload: str,
          files: tuple[Path, Path] | None = None) -> list[dict]:
    base = next((m for k, m in results.items() if m.tool == "ranklens" and m.seconds
                 and (workload in ("cli", "chunks", "jobs") or k.endswith("(tables)"))), None)
    base_t = statistics.median(base.seconds) if base else float("nan")
    base_rss = statistics.median(base.rss_mb) if base else float("nan")
    rows = []
    for label, m in results.items():
        if m.error:
            rows.append({"tool": label, "workload": workload, "error": m.error})
            continue
        t = statistics.median(m.seconds)
        rss = statistics.median(m.rss_mb)
        worst, notes = agreement(m, ref)
        rows.append({
            "tool": label, "workload": workload, "median_s": t, "runs": len(m.seconds),
            "peak_rss_mb": rss, "time_x_ranklens": t / base_t,
            "rss_x_ranklens": rss / base_rss if workload in ("cli", "chunks", "jobs") else None,
            "max_abs_diff": worst, "agree": worst <= TOLERANCE, "notes": notes,
            "values": m.values,
        })
        if worst > TOLERANCE and files is not None:
            rows[-1].update(own_order_agreement(m, *files))
    return rows


def print_table(preset: str, rows: list[dict]) -> None:
    print(f"\n{preset}: median wall time, peak RSS, ratio to ranklens, agreement (1e-9)")
    head = f"{'workload':<8} {'tool':<34} {'median s':>9} {'peak MB':>8} {'x time':>7} " \
           f"{'x RSS':>6}  agree"
    print(head)
    print("-" * len(head))
    for r in rows:
        if "error" in r:
            print(f"{r['workload']:<8} {r['tool']:<34} FAILED: {r['error']}")
            continue
        rss_x = f"{r['rss_x_ranklens']:6.2f}" if r["rss_x_ranklens"] is not None else "     -"
        ok = peer_orders.agree_label(r, 2)
        print(f"{r['workload']:<8} {r['tool']:<34} {r['median_s']:9.3f} "
              f"{r['peak_rss_mb']:8.0f} {r['time_x_ranklens']:7.2f} {rss_x}  {ok}")
    notes = list(dict.fromkeys(n for r in rows for n in r.get("notes", [])))
    for n in notes:
        print(f"  note: {n}")


def markdown(report: dict[str, list[dict]]) -> str:
    """The report as Markdown tables (for docs/benchmarks.md)."""
    out = []
    for preset, rows in report.items():
        if preset == "scaling":
            out += ["", "| queries | median CPU s | CPU x previous | median wall s | "
                    "wall x previous |", "|---:|---:|---:|---:|---:|"]
            for r in rows:
                x = "-" if r["x_previous"] is None else f"{r['x_previous']:.2f}"
                wx = "-" if r["wall_x_previous"] is None else f"{r['wall_x_previous']:.2f}"
                out.append(f"| {r['queries']} | {r['median_cpu_s']:.3f} | {x} | "
                           f"{r['median_s']:.3f} | {wx} |")
            continue
        out += ["", f"**{preset}**", "",
                "| workload | tool | median s | peak RSS MB | time / ranklens | RSS / ranklens "
                "| agrees (1e-9) |", "|---|---|---:|---:|---:|---:|---|"]
        for r in rows:
            if "error" in r:
                out.append(f"| {r['workload']} | {r['tool']} | failed: {r['error']} |||||")
                continue
            rss_x = "-" if r["rss_x_ranklens"] is None else f"{r['rss_x_ranklens']:.2f}"
            agree = peer_orders.agree_label(r, 1)
            out.append(f"| {r['workload']} | {r['tool']} | {r['median_s']:.3f} | "
                       f"{r['peak_rss_mb']:.0f} | {r['time_x_ranklens']:.2f} | {rss_x} | "
                       f"{agree} |")
    return "\n".join(out)


def check(tool: str, values: dict[str, float], ref: dict[str, float]) -> tuple[float, list[str]]:
    """The agreement check on one tool's aggregates (for targets.py)."""
    return agreement(Measured(tool, "cli", values=values), ref)


def compile_bytecode() -> None:
    """Byte-compile the installed ranklens package, as ``pip install`` does for wheels.

    The peers come from wheels, compiled at install; an editable or source install of
    ranklens is not, and under ``PYTHONDONTWRITEBYTECODE`` (set on some CI and sandbox
    images) every child process would compile it again (about 0.08 s here), which is no
    part of evaluating.
    """
    import compileall

    spec = importlib.util.find_spec("ranklens")
    folders = list(spec.submodule_search_locations or []) if spec else []
    for folder in folders:
        ok = compileall.compile_dir(folder, quiet=1)
        print(f"byte-compiled {folder}" if ok else f"could not byte-compile {folder}")


def installed(tool: str) -> bool:
    module = {"pytrec_eval": "pytrec_eval", "ranx": "ranx", "ir_measures": "ir_measures"}[tool]
    return importlib.util.find_spec(module) is not None


def preset_files(preset: str, args: argparse.Namespace) -> tuple[str, Path, Path]:
    """The preset's files, post-processed as the generator options ask (see workloads.py)."""
    gen_args = ["--preset", preset]
    name = preset
    repeat = 1
    if args.scale != 1:  # the preset's queries times SCALE (recsys x10: 100M run lines)
        queries = {"tiny": 10, "trecdl": 43, "msmarco": 6980, "recsys": 100_000}[preset]
        # beyond the generator's query ids, copies of the largest scale dividing SCALE that
        # it can make (recsys x30: x10 three times, query ids prefixed)
        scale = args.scale
        while queries * scale > workloads.GENERATOR_QUERY_IDS or args.scale % scale:
            scale -= 1
        repeat = args.scale // scale
        gen_args += ["--queries", str(queries * scale)]
        name = f"{preset}-x{scale}"
    if args.judged is not None:
        gen_args += ["--judged", str(args.judged)]
        name = f"{preset}-judged{args.judged}"
    w: workloads.Workload = workloads.generated(args.cache, name, gen_args)
    if repeat > 1:
        w = workloads.copies(args.cache, w, repeat, f"{preset}-x{args.scale}")
    if args.shuffle or args.tabs or args.ties is not None:
        w = workloads.variant(args.cache, w, shuffle=args.shuffle, tabs=args.tabs, ties=args.ties)
    return w.name, w.qrels, w.run


def data_format_files(name: str, qrels: Path, run: Path,
                      args: argparse.Namespace) -> tuple[Path, Path]:
    """The files the chunks and sql workloads read: the TREC text, or its Parquet copies."""
    if args.data_format != "parquet":
        return qrels, run
    pq = workloads.parquet(args.cache, workloads.Workload(name, qrels, (run,)))
    return pq.qrels, pq.run


def bench_preset(preset: str, args: argparse.Namespace) -> list[dict]:
    preset, qrels, run = preset_files(preset, args)
    read_q, read_r = data_format_files(preset, qrels, run, args)
    peers = [t for t in PEERS if t in args.tools and installed(t)]
    skipped = [t for t in PEERS if t in args.tools and not installed(t)]
    if skipped:
        print(f"not installed, skipped: {', '.join(skipped)}")
    workloads = args.workload or DEFAULT_WORKLOADS.get(preset, ("cli", "memory"))
    cli = ranklens_cli()
    if {"chunks", "sql", "jobs"} & set(workloads) and cli is None:
        sys.exit("the chunks, sql and jobs workloads run the ranklens CLI, which is not "
                 "installed here")
    print(f"{preset}: ranklens whole process via "
          f"{'the ranklens CLI' if cli else 'benchmarks/tool_ranklens.py'}")
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if "cli" in workloads:
            res = run_cli(["ranklens", *peers], qrels, run, args.reps, work, cli, args.warmup)
            cli_results = res
        if "chunks" in workloads:
            assert cli is not None
            chunk_results = run_chunks(read_q, read_r, args, work, cli)
        if "sql" in workloads:
            assert cli is not None
            sql_results = run_sql(read_q, read_r, args, work, cli)
        if "jobs" in workloads:
            assert cli is not None
            jobs_results, _ = run_jobs(qrels, run, args, work, cli)
        if "memory" in workloads:
            mem_tools = [("ranklens", "tables"), ("ranklens", "dicts")]
            mem_tools += [(t, "dicts") for t in peers]
            if "ranx" in peers:
                mem_tools.append(("ranx", "tables"))
            mem_results = run_memory(mem_tools, qrels, run, args.reps, work)
    ref = reference(qrels, run)
    if "cli" in workloads:
        rows += table(cli_results, ref, "cli", (qrels, run))
    if "memory" in workloads:
        rows += table(mem_results, ref, "memory", (qrels, run))
    if "chunks" in workloads:
        rows += table(chunk_results, ref, "chunks")
    if "sql" in workloads:
        rows += sql_table(sql_results, ref)
        print_sql_cpu(rows)
    if "jobs" in workloads:
        rows += table(jobs_results, ref, "jobs")
    print_table(preset, rows)
    return rows


def bench_scaling(args: argparse.Namespace) -> list[dict]:
    """ranklens's in-process time (load + evaluate from files) as the queries double.

    Judged on CPU time (user + system, all threads): on a shared machine wall time moves
    with other load, while a superlinear step in the algorithm shows in both.
    """
    import resource

    import ranklens

    def cpu() -> float:
        use = resource.getrusage(resource.RUSAGE_SELF)
        return use.ru_utime + use.ru_stime

    sizes = (1745, 3490, 6980)
    files = {}
    for q in sizes:
        data = dataset(args.cache, f"scale{q}",
                       ["--queries", str(q), "--depth", "1000", "--judged", "1", "--grades", "2"])
        files[q] = (str(data / "qrels.txt"), str(data / "run1.txt"))
    walls: dict[int, list[float]] = {q: [] for q in sizes}
    cpus: dict[int, list[float]] = {q: [] for q in sizes}
    # the sizes alternate, round after round (as the tools do in the cli workload), so a
    # slow stretch of the shared host falls on all of them alike
    for _ in range(max(args.reps, 3)):
        for q in sizes:
            t0, c0 = time.perf_counter(), cpu()
            ranklens.evaluate(*files[q], list(MEASURES), missing="zero")
            walls[q].append(time.perf_counter() - t0)
            cpus[q].append(cpu() - c0)
    rows: list[dict] = []
    for q in sizes:
        row = {"queries": q, "median_s": statistics.median(walls[q]),
               "median_cpu_s": statistics.median(cpus[q]), "x_previous": None,
               "wall_x_previous": None, "ok": True}
        if rows:
            row["x_previous"] = row["median_cpu_s"] / rows[-1]["median_cpu_s"]
            row["wall_x_previous"] = row["median_s"] / rows[-1]["median_s"]
            row["ok"] = row["x_previous"] <= 2.2
        rows.append(row)
    print("\nscaling (msmarco shape, 1000 docs/query; ranklens load + evaluate in-process; "
          "judged on CPU time)")
    for r in rows:
        x = "-" if r["x_previous"] is None else f"{r['x_previous']:.2f}x"
        wx = "-" if r["wall_x_previous"] is None else f"{r['wall_x_previous']:.2f}x"
        print(f"  {r['queries']:>6} queries  cpu {r['median_cpu_s']:7.3f} s  wall "
              f"{r['median_s']:7.3f} s  doubling: cpu {x}, wall {wx}"
              f"{'' if r['ok'] else '  > 2.2x: SUPERLINEAR'}")
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", choices=PRESETS, action="append",
                    help="dataset shape (repeatable); default tiny")
    ap.add_argument("--reps", type=int, default=3, help="rounds per tool (default 3)")
    ap.add_argument("--warmup", type=int, default=1,
                    help="untimed whole-process rounds per tool before the cli rounds "
                         "(default 1)")
    ap.add_argument("--workload", choices=("cli", "memory", "chunks", "sql", "jobs"),
                    action="append",
                    help="default: cli and memory (recsys: memory)")
    ap.add_argument("--memory-limit", default="512MB", metavar="SIZE",
                    help="the chunks and sql workloads' --memory-limit (default 512MB)")
    ap.add_argument("--jobs", type=int, default=2, metavar="N",
                    help="the chunks and jobs workloads' workers (default 2)")
    ap.add_argument("--data-format", choices=("trec", "parquet"), default="trec",
                    help="the files the chunks and sql workloads read: the TREC text or "
                         "Parquet copies of it (default trec)")
    ap.add_argument("--scale", type=int, default=1, metavar="K",
                    help="generator option: K times the preset's queries (recsys --scale "
                         "10: 100M run lines, 10M judgments; beyond the generator's 1.1M "
                         "query ids, copies of a smaller scale: recsys 30 is x10 three times)")
    ap.add_argument("--tools", default="ranklens," + ",".join(PEERS),
                    help="comma-separated subset of ranklens," + ",".join(PEERS))
    ap.add_argument("--scaling", action="store_true", help="run the query-doubling check")
    ap.add_argument("--judged", type=int, metavar="N",
                    help="generator option: about N judgments per query (10^2-10^3)")
    ap.add_argument("--shuffle", action="store_true",
                    help="generator option: lines in a random order (fixed seed)")
    ap.add_argument("--tabs", action="store_true", help="generator option: tab separators")
    ap.add_argument("--ties", type=int, metavar="DECIMALS",
                    help="generator option: run scores rounded to DECIMALS (tied groups)")
    ap.add_argument("--targets", action="store_true",
                    help="run every workload of the speed issue's target list (real data, "
                         "presets, 17 runs, doubling) and print the targets table")
    ap.add_argument("--only", metavar="NAMES",
                    help="with --targets: comma-separated workloads (see targets.py)")
    ap.add_argument("--no-doubling", dest="doubling", action="store_false",
                    help="with --targets: skip the 1x/2x doubling rounds")
    ap.add_argument("--cache", type=Path, default=HERE / ".cache", help="data folder")
    ap.add_argument("--json", type=Path, help="also write every row to this JSON file")
    ap.add_argument("--markdown", type=Path, nargs="+", metavar="JSON",
                    help="only print the Markdown tables of earlier --json reports")
    args = ap.parse_args()
    if args.markdown:
        for path in args.markdown:
            loaded = json.loads(path.read_text())
            print(targets_markdown(loaded) if "targets" in loaded else markdown(loaded))
        return 0
    args.tools = args.tools.split(",")
    args.cache.mkdir(parents=True, exist_ok=True)
    if args.targets:
        compile_bytecode()
        got = run_targets(args, ranklens_cli(), spawn, check, installed)
        if args.json:
            args.json.write_text(json.dumps(got, indent=1))
        # unmet targets are the measurement; failures, ranklens's own disagreement with its
        # in-process reference and a peer that differs even given its own ranking of ties
        # are errors
        broken = [r for r in got["targets"] for e in r["tools"].values()
                  if e.get("error") or not (e.get("agree") or e.get("agree_own_order"))]
        broken += [d for d in got["doubling"] if d.get("error")]
        return 1 if broken else 0
    report: dict[str, list[dict]] = {}
    presets = args.preset or ([] if args.scaling else ["tiny"])
    compile_bytecode()
    for preset in presets:
        report[preset] = bench_preset(preset, args)
    if args.scaling:
        report["scaling"] = bench_scaling(args)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    # ranklens's own whole-process and in-memory results must match its in-process
    # reference, every peer must match it given the peer's own ranking of ties (the cause
    # is reported above), and nothing may fail
    bad = [r for rows in report.values() for r in rows
           if "error" in r or r.get("ok") is False
           or (r.get("agree") is False and not r.get("agree_own_order"))]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
