"""trec_eval 10.0's semantics as library code: what ``ranklens trec_eval`` computes.

    options     the judgment formats (-R) and TrecEvalError (with trec_eval's exit status)
    table       trec_eval's measure table: output order, nicknames, measure selection (-m)
    columns     registry measures as printed columns; -c as the engine's missing="zero"
    prefs       preference measures (-R prefs, qrels_prefs)
    qrels_jg    judgment-group measures (-R qrels_jg), by the registry's kernels per group
    summary     the one aggregation (sequential sums, gm_ logs, num_q) and z-scores (-Z)
    output      trec_eval's output lines, byte for byte
    report      trec_eval(): one call from judgments and a run to a TrecEvalReport

Measure parameters (``-m P.5,10``) are parsed by ``ranklens._measures.trec_params``, the one
parser of trec_eval measure parameters; which measure a trec_eval name is comes from the one
index of spellings, ``ranklens._names.index``; every TREC-style file is tokenized by
``ranklens._ingest.io._lines``.
"""

from __future__ import annotations

from .options import Judgments, TrecEvalError
from .report import TrecEvalReport, trec_eval

__all__ = ["Judgments", "TrecEvalError", "TrecEvalReport", "trec_eval"]
