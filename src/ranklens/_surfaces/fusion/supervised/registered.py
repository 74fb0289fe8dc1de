"""The six supervised kernels in the fusion registry, under ranx's names: each learns from
``fuse(..., train=qrels)`` by the leakage rule of :mod:`ranklens._surfaces.fusion.training`.

Their parameters are the kernel's own (``n_segments`` for ProbFuse and ``w`` for SlideFuse
are required, as in ranx, which has no default for them either; ``rel`` defaults to 1) and
the cross-fitting ones every supervised method takes (``folds``, ``seed``,
``allow_leakage``).
"""

from __future__ import annotations

from ..registry import Param, register
from ..training import LEAKAGE_PARAMS, supervised_kernel
from . import SUPERVISED
from ._common import REQUIRED

__all__: list[str] = []

for _name, _entry in SUPERVISED.items():
    _params = tuple(Param(p.name, p.constraint, None if p.default is REQUIRED else p.default,
                          p.doc) for p in _entry.params) + LEAKAGE_PARAMS
    register(_name, _entry.doc, params=_params, supervised=True)(
        supervised_kernel(_name, _entry.learn, _entry.fuse, _entry.needs_relevant))
