"""trec_eval's judgment-group measures (``-R qrels_jg``): map, P and Rprec_mult per group.

A qrels_jg file is a qrels file whose second column names a judgment group (JG), e.g. one
assessor. Each measure is computed against each JG of a topic separately, as if that JG
were the only judgments, then averaged over the topic's JGs (trec_eval 10.0,
form_res_rels_jg.c and m_*_avgjg.c).
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from .._errors import InputError
from .._io._trec import read_bytes
from ._trec_eval import Column, Options, TrecEvalError, atof, atol, warn_left_out

if TYPE_CHECKING:
    from .._tables import Run

__all__ = ["jg_columns"]

_P_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_RPREC_CUTOFFS = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)


def _read(path: str) -> dict[str, dict[str, dict[str, int]]]:
    """``{qid: {jg: {docno: rel}}}`` from ``qid jg docno rel`` lines."""
    data = read_bytes(path)
    if not data.strip():
        raise InputError("file is empty, expected at least one line", source=path)
    out: dict[str, dict[str, dict[str, int]]] = defaultdict(lambda: defaultdict(dict))
    for lineno, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), 1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        if len(fields) != 4:
            raise InputError(f"expected 4 fields (query jg doc relevance), got {len(fields)}",
                             source=path, line=lineno)
        qid, jg, docno, rel = fields
        out[qid][jg][docno] = atol(rel)
    if not out:
        raise InputError("no judgment lines found (only comments or blank lines)", source=path)
    return out


def _ranked(run: Run, depth: int | None) -> dict[str, list[str]]:
    # trec_eval's order: score descending, ties by doc id descending (byte-wise)
    frame = run.frame.sort(["query_id", "score", "doc_id"], descending=[False, True, True])
    out: dict[str, list[str]] = defaultdict(list)
    for qid, doc in zip(frame["query_id"].to_list(), frame["doc_id"].to_list(), strict=True):
        out[qid].append(doc)
    for qid, docs in out.items():
        if depth is not None:
            del docs[depth:]
        if len(set(docs)) != len(docs):
            raise InputError(f"a document appears more than once for query {qid!r} in the run "
                             f"({run.source})")
    return out


def _one_group(docs: list[str], judged: dict[str, int], o: Options,
               p_cuts: list[float], r_cuts: list[float]) -> list[float]:
    """[AP, P@k..., Rprec_mult@x...] of one ranking against one judgment group."""
    rels = [judged.get(d, -1) for d in docs]
    if o.judged_only:
        rels = [r for r in rels if r >= 0]
    n = len(rels)
    big_r = sum(1 for r in judged.values() if r >= o.rel and r >= 0)
    is_rel = [r >= o.rel for r in rels]
    num_rel_ret = sum(is_rel)
    total = 0.0
    so_far = 0
    for i, hit in enumerate(is_rel):
        if hit:
            so_far += 1
            total += so_far / (i + 1)
    out = [total / big_r if so_far else 0.0]
    prefix = [0]
    for hit in is_rel:
        prefix.append(prefix[-1] + hit)
    for k in p_cuts:
        kk = int(k)
        out.append(prefix[min(kk, n)] / kk)
    for x in r_cuts:
        c = int(x * big_r + 0.9)
        if c > n:
            out.append(num_rel_ret / c if c else 0.0)
        elif c == 0 or prefix[c] == 0:
            out.append(0.0)
        else:
            out.append(prefix[c] / c)
    return out


def _cutoffs(param: str | None, default: tuple[float, ...], as_int: bool, te: str) -> list[float]:
    if param is None:
        return sorted(default)
    pieces = param.split(",")
    values = sorted(float(atol(p)) if as_int else atof(p) for p in pieces)
    if as_int and any(v <= 0 for v in values):
        raise TrecEvalError(f"negative cutoff detected in '{te}.{param}'", 2)
    if len(set(values)) != len(values):
        raise TrecEvalError(f"duplicate cutoffs detected in '{te}.{param}'", 2)
    return values


def jg_columns(path: str, run: Run, o: Options,
               marked: list[tuple[str, str | None]]) -> tuple[list[str], list[Column]]:
    """Per-topic values of map_avgjg, P_avgjg and Rprec_mult_avgjg (plus runid, num_q)."""
    params = dict(marked)
    allowed = {"runid", "num_q", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg"}
    other = [te for te in params if te not in allowed]
    if other:
        raise TrecEvalError(f"measure '{other[0]}' cannot be computed from -R qrels_jg "
                            "judgments", 4)
    p_cuts = _cutoffs(params.get("P_avgjg"), _P_CUTOFFS, True, "P_avgjg")
    r_cuts = _cutoffs(params.get("Rprec_mult_avgjg"), _RPREC_CUTOFFS, False, "Rprec_mult_avgjg")
    qrels = _read(path)
    ranked = _ranked(run, o.depth)
    qids = [q for q in sorted(qrels) if o.complete or q in ranked]
    warn_left_out([q for q in qrels if q not in ranked], o, run.source)
    if not qids:
        raise InputError(f"the run ({run.source}) and the qrels ({path}) share no query")
    rows: list[list[float]] = []
    for q in qids:
        groups = qrels[q]
        sums = [0.0] * (1 + len(p_cuts) + len(r_cuts))
        for jg in sorted(groups):
            values = _one_group(ranked.get(q, []), groups[jg], o, p_cuts, r_cuts)
            sums = [s + v for s, v in zip(sums, values, strict=True)]
        if len(groups) > 1:
            sums = [s / len(groups) for s in sums]
        rows.append(sums)
    columns: list[Column] = []
    for te in ("runid", "num_q", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg"):
        if te not in params:
            continue
        if te == "runid":
            columns.append(Column("runid", "runid", [], "none"))
        elif te == "num_q":
            columns.append(Column("num_q", "num_q", [1.0] * len(qids), "count"))
        elif te == "map_avgjg":
            columns.append(Column(te, te, [r[0] for r in rows], "mean"))
        elif te == "P_avgjg":
            for i, k in enumerate(p_cuts):
                columns.append(Column(f"P_avgjg_{int(k)}", te, [r[1 + i] for r in rows], "mean"))
        else:
            base = 1 + len(p_cuts)
            for i, x in enumerate(r_cuts):
                columns.append(Column(f"Rprec_mult_avgjg_{x:3.2f}", te,
                                      [r[base + i] for r in rows], "mean"))
    return qids, columns
