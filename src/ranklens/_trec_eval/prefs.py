"""trec_eval's preference measures (``-R prefs`` / ``-R qrels_prefs``).

A prefs file has lines ``qid jg jsg docno rel_level``: within one judgment sub-group (JSG)
a document with a higher level is preferred to one with a lower level; the JSGs of one
judgment group (JG) combine transitively; different JGs are different users and may
disagree. ``qrels_prefs`` reads a qrels file as prefs, the ``iter`` column naming the JG
and one JSG per JG.

Per topic, every judged document gets an internal rank: retrieved ones 0..NJR-1 in
ranking order, the others NJR.. in doc id order. Each JG counts preferences fulfilled and
possible among retrieved documents (``ret``), with exactly one retrieved (``imp``), and
with neither (``notoccur``); a counts matrix over all JGs gives the pair measures.
A JG with one JSG is handled as equivalence classes of equal level, one with several JSGs
as a preference matrix closed under transitivity. This follows trec_eval 10.0
(form_prefs_counts.c and m_prefs_*.c) including its quirks, so that its outputs are
reproduced exactly. Preferences are not registry measures: they count pairs of judged
documents per judgment group, which no ranked-list kernel sees, and rank ties by doc id
ascending where every other trec_eval measure ranks them descending.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .._errors import InputError
from .._io._lines import c_atof, check_text, data_lines
from .._io._trec import read_bytes
from .._tables import Run
from .columns import Column, left_out_warning
from .options import TrecEvalError
from .table import PREFS

__all__ = ["prefs_columns", "read_prefs"]

# summed over topics and printed as integers, not averaged
_COUNTS = frozenset(PREFS[:3])

Entry = tuple[str, str, float, str]  # (jg, jsg, rel_level, docno)


def read_prefs(path: str | Path, qrels_format: bool) -> dict[str, list[Entry]]:
    """Judgments per topic: ``qid jg jsg docno rel`` (prefs) or ``qid jg docno rel``."""
    source = str(path)
    data = read_bytes(path)
    check_text(data, source, "preference lines")
    want = 4 if qrels_format else 5
    layout = "query jg doc relevance" if qrels_format else "query jg jsg doc relevance"
    out: dict[str, list[Entry]] = defaultdict(list)
    for _, fields in data_lines(data, source, want, layout):
        if qrels_format:
            qid, jg, docno, rel = fields
            jsg = "0"
        else:
            qid, jg, jsg, docno, rel = fields
        out[qid].append((jg, jsg, c_atof(rel), docno))
    if not out:
        raise InputError("no judgment lines found (only comments or blank lines)", source=source)
    return dict(out)


@dataclass
class _JG:
    ful_ret: int = 0
    poss_ret: int = 0
    ful_imp: int = 0
    poss_imp: int = 0
    notoccur: int = 0
    num_rel: int = 0
    num_rel_ret: int = 0
    num_nonrel: int = 0
    num_nonrel_ret: int = 0
    ecs: list[tuple[float, np.ndarray]] = field(default_factory=list)  # EC form
    pa: np.ndarray | None = None  # preference-array form
    rel_array: np.ndarray | None = None


@dataclass
class _Topic:
    jgs: list[_JG]
    counts: np.ndarray  # counts[i, j]: preferences i > j over all JGs
    njr: int  # judged and retrieved
    nj: int  # judged


def _ranking(docs: list[str], scores: list[float], depth: int | None, qid: str) -> list[str]:
    # form_prefs_counts sorts by score descending, ties by doc id *ascending*
    order = sorted(range(len(docs)), key=lambda i: (-scores[i], docs[i].encode()))
    ranked = [docs[i] for i in order]
    if depth is not None:
        ranked = ranked[:depth]
    if len(set(ranked)) != len(ranked):
        seen: set[str] = set()
        dup = ""
        for d in ranked:
            if d in seen:
                dup = d
                break
            seen.add(d)
        raise InputError(f"document {dup!r} appears more than once for query {qid!r} in the run")
    return ranked


def _ec_jg(entries: list[tuple[str, float, int]], njr: int, counts: np.ndarray) -> _JG:
    jg = _JG()
    for _, rel, rank in entries:
        if not jg.ecs or jg.ecs[-1][0] != rel:
            jg.ecs.append((rel, np.array([rank], dtype=np.int64)))
        else:
            jg.ecs[-1] = (rel, np.append(jg.ecs[-1][1], rank))
    for k, (rel, ranks) in enumerate(jg.ecs):
        ret = int((ranks < njr).sum())
        if rel > 0.0:
            jg.num_rel_ret += ret
            jg.num_rel += ranks.size
        else:
            jg.num_nonrel_ret += ret
            jg.num_nonrel += ranks.size
        for _, lower in jg.ecs[k + 1:]:
            r1 = ranks[:, None]
            r2 = lower[None, :]
            if np.any(r1 == r2):
                raise InputError("a document occurs with different levels in the same "
                                 "judgment sub-group")
            np.add.at(counts, (np.broadcast_to(r1, (ranks.size, lower.size)),
                               np.broadcast_to(r2, (ranks.size, lower.size))), 1)
            good = r1 < r2
            jg.ful_ret += int((good & (r2 < njr)).sum())
            jg.ful_imp += int((good & (r2 >= njr) & (r1 < njr)).sum())
            jg.notoccur += int((good & (r1 >= njr) & (r2 >= njr)).sum())
            bad = ~good
            jg.poss_ret += int((bad & (r1 < njr)).sum())
            jg.poss_imp += int((bad & (r1 >= njr) & (r2 < njr)).sum())
            jg.notoccur += int((bad & (r1 >= njr) & (r2 >= njr)).sum())
    jg.poss_ret += jg.ful_ret
    jg.poss_imp += jg.ful_imp
    return jg


def _closure(pa: np.ndarray) -> np.ndarray:
    base = pa.copy()
    np.fill_diagonal(base, True)
    m = base
    b = base.astype(np.int64)
    while True:
        nxt = (b @ m.astype(np.int64)) > 0
        if np.array_equal(nxt, m):
            break
        m = nxt
    out = m.copy()
    np.fill_diagonal(out, False)
    return out


def _pa_jg(entries: list[tuple[str, float, int]], njr: int, nj: int,
           counts: np.ndarray, docnos: list[str]) -> _JG:
    jg = _JG()
    pa = np.zeros((nj, nj), dtype=bool)
    rel_array = np.full(nj, -1.0)
    for i, (jsg, rel, rank) in enumerate(entries):
        prev = rel_array[rank]
        if (prev > 0.0 and rel == 0.0) or (prev == 0.0 and rel > 0.0):
            raise InputError(f"document {docnos[i]!r} has both 0 and non-0 levels in one "
                             "judgment group")
        rel_array[rank] = rel
        j = i + 1
        while j < len(entries) and entries[j][0] == jsg and entries[j][1] == rel:
            j += 1
        while j < len(entries) and entries[j][0] == jsg:
            pa[rank, entries[j][2]] = True
            j += 1
    a = _closure(pa)
    if np.any(a & a.T):
        raise InputError("inconsistent preferences within one judgment group")
    jg.pa, jg.rel_array = a, rel_array
    jg.num_rel_ret = int((rel_array[:njr] > 0.0).sum())
    jg.num_nonrel_ret = int((rel_array[:njr] == 0.0).sum())
    jg.num_rel = jg.num_rel_ret + int((rel_array[njr:] > 0.0).sum())
    jg.num_nonrel = jg.num_nonrel_ret + int((rel_array[njr:] == 0.0).sum())
    counts += a.astype(counts.dtype)
    top = a[:njr, :njr]
    jg.ful_ret = int(np.triu(top, 1).sum())
    jg.poss_ret = int(np.tril(top, -1).sum()) + jg.ful_ret
    jg.ful_imp = int(a[:njr, njr:].sum())
    jg.poss_imp = int(a[njr:, :njr].sum()) + jg.ful_imp
    jg.notoccur = int(a[njr:, njr:].sum())
    return jg


def _topic(entries: list[Entry], ranked: list[str]) -> _Topic:
    judged = sorted({e[3] for e in entries})
    judged_set = set(judged)
    rank_of: dict[str, int] = {}
    for d in ranked:
        if d in judged_set:
            rank_of[d] = len(rank_of)
    njr = len(rank_of)
    for d in judged:
        if d not in rank_of:
            rank_of[d] = len(rank_of)
    nj = len(rank_of)
    rows = sorted(((jg, jsg, rel, rank_of[d], d) for jg, jsg, rel, d in entries),
                  key=lambda r: (r[0], r[1], -r[2], r[3]))
    counts = np.zeros((nj, nj), dtype=np.int64)
    jgs: list[_JG] = []
    start = 0
    for end in range(1, len(rows) + 1):
        if end < len(rows) and rows[end][0] == rows[start][0]:
            continue
        group = rows[start:end]
        sub = [(r[1], r[2], r[3]) for r in group]
        if len({r[1] for r in group}) > 1:
            jgs.append(_pa_jg(sub, njr, nj, counts, [r[4] for r in group]))
        else:
            jgs.append(_ec_jg(sub, njr, counts))
        start = end
    return _Topic(jgs, counts, njr, nj)


def _cdiv(a: float, b: float) -> float:
    """C double division: x/0 is inf, 0/0 is NaN (trec_eval then tests ``sum > 0``)."""
    if b == 0:
        return math.nan if a == 0 else math.copysign(math.inf, a)
    return a / b


def _ratio(ful: int, poss: int) -> float:
    return ful / poss if poss else 0.0


def _avg_over_jgs(t: _Topic, parts: list[float]) -> float:
    total = 0.0
    for p in parts:
        total += p
    return total / len(t.jgs) if total > 0.0 else 0.0


def _pairs(t: _Topic, block: str) -> float:
    c = t.counts
    njr, nj = t.njr, t.nj
    both = c + c.T
    total = 0.0
    n = 0
    regions: list[tuple[np.ndarray, np.ndarray, bool]] = []
    if block in ("ret", "imp", "all"):
        top_i, top_j = np.triu_indices(njr, 1)
        regions.append((top_i, top_j, True))
    if block in ("imp", "all"):
        # row-major (retrieved i, then unretrieved j): trec_eval's summation order
        mi, mj = np.meshgrid(np.arange(njr), np.arange(njr, nj), indexing="ij")
        regions.append((mi.ravel(), mj.ravel(), True))
    if block == "all":
        low_i, low_j = np.triu_indices(nj - njr, 1)
        regions.append((low_i + njr, low_j + njr, False))
    for i, j, adds in regions:
        keep = both[i, j] > 0
        n += int(keep.sum())
        if adds and keep.any():
            for v in (c[i, j][keep] / both[i, j][keep]).tolist():
                total += v
    return total / n if n else 0.0


def _ec_recalc(jg: _JG, njr: int, ret_only: bool) -> tuple[int, int]:
    """Preferences of an EC judgment group keeping only the first R non-relevant docs."""
    ecs = jg.ecs

    def ranks(a: np.ndarray) -> np.ndarray:
        return a[: int((a < njr).sum())] if ret_only else a

    keep_n = jg.num_rel_ret if ret_only else jg.num_rel
    new_nonrel = ranks(ecs[-1][1][:keep_n])
    ful = poss = 0

    def count(r1: np.ndarray, r2: np.ndarray) -> tuple[int, int]:
        good = r1[:, None] < r2[None, :]
        if not ret_only:
            good = good & (r1[:, None] < njr)
        g = int(good.sum())
        return g, good.size - g

    for k in range(len(ecs)):
        for k2 in range(k + 1, len(ecs) - 1):
            f, p = count(ranks(ecs[k][1]), ranks(ecs[k2][1]))
            ful += f
            poss += p
    for k in range(len(ecs)):
        f, p = count(ranks(ecs[k][1]), new_nonrel)
        ful += f
        poss += p
    return ful, poss + ful


def _pa_recalc(jg: _JG, njr: int, ret_only: bool) -> tuple[int, int]:
    if jg.pa is None or jg.rel_array is None:
        raise RuntimeError("internal error: a preference-array judgment group without its array")
    a, rel = jg.pa, jg.rel_array
    scan = njr if ret_only else a.shape[0]
    seen = 0
    first_discarded = scan
    for i in range(scan):
        if rel[i] == 0.0:
            seen += 1
            if seen == jg.num_rel + 1:
                first_discarded = i
                break
    idx = np.arange(a.shape[0])
    keep = ~((idx >= first_discarded) & (rel == 0.0))
    k = a & keep[:, None] & keep[None, :]
    top = k[:njr, :njr]
    ful = int(np.triu(top, 1).sum())
    poss = int(np.tril(top, -1).sum())
    if not ret_only:
        ful += int(k[:njr, njr:].sum())
        poss += int(k[njr:, :].sum())
    return ful, poss + ful


def _rnonrel(t: _Topic, ret_only: bool) -> float:
    parts = []
    for jg in t.jgs:
        big_r = jg.num_rel_ret if ret_only else jg.num_rel
        big_n = jg.num_nonrel_ret if ret_only else jg.num_nonrel
        if big_r >= big_n:
            ful = jg.ful_ret + (0 if ret_only else jg.ful_imp)
            poss = jg.poss_ret + (0 if ret_only else jg.poss_imp + jg.notoccur)
            ful += jg.num_rel_ret * (big_r - big_n)
            poss += jg.num_rel * (big_r - big_n)
        elif jg.pa is None:
            ful, poss = _ec_recalc(jg, t.njr, ret_only)
        else:
            ful, poss = _pa_recalc(jg, t.njr, ret_only)
        parts.append(_cdiv(ful, poss))
    total = 0.0
    for p in parts:
        total += p
    return total / len(t.jgs) if total > 0.0 else 0.0


def _values(t: _Topic) -> dict[str, float]:
    jgs = t.jgs
    ful_ret = sum(j.ful_ret for j in jgs)
    ful_imp = sum(j.ful_imp for j in jgs)
    poss_ret = sum(j.poss_ret for j in jgs)
    poss_imp = sum(j.poss_imp for j in jgs)
    notoccur = sum(j.notoccur for j in jgs)
    return {
        "prefs_num_prefs_poss": float(poss_ret + poss_imp + notoccur),
        "prefs_num_prefs_ful": float(ful_ret + ful_imp),
        "prefs_num_prefs_ful_ret": float(ful_ret),
        "prefs_simp": _ratio(ful_ret + ful_imp, poss_ret + poss_imp + notoccur),
        "prefs_pair": _pairs(t, "all"),
        "prefs_avgjg": _avg_over_jgs(t, [
            (j.ful_ret + j.ful_imp) / p
            for j in jgs if (p := j.poss_ret + j.poss_imp + j.notoccur)]),
        "prefs_avgjg_Rnonrel": _rnonrel(t, ret_only=False),
        "prefs_simp_ret": _ratio(ful_ret, poss_ret),
        "prefs_pair_ret": _pairs(t, "ret"),
        "prefs_avgjg_ret": _avg_over_jgs(t, [j.ful_ret / j.poss_ret for j in jgs if j.poss_ret]),
        "prefs_avgjg_Rnonrel_ret": _rnonrel(t, ret_only=True),
        "prefs_simp_imp": _ratio(ful_ret + ful_imp, poss_ret + poss_imp),
        "prefs_pair_imp": _pairs(t, "imp"),
        "prefs_avgjg_imp": _avg_over_jgs(t, [
            (j.ful_ret + j.ful_imp) / p for j in jgs if (p := j.poss_ret + j.poss_imp)]),
    }


def prefs_columns(path: str | Path, run: Run, selected: list[tuple[str, str | None]], *,
                  qrels_format: bool, complete: bool,
                  depth: int | None) -> tuple[list[str], list[Column]]:
    """Topic ids and per-topic values of the selected preference measures (and num_q).

    ``qrels_format``: the judgments are a qrels file read as preferences (``-R
    qrels_prefs``); ``complete``: judged topics absent from the run count (``-c``).
    """
    names = [te for te, _ in selected]
    other = [n for n in names if n not in PREFS and n not in ("runid", "num_q")]
    if other:
        fmt = "qrels_prefs" if qrels_format else "prefs"
        raise TrecEvalError(f"measure '{other[0]}' cannot be computed from -R {fmt} "
                            "judgments", 4)
    prefs = read_prefs(path, qrels_format)
    frame = run.frame
    by_query: dict[str, tuple[list[str], list[float]]] = {}
    for qid, docs, scores in zip(frame["query_id"].to_list(), frame["doc_id"].to_list(),
                                 frame["score"].to_list(), strict=True):
        entry = by_query.setdefault(qid, ([], []))
        entry[0].append(docs)
        entry[1].append(scores)
    qids = [q for q in sorted(prefs) if complete or q in by_query]
    if not complete:
        left_out_warning([q for q in prefs if q not in by_query], run.source)
    if not qids:
        raise InputError(f"the run ({run.source}) and the preferences ({path}) share no query")
    per_topic = []
    for q in qids:
        docs, scores = by_query.get(q, ([], []))
        per_topic.append(_values(_topic(prefs[q], _ranking(docs, scores, depth, q))))
    columns: list[Column] = []
    for te in names:
        if te in PREFS:
            counts = te in _COUNTS
            columns.append(Column(te, te, tuple(v[te] for v in per_topic),
                                  "sum" if counts else "mean", integer=counts))
    return qids, columns
