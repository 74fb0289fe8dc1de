"""The worked examples of the seed articles (``spec/seed_examples.json``), to 1e-12."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import spec_root

import ranklens


def _cases() -> list[dict]:
    path = spec_root() / "seed_examples.json"
    if not path.is_file():
        return []
    return json.loads(path.read_text(encoding="utf-8"))


CASES = _cases()


@pytest.mark.parametrize("case_id", [c["id"] for c in CASES] or ["<no cases>"])
def test_seed_example(spec_dir: Path, case_id: str) -> None:
    cases = {c["id"]: c for c in json.loads((spec_dir / "seed_examples.json").read_text())}
    case = cases[case_id]
    result = ranklens.evaluate(case["qrels"], case["run"], [case["measure"]], missing="zero")
    assert result[case["measure"]] == pytest.approx(case["expected"], abs=1e-12, rel=0)


def test_seed_examples_exist(spec_dir: Path) -> None:
    assert len(json.loads((spec_dir / "seed_examples.json").read_text())) >= 30
