"""trec_eval's judgment-group measures (``-R qrels_jg``): map, P and Rprec_mult per group.

A qrels_jg file is a qrels file whose second column names a judgment group (JG), e.g. one
assessor. Each measure is computed against each JG of a topic as if that JG were the only
judgments, by the registry's kernels (AP, P, RprecMult), then averaged over the topic's
JGs (trec_eval 10.0, form_res_rels_jg.c and m_*_avgjg.c).
"""

from __future__ import annotations

from pathlib import Path

from ..._base.c_numbers import c_atol
from ..._base.errors import InputError, MeasureError
from ..._ingest.io._prefs import load_prefs
from ..._ingest.tables import Run
from ..._measures import REGISTRY, Measure
from ..._measures.trec_params import command_line_cutoffs
from ..._names.trec import averaged_over_groups, cutoff_name
from .columns import Column, left_out_warning, quiet_evaluate
from .options import TrecEvalError
from .table import JG

__all__ = ["jg_columns", "read_qrels_jg"]

Groups = dict[str, dict[str, dict[str, int]]]  # {topic: {jg: {docno: relevance}}}


def read_qrels_jg(path: str | Path) -> Groups:
    """``{topic: {jg: {docno: relevance}}}`` from ``topic jg docno relevance`` lines (read
    by the loader of judgment-group files; relevance as C's ``atol``, a later line of a
    document winning, as trec_eval)."""
    frame = load_prefs(path, qrels_format=True, level=c_atol, what="at least one line").frame
    out: Groups = {}
    for qid, jg, docno, rel in zip(frame["query_id"].to_list(), frame["jg"].to_list(),
                                   frame["doc_id"].to_list(), frame["level"].to_list(),
                                   strict=True):
        out.setdefault(qid, {}).setdefault(jg, {})[docno] = int(rel)
    return out


def _columns(selected: dict[str, str | None]) -> list[tuple[str, str, Measure]]:
    """(printed name, trec_eval name, per-group measure) of every selected avgjg column."""
    out: list[tuple[str, str, Measure]] = []
    for te in JG:
        if te not in selected:
            continue
        name, family = averaged_over_groups(te)
        if not family:
            out.append((te, te, Measure(name)))
            continue
        # the registry's default cutoffs of P and Rprec_mult are trec_eval's for the avgjg
        # forms too
        for c in command_line_cutoffs(te, REGISTRY[name], selected[te]):
            out.append((cutoff_name(te, name, c), te, Measure(name, (), c)))
    return out


def jg_columns(path: str | Path, run: Run, selected: list[tuple[str, str | None]], *,
               complete: bool, rel: int, depth: int | None,
               judged_only: bool) -> tuple[list[str], list[Column]]:
    """Topic ids and per-topic values of map_avgjg, P_avgjg and Rprec_mult_avgjg."""
    wanted = dict(selected)
    other = [te for te in wanted if te not in JG and te not in ("runid", "num_q")]
    if other:
        raise TrecEvalError(f"measure '{other[0]}' cannot be computed from -R qrels_jg "
                            "judgments", 4)
    try:
        specs = _columns(wanted)
    except MeasureError as exc:
        raise TrecEvalError(str(exc), getattr(exc, "status", 2)) from None
    groups = read_qrels_jg(path)
    in_run = set(run.frame["query_id"].unique().to_list())
    qids = [q for q in sorted(groups) if complete or q in in_run]
    if not complete:
        left_out_warning([q for q in groups if q not in in_run], run.source)
    if not qids:
        raise InputError(f"the run ({run.source}) and the qrels ({path}) share no query")
    measures = list(dict.fromkeys(m for _, _, m in specs))
    names = sorted({jg for q in qids for jg in groups[q]})
    # per (topic, jg): one value per measure; an absent topic's ranking is empty (all 0)
    per_group: dict[tuple[str, str], list[float]] = {}
    for jg in names:
        judged = {q: groups[q][jg] for q in qids if jg in groups[q] and q in in_run}
        if not judged or not measures:
            continue
        result = quiet_evaluate(judged, run, measures, rel=rel, missing="skip", depth=depth,
                                judged_only=judged_only)
        columns = [result.query_values[str(m)].tolist() for m in measures]
        for i, q in enumerate(str(q) for q in result.query_ids.tolist()):
            per_group[(q, jg)] = [float(c[i]) for c in columns]
    zeros = [0.0] * len(measures)
    rows: list[list[float]] = []
    for q in qids:
        jgs = sorted(groups[q])
        sums = [0.0] * len(measures)
        for jg in jgs:  # trec_eval adds the groups in order, then divides once
            values = per_group.get((q, jg), zeros)
            sums = [s + v for s, v in zip(sums, values, strict=True)]
        if len(jgs) > 1:
            sums = [s / len(jgs) for s in sums]
        rows.append(sums)
    at = {m: i for i, m in enumerate(measures)}
    return qids, [Column(printed, te, tuple(r[at[m]] for r in rows), "mean")
                  for printed, te, m in specs]
