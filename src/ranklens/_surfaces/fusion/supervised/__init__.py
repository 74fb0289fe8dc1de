"""Supervised fusion kernels: learn per-run probabilities from training judgments, then fuse.

Every kernel reads plain arrays over the union of the runs' (query, doc) pairs, one row
each, rows grouped by query (``U`` rows, ``R`` runs):

- ``query`` int64 (U,): query codes; ``doc`` int64 (U,): doc codes;
- ``rank`` int64 (U, R): 1-based position of the doc in run r's list for the query, 0 where
  run r lacks it. Positions within one query's list are distinct, 1..length: the caller
  has already ordered the list (and broken its ties) by its own convention;
- ``length`` int64 (U, R): the length of run r's list for the row's query, 0 where run r has
  no list for it;
- ``score`` float64 (U, R): run r's score after the caller's normalisation, NaN where absent
  (only SegFuse reads it).

``learn(query, doc, rank, length, score, grade, **params) -> Model`` sees the rows of the
training queries only: every query in ``query`` is a training query, and run r learns from
those it has a list for (``length > 0``). ``grade`` float64 (U,) is the row's training
judgment, NaN when unjudged; an unjudged document counts as not relevant. MAPFuse also needs
``relevant=`` (the number of relevant judgments of the row's query, retrieved or not): see
:attr:`Supervised.needs_relevant`.

``fuse(model, query, doc, rank, length, score) -> float64 (U,)``: the fused score of each
row, higher is better. Fused ties are equal floats, left to the caller's tie policy. The
models are per run: fuse the same runs, in the same order, as were learned from.

Each method's module holds its formula, paper, parameters and what it does where the paper
and ranx differ. Every kernel is vectorized over all queries: its loops run over runs and,
for SlideFuse's prefix sums, over a run's table of positions, never over queries or rows.
"""

from __future__ import annotations

from ..registry import register
from ..training import LEAKAGE_PARAMS, supervised_kernel
from . import bayesfuse, mapfuse, posfuse, probfuse, segfuse, slidefuse
from ._common import Model, Param, Supervised

__all__ = ["SUPERVISED", "Model", "Param", "Supervised"]


#: ranx's method names -> kernels.
SUPERVISED: dict[str, Supervised] = {
    module.__name__.rpartition(".")[2]: Supervised(
        module.__name__.rpartition(".")[2], module.learn, module.fuse, module.PARAMS,
        module.__doc__ or "", needs_relevant=module is mapfuse)
    for module in (probfuse, segfuse, slidefuse, posfuse, bayesfuse, mapfuse)}

# each registered under ranx's name, with the cross-fitting parameters every one takes
for _name, _method in SUPERVISED.items():
    register(_name, _method.doc, params=_method.params + LEAKAGE_PARAMS, supervised=True)(
        supervised_kernel(_method))
