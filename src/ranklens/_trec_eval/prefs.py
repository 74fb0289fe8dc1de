"""trec_eval's preference measures (``-R prefs`` / ``-R qrels_prefs``): reader and columns.

A prefs file has lines ``qid jg jsg docno rel_level``: within one judgment sub-group (JSG)
a document with a higher level is preferred to one with a lower level; the JSGs of one
judgment group (JG) combine transitively; different JGs are different users and may
disagree. ``qrels_prefs`` reads a qrels file as prefs, the ``iter`` column naming the JG
and one JSG per JG.

The file is read here (by the one tokenizer of TREC-style files) into a
:class:`~ranklens._engine.preferences.PrefJudgments` table; the values are computed by
:func:`~ranklens._engine.preferences.compute_prefs` (the engine's ranker, then the
judgment-group and measure kernels of :mod:`ranklens._measures._prefs`, whose registry
entries say how each measure is summarised and printed) and summarised by trec_eval's one
aggregation (:mod:`.summary`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import polars as pl
else:  # imported on first use (see ranklens._lazy)
    from .._lazy import polars as pl

from .._engine.preferences import PrefJudgments, compute_prefs
from .._errors import InputError
from .._io._lines import c_atof, check_text, data_lines
from .._io._trec import read_bytes
from .._measures._prefs import PREF_REGISTRY
from .._tables import Run
from .columns import Column, left_out_warning
from .options import TrecEvalError

__all__ = ["prefs_columns", "read_prefs"]


def read_prefs(path: str | Path, qrels_format: bool) -> PrefJudgments:
    """The judgments of ``qid jg jsg docno rel`` lines (prefs), or of ``qid jg docno rel``
    lines (``qrels_format``: one sub-group per group)."""
    source = str(path)
    data = read_bytes(path)
    check_text(data, source, "preference lines")
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
        "level": pl.Series([c_atof(v) for v in columns[4]], dtype=pl.Float64),
    })
    return PrefJudgments(frame, source)


def prefs_columns(path: str | Path, run: Run, selected: list[tuple[str, str | None]], *,
                  qrels_format: bool, complete: bool,
                  depth: int | None) -> tuple[list[str], list[Column]]:
    """Topic ids and per-topic values of the selected preference measures (and num_q).

    ``qrels_format``: the judgments are a qrels file read as preferences (``-R
    qrels_prefs``); ``complete``: judged topics absent from the run count (``-c``).
    """
    names = [te for te, _ in selected]
    other = [n for n in names if n not in PREF_REGISTRY and n not in ("runid", "num_q")]
    if other:
        fmt = "qrels_prefs" if qrels_format else "prefs"
        raise TrecEvalError(f"measure '{other[0]}' cannot be computed from -R {fmt} "
                            "judgments", 4)
    judgments = read_prefs(path, qrels_format)
    measures = [PREF_REGISTRY[n] for n in names if n in PREF_REGISTRY]
    if not complete:
        in_run = set(run.block_ids.to_list())
        left_out_warning([q for q in judgments.query_ids if q not in in_run], run.source)
    qids, values = compute_prefs(judgments, run, measures, complete=complete, depth=depth)
    columns = [Column(m.name, m.name, tuple(values[m.name].tolist()), m.aggregate,
                      integer=m.trec_integer) for m in measures]
    return qids, columns
