"""ranklens.Accumulator against torchmetrics' Retrieval* metrics in a validation loop.

Six measures (nDCG@10, MAP@10, MRR@10, P@10, R@10, HitRate@10) over ``--queries`` queries x
``--candidates`` candidates on the CPU, fed in batches of ``--batch`` queries as torch
tensors (float32 scores, about half <= 0; int64 labels, 5% relevant) to both:

- ranklens: one ``Accumulator(convention="torchmetrics")``, ``update`` per batch (a score
  matrix, one row per query), one ``compute``;
- torchmetrics: the six metric objects, each ``update`` per batch with flat tensors and
  query indexes, each ``compute`` (as a ``MetricCollection`` would).

In-process timing: the data are made and both libraries imported and warmed up first (not
timed); each repetition times one epoch (fresh metric objects, every update and every
compute) with ``time.perf_counter`` (and ``time.process_time``, the CPU time of every thread,
less moved by a shared machine's load), ranklens and torchmetrics alternating. Both must give
the same six values (to 1e-6: torchmetrics computes in float32), or the script fails.

    python benchmarks/accumulator.py                   # 10,000 x 100, 5 reps each
    python benchmarks/accumulator.py --queries 1000 --reps 1

``python benchmarks/inprocess.py --section accumulator`` runs it with the defaults.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

NAMES = ["nDCG@10", "MAP@10", "MRR@10", "P@10", "R@10", "HitRate@10"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", type=int, default=10_000)
    ap.add_argument("--candidates", type=int, default=100)
    ap.add_argument("--batch", type=int, default=500, help="queries per update")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    try:
        import torch
        from torchmetrics import retrieval
    except ImportError:
        print("torch and torchmetrics are needed for this benchmark", file=sys.stderr)
        return 2
    import ranklens

    torch.set_num_threads(1)  # the machine is shared; ranklens runs on one thread too
    rng = np.random.default_rng(args.seed)
    nq, nc = args.queries, args.candidates
    scores = torch.as_tensor(rng.standard_normal((nq, nc)).astype(np.float32))
    labels = torch.as_tensor((rng.random((nq, nc)) < 0.05).astype(np.int64))
    index = torch.arange(nq).repeat_interleave(nc).reshape(nq, nc)
    starts = range(0, nq, args.batch)

    def ranklens_epoch() -> dict[str, float]:
        acc = ranklens.Accumulator(NAMES, convention="torchmetrics")
        for lo in starts:
            acc.update(scores[lo:lo + args.batch], labels[lo:lo + args.batch])
        result = acc.compute()
        return {name: result[name] for name in NAMES}

    def torchmetrics_epoch() -> dict[str, float]:
        metrics = dict(zip(NAMES, (
            retrieval.RetrievalNormalizedDCG(top_k=10), retrieval.RetrievalMAP(top_k=10),
            retrieval.RetrievalMRR(top_k=10), retrieval.RetrievalPrecision(top_k=10),
            retrieval.RetrievalRecall(top_k=10), retrieval.RetrievalHitRate(top_k=10)),
            strict=True))
        for lo in starts:
            p = scores[lo:lo + args.batch].ravel()
            y = labels[lo:lo + args.batch].ravel()
            i = index[lo:lo + args.batch].ravel()
            for metric in metrics.values():
                metric.update(p, y, indexes=i)
        return {name: float(metric.compute()) for name, metric in metrics.items()}

    # warm-up on a slice (imports, first calls), not timed
    small = ranklens.Accumulator(NAMES, convention="torchmetrics")
    small.update(scores[:10], labels[:10])
    small.compute()
    times: dict[str, list[float]] = {"ranklens": [], "torchmetrics": []}
    cpu: dict[str, list[float]] = {"ranklens": [], "torchmetrics": []}
    values: dict[str, dict[str, float]] = {}
    for _ in range(args.reps):
        for tool, epoch in (("ranklens", ranklens_epoch), ("torchmetrics", torchmetrics_epoch)):
            t0, c0 = time.perf_counter(), time.process_time()
            values[tool] = epoch()
            times[tool].append(time.perf_counter() - t0)
            cpu[tool].append(time.process_time() - c0)
    for name in NAMES:
        a, b = values["ranklens"][name], values["torchmetrics"][name]
        if abs(a - b) > 1e-6 * max(1.0, abs(b)):
            print(f"values differ: {name} ranklens {a!r} torchmetrics {b!r}", file=sys.stderr)
            return 1
    rk, tm = statistics.median(times["ranklens"]), statistics.median(times["torchmetrics"])
    print(f"{nq:,} queries x {nc} candidates, batches of {args.batch} queries, "
          f"{args.reps} alternating reps, in-process (seconds per epoch: updates + compute)")
    print("| tool | median s | min s | max s | median CPU s (all threads) |")
    print("|---|---|---|---|---|")
    for tool in ("ranklens", "torchmetrics"):
        ts = times[tool]
        print(f"| {tool} | {statistics.median(ts):.3f} | {min(ts):.3f} | {max(ts):.3f} | "
              f"{statistics.median(cpu[tool]):.3f} |")
    rk_cpu, tm_cpu = statistics.median(cpu["ranklens"]), statistics.median(cpu["torchmetrics"])
    fastest = min(times["torchmetrics"]) / min(times["ranklens"])
    print(f"torchmetrics / ranklens: {tm / rk:.1f}x wall (medians), {fastest:.1f}x (minima), "
          f"{tm_cpu / rk_cpu:.1f}x CPU time (medians)")
    print("values (equal to 1e-6): " + ", ".join(
        f"{name} {values['ranklens'][name]:.6f}" for name in NAMES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
