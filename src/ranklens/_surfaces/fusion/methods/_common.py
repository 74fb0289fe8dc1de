"""Sums over runs in run order (the order ranx adds them in, so that the sums are the same
floating-point numbers and tie the same way) and the count of runs with each document."""

from __future__ import annotations

import numpy as np

from ..registry import Inputs

__all__ = ["count", "over_runs"]


def over_runs(inputs: Inputs, values: np.ndarray) -> np.ndarray:
    """Sum over runs, in run order, of ``values`` where a run has the document (0 where
    it has not); shape (U,)."""
    present, total = inputs.present, np.zeros(values.shape[0])
    for r in range(values.shape[1]):
        total = total + np.where(present[:, r], values[:, r], 0.0)
    return total


def count(inputs: Inputs) -> np.ndarray:
    """The number of runs that retrieve each row's document, as float64."""
    return inputs.present.sum(axis=1).astype(np.float64)
