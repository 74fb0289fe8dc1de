"""Groups of queries derived from the inputs: relevant judgments per query, query length in
words, a user's training interactions; counts binned into ranges for :func:`segments`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np

from .._base.errors import InputError, ParameterError
from .._base.lazy import polars as pl
from .._base.validate import Choice, check

__all__ = ["DERIVED", "derived_groups"]

#: What a group can be derived from, and the input each reads.
DERIVED = {"relevant": "qrels", "query_length": "query texts", "train": "training interactions"}


def _counts(by: str, source: Any) -> dict[str, int]:
    """Each query's count: relevant judgments, words of its text, or training interactions."""
    if by == "relevant":
        from .._ingest.io._load import load_qrels

        frame = load_qrels(source).frame
        relevant = frame.group_by("query_id", maintain_order=True).agg(pl.col("relevance") > 0)
        return {q: int(sum(r)) for q, r in relevant.iter_rows()}
    if by == "train":
        from .._ingest.io._items import load_interactions

        return dict(load_interactions(source).frame["user_id"].value_counts().iter_rows())
    if isinstance(source, (str, Path)):  # lines of `query_id<whitespace>text`, as queries.tsv
        lines = Path(source).read_text(encoding="utf-8").splitlines()
        pairs = [line.split(None, 1) for line in lines if line.strip()]
        if any(len(p) < 2 for p in pairs):
            raise InputError(f"{source}: each line needs 'query_id text'; a line has no text")
        source = dict(pairs)
    if not isinstance(source, Mapping):
        raise ParameterError("query_length reads {query_id: text} or a file of 'query_id "
                             f"text' lines; got {type(source).__name__}")
    return {str(q): len(str(text).split()) for q, text in source.items()}


def _label(n: int, edges: Sequence[int]) -> str:
    """The range of ``edges`` holding ``n``: ``<e0``, ``e0-e1`` (both included), ``>=ek``."""
    at = int(np.searchsorted(edges, n, side="right"))
    if at == 0:
        return f"<{edges[0]}"
    if at == len(edges):
        return f">={edges[-1]}"
    low, high = edges[at - 1], edges[at] - 1
    return str(low) if low == high else f"{low}-{high}"


def derived_groups(by: str, source: Any, *, edges: Sequence[int] | None = None,
                   queries: Iterable[str] | None = None) -> dict[str, str]:
    """``{query_id: group}``: each query's count (``by``) binned into ranges.

    Parameters
    ----------
    by : {"relevant", "query_length", "train"}
        ``"relevant"``: relevant judgments (grade > 0) of ``source``, any qrels form.
        ``"query_length"``: words of each query's text, ``source`` a mapping
        ``{query_id: text}`` or a file of ``query_id text`` lines (as MS MARCO's queries.tsv).
        ``"train"``: a user's training interactions, ``source`` as ``train=`` takes it.
    source : qrels, texts or interactions
        As ``by`` says.
    edges : sequence of int, optional
        Increasing range starts: ``(2, 5)`` gives ``<2``, ``2-4`` and ``>=5``. Default: the
        counts' terciles.
    queries : iterable of str, optional
        Queries absent from ``source`` that count 0 (a cold-start user has no interaction).

    Examples
    --------
    >>> derived_groups("query_length", {"q1": "cheap flights", "q2": "what is a haiku"},
    ...                edges=[3])
    {'q1': '<3', 'q2': '>=3'}
    """
    check("by", by, Choice(tuple(DERIVED)))
    counts = _counts(by, source)
    counts.update({str(q): 0 for q in queries or () if str(q) not in counts})
    if edges is None:
        edges = sorted({round(float(e)) for e in np.quantile(list(counts.values()) or [0],
                                                           [1 / 3, 2 / 3])})
    edges = [int(e) for e in edges]
    if not edges or any(b <= a for a, b in pairwise(edges)):
        raise ParameterError(f"the 'edges' option needs increasing integers; got {edges}")
    return {q: _label(n, edges) for q, n in counts.items()}
