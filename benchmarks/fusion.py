"""Fusion: ranklens.fuse against ranx.fuse, whole processes, alternating.

    python benchmarks/fusion.py                       # 3 runs x 7,000 queries x 1,000 docs
    python benchmarks/fusion.py --reps 5 --methods rrf mnz
    python benchmarks/fusion.py --queries 200 --reps 1     # a quick look

The runs are generated once, deterministically (``--seed``), as TREC files under
``benchmarks/.cache/fusion-<queries>x<depth>x<runs>/``: each query has a pool of
``1.5 x depth`` documents; each run retrieves ``depth`` of them, scores normal(10, 3) with
four decimals (so some ties), the runs overlapping as real first-stage runs do.

Each timed process reads the TREC files and fuses them with the method (min-max
normalisation, both tools' default), and reports the fused row count:

- ranklens: ``ranklens.fuse(paths, method)``;
- ranx, cold: ``Run.from_file`` for each file, ``fuse(runs, norm="min-max", method=...)``,
  with an empty numba cache (its first call: every kernel compiled);
- ranx, warm: the same, with the numba cache the cold process filled (no compilation).

Rounds alternate the three processes; the table gives median wall seconds and peak RSS
(from ``wait4``), and ranklens's ratio to each ranx figure. Targets (issue 26): ranklens
<= 0.2x ranx cold and <= 0.5x ranx warm.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent

RANKLENS = """
import sys
import ranklens
fused = ranklens.fuse(sys.argv[2:], sys.argv[1])
print(len(fused))
"""

RANX = """
import sys
from ranx import Run, fuse
runs = [Run.from_file(p, kind="trec") for p in sys.argv[2:]]
fused = fuse(runs, norm="min-max", method=sys.argv[1])
print(sum(len(fused.run[q]) for q in fused.run))
"""


def make_runs(folder: Path, queries: int, depth: int, runs: int, seed: int) -> list[Path]:
    """The run files (written once; the same arguments give the same bytes)."""
    paths = [folder / f"run{r + 1}.run" for r in range(runs)]
    if all(p.exists() for p in paths):
        return paths
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    pool = depth * 3 // 2
    qids = np.char.add("q", np.arange(queries).astype(str))
    for r, path in enumerate(paths):
        picks = np.argsort(rng.random((queries, pool)), axis=1)[:, :depth]
        scores = np.round(rng.normal(10, 3, size=(queries, depth)), 4)
        order = np.argsort(-scores, axis=1, kind="stable")
        scores = np.take_along_axis(scores, order, axis=1)
        picks = np.take_along_axis(picks, order, axis=1)
        q = np.repeat(qids, depth)
        d = np.char.add(np.char.add(np.repeat(qids, depth), "-d"), picks.ravel().astype(str))
        rank = np.tile(np.arange(1, depth + 1), queries).astype(str)
        s = np.char.mod("%.4f", scores.ravel())
        lines = [" ".join(parts) for parts in zip(q, ["Q0"] * q.size, d, rank, s,
                                                  [f"system{r + 1}"] * q.size, strict=True)]
        tmp = path.with_suffix(".tmp")
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
        tmp.replace(path)
    return paths


def peak_rss(code: str, args: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall seconds, the child's own peak RSS (MB, from ``wait4``) and its standard output,
    for one ``python -c code args`` process."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code, *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"benchmark process failed ({proc.returncode}): rerun "
                         f"python -c '{code}' {' '.join(args)}")
    return wall, usage.ru_maxrss / 1024, out.strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", type=int, default=7000)
    ap.add_argument("--depth", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--methods", nargs="+", default=["rrf", "mnz"])
    a = ap.parse_args()
    folder = HERE / ".cache" / f"fusion-{a.queries}x{a.depth}x{a.runs}-s{a.seed}"
    paths = [str(p) for p in make_runs(folder, a.queries, a.depth, a.runs, a.seed)]
    base = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    base.setdefault("PYTHONPATH", str(HERE.parent / "src"))
    rows = []
    for method in a.methods:
        times: dict[str, list[tuple[float, float]]] = {"ranklens": [], "ranx cold": [],
                                                        "ranx warm": []}
        counts = set()
        for rep in range(a.reps):
            with tempfile.TemporaryDirectory(prefix="numba-") as cache:
                env = {**base, "NUMBA_CACHE_DIR": cache}
                order = ["ranklens", "ranx cold", "ranx warm"]
                if rep % 2:  # alternate: ranx first in odd rounds (warm needs cold's cache)
                    order = ["ranx cold", "ranx warm", "ranklens"]
                for tool in order:
                    code = RANKLENS if tool == "ranklens" else RANX
                    wall, rss, out = peak_rss(code, [method, *paths], env)
                    times[tool].append((wall, rss))
                    counts.add(out)
                    print(f"{method} round {rep + 1}: {tool:9s} {wall:7.2f} s "
                          f"{rss:7.0f} MB  load {os.getloadavg()[0]:.1f}", file=sys.stderr)
        if len(counts) != 1:
            raise SystemExit(f"the tools fused different row counts: {sorted(counts)}")
        med = {t: (statistics.median(w for w, _ in v), statistics.median(r for _, r in v))
               for t, v in times.items()}
        rows.append((method, med, counts.pop()))
    lines = ["| method | fused rows | ranklens s | ranx cold s | ranx warm s | ÷ ranx cold | "
             "÷ ranx warm | RSS MB (ranklens / ranx warm) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for method, med, count in rows:
        rl, cold, warm = med["ranklens"], med["ranx cold"], med["ranx warm"]
        lines.append(f"| {method} | {int(count):,} | {rl[0]:.2f} | {cold[0]:.2f} | "
                     f"{warm[0]:.2f} | {rl[0] / cold[0]:.3f} | {rl[0] / warm[0]:.3f} | "
                     f"{rl[1]:.0f} / {warm[1]:.0f} |")
    print(f"{a.runs} runs x {a.queries:,} queries x {a.depth:,} documents, medians of "
          f"{a.reps} alternating rounds (whole processes):\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
