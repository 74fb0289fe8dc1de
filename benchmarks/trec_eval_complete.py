"""``ranklens trec_eval -c`` against the same command without ``-c``, whole process.

    python benchmarks/trec_eval_complete.py [--preset msmarco] [--reps 5]

The run is the preset's (generated once by ``run.py``'s generator into ``benchmarks/.cache``)
with every line of one judged topic removed, so ``-c`` has one topic to add. The two
commands run alternately, each round starting with the other one, so neither always
finds a warm page cache; the script prints each one's median wall time and peak RSS and
the ratio (the target: ``-c`` within 10% of the command without it).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import PRESETS, dataset, spawn  # noqa: E402


def without_one_topic(data: Path) -> tuple[Path, Path, str]:
    """The preset's qrels, and its run without the lines of the first judged topic."""
    qrels = next(p for p in sorted(data.iterdir()) if p.name.startswith("qrels"))
    run = next(p for p in sorted(data.iterdir()) if p.name.startswith("run"))
    with qrels.open("rb") as f:
        topic = f.readline().split()[0]
    out = data / f"{run.name}.minus-one-topic"
    if not out.exists():
        tmp = out.with_suffix(".partial")
        prefix = topic + b" "
        tab = topic + b"\t"
        with run.open("rb") as src, tmp.open("wb") as dst:
            for line in src:
                if not line.startswith((prefix, tab)):
                    dst.write(line)
        tmp.rename(out)
    return qrels, out, topic.decode()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--preset", choices=PRESETS, default="msmarco")
    ap.add_argument("--reps", type=int, default=5, help="rounds of each command (default 5)")
    ap.add_argument("--measures", default="official", help="-m value (default official)")
    ap.add_argument("--cache", type=Path, default=HERE / ".cache", help="data folder")
    args = ap.parse_args()
    exe = shutil.which("ranklens")
    if exe is None:
        sys.exit("the ranklens command is not on PATH")
    args.cache.mkdir(parents=True, exist_ok=True)
    qrels, run, topic = without_one_topic(dataset(args.cache, args.preset,
                                                  ["--preset", args.preset]))
    base = [exe, "trec_eval", "-m", args.measures]
    commands = {"without -c": [*base, str(qrels), str(run)],
                "with -c": [*base, "-c", str(qrels), str(run)]}
    print(f"{args.preset}: run without topic {topic}; {args.reps} alternating rounds")
    spawn(commands["with -c"])  # untimed: page cache, byte-code
    wall: dict[str, list[float]] = {k: [] for k in commands}
    rss: dict[str, list[float]] = {k: [] for k in commands}
    names = list(commands)
    for i in range(args.reps):
        for name in names if i % 2 == 0 else names[::-1]:
            seconds, mb, err = spawn(commands[name])
            if err:
                sys.exit(f"{name} failed: {err}")
            wall[name].append(seconds)
            rss[name].append(mb)
    for name in names:
        print(f"  {name:<11} median {statistics.median(wall[name]):7.3f} s   "
              f"min {min(wall[name]):7.3f} s   "
              f"peak RSS {statistics.median(rss[name]):7.1f} MB   "
              f"(wall {', '.join(f'{s:.3f}' for s in wall[name])})")
    ratio = statistics.median(wall["with -c"]) / statistics.median(wall["without -c"])
    fastest = min(wall["with -c"]) / min(wall["without -c"])
    mem = statistics.median(rss["with -c"]) / statistics.median(rss["without -c"])
    # on a shared machine the minimum is the round least disturbed by other work
    print(f"  ratio -c / without: wall {ratio:.3f} (medians), {fastest:.3f} (minima); "
          f"peak RSS {mem:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
