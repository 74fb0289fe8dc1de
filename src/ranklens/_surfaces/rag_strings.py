"""ragas's non-LLM context precision and recall: verdicts from a string similarity.

ragas's ``NonLLMContextPrecisionWithReference`` and ``NonLLMContextRecall`` (ragas 0.4,
default Levenshtein distance) compare context texts, not ids, so they are functions here
rather than measures of the registry. A retrieved context is relevant when its best
similarity to a reference is >= ``threshold`` (precision); a reference is found when its
best similarity to a retrieved context is > ``threshold`` (recall). See
docs/rag-measures.md.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._base.errors import ParameterError
from .._base.validate import Number, check
from .._measures.rag_ragas import EPSILON

__all__ = ["levenshtein_similarity", "nonllm_context_precision", "nonllm_context_recall"]

#: the longest context compared, in characters: a comparison costs time in the product of
#: two lengths
MAX_CHARS = 100_000


def levenshtein_similarity(a: str, b: str) -> float:
    """1 - Levenshtein distance / the longer length (rapidfuzz's normalized similarity with
    unit weights, which ragas uses); 1.0 for two empty strings.

    Examples
    --------
    >>> levenshtein_similarity("kitten", "sitting")
    0.5714285714285714
    """
    for name, text in (("a", a), ("b", b)):
        if not isinstance(text, str):
            raise ParameterError(f"a context must be a string, got {type(text).__name__} "
                                 f"for {name!r}")
        if len(text) > MAX_CHARS:
            raise ParameterError(f"a context has {len(text)} characters, more than MAX_CHARS "
                                 f"({MAX_CHARS}); cut it or compare ids with ContextPrecision")
    long, short = (a, b) if len(a) >= len(b) else (b, a)
    if not short:
        return 0.0 if long else 1.0
    codes = np.frombuffer(short.encode("utf-32-le"), dtype=np.uint32)
    cols = np.arange(codes.size + 1)
    row = cols.copy()
    for char in np.frombuffer(long.encode("utf-32-le"), dtype=np.uint32):
        cur = np.empty_like(row)
        cur[0] = row[0] + 1
        cur[1:] = np.minimum(row[1:] + 1, row[:-1] + (codes != char))
        # an insertion extends the row to the right: a running minimum of cur[j] - j
        row = np.minimum.accumulate(cur - cols) + cols
    return 1 - float(row[-1]) / len(long)


def _lists(retrieved: Any, reference: Any, threshold: float) -> None:
    """ParameterError unless both are lists of texts and ``threshold`` is in [0, 1]."""
    check("threshold", threshold, Number(0, 1))
    for name, given in (("retrieved_contexts", retrieved), ("reference_contexts", reference)):
        if not isinstance(given, (list, tuple)):
            raise ParameterError(f"{name} must be a list of texts; got {type(given).__name__}")


def _best(texts: Sequence[str], others: Sequence[str]) -> list[float]:
    return [max(levenshtein_similarity(o, t) for o in others) for t in texts]


def nonllm_context_precision(retrieved_contexts: Sequence[str],
                             reference_contexts: Sequence[str], *,
                             threshold: float = 0.5) -> float:
    """ragas's ``NonLLMContextPrecisionWithReference``: context precision on verdicts
    "best similarity to a reference >= threshold".

    Parameters
    ----------
    retrieved_contexts : the retrieved texts, in rank order.
    reference_contexts : the reference texts.
    threshold : the lowest similarity that makes a context relevant (ragas: 0.5).

    Returns
    -------
    float
        Sum of precision at each relevant rank / (relevant + 1e-10); 0.0 when nothing is
        retrieved.

    Raises
    ------
    ParameterError
        ``reference_contexts`` is empty (ragas raises ValueError there).

    Examples
    --------
    >>> nonllm_context_precision(["Paris is the capital.", "Bananas."],
    ...                          ["Paris is the capital of France."])
    0.9999999999
    """
    _lists(retrieved_contexts, reference_contexts, threshold)
    if retrieved_contexts and not reference_contexts:
        raise ParameterError("reference_contexts is empty: there is nothing to compare the "
                             "retrieved contexts with (ragas raises ValueError)")
    hits, total = 0, 0.0
    for rank, best in enumerate(_best(retrieved_contexts, reference_contexts), start=1):
        if best >= threshold:
            hits += 1
            total += hits / rank
    return total / (hits + EPSILON)


def nonllm_context_recall(retrieved_contexts: Sequence[str],
                          reference_contexts: Sequence[str], *,
                          threshold: float = 0.5) -> float:
    """ragas's ``NonLLMContextRecall``: the share of references whose best similarity to a
    retrieved context is > threshold (strictly).

    Parameters
    ----------
    retrieved_contexts : the retrieved texts.
    reference_contexts : the reference texts.
    threshold : a reference is found above this similarity (ragas: 0.5).

    Returns
    -------
    float
        Found references / references; NaN without a reference.

    Raises
    ------
    ParameterError
        ``retrieved_contexts`` is empty while references are given (ragas raises
        ValueError there).

    Examples
    --------
    >>> nonllm_context_recall(["Paris is the capital."], ["Paris is the capital of France.",
    ...                                                    "It has 2 million people."])
    0.5
    """
    _lists(retrieved_contexts, reference_contexts, threshold)
    if not reference_contexts:
        return math.nan
    if not retrieved_contexts:
        raise ParameterError("retrieved_contexts is empty: no context to find the references "
                             "in (ragas raises ValueError)")
    best = _best(reference_contexts, retrieved_contexts)
    return sum(1 for b in best if b > threshold) / len(best)
