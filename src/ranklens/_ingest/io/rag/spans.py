"""A team's own chunks to the official segments they overlap, by character spans.

TREC RAG asks teams to map their chunks to MS MARCO V2.1 segments but publishes no rule;
this is ranklens's: within the same document, the overlap of ``[start, end)`` spans."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ...._base.errors import InputError
from ...._base.lazy import polars as pl
from ...._base.validate import Number, check
from .records import field, records, source_name

__all__ = ["map_chunks"]


def _spans(source: Any, key: str, what: str) -> pl.DataFrame:
    """``id, doc, start, end`` of each record; a segment's document is its id before ``#``."""
    name, rows = source_name(source), list[tuple[str, str, int, int, int]]()
    for line, r in records(source):
        ident = str(field(r, key, name, line))
        doc = str(r["doc_id"]) if "doc_id" in r else ident.split("#")[0]
        start, end = field(r, "start_char", name, line), field(r, "end_char", name, line)
        if not (isinstance(start, int) and isinstance(end, int) and 0 <= start < end):
            raise InputError(f"{what} {ident!r}: expected integers 0 <= start_char < end_char;"
                             f" got {start!r}, {end!r}", source=name, line=line)
        rows.append((ident, doc, start, end, len(rows)))
    return pl.DataFrame(rows, orient="row", schema={"id": pl.String, "doc": pl.String,
                                                     "start": pl.Int64, "end": pl.Int64,
                                                     "at": pl.Int64})


def map_chunks(chunks: str | Path | Iterable[Any], segments: str | Path | Iterable[Any], *,
               min_share: float | None = None) -> dict[str, list[str]]:
    """Each chunk's official segments, by the overlap of their character spans.

    Parameters
    ----------
    chunks : path or iterable of dicts
        JSON records ``{"chunk_id", "doc_id", "start_char", "end_char"}``: a team's chunk,
        its official document and its span in that document's ``body``.
    segments : path or iterable of dicts
        Segment records (``docid``, ``start_char``, ``end_char``), e.g. the MS MARCO V2.1
        segmented corpus; a segment's document is its id before ``#``.
    min_share : float, optional
        Without it, each chunk maps to the one segment it overlaps most (ties: the segment
        listed first). With it, to every segment covering at least this share of the chunk.

    Returns
    -------
    dict of str to list of str
        Chunk id to segment ids (best first); a chunk overlapping no segment is left out.
        Pass it as ``rollup``'s ``by`` to turn a chunk run into a segment run.

    Examples
    --------
    >>> segs = [{"docid": "d#0_1", "start_char": 0, "end_char": 100},
    ...         {"docid": "d#1_2", "start_char": 50, "end_char": 150}]
    >>> map_chunks([{"chunk_id": "c", "doc_id": "d", "start_char": 60, "end_char": 140}],
    ...            segs)
    {'c': ['d#1_2']}
    """
    if min_share is not None:
        check("min_share", min_share, Number(0.0, 1.0, open_low=True))
    c, s = _spans(chunks, "chunk_id", "chunk"), _spans(segments, "docid", "segment")
    pairs = c.join(s, on="doc", suffix="_s").with_columns(
        overlap=pl.min_horizontal("end", "end_s") - pl.max_horizontal("start", "start_s"),
    ).filter(pl.col("overlap") > 0).sort(["at", "overlap", "at_s"],
                                          descending=[False, True, False])
    if min_share is None:
        pairs = pairs.group_by("at", maintain_order=True).first()
    else:
        pairs = pairs.filter(pl.col("overlap") >= min_share * (pl.col("end") - pl.col("start")))
    mapping: dict[str, list[str]] = {}
    for chunk, segment in pairs.select("id", "id_s").iter_rows():
        mapping.setdefault(chunk, []).append(segment)
    return mapping
