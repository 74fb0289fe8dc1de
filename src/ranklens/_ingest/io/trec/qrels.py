"""The TREC qrels reader: ``query iter doc relevance`` per line."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from ...._base.lazy import polars as pl
from ...._base.threads import ahead
from ...tables import Qrels, ReaderHints
from . import codes, files
from .small import read_small_qrels, small_file
from .tokens import line_qrels, scan_qrels, separator

__all__ = ["read_trec_qrels"]

#: a qrels file's blocks are this many times smaller than a run's: each block's parse
#: leaves freed memory in polars's allocator, more of it the larger the block
QRELS_PARTS = 4


def read_trec_qrels(path: str | Path, *, data: bytes | None = None) -> Qrels:
    """Read a TREC qrels file: ``query iter doc relevance`` per line.

    Lines whose first non-blank character is ``#`` and blank lines are skipped; a ``#``
    inside a field is data (MS MARCO doc ids contain one). Relevance must be an integer.
    ``data``: the bytes of a block of the file handed over (a chunked evaluation's), read
    as the file would be; their ids are kept as strings, as the chunks keep them.
    """
    source = str(path)
    if data is None and small_file(source):  # tokenized without polars' reader, or None
        small = read_small_qrels(files.read_bytes(path), source)
        if small is not None:
            return small
    block = files.BLOCK // QRELS_PARTS
    # text read whole (compressed, handed over) is parsed in one pass: it is in memory already
    blocks, size, whole = files.blocks_of(path, data, block, split=False)
    one = whole is not None or size <= block
    try:
        parts = _typed_blocks(blocks, coded=data is None, one=one)
    except codes.Collision:  # two doc ids share a hash: read again, looking up the strings
        blocks.close()
        blocks = files.split_blocks(whole, len(whole)) if whole is not None \
            else files.read_blocks(source, block)
        parts = _typed_blocks(blocks, coded=True, exact=True, one=one)
    blocks.close()  # a file left half read by a block the typed pass cannot take
    if isinstance(parts, pl.DataFrame) or parts:
        table = _typed_table(parts, source) if isinstance(parts, pl.DataFrame) \
            else codes.coded_table(parts, source)
        del parts
        if whole is None:
            files.release_heap(source)
        return table
    # a line the typed pass cannot take: the line parser reads it or words the error
    return Qrels(line_qrels(files.read_bytes(path) if whole is None else whole, source),
                 source)


def _typed_blocks(blocks: Iterator[bytes], *, coded: bool, exact: bool = False,
                  one: bool = False) -> list[codes.CodedPart] | pl.DataFrame | None:
    """:func:`~.tokens.scan_qrels` of a file given in blocks of whole lines (so the whole
    text never sits in memory next to its columns); None if some block needs the line
    parser.

    With ``coded``, each block's ids are turned into codes at once (:class:`CodedPart`)
    while the distinct doc ids stay at most :data:`CODED_SHARE` of the judgments read: then
    codes hold them in less memory than strings. Past it (every judgment of its own
    document: a recommender's qrels), or without ``coded``, the blocks are kept as they are
    parsed and a frame is given instead. ``exact``: see :class:`Dictionary`; ``one``: the
    file is one block (decided before any code is made)."""
    parts: list[codes.CodedPart] = []
    frames: list[pl.DataFrame] = []
    seps: list[bytes | None] = []  # the first block's separator

    def parsed(block: bytes) -> pl.DataFrame | None:
        if not seps:
            seps.append(separator(block))
        return scan_qrels(block, seps[0]) if seps[0] else None

    dictionary = codes.Dictionary(exact)
    rows = 0
    coding: bool | None = None if coded else False  # whether to hold codes (None: undecided)
    # under an evaluation's jobs > 1 the next block is parsed on a second thread while
    # this one's ids are coded (ranklens._base.threads)
    with contextlib.closing(ahead(blocks, parsed)) as it:
        for i, (block, part) in enumerate(it):
            del block
            if part is None:
                return None
            if not part.height:
                continue
            rows += part.height
            if coding is None and not i and (one or rows >= codes.CODED_ROWS):
                # almost every doc id of the first block its own (of a file of one block:
                # most of them): not coded
                most = codes.CODED_SHARE if one else codes.HOPELESS_SHARE
                if pl.Series(codes.doc_hashes(part["doc_id"])).n_unique() > most * rows:
                    coding = False
            if coding is False:
                frames.append(part)
                continue
            parts.append(codes.CodedPart.of(part, dictionary))
            del part
            # decided from CODED_ROWS judgments and the second block on (the first
            # block's documents are all new); given up, the blocks coded so far are
            # turned back into their strings
            if i and rows >= codes.CODED_ROWS:
                coding = dictionary.size <= codes.CODED_SHARE * rows
                if not coding:
                    frames = [p.frame() for p in parts]
                    parts.clear()
    if coding is None and dictionary.size > codes.CODED_SHARE * rows:  # decided at the end
        frames = [p.frame() for p in parts]
        coding = False
    if coding is False:
        return pl.concat(frames, rechunk=False) if frames else []
    return parts


def _typed_table(typed: pl.DataFrame, source: str) -> Qrels:
    """The qrels of a typed pass's frame; its block starts are kept for the index."""
    # the columns as they are (dropping one from the frame may copy the others whole),
    # but the doc ids in one chunk: alignments gather them at random rows, much slower
    # across the blocks' dozens of chunks; and the grades in one, which NumPy then reads
    # in place (the index and each alignment would each copy them whole). The block
    # starts are taken by ranklens._model.matching, which groups the judgments by query.
    return Qrels(pl.DataFrame([typed["query_id"], typed["doc_id"].rechunk(),
                               typed["relevance"].rechunk()]), source,
                 hints=ReaderHints(block_starts=typed["new"]))
