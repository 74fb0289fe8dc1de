"""benchmarks/trec_eval_complete.py runs end to end on the tiny preset (not a timing test)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_complete_benchmark_runs_on_tiny(tmp_path: Path) -> None:
    shared = Path(os.environ.get("RANKLENS_SHARED_DIR", ROOT.parent / "shared"))
    if not (shared / "bench" / "make_trec_data.py").exists() or not shutil.which("ranklens"):
        pytest.skip("benchmark data generator or the ranklens command not found")
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "trec_eval_complete.py"), "--preset", "tiny",
         "--reps", "1", "--cache", str(tmp_path)],
        capture_output=True, text=True, timeout=900,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"ratio -c / without: wall \d+\.\d{3} \(medians\), \d+\.\d{3} "
                     r"\(minima\); peak RSS \d+\.\d{3}", proc.stdout)
    # the run really lacks one judged topic, so -c has one to add
    data = tmp_path / "tiny"
    run = next(data.glob("run*.minus-one-topic"))
    topic = re.search(r"without topic (\S+);", proc.stdout)
    assert topic is not None
    assert not any(line.split()[0] == topic.group(1) for line in run.read_text().splitlines())
    qrels = next(data.glob("qrels*"))
    assert any(line.split()[0] == topic.group(1) for line in qrels.read_text().splitlines())
