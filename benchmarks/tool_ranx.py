"""Benchmark driver for ranx. See ``_driver.py``.

Variants of the memory mode: ``dicts`` (``ranx.evaluate`` on plain dicts, conversion
included) and ``tables`` (``ranx.Qrels``/``ranx.Run`` built beforehand, not timed).
"""

from __future__ import annotations

import ranx
from _driver import TINY_QRELS, TINY_RUN, parse_args, read_dicts, time_calls, write
from measures import tool_names

NAMES = tool_names("ranx")


def evaluate(qrels: object, run: object) -> dict[str, float]:
    out = ranx.evaluate(qrels, run, NAMES, save_results_in_run=False)
    return {k: float(v) for k, v in out.items()}


def main() -> None:
    a = parse_args()
    if a.mode == "files":
        qrels = ranx.Qrels.from_file(a.qrels, kind="trec")
        run = ranx.Run.from_file(a.run, kind="trec")
        write(a.out, "ranx", evaluate(qrels, run))
        return
    qd, rd = read_dicts(a.qrels, a.run)
    evaluate(ranx.Qrels(TINY_QRELS), ranx.Run(TINY_RUN))  # numba compiles here
    if a.variant == "tables":
        qrels, run = ranx.Qrels(qd), ranx.Run(rd)
        values, seconds = time_calls(lambda: evaluate(qrels, run), a.reps)
    else:
        values, seconds = time_calls(lambda: evaluate(qd, rd), a.reps)
    write(a.out, "ranx", values, seconds)


if __name__ == "__main__":
    main()
