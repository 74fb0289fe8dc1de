"""Measure kernels read an alignment only through the accessors of its documented contract
(``ranklens._model.aligned.KERNEL_ACCESSORS``)."""

from __future__ import annotations

import ast
from pathlib import Path

from ranklens._model.aligned import KERNEL_ACCESSORS, Aligned

MEASURES = Path(__file__).resolve().parents[2] / "src" / "ranklens" / "_measures"
# calls that hand a kernel another alignment: the view a measure reads, and the views of
# the container itself
VIEWS = {"data", "for_measure", "judged_only", "regrouped"}


def _alignments(fn: ast.FunctionDef) -> set[str]:
    """Names bound to an alignment in ``fn``: parameters annotated ``Aligned`` and names
    assigned a view of one."""
    names = {arg.arg for arg in fn.args.args
             if arg.annotation is not None and ast.unparse(arg.annotation).strip("'\"")
             == "Aligned"}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            func = node.value.func
            called = func.id if isinstance(func, ast.Name) else (
                func.attr if isinstance(func, ast.Attribute) else "")
            if called in VIEWS:
                names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def _used() -> dict[str, set[str]]:
    """Every attribute read of an alignment inside the measure modules' functions."""
    used: dict[str, set[str]] = {}
    for path in sorted(MEASURES.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef):
                continue
            names = _alignments(fn)
            for node in ast.walk(fn):
                if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                        and node.value.id in names):
                    used.setdefault(node.attr, set()).add(path.name)
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
