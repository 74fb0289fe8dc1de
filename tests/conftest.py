"""Shared fixtures: the trec_eval conformance folder and the worked examples in ../shared/spec."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The peers the differential tests compare with. A plain checkout skips the tests of a peer
#: that is not installed; CI (RANKLENS_REQUIRE_PEERS=1, set by .ci/run) fails instead, so a
#: differential test can never pass by being skipped.
PEERS = ("pytrec_eval", "ranx", "ir_measures", "torch", "torchmetrics", "sklearn", "pandas",
         "pyarrow",
         "pyndeval",
         "cwl")  # cwl-eval, behind ir_measures' cwl_eval provider


def missing_peers() -> list[str]:
    import importlib.util

    return [name for name in PEERS if importlib.util.find_spec(name) is None]


def pytest_sessionstart(session: pytest.Session) -> None:
    if os.environ.get("RANKLENS_REQUIRE_PEERS") and missing_peers():
        raise pytest.UsageError(
            "RANKLENS_REQUIRE_PEERS is set but these peers are not installed: "
            + ", ".join(missing_peers())
        )


def conformance_root() -> Path:
    return Path(os.environ.get("RANKLENS_CONFORMANCE_DIR", ROOT.parent / "shared" / "conformance"))


def spec_root() -> Path:
    return conformance_root().parent / "spec"


@pytest.fixture(scope="session")
def trec_dir() -> Path:
    """``<conformance>/trec_eval``; CI fails without it, a plain checkout skips."""
    path = conformance_root() / "trec_eval"
    if not path.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"conformance data not found at {path} (set RANKLENS_CONFORMANCE_DIR)")
        pytest.skip(f"trec_eval conformance data not found at {path} "
                    "(set RANKLENS_CONFORMANCE_DIR)")
    return path


@pytest.fixture(scope="session")
def spec_dir() -> Path:
    path = spec_root()
    if not path.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"shared spec folder not found at {path}")
        pytest.skip(f"shared spec folder not found at {path}")
    return path
