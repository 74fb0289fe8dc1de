"""Benchmark driver for ranklens (used when the ``ranklens`` CLI is not available, and for the
in-memory workload). See ``_driver.py``.

Variants of the memory mode: ``tables`` (``Qrels``/``Run`` loaded from the files
beforehand, not timed) and ``dicts`` (the same plain dicts the peers get).
"""

from __future__ import annotations

from _driver import TINY_QRELS, TINY_RUN, parse_args, read_dicts, time_calls, write
from measures import MEASURES

import ranklens


def evaluate(qrels: object, run: object) -> dict[str, float]:
    return dict(ranklens.evaluate(qrels, run, list(MEASURES), missing="zero"))


def main() -> None:
    a = parse_args()
    if a.mode == "files":
        write(a.out, "ranklens", evaluate(a.qrels, a.run))
        return
    if a.variant == "dicts":
        qrels, run = read_dicts(a.qrels, a.run)
    else:
        qrels, run = ranklens.load_qrels(a.qrels), ranklens.load_run(a.run)
    evaluate(TINY_QRELS, TINY_RUN)
    values, seconds = time_calls(lambda: evaluate(qrels, run), a.reps)
    write(a.out, "ranklens", values, seconds)


if __name__ == "__main__":
    main()
