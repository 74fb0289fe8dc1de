"""Shared plumbing of the per-tool driver scripts (argument parsing, dict loading, output).

A driver runs in one of two modes:

``files QRELS RUN OUT``
    The whole process is the measurement: read both TREC files with the tool's own reader,
    evaluate, write the aggregates to OUT (JSON). The parent times the process.
``memory QRELS RUN OUT --reps N [--variant V]``
    Load the data first (not timed), run one tiny warm-up evaluation (numba compiles there),
    then time only the evaluate call, N times; write the aggregates and the seconds.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

from measures import MEASURES, NAMES

TINY_QRELS = {"q1": {"d1": 1, "d2": 0}}
TINY_RUN = {"q1": {"d1": 0.5, "d2": 0.7, "d3": 0.1}}


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=("files", "memory"))
    ap.add_argument("qrels")
    ap.add_argument("run")
    ap.add_argument("out")
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--variant", default="")
    return ap.parse_args()


def read_dicts(qrels_path: str, run_path: str) -> tuple[dict, dict]:
    """Plain ``{qid: {docid: int relevance}}`` and ``{qid: {docid: float score}}`` dicts."""
    qrels: dict[str, dict[str, int]] = {}
    with open(qrels_path) as f:
        for line in f:
            q, _, d, r = line.split()
            qrels.setdefault(q, {})[d] = int(r)
    run: dict[str, dict[str, float]] = {}
    with open(run_path) as f:
        for line in f:
            q, _, d, _, s, _ = line.split()
            run.setdefault(q, {})[d] = float(s)
    return qrels, run


def write(out: str, tool: str, values: dict[str, float], seconds: list[float] | None = None,
          extra: dict[str, Any] | None = None) -> None:
    """Write the aggregates keyed by the ranklens measure each tool name stands for."""
    back = {NAMES[tool][m][0]: m for m in MEASURES}
    payload: dict[str, Any] = {"values": {back.get(k, k): float(v) for k, v in values.items()}}
    if seconds is not None:
        payload["seconds"] = seconds
    payload.update(extra or {})
    with open(out, "w") as f:
        json.dump(payload, f)


def time_calls(call: Callable[[], dict[str, float]], reps: int) -> tuple[dict, list[float]]:
    seconds = []
    values: dict[str, float] = {}
    for _ in range(reps):
        t0 = time.perf_counter()
        values = call()
        seconds.append(time.perf_counter() - t0)
    return values, seconds
