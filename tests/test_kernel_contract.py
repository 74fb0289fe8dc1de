"""Measure kernels read an alignment only through the accessors of its documented contract
(``ranklens._engine.aligned.KERNEL_ACCESSORS``)."""

from __future__ import annotations

import re
from pathlib import Path

from ranklens._engine.aligned import KERNEL_ACCESSORS, Aligned

MEASURES = Path(__file__).resolve().parents[1] / "src" / "ranklens" / "_measures"
# kernels name their alignment ``a`` (as given) or ``d`` (the view a measure asks for)
ACCESS = re.compile(r"\b[ad]\.([a-z_]+)")


def _used() -> dict[str, set[str]]:
    used: dict[str, set[str]] = {}
    for path in sorted(MEASURES.glob("*.py")):
        for name in ACCESS.findall(path.read_text(encoding="utf-8")):
            used.setdefault(name, set()).add(path.name)
    return used


def test_kernels_use_only_the_contracts_accessors() -> None:
    used = _used()
    outside = {name: sorted(files) for name, files in used.items()
               if name not in KERNEL_ACCESSORS}
    assert not outside, f"accessors outside the kernel contract: {outside}"
    assert {"judged_within", "relevant_positions", "num_rel"} <= used.keys()  # the scan works


def test_every_accessor_of_the_contract_exists() -> None:
    fields = set(Aligned.__dataclass_fields__)
    missing = sorted(n for n in KERNEL_ACCESSORS if n not in fields and not hasattr(Aligned, n))
    assert not missing
