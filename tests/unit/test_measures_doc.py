"""docs/measures.md is generated from the registry and must not go stale."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from ranklens._measures import REGISTRY

DOC = Path(__file__).resolve().parents[2] / "docs" / "measures.md"


def _generated() -> str:
    out = subprocess.run(
        [sys.executable, "-m", "ranklens", "measures", "--format", "markdown"],
        capture_output=True, text=True, check=True,
    )
    return out.stdout


def test_measures_doc_matches_the_registry() -> None:
    assert DOC.read_text() == _generated(), (
        "docs/measures.md is stale: run `ranklens measures --format markdown > docs/measures.md`"
    )


def test_every_registered_measure_has_a_section() -> None:
    text = DOC.read_text()
    for name in REGISTRY:
        assert f"## `{name}" in text, name
