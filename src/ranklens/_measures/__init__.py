"""Measures: a registry of small vectorized kernels over aligned arrays.

Importing this package imports every public module in it (sorted by name), and each
registers its measures: a new measure is one new module, found here without any edit.
"""

from __future__ import annotations

import importlib
import pkgutil

from ._registry import REGISTRY, Measure, MeasureDef, Param

__all__ = ["REGISTRY", "Measure", "MeasureDef", "Param"]


def _import_measure_modules() -> None:
    # sorted: registration order (what listings and docs follow) must not depend on the
    # file system's directory order
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")


_import_measure_modules()
