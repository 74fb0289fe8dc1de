"""A run as TREC run text (``query Q0 doc rank score tag``), for ``ranklens fuse``."""

from __future__ import annotations

import numpy as np
import polars as pl

from ..._ingest.tables import Run

__all__ = ["trec_run_text"]


def trec_run_text(run: Run) -> str:
    """The rows of ``run`` in their order, ranks counted from 1 within each query, scores
    written so that they read back as the same float64 (ties stay ties).

    Examples
    --------
    >>> import ranklens
    >>> print(trec_run_text(ranklens.load_run({"q1": {"d1": 0.5, "d2": 0.25}}, name="x")),
    ...       end="")
    q1 Q0 d1 1 0.5 x
    q1 Q0 d2 2 0.25 x
    """
    if len(run) == 0:
        return ""
    lengths = run.block_lengths
    starts = np.repeat(np.cumsum(lengths) - lengths, lengths)
    rank = np.arange(len(run), dtype=np.int64) - starts + 1
    tag = run.name if run.name and not any(c.isspace() for c in run.name) else "fused"
    frame = pl.DataFrame({"q": run.query_id, "d": run.doc_id, "rank": rank,
                          "score": run.score})
    lines = frame.select(pl.concat_str(
        [pl.col("q"), pl.lit("Q0"), pl.col("d"), pl.col("rank").cast(pl.String),
         pl.col("score").cast(pl.String), pl.lit(tag)], separator=" "))
    return "\n".join(lines.to_series().to_list()) + "\n"
