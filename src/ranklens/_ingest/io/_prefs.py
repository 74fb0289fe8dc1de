"""Preference judgments (trec_eval's ``-R prefs`` and ``-R qrels_prefs``) -> a table.

A prefs file has lines ``qid jg jsg docno rel_level``: within one judgment sub-group (JSG)
a document with a higher level is preferred to one with a lower level; the JSGs of one
judgment group (JG) combine transitively; different JGs are different users and may
disagree. ``qrels_prefs`` reads a qrels file as prefs, the ``iter`` column naming the JG
and one JSG per JG. Lines are split by the one tokenizer of TREC-style files, levels read
as C's ``atof`` (as trec_eval).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..._base.errors import InputError
from ..._base.lazy import polars as pl
from ..tables import PrefJudgments
from ._lines import c_atof, check_text, data_lines
from .trec.files import read_bytes

__all__ = ["load_prefs"]


def load_prefs(path: str | Path, qrels_format: bool, *,
               level: Callable[[str], float] = c_atof,
               what: str = "preference lines") -> PrefJudgments:
    """The judgments of ``qid jg jsg docno rel`` lines (prefs), or of ``qid jg docno rel``
    lines (``qrels_format``: one sub-group, ``"0"``, per group; also the layout of
    trec_eval's ``-R qrels_jg`` files).

    ``level`` reads the last field (C's ``atof`` for preferences; ``qrels_jg`` reads
    integers with ``atol``); ``what`` names the expected content in the error about an
    empty file.

    Raises
    ------
    InputError
        A line with another number of fields, or no judgment line at all.
    """
    source = str(path)
    data = read_bytes(path)
    check_text(data, source, what)
    want = 4 if qrels_format else 5
    layout = "query jg doc relevance" if qrels_format else "query jg jsg doc relevance"
    rows = [(f[0], f[1], "0", f[2], f[3]) if qrels_format else tuple(f)
            for _, f in data_lines(data, source, want, layout)]
    if not rows:
        raise InputError("no judgment lines found (only comments or blank lines)", source=source)
    columns = list(zip(*rows, strict=True))
    frame = pl.DataFrame({
        "query_id": pl.Series(columns[0], dtype=pl.String),
        "jg": pl.Series(columns[1], dtype=pl.String),
        "jsg": pl.Series(columns[2], dtype=pl.String),
        "doc_id": pl.Series(columns[3], dtype=pl.String),
        "level": pl.Series([float(level(v)) for v in columns[4]], dtype=pl.Float64),
    })
    return PrefJudgments(frame, source)
