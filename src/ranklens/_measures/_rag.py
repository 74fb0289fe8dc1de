"""Shared arithmetic of the RAG frameworks' retrieval measures (docs/rag-measures.md)."""

from __future__ import annotations

import numpy as np

from .._model.aligned import Aligned
from ._common import rel_level
from ._registry import Measure, Param, Spelled

__all__ = ["STRICT", "hit_terms", "nan_where", "per_query", "strict"]

STRICT = Param("strict", Spelled("bool"), False,
               "deepeval's strict_mode: 0 unless the score is 1")


def hit_terms(a: Aligned, m: Measure,
              cutoff: float | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each relevant retrieved document within ``cutoff``, in rank order: its query,
    its rank and the relevant documents at or above it."""
    idx = a.within(a.relevant_positions(rel_level(a, m)), cutoff)
    q = a.qidx_at(idx)
    return q, a.rank_at(idx), np.arange(1, idx.size + 1) - np.searchsorted(q, q, side="left")


def per_query(a: Aligned, q: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """``weights`` (1 each by default) summed per query, in rank order as Python's sum adds."""
    return np.bincount(q, weights=weights, minlength=a.nq).astype(np.float64)


def nan_where(mask: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``values`` with NaN where ``mask`` (the original's NaN or ValueError)."""
    return np.where(mask, np.nan, values)


def strict(m: Measure, values: np.ndarray) -> np.ndarray:
    """deepeval's ``strict_mode``: a score below 1 becomes 0."""
    return np.where(values < 1.0, 0.0, values) if m.get("strict") else values
