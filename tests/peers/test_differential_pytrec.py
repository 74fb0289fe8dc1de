"""Differential tests against pytrec-eval-terrier (trec_eval 9 in C) on random data.

pytrec_eval embeds trec_eval 9, which stores scores as 32-bit floats; every score generated
here is exactly representable in float32, so ties are the same ties in both. It evaluates
only queries present in both qrels and run, hence ``missing="skip"``. trec_eval 9 and 10
round the iprec_at_recall / 11pt_avg cut-off differently (``(long)(xR + 0.9)`` vs
``lround(xR)``); those are compared only for queries where the two rules pick the same
cut-off (the conformance files cover the rest).

Every measure pytrec_eval reports is compared when ranklens's parser knows its trec_eval
name, so measures join this test as they are registered; ``CORE`` must always be there.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ranklens
from ranklens import MeasureError, RanklensWarning

pytrec_eval = pytest.importorskip("pytrec_eval")

CUTS = "1,2,3,5,10,100"
REQUEST = [
    "map", f"map_cut.{CUTS}", f"P.{CUTS}", f"recall.{CUTS}", "ndcg", f"ndcg_cut.{CUTS}",
    "recip_rank", "Rprec", "bpref", f"success.{CUTS}", "set_P", "set_recall", "set_F",
    "set_map", "set_relative_P", f"relative_P.{CUTS}", "num_ret", "num_rel", "num_rel_ret",
    "num_nonrel_judged_ret", "num_q", "gm_map", "gm_bpref", "binG", "G", "infAP",
    "Rprec_mult", "utility", "iprec_at_recall", "11pt_avg", "ndcg_rel", "Rndcg",
]
# Measures ranklens must implement (the engine's core); the rest are compared once registered.
CORE = {
    "map", "map_cut_5", "P_5", "recall_5", "ndcg", "ndcg_cut_5", "recip_rank", "Rprec",
    "bpref", "success_5", "set_P", "set_recall", "set_F", "set_map", "set_relative_P",
    "relative_P_5", "num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret", "num_q",
    "gm_map", "gm_bpref",
}
NOT_NUMERIC = {"runid", "relstring"}
GEO_FLOOR = 1e-5

QIDS = ["q1", "q2", "10", "9", "Q3", "a.b", "7"]
DOCS = ["d1", "d2", "d10", "D3", "d3", "a", "b", "Z", "doc#1", "é1", "e1", "0", "00", "x-y",
        "d4", "d5", "d6", "d7"]
# Exactly representable in float32: many ties from the small grid, distinct values otherwise.
SCORE = st.one_of(
    st.integers(-8, 8).map(lambda i: i / 4),
    st.floats(-1e6, 1e6, width=32, allow_nan=False, allow_infinity=False),
    st.sampled_from([math.inf, -math.inf, -0.0, 0.0]),
)


@st.composite
def collections(draw: st.DrawFn) -> tuple[dict, dict]:
    """Random qrels and run: graded, negative and missing judgments, ties, extra queries."""
    qids = draw(st.lists(st.sampled_from(QIDS), min_size=1, max_size=5, unique=True))
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for i, q in enumerate(qids):
        where = "both" if i == 0 else draw(st.sampled_from(["both", "both", "qrels", "run"]))
        if where in ("both", "qrels"):
            judged = draw(st.dictionaries(st.sampled_from(DOCS), st.integers(-2, 3),
                                          min_size=1, max_size=12))
            if max(judged.values()) < 0:
                # trec_eval 9 corrupts its heap on a query whose judgments are all
                # negative (zero relevance levels); ranklens's handling of that case is
                # tested in test_invariance.py
                judged[next(iter(judged))] = 0
            qrels[q] = judged
        if where in ("both", "run"):
            run[q] = draw(st.dictionaries(st.sampled_from(DOCS), SCORE, min_size=1,
                                          max_size=15))
    return qrels, run


def _reference(qrels: dict, run: dict, rel: int, judged_only: bool) -> dict[str, dict]:
    ev = pytrec_eval.RelevanceEvaluator(qrels, set(REQUEST), relevance_level=rel,
                                        judged_docs_only_flag=judged_only)
    return ev.evaluate(run)


def _known(name: str) -> bool:
    try:
        ranklens.parse_measure(name)
    except MeasureError:
        return False
    return True


def _iprec_points(name: str) -> list[float]:
    if name == "11pt_avg":
        return [i / 10 for i in range(11)]
    return [float(name.rsplit("_", 1)[1])]


def _cutoffs_agree(points: list[float], big_r: int) -> bool:
    """trec_eval 9 and 10 pick the same rank cut-off for every recall point."""
    return all(int(x * big_r + 0.9) == math.floor(x * big_r + 0.5) for x in points)


def _aggregate(name: str, values: list[float]) -> float:
    if name.startswith("num_"):
        return math.fsum(values)
    if name.startswith("gm_"):
        return math.exp(math.fsum(values) / len(values))
    return math.fsum(values) / len(values)


def _truncate(run: dict, depth: int) -> dict:
    """The top ``depth`` of each ranking in trec_eval order (score desc, doc id desc)."""
    out = {}
    for q, docs in run.items():
        ranked = sorted(docs.items(), key=lambda kv: kv[0].encode(), reverse=True)
        ranked.sort(key=lambda kv: kv[1], reverse=True)
        out[q] = dict(ranked[:depth])
    return out


def _compare(qrels: dict, run: dict, rel: int, judged_only: bool,
             depth: int | None = None, complete: bool = False) -> None:
    """Compare on the queries pytrec_eval evaluates; ``complete`` emulates trec_eval -c.

    trec_eval -c scores a judged query absent from the run on a one-document ranking of
    an unjudged document, then resets num_ret and utility to 0; ranklens's
    ``missing="zero"`` must give the same values.
    """
    oracle_run = run if depth is None else _truncate(run, depth)
    absent = set(qrels).difference(run) if complete else set()
    oracle_run = {**oracle_run, **{q: {"ceci_nest_pas_un_docno": 0.0} for q in absent}}
    ref = _reference(qrels, oracle_run, rel, judged_only)
    assert ref, "the generator always makes one query shared by qrels and run"
    names = [n for n in next(iter(ref.values())) if n not in NOT_NUMERIC]
    missing_core = CORE.difference(names) | {n for n in CORE if not _known(n)}
    assert not missing_core, f"core measures not compared: {sorted(missing_core)}"
    names = [n for n in names if _known(n)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        result = ranklens.evaluate(qrels, run, names, rel=rel,
                                   missing="zero" if complete else "skip",
                                   judged_only=judged_only, depth=depth)
    assert sorted(result.query_ids.tolist()) == sorted(ref)
    big_r = {q: sum(1 for g in qrels[q].values() if g >= rel) for q in ref}
    for name in names:
        ours = result.per_query(name)
        iprec = name.startswith("iprec_at_recall") or name == "11pt_avg"
        compared: list[float] = []
        for q, row in ref.items():
            expected = row[name]
            got = ours[q]
            if name.startswith("gm_"):
                got = math.log(max(got, GEO_FLOOR))
            if iprec and not _cutoffs_agree(_iprec_points(name), big_r[q]):
                continue
            if q in absent and name in ("num_ret", "utility"):
                assert got == 0.0, (name, q, got)  # reset by -c
                continue
            if iprec and math.isnan(expected):
                # trec_eval's 0/0 on a ranking emptied by -J; ranklens reports 0 (documented)
                assert got == 0.0, (name, q, got)
                continue
            assert got == pytest.approx(expected, abs=1e-9, rel=0), (name, q, got, expected)
            compared.append(row[name])
        if len(compared) == len(ref):
            want = _aggregate(name, compared)
            assert result[name] == pytest.approx(want, abs=1e-9, rel=1e-12), (name, "all")


SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize(("rel", "judged_only", "depth", "complete"),
                         [(1, False, None, False), (2, False, None, False),
                          (1, True, None, False), (1, False, 3, False), (2, True, 4, False),
                          (2, False, None, True)])
@SETTINGS
@given(data=collections())
def test_matches_pytrec_eval(rel: int, judged_only: bool, depth: int | None, complete: bool,
                             data: tuple[dict, dict]) -> None:
    """Every shared measure, per query and aggregated; ``depth`` emulated as trec_eval -M,
    ``complete`` as trec_eval -c."""
    qrels, run = data
    _compare(qrels, run, rel, judged_only, depth, complete)


def test_float32_grid_is_exact() -> None:
    """The generator's scores survive a round trip through float32 (the oracle's type)."""
    values = [i / 4 for i in range(-8, 9)]
    assert np.array_equal(np.asarray(values, dtype=np.float32).astype(np.float64), values)


def test_known_example_against_pytrec_eval() -> None:
    """A fixed case with every feature at once: graded, negative, unjudged, ties, k > n."""
    qrels = {
        "q1": {"a": 2, "b": 0, "c": 1, "d": -1, "e": 3, "zz": 1},
        "q2": {"x": 0, "y": -2},
        "10": {"d1": 1},
    }
    run = {
        "q1": {"a": 1.0, "b": 2.0, "c": 2.0, "d": 0.5, "u": 2.0, "e": -1.0},
        "q2": {"x": 3.0, "w": 3.0},
        "10": {"d2": 1.0, "d1": 1.0},
        "only_run": {"a": 1.0},
    }
    for rel in (1, 2):
        _compare(qrels, run, rel, False)
