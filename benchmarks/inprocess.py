"""In-process evaluation speed, where the data is already in memory (a training loop).

    python benchmarks/inprocess.py [--section dicts|accumulator] [--data dl19,msmarco]
                                   [--reps 7] [--steps] [--cpu]

Sections (``--section``, default all):

``dicts``  pytrec_eval-style nested dicts ``{query: {doc: value}}``: the TREC DL 2019
           passage RepLLaMA run with its qrels (43 x 1,000 rows, 9,260 graded judgments;
           from ``realdata/`` in the shared folder) and an MS MARCO-dev-sized run generated
           here (6,980 queries x 1,000 documents, one judgment per query, seed 0), both
           built as dicts before any timing. Timed: ``ranklens.evaluate(qrels, run, ...)``;
           ``ranklens.Judgments(qrels, ...)`` made once (untimed), then ``.evaluate(run)``;
           pytrec_eval's ``RelevanceEvaluator`` made once (untimed), then ``.evaluate(run)``;
           and pytrec_eval's construction plus evaluate. The same five measures each.

``accumulator``  ``ranklens.Accumulator(convention="torchmetrics")`` against torchmetrics'
           six ``Retrieval*`` metrics in a validation epoch: 10,000 queries x 100
           candidates as torch tensors (benchmarks/accumulator.py, which says how).

``--steps`` adds where ranklens's time goes on each data set (medians of ``--reps``). Dicts
of at most 250,000 judged rows are aligned without tables (ranklens._model.dicts): the
qrels dict read (what ``Judgments`` does once), the run dict read (scores, doc ids as
words), the alignment (ranking, matching) and ``Judgments.evaluate`` as a whole (the run
read, aligned, the measures, the ``Result``). Larger ones go through tables (each step on
fresh objects made untimed): the run dict made a ``Run``; that ``Run`` ranked (its run
index: sorting, tie breaks by doc id, keys); the qrels dict made ``Qrels`` and indexed; and
``Judgments.evaluate`` of a ranked ``Run`` (alignment, measures, the ``Result``).

Each timed call runs ``--reps`` times, the paths alternating and their order reversed every
round, after one untimed warm-up call each and a garbage collection before each call; the
medians are printed, with ranklens's times as multiples of pytrec_eval's for the same work:
``evaluate`` (dicts in, values out) against pytrec_eval made and evaluated, ``Judgments``
(judgments prepared once) against the evaluator made once. ranklens's
aggregates are checked against the means of pytrec_eval's per-query values.
"""

from __future__ import annotations

import argparse
import gc
import gzip
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from workloads import realdata

import ranklens

#: ranklens name -> pytrec_eval name (trec_eval's recip_rank has no cutoff: RR)
MEASURES = {"P@10": "P_10", "nDCG@10": "ndcg_cut_10", "AP": "map", "RR": "recip_rank",
            "R@100": "recall_100"}

Dicts = tuple[dict[str, dict[str, int]], dict[str, dict[str, float]]]


def dl19_dicts() -> Dicts:
    """The TREC DL 2019 passage qrels and RepLLaMA run as nested dicts (file order)."""
    qrels: dict[str, dict[str, int]] = {}
    with gzip.open(realdata("dl", "qrels.dl19-passage.txt.gz"), "rt") as f:
        for line in f:
            q, _, d, r = line.split()
            qrels.setdefault(q, {})[d] = int(r)
    run: dict[str, dict[str, float]] = {}
    with gzip.open(realdata("dl", "dl19.REP_LLAMA.run.gz"), "rt") as f:
        for line in f:
            q, _, d, _, s, _ = line.split()
            run.setdefault(q, {})[d] = float(s)
    return qrels, run


def msmarco_dicts(queries: int = 6980, depth: int = 1000, seed: int = 0) -> Dicts:
    """An MS MARCO passage dev-sized pair of dicts: ``queries`` x ``depth`` ranked passages
    (scores descending, 4 decimals; a passage drawn twice listed once), one judged passage
    per query, retrieved by 60% of the queries near the top (the shared generator's msmarco
    shape)."""
    rng = np.random.default_rng(seed)
    n_docs = 8_841_823  # the MS MARCO passage collection
    qids = rng.choice(1_100_000, size=queries, replace=False).astype(str).tolist()
    judged = rng.choice(n_docs, size=queries).astype(str)
    docs = rng.integers(0, n_docs, size=(queries, depth)).astype(str)
    hit = rng.random(queries) < 0.6
    where = np.minimum(rng.exponential(depth / 8, size=queries).astype(int), depth - 1)
    docs[np.flatnonzero(hit), where[hit]] = judged[hit]
    scores = np.round(-np.sort(-rng.normal(10, 3, size=(queries, depth)), axis=1), 4)
    qrels = {q: {d: 1} for q, d in zip(qids, judged.tolist(), strict=True)}
    # a passage drawn twice for one query is listed once, and the scores go down the list
    # (as the shared generator writes its run files)
    run = {q: dict(zip(dict.fromkeys(row), s))  # noqa: B905 (fewer passages than scores)
           for q, row, s in zip(qids, docs.tolist(), scores.tolist(), strict=True)}
    return qrels, run


DATA: dict[str, Callable[[], Dicts]] = {"dl19": dl19_dicts, "msmarco": msmarco_dicts}


#: what a call's time is: the wall clock, or with ``--cpu`` the process's CPU time (every
#: thread's; steadier than the wall clock on a loaded machine)
CLOCK: list[Callable[[], float]] = [time.perf_counter]


def timed(calls: dict[str, Callable[[], Any]], reps: int) -> dict[str, float]:
    """The median seconds of each call: one untimed warm-up each, then ``reps`` rounds,
    the calls alternating and their order reversed every round."""
    clock = CLOCK[0]
    for call in calls.values():
        call()
    seconds: dict[str, list[float]] = {name: [] for name in calls}
    order = list(calls)
    for _ in range(reps):
        for name in order:
            gc.collect()
            t0 = clock()
            calls[name]()
            seconds[name].append(clock() - t0)
        order.reverse()
    return {name: statistics.median(s) for name, s in seconds.items()}


def agreement(result: ranklens.Result, per_query: dict[str, dict[str, float]]) -> float:
    """The largest difference between ranklens's aggregates and pytrec_eval's means."""
    return max(abs(result[m] - statistics.fmean(v[name] for v in per_query.values()))
               for m, name in MEASURES.items())


def steps(qrels: dict, run: dict, measures: list[str], reps: int) -> dict[str, float]:
    """Median seconds of each step of ``ranklens.evaluate`` on dicts (see the module doc):
    those of the dict path when it takes them, else those of the tables."""
    from ranklens._model.dicts import align_dicts, dict_judgments, dict_run
    from ranklens._pipeline.compute import alignment_policies
    from ranklens._pipeline.plan import make_plan

    judgments = dict_judgments(qrels)
    rows = None if judgments is None else dict_run(judgments, run)
    if judgments is None or rows is None:
        return table_steps(qrels, run, measures, reps)
    policies = alignment_policies(make_plan(measures, missing="zero"))
    judged = ranklens.Judgments(qrels, measures, missing="zero")
    out = timed({"qrels dict read": lambda: dict_judgments(qrels)}, reps)
    out.update(timed({"run dict read": lambda: dict_run(judgments, run)}, reps))
    out.update(timed({"aligned (ranked, matched)": lambda: align_dicts(judgments, rows,
                                                                       policies)}, reps))
    out.update(timed({"Judgments.evaluate (run read, aligned, measures, Result)":
                      lambda: judged.evaluate(run)}, reps))
    return out


def table_steps(qrels: dict, run: dict, measures: list[str], reps: int) -> dict[str, float]:
    """Median seconds of each step of ``ranklens.evaluate`` on dicts read as tables."""
    from ranklens._ingest.io._load import load_qrels, load_run  # the steps are internal
    from ranklens._model.matching import qrels_index
    from ranklens._model.ranking import run_index

    judged = ranklens.Judgments(qrels, measures, missing="zero")
    ranked = load_run(run)
    run_index(ranked, "docid")
    fresh = [load_run(run) for _ in range(reps + 1)]
    out = timed({"run dict -> Run": lambda: load_run(run)}, reps)
    out.update(timed({"Run ranked": lambda: run_index(fresh.pop(), "docid")}, reps))
    out.update(timed({"qrels dict -> Qrels, indexed": lambda: qrels_index(load_qrels(qrels))},
                     reps))
    out.update(timed({"align + measures + Result": lambda: judged.evaluate(ranked)}, reps))
    return out


def dicts_section(data: list[str], reps: int, show_steps: bool = False) -> None:
    import pytrec_eval

    measures = list(MEASURES)
    names = set(MEASURES.values())
    clock = "CPU" if CLOCK[0] is time.process_time else "wall"
    print(f"## dicts: nested dicts in memory, {', '.join(measures)}; {clock} time, medians "
          f"of {reps}")
    print("| data | rows | ranklens.evaluate ms | Judgments.evaluate ms | pytrec_eval "
          "evaluate ms | pytrec_eval made + evaluate ms | evaluate ÷ pytrec_eval made + "
          "evaluate | Judgments ÷ pytrec_eval evaluate | max diff |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in data:
        qrels, run = DATA[name]()
        judged = ranklens.Judgments(qrels, measures, missing="zero")
        evaluator = pytrec_eval.RelevanceEvaluator(qrels, names)
        diff = agreement(ranklens.evaluate(qrels, run, measures, missing="zero"),
                         evaluator.evaluate(run))
        t = timed({
            "evaluate": lambda q=qrels, r=run: ranklens.evaluate(q, r, measures,
                                                                 missing="zero"),
            "judgments": lambda j=judged, r=run: j.evaluate(r),
            "pytrec_eval": lambda e=evaluator, r=run: e.evaluate(r),
            "pytrec_eval_made": lambda q=qrels, r=run: pytrec_eval.RelevanceEvaluator(
                q, names).evaluate(r),
        }, reps)
        rows = sum(len(docs) for docs in run.values())
        print(f"| {name} | {rows:,} | {t['evaluate'] * 1e3:.1f} | {t['judgments'] * 1e3:.1f} "
              f"| {t['pytrec_eval'] * 1e3:.1f} | {t['pytrec_eval_made'] * 1e3:.1f} "
              f"| {t['evaluate'] / t['pytrec_eval_made']:.2f} "
              f"| {t['judgments'] / t['pytrec_eval']:.2f} | {diff:.1e} |", flush=True)
        if show_steps:
            parts = steps(qrels, run, measures, reps)
            print(f"|   {name} steps: " + "; ".join(f"{k} {v * 1e3:.1f} ms"
                                                  for k, v in parts.items()) + " |")
        del qrels, run, judged, evaluator


def accumulator_section(data: list[str], reps: int, show_steps: bool = False) -> None:
    """ranklens.Accumulator against torchmetrics (benchmarks/accumulator.py's defaults)."""
    import accumulator

    print("\n## accumulator: 6 measures, 10,000 queries x 100 candidates, torch tensors")
    if accumulator.main(["--reps", str(reps)]) != 0:
        sys.exit("the accumulator section failed")


#: section name -> its function (data sets, repetitions, whether to show the steps)
SECTIONS: dict[str, Callable[[list[str], int, bool], None]] = {
    "dicts": dicts_section, "accumulator": accumulator_section}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--section", choices=sorted(SECTIONS), action="append",
                    help="the sections to run (repeatable; default: all)")
    ap.add_argument("--data", default="dl19,msmarco",
                    help="comma-separated data sets of the dicts section: dl19, msmarco")
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--steps", action="store_true",
                    help="also time each step of ranklens's evaluation")
    ap.add_argument("--cpu", action="store_true",
                    help="time CPU (every thread's) instead of the wall clock")
    a = ap.parse_args()
    data = [d for d in a.data.split(",") if d]
    unknown = [d for d in data if d not in DATA]
    if unknown:
        sys.exit(f"unknown data set {unknown[0]!r}; choose from {', '.join(DATA)}")
    if a.cpu:
        CLOCK[0] = time.process_time
    for section in a.section or list(SECTIONS):
        SECTIONS[section](data, a.reps, a.steps)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
