"""llama_index's RetrieverEvaluator measures (llama-index-core evaluation/retrieval).

Each reads the whole ranking (no cutoff: k is the number retrieved) against the expected
ids (the judged documents at level ``rel``). llama_index raises ValueError on an empty
ranking or an empty expected list; these give NaN there (``empty="skip"`` and
``missing="skip"`` leave such queries out). See docs/rag-measures.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._model.aligned import Aligned
from ._common import clib_log2, divide, rel_level
from ._rag import hit_terms, nan_where, per_query
from ._registry import REL, Measure, Param, Spelled, register

_GRANULAR = Param("granular", Spelled("bool"), False, "llama_index's use_granular_hit_rate / "
                  "use_granular_mrr")
_IDCG = Param("idcg", Spelled("choice", ("expected", "retrieved")), "expected", "positions "
              "of the ideal DCG: one per expected id (llama_index since 2024) or one per "
              "retrieved id (its original code)")
_EMPTY = "; NaN where llama_index raises (empty ranking or expected ids)"


def _measure(name: str, snake: str, doc: str, **extra: Any) -> Callable[
        [Callable[[Aligned, Measure, np.ndarray], np.ndarray]], None]:
    """Register ``LlamaIndex<name>`` (alias ``llama_index_<snake>``): the kernel's values,
    NaN where either list is empty."""

    def deco(kernel: Callable[[Aligned, Measure, np.ndarray], np.ndarray]) -> None:
        def guarded(a: Aligned, m: Measure) -> np.ndarray:
            big_r = a.num_rel(rel_level(a, m))
            return nan_where((a.n_ret == 0) | (big_r == 0), kernel(a, m, big_r))

        params = extra.pop("params", ())
        register(f"LlamaIndex{name}", f"llama_index {snake}: {doc}{_EMPTY}", params=(REL, *params),
                 aliases=(f"llama_index_{snake}",), family="llama_index",
                 **extra)(guarded)

    return deco


# every one reads the number of expected ids (llama_index raises when there are none)


@_measure("HitRate", "hit_rate", "1 if a relevant id is retrieved, else 0; granular: relevant "
          "retrieved / relevant judged", params=(_GRANULAR,), order_free="always")
def hit_rate(a: Aligned, m: Measure, big_r: np.ndarray) -> np.ndarray:
    hits = per_query(a, hit_terms(a, m)[0])
    return divide(hits, big_r) if m.get("granular") else (hits > 0).astype(np.float64)


@_measure("MRR", "mrr", "1 / rank of the first relevant id; granular: the mean of 1 / rank "
          "over every relevant retrieved", params=(_GRANULAR,))
def mrr(a: Aligned, m: Measure, big_r: np.ndarray) -> np.ndarray:
    q, rank, running = hit_terms(a, m)
    if m.get("granular"):
        return divide(per_query(a, q, 1.0 / rank), per_query(a, q))
    return per_query(a, q[running == 1], 1.0 / rank[running == 1])


@_measure("Precision", "precision", "relevant retrieved / retrieved", order_free="always")
def precision(a: Aligned, m: Measure, big_r: np.ndarray) -> np.ndarray:
    return divide(per_query(a, hit_terms(a, m)[0]), a.n_ret)


@_measure("Recall", "recall", "relevant retrieved / relevant judged", order_free="always")
def recall(a: Aligned, m: Measure, big_r: np.ndarray) -> np.ndarray:
    return divide(per_query(a, hit_terms(a, m)[0]), big_r)


@_measure("AP", "ap", "sum of precision at each relevant rank / relevant judged (trec_eval's AP)")
def average_precision(a: Aligned, m: Measure, big_r: np.ndarray) -> np.ndarray:
    q, rank, running = hit_terms(a, m)
    return divide(per_query(a, q, running / rank), big_r)


@_measure("NDCG", "ndcg", "binary gain 1 / log2(rank + 1) over the ideal DCG of idcg positions "
          "(trec_eval's nDCG reads grades and ranks the judged documents)", params=(_IDCG,))
def ndcg(a: Aligned, m: Measure, big_r: np.ndarray) -> np.ndarray:
    q, rank, _ = hit_terms(a, m)
    n = big_r if m.get("idcg") == "expected" else a.n_ret
    # the ideal DCG summed in rank order, as Python's sum adds it
    ideal = np.concatenate(([0.0], np.cumsum(1.0 / clib_log2(np.arange(2, int(n.max(
        initial=0)) + 2, dtype=np.float64)))))
    return divide(per_query(a, q, 1.0 / clib_log2(rank + 1.0)), ideal[n])
