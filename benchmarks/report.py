"""Benchmark ``ranklens report``: the whole process on MS MARCO-shaped data, two runs.

    python benchmarks/report.py [--preset msmarco] [--reps 3]

The data comes from the shared generator (``make_trec_data.py``, found in
``$RANKLENS_SHARED_DIR`` or ``../shared``; 6,980 queries x 1,000 documents for ``msmarco``)
and is written once to ``benchmarks/.cache/report-<preset>/``. Times ``ranklens report QRELS
RUN1 RUN2 -o FILE`` and, for scale, ``ranklens evaluate QRELS RUN1 RUN2`` (median wall time
of ``--reps`` runs after one untimed warm-up), with the peak RSS of each child and the size of
the report. Times are wall-clock on whatever machine runs it; see docs/report.md.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def generator() -> Path:
    shared = Path(os.environ.get("RANKLENS_SHARED_DIR", HERE.parent.parent / "shared"))
    return shared / "bench" / "make_trec_data.py"


def dataset(preset: str) -> Path:
    out = HERE / ".cache" / f"report-{preset}"
    if (out / "run2.txt").exists():
        return out
    gen = generator()
    if not gen.exists():
        sys.exit(f"data generator not found at {gen} (set RANKLENS_SHARED_DIR)")
    tmp = out.with_name(out.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    subprocess.run([sys.executable, str(gen), "--preset", preset, "--runs", "2", "--out",
                    str(tmp)], check=True)
    shutil.rmtree(out, ignore_errors=True)
    tmp.rename(out)
    return out


def timed(args: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one ``ranklens ARGS`` process."""
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "ranklens", *args],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)  # this child's own usage (ru_maxrss in KB)
    seconds = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        sys.exit(f"ranklens {' '.join(args)} exited with {child.returncode}")
    return seconds, usage.ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="msmarco", choices=("tiny", "trecdl", "msmarco"))
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args()
    data = dataset(args.preset)
    files = [str(data / "qrels.txt"), str(data / "run1.txt"), str(data / "run2.txt")]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.html"
        commands = {"report": ["report", *files, "-o", str(out)],
                    "evaluate": ["evaluate", *files]}
        for name, command in commands.items():
            timed(command)  # warm-up: page cache, byte-code
            runs = [timed(command) for _ in range(args.reps)]
            print(f"{name:9s} median {statistics.median(s for s, _ in runs):6.2f} s  "
                  f"peak RSS {max(r for _, r in runs):6.0f} MB")
        size = out.stat().st_size
        print(f"report    {size / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
