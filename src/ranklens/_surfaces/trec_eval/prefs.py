"""trec_eval's preference measures (``-R prefs`` / ``-R qrels_prefs``) as printed columns.

The file is read by :func:`ranklens._ingest.io._prefs.load_prefs` into a
:class:`~ranklens._ingest.tables.PrefJudgments` table; the values are computed by
:func:`~ranklens._pipeline.preferences.compute_prefs` (the engine's ranker, then the
judgment-group and measure kernels of :mod:`ranklens._measures._prefs`, whose registry
entries say how each measure is summarised and printed) and summarised by trec_eval's one
aggregation (:mod:`.summary`).
"""

from __future__ import annotations

from pathlib import Path

from ..._ingest.io._prefs import load_prefs
from ..._ingest.tables import Run
from ..._measures._prefs import PREF_REGISTRY
from ..._pipeline.preferences import compute_prefs
from .columns import Column, left_out_warning
from .options import TrecEvalError

__all__ = ["prefs_columns"]


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
    judgments = load_prefs(path, qrels_format)
    measures = [PREF_REGISTRY[n] for n in names if n in PREF_REGISTRY]
    if not complete:
        in_run = set(run.block_ids.to_list())
        left_out_warning([q for q in judgments.query_ids if q not in in_run], run.source)
    qids, values = compute_prefs(judgments, run, measures, complete=complete, depth=depth)
    columns = [Column(m.name, m.name, tuple(values[m.name].tolist()), m.aggregate,
                      integer=m.trec_integer) for m in measures]
    return qids, columns
