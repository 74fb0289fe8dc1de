"""``--fuse METHOD`` of ``evaluate``, ``compare`` and ``report``: the fused run beside the
inputs, and its name."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["fused_beside", "with_fused_name"]


def fused_beside(labels: Sequence[str], paths: Sequence[str],
                 method: str) -> tuple[list[str], dict[str, Any]]:
    """The runs ``paths`` loaded (named ``labels``) and, after them, their fusion by
    ``method``, named after the method (``fused-<method>`` when a run has that name)."""
    from .._ingest.io._load import load_run
    from .._surfaces.fusion.fuse import fuse

    loaded = {label: load_run(path, name=label) for label, path in
              zip(labels, paths, strict=True)}
    names = with_fused_name(labels, method)
    return names, {**loaded, names[-1]: fuse(loaded, method, name=names[-1])}


def with_fused_name(labels: Sequence[str], method: str) -> list[str]:
    """``labels`` and, last, the fused run's name: the method's (``fused-<method>`` when a
    run has that name already)."""
    from .._base.errors import ParameterError
    from .._surfaces.fusion.registry import lookup

    m = lookup(method)
    if m.supervised:  # its training judgments and parameters have no option here
        raise ParameterError(f"the '--fuse' option takes the unsupervised methods; "
                             f"{m.name!r} learns from judgments: fuse with 'ranklens fuse "
                             f"--method {m.name} --train QRELS' and evaluate the fused run")
    name = m.name
    return [*labels, name if name not in labels else f"fused-{name}"]
