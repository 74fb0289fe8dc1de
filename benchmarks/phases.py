"""Where ranklens's time goes, per workload: ``python benchmarks/phases.py [--only NAMES]``.

For each workload of ``targets.py`` a fresh child process runs the public API step by step
and times each phase (wall, ``time.perf_counter``):

``interpreter``  ``python -c pass`` (median of 5 processes): the floor of any Python tool;
``import``       ``import ranklens`` in the child (``python -X importtime`` gives the same
                 total, by module, for a closer look);
``read qrels``   ``ranklens.load_qrels(path)`` (and the bytes read per second);
``read run``     ``ranklens.load_run(path)`` for each run file;
``evaluate``     ``ranklens.evaluate(qrels, run, measures)`` on the loaded tables, split by a
                 second, cProfile'd call on freshly loaded copies into index/align (the
                 engine's ``align``: judgment and run indexes, matching), compute (the
                 measures' kernels: ``compute`` less ``align``) and the rest (planning,
                 assembling the result), as shares of the unprofiled wall;
``render+write`` ``ranklens.render(result, "jsonl")`` and writing it to a file.

The sum is compared with the ``ranklens evaluate`` CLI's whole process on the same files
(the CLI also imports click and its output code), and with the floor of any reader: reading
the files' bytes (warm page cache, 16 MiB blocks). Times are single runs on a shared machine:
noisy; read the shares, not the third digit. (Named ``phases``, not ``profile``: a
``profile.py`` here would shadow the standard library's, which ``cProfile`` imports.)
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from measures import MEASURES  # noqa: E402

PHASES = ("interpreter", "import", "read qrels", "read run", "index/align", "compute",
          "plan+assemble", "render+write")


def child(qrels_path: str, run_paths: list[str], out: str) -> None:
    """The phases, timed in this process; prints one JSON object."""
    mark("import")
    t0 = time.perf_counter()
    import ranklens

    t = {"import": time.perf_counter() - t0}
    mark("read qrels")
    t0 = time.perf_counter()
    qrels = ranklens.load_qrels(qrels_path)
    t["read qrels"] = time.perf_counter() - t0
    mark("read run")
    t0 = time.perf_counter()
    runs = {p: ranklens.load_run(p) for p in run_paths}
    t["read run"] = time.perf_counter() - t0
    arg = runs if len(runs) > 1 else next(iter(runs.values()))
    mark("evaluate")
    t0 = time.perf_counter()
    result = ranklens.evaluate(qrels, arg, list(MEASURES), missing="zero")
    evaluate_s = time.perf_counter() - t0
    mark("render+write")
    t0 = time.perf_counter()
    Path(out).write_text(ranklens.render(result, "jsonl"))
    t["render+write"] = time.perf_counter() - t0
    mark("profile")
    t.update(split(evaluate_s, qrels_path, run_paths))
    print(json.dumps(t))


def mark(phase: str) -> None:
    """A marker between ``-X importtime`` lines: the imports after it belong to ``phase``."""
    sys.stderr.write(f"@@phase {phase}\n")
    sys.stderr.flush()


def imports_by_phase(stderr: str) -> dict[str, float]:
    """Seconds of (top-level) imports in each phase, from ``-X importtime`` output."""
    phase, out = "", {}
    for line in stderr.splitlines():
        if line.startswith("@@phase "):
            phase = line[8:]
        elif line.startswith("import time:") and phase and phase != "profile":
            parts = line.split("|")
            # nested imports are indented under their importer, whose total includes them
            if len(parts) == 3 and parts[1].strip().isdigit() and \
                    not parts[2][1:].startswith(" "):
                out[phase] = out.get(phase, 0.0) + int(parts[1]) / 1e6
    return out


def split(evaluate_s: float, qrels_path: str, run_paths: list[str]) -> dict[str, float]:
    """``evaluate_s`` in shares measured by cProfile on fresh copies of the tables (so no
    index the first call may have kept is reused)."""
    import cProfile
    import pstats

    import ranklens

    qrels = ranklens.load_qrels(qrels_path)
    runs = {p: ranklens.load_run(p) for p in run_paths}
    arg = runs if len(runs) > 1 else next(iter(runs.values()))
    prof = cProfile.Profile()
    prof.enable()
    ranklens.evaluate(qrels, arg, list(MEASURES), missing="zero")
    prof.disable()
    stats = pstats.Stats(prof).stats  # type: ignore[attr-defined]

    def cum(file_end: str, func: str) -> float:
        return sum(v[3] for (f, _, name), v in stats.items()
                   if name == func and f.replace("\\", "/").endswith(file_end))

    total = cum("ranklens/_surfaces/evaluate.py", "evaluate")
    align = cum("_model/align.py", "align")
    compute = cum("_pipeline/compute.py", "compute")
    if total <= 0 or compute <= 0:  # the engine's functions were renamed: no split
        return {"evaluate": evaluate_s}
    return {"index/align": evaluate_s * align / total,
            "compute": evaluate_s * (compute - align) / total,
            "plan+assemble": evaluate_s * max(total - compute, 0.0) / total}


def bytes_read_s(paths: list[Path]) -> float:
    """Seconds to read the files' bytes (page cache warm): the floor of any reader."""
    t0 = time.perf_counter()
    for path in paths:
        with open(path, "rb") as f:
            while f.read(1 << 24):
                pass
    return time.perf_counter() - t0


def interpreter() -> float:
    walls = []
    for _ in range(5):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        walls.append(time.perf_counter() - t0)
    return statistics.median(walls)


def cli_wall(qrels: Path, runs: tuple[Path, ...], work: Path) -> float:
    from run import ranklens_cli
    from targets import ranklens_cmd

    cli = ranklens_cli()
    if cli is None:
        return float("nan")
    t0 = time.perf_counter()
    subprocess.run(ranklens_cmd(cli, qrels, runs, work / "cli.jsonl"), check=True,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def profile(names: list[str] | None, cache: Path) -> list[dict]:
    from targets import TARGETS

    base = interpreter()
    rows = []
    for t in TARGETS:
        if names and t.name not in names:
            continue
        w = t.make(cache)
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            cli = cli_wall(w.qrels, w.runs, work)  # also warms the page cache
            out = subprocess.run([sys.executable, "-X", "importtime", __file__, "--child",
                                  str(w.qrels),
                                  *map(str, w.runs), "--out", str(work / "out.jsonl")],
                                 capture_output=True, text=True, check=True)
        phases = {"interpreter": base, **json.loads(out.stdout.splitlines()[-1])}
        floor = bytes_read_s([w.qrels, *w.runs])
        mb_q = w.qrels.stat().st_size / 1e6
        mb_r = sum(r.stat().st_size for r in w.runs) / 1e6
        row = {"workload": t.name, "phases": phases, "sum_s": sum(phases.values()),
               "imports": imports_by_phase(out.stderr),
               "cli_s": cli, "qrels_mb": mb_q, "run_mb": mb_r, "bytes_read_s": floor,
               "qrels_mb_per_s": mb_q / phases["read qrels"],
               "run_mb_per_s": mb_r / phases["read run"]}
        rows.append(row)
        print(f"{t.name:<16} " + "  ".join(f"{k} {v:.2f}" for k, v in phases.items())
              + f"  | sum {row['sum_s']:.2f} s, CLI {cli:.2f} s; imports by phase "
              + ", ".join(f"{k} {v:.2f}" for k, v in row["imports"].items()), flush=True)
    return rows


def markdown(rows: list[dict]) -> str:
    head = ["workload", *PHASES, "sum", "CLI whole process", "read MB/s (qrels, run)",
            "bytes read s"]
    out = ["Seconds (share of the sum); *i* = of which importing modules (lazy imports on "
           "first use).", "",
           "| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    for r in rows:
        p, imp = r["phases"], r.get("imports", {})

        def cell(k: str, p: dict = p, imp: dict = imp, total: float = r["sum_s"]) -> str:
            if k not in p and not (k == "index/align" and "evaluate" in p):
                return "-"
            v = p.get(k, p.get("evaluate", 0.0))
            i = imp.get("evaluate" if k in ("index/align", "compute", "plan+assemble")
                        else k, 0.0)
            extra = f", *i* {i:.2f}" if i >= 0.005 and k not in ("compute", "plan+assemble") \
                else ""
            return f"{v:.2f} ({100 * v / total:.0f}%{extra})"

        cells = [cell(k) for k in PHASES]
        out.append(f"| {r['workload']} | " + " | ".join(cells)
                   + f" | {r['sum_s']:.2f} | {r['cli_s']:.2f} | "
                   f"{r['qrels_mb_per_s']:.0f}, {r['run_mb_per_s']:.0f} | "
                   f"{r.get('bytes_read_s', float('nan')):.3f} |")
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="comma-separated workloads of targets.py (default: all)")
    ap.add_argument("--cache", type=Path, default=HERE / ".cache")
    ap.add_argument("--json", type=Path, help="also write the rows to this JSON file")
    ap.add_argument("--markdown", type=Path, metavar="JSON",
                    help="only print the Markdown table of an earlier --json file")
    ap.add_argument("--child", nargs="+", metavar="FILE", help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        child(a.child[0], a.child[1:], a.out)
        return 0
    if a.markdown:
        print(markdown(json.loads(a.markdown.read_text())))
        return 0
    a.cache.mkdir(parents=True, exist_ok=True)
    rows = profile(a.only.split(",") if a.only else None, a.cache)
    if a.json:
        a.json.write_text(json.dumps(rows, indent=1))
    print()
    print(markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
