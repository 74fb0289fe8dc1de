"""The benchmark command runs end to end on the tiny preset, and every tool agrees.

Not a timing test: one repetition, whichever peers are installed (absent ones are skipped
by the benchmark itself); ranklens always runs, as a whole process and in memory.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _generator() -> Path:
    shared = Path(os.environ.get("RANKLENS_SHARED_DIR", ROOT.parent / "shared"))
    return shared / "bench" / "make_trec_data.py"


def test_benchmark_tiny_completes_and_tools_agree(tmp_path: Path) -> None:
    if not _generator().exists():
        message = f"benchmark data generator not found at {_generator()}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    report = tmp_path / "report.json"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "run.py"), "--preset", "tiny", "--reps", "1",
         "--warmup", "0", "--cache", str(tmp_path / "cache"), "--json", str(report)],
        capture_output=True, text=True, timeout=900,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = json.loads(report.read_text())["tiny"]
    assert not [r for r in rows if "error" in r], rows
    tools = {(r["workload"], r["tool"]) for r in rows}
    assert {("cli", "ranklens"), ("memory", "ranklens (tables)"),
            ("memory", "ranklens (dicts)")} <= tools
    for row in rows:
        assert row["agree"], (row["tool"], row["workload"], row["max_abs_diff"], row["notes"])
        assert row["runs"] == 1 and row["median_s"] > 0
    # the numbers compared are real evaluations, not empty or degenerate output
    ranklens_cli = next(r for r in rows if r["tool"] == "ranklens" and r["workload"] == "cli")
    assert 0 < ranklens_cli["values"]["AP"] < 1
    assert 0 < ranklens_cli["values"]["R@1000"] <= 1
