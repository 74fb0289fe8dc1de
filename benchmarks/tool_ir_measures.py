"""Benchmark driver for ir_measures. See ``_driver.py``."""

from __future__ import annotations

import ir_measures
from _driver import TINY_QRELS, TINY_RUN, parse_args, read_dicts, time_calls, write
from measures import tool_names

MEASURES = [ir_measures.parse_measure(n) for n in tool_names("ir_measures")]


def evaluate(qrels: object, run: object) -> dict[str, float]:
    out = ir_measures.calc_aggregate(MEASURES, qrels, run)
    return {str(k): float(v) for k, v in out.items()}


def main() -> None:
    a = parse_args()
    if a.mode == "files":
        qrels = ir_measures.read_trec_qrels(a.qrels)
        run = ir_measures.read_trec_run(a.run)
        write(a.out, "ir_measures", evaluate(qrels, run))
        return
    qrels, run = read_dicts(a.qrels, a.run)
    evaluate(TINY_QRELS, TINY_RUN)
    values, seconds = time_calls(lambda: evaluate(qrels, run), a.reps)
    write(a.out, "ir_measures", values, seconds)


if __name__ == "__main__":
    main()
