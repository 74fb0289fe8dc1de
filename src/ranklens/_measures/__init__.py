"""Measures: a registry of small vectorized kernels over aligned arrays.

Importing this package registers every measure family.
"""

from __future__ import annotations

from . import (  # noqa: F401  (registration side effect)
    counts,
    gain,
    gain_ext,
    interpolated,
    judged,
    precision,
    rank,
    relstring,
    rprec_mult,
    utility,
)
from ._registry import REGISTRY, Measure, MeasureDef, Param

__all__ = ["REGISTRY", "Measure", "MeasureDef", "Param"]
