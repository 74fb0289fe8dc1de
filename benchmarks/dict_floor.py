"""How far a nested-dict path without polars would go: a measured prototype, not shipped.

    python benchmarks/dict_floor.py [--pairs 3] [--reps 30]

TREC DL 2019's RepLLaMA run and qrels as ``{query: {doc: value}}`` dicts (as in
``inprocess.py``), evaluated by ``ranklens.evaluate`` and by a stripped-down path that does
what a dedicated small-input engine would: the run flattened in three passes over the dicts,
each row's grade by one dict lookup, score ties broken on the doc ids' bytes (read from the
Python strs), the judgments sorted by NumPy, the aligned arrays built directly and the same
measure kernels run. Both give the same values (checked here). Printed: process CPU time,
medians of ``--reps``, in alternating pairs, and their ratio; docs/benchmarks.md "Floors"
reads it against pytrec_eval's time.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from itertools import chain, repeat
from typing import Any

import numpy as np
from inprocess import MEASURES, dl19_dicts

import ranklens
from ranklens._model.aligned import Aligned
from ranklens._model.bytekeys import _column_keys
from ranklens._pipeline.plan import make_plan

_NAN = float("nan")
_EMPTY: dict[str, Any] = {}


def tie_sorted(docs: list[str], scores: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The ranked order of rows that come query by query with scores non-increasing (as
    DL 2019's run does): only score ties move, sorted by doc id descending (byte-wise) on
    integer keys built from the strs' bytes, as ranklens's ranking does from polars's."""
    n = scores.size
    ends = np.cumsum(lengths)
    block = np.repeat(np.arange(lengths.size), lengths)
    assert not ((scores[1:] > scores[:-1]) & (block[1:] == block[:-1])).any()
    new = np.ones(n, dtype=bool)
    new[1:] = (scores[1:] != scores[:-1]) | (block[1:] != block[:-1])
    group = np.cumsum(new)
    raw = np.frombuffer("\0".join(docs).encode() + bytes(8), dtype=np.uint8)
    sep = np.flatnonzero(raw[:raw.size - 8] == 0)
    assert sep.size == n - 1 and ends[-1] == n  # no NUL inside an id
    starts = np.concatenate(([0], sep + 1))
    width = np.diff(np.concatenate((starts, [raw.size - 8 + 1]))) - 1
    matrix = np.zeros((n, int(width.max())), dtype=np.uint8)
    for j in range(matrix.shape[1]):
        matrix[:, j] = raw[starts + j] * (width > j)
    shift = n.bit_length()
    keyed = _column_keys(matrix, width, ((1 << 64) >> shift) // (int(group[-1]) + 1))
    assert keyed is not None
    key, span = keyed
    packed = group.astype(np.uint64) * np.uint64(span) + (np.uint64(span - 1) - key)
    packed = (packed << np.uint64(shift)) | np.arange(n, dtype=np.uint64)
    packed.sort()
    return (packed & np.uint64((1 << shift) - 1)).astype(np.int64)


def stripped(qrels: dict, run: dict, measures: list[str]) -> dict[str, float]:
    """Mean of each measure over the run's queries (all judged, as in DL 2019)."""
    plan = make_plan(measures)
    qids = list(run)
    rankings = list(run.values())
    nb = len(rankings)
    lengths = np.fromiter(map(len, rankings), np.int64, nb)
    docs = list(chain.from_iterable(rankings))
    n = len(docs)
    scores = np.fromiter(chain.from_iterable(map(dict.values, rankings)), np.float64, n)
    get = qrels.get
    lookups = (map((get(k) or _EMPTY).get, rk, repeat(_NAN))
               for k, rk in zip(qids, rankings, strict=True))
    grades = np.fromiter(chain.from_iterable(lookups), np.float64, n)
    order = tie_sorted(docs, scores, lengths)
    offsets = np.concatenate(([0], np.cumsum(lengths)))
    ranked = grades[order]
    judged_at = np.flatnonzero(~np.isnan(ranked))
    per_query = [get(k) or _EMPTY for k in qids]
    counts = np.fromiter(map(len, per_query), np.int64, nb)
    jgrade = np.fromiter(chain.from_iterable(map(dict.values, per_query)), np.float64,
                         int(counts.sum()))
    jq = np.repeat(np.arange(nb), counts)
    by_grade = np.lexsort((-jgrade, jq))
    query_ids = np.array(qids, dtype=object)
    aligned = Aligned.of(query_ids=query_ids, offsets=offsets,
                         judged=(judged_at, ranked[judged_at]), score=(scores, order),
                         judgments=(jq[by_grade], jgrade[by_grade]), missing=np.zeros(nb, bool),
                         policies=plan.policies, to_sorted=np.argsort(query_ids))
    return {str(m): float(np.mean(m.definition.kernel(aligned, m))) for m in plan.canonical}


def cpu_ms(call: Callable[[], Any], reps: int) -> float:
    call()
    times = []
    for _ in range(reps):
        t0 = time.process_time()
        call()
        times.append(time.process_time() - t0)
    return statistics.median(times) * 1e3


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--reps", type=int, default=30)
    args = ap.parse_args()
    qrels, run = dl19_dicts()
    measures = list(MEASURES)
    ref = ranklens.evaluate(qrels, run, measures).aggregates
    for name, value in stripped(qrels, run, measures).items():
        assert abs(value - ref[name]) < 1e-12, (name, value, ref[name])
    for _ in range(args.pairs):
        a = cpu_ms(lambda: stripped(qrels, run, measures), args.reps)
        b = cpu_ms(lambda: ranklens.evaluate(qrels, run, measures), args.reps)
        print(f"stripped {a:.2f} ms  ranklens.evaluate {b:.2f} ms  ratio {a / b:.2f}")


if __name__ == "__main__":
    main()
