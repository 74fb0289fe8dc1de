"""Benchmark ``ranklens compare``: 5 systems x 7,000 queries x 100,000 permutations.

    python benchmarks/compare.py [--queries 7000] [--systems 5] [--permutations 100000]
                                 [--reps 3] [--tukey-iterations 2000]

Generates judgments and runs once (``benchmarks/.cache/compare/``; 20 ranked documents per
query, systems of graded quality so that some pairs differ and some do not), then times:

``cli``       the whole process, ``ranklens compare QRELS RUN x5 -m nDCG@10 --test
              randomization --permutations 100000 -f jsonl`` (all 10 pairs, one shared sign
              matrix), median wall time of ``--reps`` runs after one untimed warm-up;
``stats``     inside one process, only ``compare_results`` on the evaluated ``Results``
              (the sign-flip test of every pair, intervals, corrections);
``tukey``     the randomised Tukey HSD on the same values with ``--tukey-iterations``
              (its cost is linear in the iterations).

The two runs of the CLI must print the same bytes (the seed fixes every p-value), which the
script checks. Times are wall-clock on whatever machine runs it; see docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def make_data(folder: Path, queries: int, systems: int) -> tuple[Path, list[Path]]:
    """Judgments (3 relevant of 20 candidates per query) and ``systems`` runs of rising quality."""
    folder.mkdir(parents=True, exist_ok=True)
    qrels = folder / f"qrels-{queries}.txt"
    runs = [folder / f"sys{s}-{queries}.run" for s in range(systems)]
    if qrels.exists() and all(r.exists() for r in runs):
        return qrels, runs
    rng = np.random.default_rng(20261123)
    relevant = rng.random((queries, 20)) < 0.15
    with qrels.open("w") as fh:
        for q in range(queries):
            fh.writelines(f"q{q} 0 d{d} {int(relevant[q, d])}\n" for d in range(20))
    for s, path in enumerate(runs):
        # systems 0 and 1 equally good (no true difference), the others better in steps
        boost = max(0, s - 1) * 0.08
        scores = rng.random((queries, 20)) + boost * relevant
        order = np.argsort(-scores, axis=1, kind="stable")
        with path.open("w") as fh:
            for q in range(queries):
                fh.writelines(f"q{q} Q0 d{d} {r + 1} {scores[q, d]:.6f} sys{s}\n"
                              for r, d in enumerate(order[q]))
    return qrels, runs


def time_cli(qrels: Path, runs: list[Path], permutations: int, reps: int) -> list[float]:
    args = [sys.executable, "-m", "ranklens", "compare", str(qrels), *map(str, runs),
            "-m", "nDCG@10", "--test", "randomization", "--permutations", str(permutations),
            "-f", "jsonl"]
    first = subprocess.run(args, capture_output=True, check=True)  # warm-up, not timed
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        out = subprocess.run(args, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
        if out.stdout != first.stdout:
            raise SystemExit("two runs with the same seed printed different output")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--queries", type=int, default=7000)
    parser.add_argument("--systems", type=int, default=5)
    parser.add_argument("--permutations", type=int, default=100_000)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--tukey-iterations", type=int, default=2000)
    parser.add_argument("--cache", type=Path, default=ROOT / "benchmarks" / ".cache" / "compare")
    args = parser.parse_args()

    import ranklens

    qrels, runs = make_data(args.cache, args.queries, args.systems)
    cli = time_cli(qrels, runs, args.permutations, args.reps)
    results = ranklens.evaluate(str(qrels), {p.stem: str(p) for p in runs}, ["nDCG@10"])
    start = time.perf_counter()
    cmp = ranklens.compare_results(results, test="randomization",
                                   permutations=args.permutations)
    stats_time = time.perf_counter() - start
    start = time.perf_counter()
    ranklens.compare_results(results, test="randomized-tukey",
                             permutations=args.tukey_iterations)
    tukey_time = time.perf_counter() - start
    pairs = len(cmp.pairs)
    print(f"{args.systems} systems ({pairs} pairs) x {args.queries} queries x "
          f"{args.permutations} permutations")
    print(f"cli    median {statistics.median(cli):.2f} s  (runs: "
          f"{', '.join(f'{t:.2f}' for t in cli)})")
    print(f"stats  {stats_time:.2f} s  (compare_results alone)")
    print(f"tukey  {tukey_time:.2f} s  (randomised Tukey HSD, {args.tukey_iterations} "
          "iterations)")
    for p in cmp.pairs:
        print(f"  {p.system} - {p.baseline}: diff {p.difference:+.4f}  p {p.p_value:.6f}  "
              f"d_z {p.effect_size:+.3f}")


if __name__ == "__main__":
    main()
