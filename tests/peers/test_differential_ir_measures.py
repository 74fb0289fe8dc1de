"""ranklens's canonical names mean what the same ir_measures names mean (random data).

ir_measures computes most of these through pytrec_eval (trec_eval 9, 32-bit scores), so
scores are exact in float32 (and distinct: its Judged provider breaks ties its own way),
and Judged@k through its own provider. Its providers differ
on judged queries absent from the run, so every judged query is in the run here.
"""

from __future__ import annotations

import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ranklens

ir_measures = pytest.importorskip("ir_measures")

NAMES = [
    "AP", "AP@5", "AP(rel=2)", "P@1", "P@5", "P(rel=2)@5", "R@5", "RR", "RR@2", "RR(rel=2)",
    "nDCG", "nDCG@2", "nDCG@10", "Rprec", "Rprec(rel=2)", "Bpref", "infAP", "Judged@2",
    "Judged@10", "NumRet", "NumRelRet", "NumRelRet(rel=2)", "NumRel", "NumQ", "SetAP",
    "Success@2", "IPrec@0.5", "nDCG(judged_only=True)@5", "P(judged_only=True)@2",
]
DOCS = ["d1", "d2", "d10", "D3", "a", "b", "Z", "e1", "0", "00"]


@st.composite
def collections(draw: st.DrawFn) -> tuple[dict, dict]:
    qids = draw(st.lists(st.sampled_from(["q1", "q2", "10", "9"]), min_size=1, max_size=4,
                         unique=True))
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in qids:
        judged = draw(st.dictionaries(st.sampled_from(DOCS), st.integers(-1, 3), min_size=1,
                                      max_size=8))
        if max(judged.values()) < 0:
            judged[next(iter(judged))] = 0  # trec_eval 9 crashes on all-negative queries
        qrels[q] = judged
        docs = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=10, unique=True))
        scores = draw(st.lists(st.integers(-64, 64), min_size=len(docs), max_size=len(docs),
                               unique=True))
        run[q] = {d: s / 4 for d, s in zip(docs, scores, strict=True)}
    return qrels, run


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=collections())
def test_canonical_names_match_ir_measures(data: tuple[dict, dict]) -> None:
    qrels, run = data
    measures = [ir_measures.parse_measure(n) for n in NAMES]
    qrel_rows = [ir_measures.Qrel(q, d, g) for q, docs in qrels.items() for d, g in docs.items()]
    run_rows = [ir_measures.ScoredDoc(q, d, s) for q, docs in run.items()
                for d, s in docs.items()]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = ranklens.evaluate(qrels, run, NAMES)
        for name, m in zip(NAMES, measures, strict=True):
            # one measure per call: batched with the others, ir_measures once returned
            # NumRet = 1 where it and pytrec_eval, each asked alone, give 2 (2 suite runs in 5)
            want = ir_measures.calc_aggregate([m], qrel_rows, run_rows)
            assert got[name] == pytest.approx(want[m], abs=1e-9, rel=0), name
