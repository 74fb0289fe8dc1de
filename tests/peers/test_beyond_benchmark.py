"""benchmarks/beyond.py: its generated data is what the peers need (distinct items per list,
no recommended item in the user's own training history, one held-out hit per user), the
ranklens call of every measure runs, and a peer interpreter, when given, gives the same
value as ranklens (not a timing test: timings are not asserted)."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_beyond", ROOT / "benchmarks" /
                                                  "beyond.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_data_fits_every_peer(tmp_path: Path) -> None:
    bench = _bench()
    path = tmp_path / "d.npz"
    bench.generate(200, 20, 2000, 8, 5, path)
    data = bench._load(path)
    reco, train, test = data["reco"], data["train"], data["test"]
    assert reco.shape == (200, 20) and train.shape == (200, 10) and test.shape == (200, 3)
    assert all(len(set(row)) == len(row) for row in reco)
    assert not any(set(r) & set(t) for r, t in zip(reco, train, strict=True))
    assert all(len(set(r) & set(t)) >= 1 for r, t in zip(reco, test, strict=True))
    assert data["features"].shape == (bench.N_ITEMS, 8)
    out = bench.tool_ranklens(data, 10, "all")
    assert 0 < out["value"] <= 1  # Coverage@10, the first measure


def test_peer_processes_agree_with_ranklens(tmp_path: Path) -> None:
    python = os.environ.get("RANKLENS_RECS_PYTHON")
    if not python:
        pytest.skip("RANKLENS_RECS_PYTHON (an interpreter with rectools and recommenders) "
                    "is not set")
    bench = _bench()
    path = tmp_path / "d.npz"
    bench.generate(300, 10, 3000, 8, 6, path)
    for ours, (peer, theirs) in bench.PAIRS.items():
        if theirs in ("diversity", "serendipity"):
            continue  # a cross join of the whole catalogue: out of memory by design
        mine = bench.measure_once(sys.executable, "ranklens", ours, path, 10, 300, 12)
        other = bench.measure_once(python, peer, theirs, path, 10, 300, 12)
        assert mine["status"] == other["status"] == "ok", (mine, other)
        assert np.isclose(mine["value"], other["value"], rtol=1e-9), (ours, mine, other)
