"""Benchmark driver for pytrec_eval (pytrec-eval-terrier). See ``_driver.py``."""

from __future__ import annotations

import statistics

import pytrec_eval
from _driver import TINY_QRELS, TINY_RUN, parse_args, read_dicts, time_calls, write
from measures import tool_names

NAMES = tool_names("pytrec_eval")


def evaluate(qrels: dict, run: dict) -> dict[str, float]:
    per_query = pytrec_eval.RelevanceEvaluator(qrels, set(NAMES)).evaluate(run)
    # trec_eval's default: mean over the queries present in both (all of them here)
    return {m: statistics.fmean(v[m] for v in per_query.values()) for m in NAMES}


def main() -> None:
    a = parse_args()
    if a.mode == "files":
        with open(a.qrels) as f:
            qrels = pytrec_eval.parse_qrel(f)
        with open(a.run) as f:
            run = pytrec_eval.parse_run(f)
        write(a.out, "pytrec_eval", evaluate(qrels, run))
        return
    qrels, run = read_dicts(a.qrels, a.run)
    evaluate(TINY_QRELS, TINY_RUN)
    values, seconds = time_calls(lambda: evaluate(qrels, run), a.reps)
    write(a.out, "pytrec_eval", values, seconds)


if __name__ == "__main__":
    main()
