"""Beyond-accuracy measures side by side: ranklens, RecTools and Microsoft Recommenders.

The workload of issue 27: 100,000 users x 100 recommendations, 1M training interactions,
64-dim item embeddings over a catalogue of 20,011 items (seeded; ``--users`` and the other
flags scale it). ranklens evaluates every beyond-accuracy measure in one call, then each
measure a peer has on its own; each peer measure runs alone. Every run is its own process
(``--python``, ``--rectools-python``, ``--recommenders-python``: each tool with its own
interpreter, so RecTools, which pins pandas < 3, lives in a venv of its own):

    python -m venv /work/venv-recs
    /work/venv-recs/bin/pip install rectools              # pandas 2, implicit, pydantic, ...
    /work/venv-recs/bin/pip install --no-deps recommenders && \\
        /work/venv-recs/bin/pip install scikit-learn       # python_evaluation needs only these
    python benchmarks/beyond.py --rectools-python /work/venv-recs/bin/python \\
        --recommenders-python /work/venv-recs/bin/python

Each process reads the generated arrays (an .npz in ``--cache``), builds its tool's inputs
(polars frames for ranklens, pandas frames for the peers), then times each measure: the
table prints the in-process seconds of the measure (wall, then CPU of all threads; every
tool's imports are done before the clock starts) and the whole process's wall time
(interpreter start, imports, building the inputs). A process past ``--timeout`` seconds or
``--memory-gb`` of address space is stopped and reported as such (Microsoft Recommenders'
diversity and serendipity cross-join every item pair of the catalogue and apply a Python
function per pair; RecTools' IntraListDiversity builds a Python tuple per pair of each list:
at 100 items per list, 4,950 pairs per user). Measures, same definitions (docs/beyond-
accuracy.md names the conventions; tests/peers/test_beyond_peers.py checks them equal):

    ranklens                          RecTools 0.19                  Microsoft Recommenders
    Novelty(convention=rectools)@k    MeanInvUserFreq                -
    ARP(convention=rectools)@k        AvgRecPopularity               -
    Coverage(convention=rectools)@k   CatalogCoverage                -
    Serendipity(convention=rectools)  Serendipity                    -
    ILD@k (cosine)                    IntraListDiversity (cosine)*   diversity (features)
    Novelty(convention=recommenders)  -                              novelty
    Coverage(convention=recommenders) -                              catalog_coverage
    DistCoverage@k                    -                              distributional_coverage
    Serendipity(convention=recomm.)   -                              serendipity (features)

    * RecTools 0.19 ships Hamming distance calculators only; the cosine one here is its
      abstract PairwiseDistanceCalculator with one NumPy line.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve()
N_ITEMS = 20011  # prime: a user's stride walks distinct items

#: ranklens's measure -> (peer, the peer's measure), for the side-by-side rows
PAIRS = {
    "Novelty(convention=rectools)": ("rectools", "MeanInvUserFreq"),
    "ARP(convention=rectools)": ("rectools", "AvgRecPopularity"),
    "Coverage(convention=rectools)": ("rectools", "CatalogCoverage"),
    "Serendipity(convention=rectools)": ("rectools", "Serendipity"),
    "ILD": ("rectools", "IntraListDiversity"),
    "Novelty(convention=recommenders)": ("recommenders", "novelty"),
    "Coverage(convention=recommenders)": ("recommenders", "catalog_coverage"),
    "DistCoverage": ("recommenders", "distributional_coverage"),
    "ILD ": ("recommenders", "diversity"),  # the same ranklens measure, second peer
    "Serendipity(convention=recommenders)": ("recommenders", "serendipity"),
}
#: every beyond-accuracy measure, in the one ranklens call
ALL = ["Coverage", "DistCoverage", "UserCoverage", "Gini", "Entropy", "ARP", "APLT", "ACLT",
       "Novelty", "EPC", "EFD", "ILD", "ILS", "Serendipity", "Unexpectedness", "PopREO",
       "PopRSP"]


def generate(users: int, k: int, train_rows: int, dim: int, seed: int, path: Path) -> None:
    """Users recommend from a skewed region of the catalogue (a popular start, a small
    stride), train on items just past it (never recommended to themselves: Microsoft
    Recommenders' serendipity wants that), and hold out one recommended item and two
    others as test interactions."""
    rng = np.random.default_rng(seed)
    start = (N_ITEMS * rng.beta(0.6, 3.0, size=users)).astype(np.int64)
    stride = rng.integers(1, 8, size=users)
    j = np.arange(k)
    reco = (start[:, None] + j[None, :] * stride[:, None]) % N_ITEMS
    per_user = max(train_rows // users, 1)
    t = np.arange(per_user)
    train = (start[:, None] + 1000 + t[None, :] * rng.integers(1, 8, size=users)[:, None]) \
        % N_ITEMS
    hit = reco[np.arange(users), rng.integers(0, k, size=users)]
    others = (start[:, None] + N_ITEMS // 2 + np.arange(2)[None, :]) % N_ITEMS
    test = np.concatenate([hit[:, None], others], axis=1)
    features = rng.normal(size=(N_ITEMS, dim))
    np.savez(path, reco=reco, train=train, test=test, features=features)


# -- the tools, each in its own process ------------------------------------------------------


def _load(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as z:
        return {name: z[name] for name in z.files}


def tool_ranklens(data: dict[str, np.ndarray], k: int, measure: str) -> dict[str, float]:
    import polars as pl

    import ranklens

    users, depth = data["reco"].shape
    uid = np.repeat(np.arange(users), depth)
    run = pl.DataFrame({"query_id": uid, "doc_id": data["reco"].ravel(),
                        "score": np.tile(np.arange(depth, 0, -1), users).astype(np.float64)})
    n_test = data["test"].shape[1]
    qrels = pl.DataFrame({"query_id": np.repeat(np.arange(users), n_test),
                          "doc_id": data["test"].ravel(), "relevance": 1})
    n_train = data["train"].shape[1]
    train = pl.DataFrame({"user_id": np.repeat(np.arange(users), n_train) + users,
                          "item_id": data["train"].ravel()})
    features = (np.arange(N_ITEMS), data["features"])
    items = np.arange(N_ITEMS)
    names = [f"{m}@{k}" for m in ALL] if measure == "all" else [f"{measure.strip()}@{k}"]
    evaluate = ranklens.evaluate  # imported before the clock starts, as the peers' metrics
    began, cpu = time.perf_counter(), time.process_time()
    result = evaluate(qrels, run, names, train=train, items=items, item_features=features)
    return {"seconds": time.perf_counter() - began, "cpu": time.process_time() - cpu,
            "value": float(result[names[0]])}


def tool_rectools(data: dict[str, np.ndarray], k: int, measure: str) -> dict[str, float]:
    import pandas as pd
    from rectools import metrics
    from rectools.metrics.distances import PairwiseDistanceCalculator

    users, depth = data["reco"].shape
    reco = pd.DataFrame({"user_id": np.repeat(np.arange(users), depth),
                         "item_id": data["reco"].ravel(),
                         "rank": np.tile(np.arange(1, depth + 1), users)})
    n_train = data["train"].shape[1]
    prev = pd.DataFrame({"user_id": np.repeat(np.arange(users), n_train) + users,
                         "item_id": data["train"].ravel()})
    n_test = data["test"].shape[1]
    test = pd.DataFrame({"user_id": np.repeat(np.arange(users), n_test),
                         "item_id": data["test"].ravel()})
    catalog = np.arange(N_ITEMS)

    class Cosine(PairwiseDistanceCalculator):
        def __init__(self, matrix: np.ndarray) -> None:
            self.unit = matrix / np.linalg.norm(matrix, axis=1, keepdims=True)

        def _get_distances_for_item_pairs(self, a: Any, b: Any) -> np.ndarray:
            return 1.0 - np.einsum("ij,ij->i", self.unit[np.asarray(a)],
                                   self.unit[np.asarray(b)])

    began, cpu = time.perf_counter(), time.process_time()
    if measure == "MeanInvUserFreq":
        value = metrics.MeanInvUserFreq(k=k).calc(reco, prev)
    elif measure == "AvgRecPopularity":
        value = metrics.AvgRecPopularity(k=k).calc(reco, prev)
    elif measure == "CatalogCoverage":
        value = metrics.CatalogCoverage(k=k, normalize=True).calc(reco, catalog)
    elif measure == "Serendipity":
        value = metrics.Serendipity(k=k).calc(reco, test, prev, catalog)
    elif measure == "IntraListDiversity":
        value = metrics.IntraListDiversity(
            k=k, distance_calculator=Cosine(data["features"])).calc(reco)
    else:
        raise SystemExit(f"rectools has no measure {measure!r} here")
    return {"seconds": time.perf_counter() - began, "cpu": time.process_time() - cpu,
            "value": float(value)}


def tool_recommenders(data: dict[str, np.ndarray], k: int, measure: str) -> dict[str, float]:
    import pandas as pd
    from recommenders.evaluation import python_evaluation as pe

    users = data["reco"].shape[0]
    top = data["reco"][:, :k]
    test = data["test"]
    reco = pd.DataFrame({"userID": np.repeat(np.arange(users), k), "itemID": top.ravel(),
                         "relevance": (top[:, :, None] == test[:, None, :]).any(axis=2)
                         .ravel().astype(np.float64)})
    n_train = data["train"].shape[1]
    # the test users' own training rows (serendipity compares with the user's history)
    train = pd.DataFrame({"userID": np.repeat(np.arange(users), n_train),
                          "itemID": data["train"].ravel()})
    feats = pd.DataFrame({"itemID": np.arange(N_ITEMS), "features": list(data["features"])})
    began, cpu = time.perf_counter(), time.process_time()
    if measure == "catalog_coverage":
        value = pe.catalog_coverage(train, reco)
    elif measure == "distributional_coverage":
        value = pe.distributional_coverage(train, reco)
    elif measure == "novelty":
        value = pe.novelty(train, reco)
    elif measure == "diversity":
        value = pe.diversity(train, reco, item_feature_df=feats,
                             item_sim_measure="item_feature_vector")
    elif measure == "serendipity":
        value = pe.serendipity(train, reco, item_feature_df=feats,
                               item_sim_measure="item_feature_vector", col_relevance="relevance")
    else:
        raise SystemExit(f"recommenders has no measure {measure!r} here")
    return {"seconds": time.perf_counter() - began, "cpu": time.process_time() - cpu,
            "value": float(value)}


TOOLS = {"ranklens": tool_ranklens, "rectools": tool_rectools,
         "recommenders": tool_recommenders}


def child(args: argparse.Namespace) -> None:
    out = TOOLS[args.tool](_load(args.data), args.k, args.measure)
    print(json.dumps(out))


# -- the driver ------------------------------------------------------------------------------


def _limit(gigabytes: float) -> Any:
    def apply() -> None:
        size = int(gigabytes * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (size, size))
    return apply


def measure_once(python: str, tool: str, measure: str, data: Path, k: int,
                 timeout: float, memory_gb: float) -> dict[str, Any]:
    env = dict(os.environ)
    if tool != "ranklens":  # the peers' venv must not see ranklens's packages
        env.pop("PYTHONPATH", None)
    command = [python, str(HERE), "--child", "--tool", tool, "--measure", measure,
               "--data", str(data), "--k", str(k)]
    began = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                              env=env, preexec_fn=_limit(memory_gb))
    except subprocess.TimeoutExpired:
        return {"status": f"stopped after {timeout:g} s"}
    wall = time.perf_counter() - began
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["?"])[-1]
        status = "out of memory" if "MemoryError" in done.stderr else f"failed: {last[:80]}"
        return {"status": status, "wall": wall}
    return {"status": "ok", "wall": wall, **json.loads(done.stdout.strip().splitlines()[-1])}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--users", type=int, default=100_000)
    p.add_argument("--k", type=int, default=100)
    p.add_argument("--train-rows", type=int, default=1_000_000)
    p.add_argument("--dim", type=int, default=64)
    p.add_argument("--seed", type=int, default=27)
    p.add_argument("--reps", type=int, default=1, help="alternating repetitions")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds per process")
    p.add_argument("--memory-gb", type=float, default=12.0, help="address space per process")
    p.add_argument("--python", default=sys.executable, help="ranklens's interpreter")
    p.add_argument("--rectools-python", default=None, help="an interpreter with rectools")
    p.add_argument("--recommenders-python", default=None,
                   help="an interpreter with recommenders (python_evaluation)")
    p.add_argument("--only", default=None, help="comma-separated ranklens measures of PAIRS "
                   "to run ('all' is always run)")
    p.add_argument("--cache", type=Path, default=Path("/tmp/ranklens-beyond"))
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--tool", help=argparse.SUPPRESS)
    p.add_argument("--measure", help=argparse.SUPPRESS)
    p.add_argument("--data", type=Path, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        child(args)
        return
    args.cache.mkdir(parents=True, exist_ok=True)
    data = args.cache / (f"u{args.users}-k{args.k}-t{args.train_rows}-d{args.dim}"
                         f"-s{args.seed}.npz")
    if not data.exists():
        generate(args.users, args.k, args.train_rows, args.dim, args.seed, data)
    pythons = {"ranklens": args.python, "rectools": args.rectools_python,
               "recommenders": args.recommenders_python}
    only = None if args.only is None else {m.strip() for m in args.only.split(",")}
    print(f"{args.users:,} users x {args.k} recommendations, "
          f"{args.users * max(args.train_rows // args.users, 1):,} training rows, "
          f"{N_ITEMS:,} items x {args.dim} dims; seconds in process (whole process)")
    # the floor of any one ranklens call here: the tables read and the run aligned with
    # the judgments, with a measure that costs nothing beyond that
    runs = [("ranklens", "all", "every beyond measure, one call"),
            ("ranklens", "P", f"P@{args.k} (floor: load + align)")]
    for ours, (peer, theirs) in PAIRS.items():
        if only is not None and ours.strip() not in only:
            continue
        if pythons[peer] is None:
            continue
        runs += [("ranklens", ours, f"{ours.strip()}@{args.k}"), (peer, theirs, theirs)]
    seen_ranklens: set[str] = set()
    for rep in range(args.reps):
        for tool, measure, label in runs:
            if tool == "ranklens" and measure in seen_ranklens and rep == 0:
                continue  # ILD twice in one rep: once is enough
            if tool == "ranklens":
                seen_ranklens.add(measure)
            out = measure_once(pythons[tool] or args.python, tool, measure, data, args.k,
                               args.timeout, args.memory_gb)
            if out["status"] == "ok":
                shown = (f"{out['seconds']:8.2f} s, CPU {out['cpu']:6.2f} s "
                         f"({out['wall']:7.2f} s)  = {out['value']:.6g}")
            else:
                shown = out["status"]
            print(f"rep {rep + 1}  {tool:<12} {label:<40} {shown}", flush=True)


if __name__ == "__main__":
    main()
