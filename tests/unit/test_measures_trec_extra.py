"""Closed-form toy cases for the trec_eval extras (interpolated, judged, utility, gain_ext).

The main query ``A`` ranks (score order) d1 (level 1), d2 (0), d4 (judged -1), d9 (not in
the qrels), d3 (level 2); d5 (level 1) is judged but not retrieved. So R = 3, two relevant
retrieved at ranks 1 and 5, one judged-negative and one unpooled document in between.
Query ``Z`` has no relevant judgment, ``E`` is absent from the run (an empty ranking),
``T`` is a tie (equal scores, broken by doc id descending: b before a).
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranklens import evaluate, parse_measure

QRELS = {
    "A": {"d1": 1, "d2": 0, "d3": 2, "d4": -1, "d5": 1},
    "Z": {"x": 0},
    "E": {"z": 1},
    "T": {"a": 1, "b": 0},
}
RUN = {
    "A": {"d1": 0.9, "d2": 0.8, "d4": 0.7, "d9": 0.6, "d3": 0.5},
    "Z": {"x": 0.5, "y": 0.4},
    "T": {"a": 0.5, "b": 0.5},
}
L2 = math.log2
IDCG_A = 2.0 + 1.0 / L2(3) + 1.0 / L2(4)  # ideal gains 2, 1, 1
DCG_A = 1.0 + 2.0 / L2(6)  # d1 at rank 1, d3 at rank 5


def values(measure: str, qrels: dict | None = None, run: dict | None = None,
           **options: Any) -> dict[str, float]:
    result = evaluate(qrels or QRELS, run or RUN, [measure], missing="zero", **options)
    return result.per_query(measure)


def approx(x: float) -> Any:
    return pytest.approx(x, rel=1e-12, abs=1e-15)


# -- interpolated precision -----------------------------------------------------------------
@pytest.mark.parametrize(("level", "expected"), [
    (0.0, 1.0),   # c = 0 reads the first relevant document
    (0.1, 1.0),   # lround(0.3) = 0
    (0.4, 1.0),   # lround(1.2) = 1
    (0.5, 0.4),   # lround(1.5) = 2 (half away from zero): precision 2/5 at rank 5
    (0.8, 0.4),   # lround(2.4) = 2; trec_eval 9's (long)(2.4 + 0.9) = 3 would give 0
    (0.9, 0.0),   # lround(2.7) = 3 > relevant retrieved
    (1.0, 0.0),
])
def test_iprec_levels(level: float, expected: float) -> None:
    assert values(f"IPrec@{level}")["A"] == approx(expected)


def test_iprec_interpolates_from_below() -> None:
    # precision 1/3 at rank 3, 2/4 at rank 4: the first relevant doc reads the later max
    qrels = {"q": {"n1": 0, "n2": 0, "r1": 1, "r2": 1}}
    run = {"q": {"n1": 0.9, "n2": 0.8, "r1": 0.7, "r2": 0.6}}
    assert values("IPrec@0.5", qrels, run)["q"] == approx(0.5)
    assert values("IPrec@0", qrels, run)["q"] == approx(0.5)


def test_iprec_edge_queries() -> None:
    got = values("IPrec@0")
    assert got["Z"] == 0.0  # nothing relevant
    assert got["E"] == 0.0  # empty ranking: 0 (trec_eval's -c bogus document gives 0 too)
    assert got["T"] == approx(0.5)  # tie: b (non-relevant) ranks first
    assert values("IPrec@0", ties="input")["T"] == 1.0


def test_iprec_average() -> None:
    # levels 0..0.4 read 1, 0.5..0.8 read 0.4, 0.9 and 1 read 0
    assert values("IPrecAvg")["A"] == approx((5 * 1.0 + 4 * 0.4) / 11)
    assert values("IPrecAvg(points=0.5;0.9)")["A"] == approx(0.2)
    assert values("11pt_avg_.25,.5,.75")["A"] == approx((1.0 + 0.4 + 0.4) / 3)
    assert values("IPrecAvg")["Z"] == 0.0


# -- Rprec_mult ------------------------------------------------------------------------------
@pytest.mark.parametrize(("mult", "expected"), [
    (0.2, 1.0),        # (long)(0.6 + 0.9) = 1: d1
    (1.0, 1.0 / 3),    # (long)(3.9) = 3: one relevant in the top 3
    (2.0, 2.0 / 6),    # c = 6 > 5 retrieved: relevant retrieved / 6
])
def test_rprec_mult(mult: float, expected: float) -> None:
    assert values(f"RprecMult@{mult}")["A"] == approx(expected)


def test_rprec_mult_zero_depth() -> None:
    assert values("Rprec_mult_0.20")["Z"] == 0.0  # (long)(0 + 0.9) = 0 documents
    assert values("RprecMult@1")["E"] == 0.0


# -- judged coverage -------------------------------------------------------------------------
def test_unj_counts_unpooled_and_negative() -> None:
    assert values("Unj@5")["A"] == approx(2 / 5)
    assert values("unj_10")["A"] == approx(2 / 10)  # k fixed beyond the ranking
    assert values("Unj@2")["A"] == 0.0
    assert values("Unj@5")["Z"] == approx(1 / 5)
    assert values("Unj@5")["E"] == 0.0


def test_judged_rate() -> None:
    # d1, d2, d4 (judged -1) and d3 have a judgment; d9 does not
    assert values("Judged@5")["A"] == approx(4 / 5)
    assert values("Judged@10")["A"] == approx(4 / 5)  # divided by min(k, retrieved)
    assert values("Judged(denom=k)@10")["A"] == approx(4 / 10)
    assert values("Judged@2")["Z"] == approx(1 / 2)
    assert values("Judged@5")["E"] == 0.0


def test_rbp_residual() -> None:
    p = 0.9
    assert values("RBPResid")["A"] == approx(p ** 5 + (1 - p) * (p ** 2 + p ** 3))
    assert values("rbp_resid")["Z"] == approx(p ** 2 + (1 - p) * p)
    assert values("RBPResid")["T"] == 0.0  # every retrieved document judged
    assert values("RBPResid")["E"] == 0.0


def test_infap_differs_from_ap_with_sampled_unjudged() -> None:
    # rank 5: 1/5 + (4/5) * ((1 + 1 + 1) / 4) * ((1 + eps) / (1 + 1 + 2 eps)) = 0.5
    assert values("InfAP")["A"] == approx((1.0 + 0.5) / 3)
    assert values("AP")["A"] == approx((1.0 + 2 / 5) / 3)
    assert values("infAP")["Z"] == 0.0
    assert values("InfAP")["E"] == 0.0


def test_infap_without_unjudged_is_ap_to_epsilon() -> None:
    # b (non-relevant) then a: 1/2 + (1/2) * (1/1) * (eps / (1 + 2 eps)); AP is 1/2
    qrels = {"q": {"a": 1, "b": 0}}
    run = {"q": {"b": 0.9, "a": 0.8}}
    eps = 1e-5
    assert values("InfAP", qrels, run)["q"] == approx(0.5 + 0.5 * (eps / (1 + 2 * eps)))
    assert values("AP", qrels, run)["q"] == 0.5


# -- utility ---------------------------------------------------------------------------------
def test_utility() -> None:
    assert values("Utility")["A"] == -1.0  # 2 relevant - 3 non-relevant retrieved
    got = values("Utility(a=2,c=-0.5,d=0.01)", collection_size=100)["A"]
    assert got == approx(2 * 2 - 3 - 0.5 * 1 + 0.01 * (100 + 2 - 5 - 3))
    assert values("utility_2,-1,0,0")["Z"] == -2.0
    assert values("Utility")["E"] == 0.0  # trec_eval -c resets an absent query


# -- gain measures ---------------------------------------------------------------------------
def test_rbp_rescales_levels_per_query() -> None:
    # levels 0..2 => gains level/2; d1 at rank 1 (0.5), d3 at rank 5 (1.0)
    assert values("RBP")["A"] == approx(0.1 * (0.5 + 1.0 * 0.9 ** 4))
    assert values("rbp_p=0.5")["A"] == approx(0.5 * (0.5 + 1.0 * 0.5 ** 4))
    # binary query: gains already in [0, 1]
    assert values("RBP")["T"] == approx(0.1 * 0.9)
    assert values("RBP")["Z"] == 0.0
    assert values("RBP")["E"] == 0.0


def test_rbp_gain_table_includes_named_absent_levels() -> None:
    # T's table is {0: 0, 1: 3} -> rescaled to 1 for level 1
    assert values("RBP(gain=1:3)")["T"] == approx(0.1 * 0.9)
    # {0: 0, 1: 0.5, 5: 0.8}: already within [0, 1], so level 1 keeps 0.5
    assert values("RBP(gain=1:0.5;5:0.8)")["T"] == approx(0.1 * 0.5 * 0.9)
    # {0: 0, 1: 0.5, 5: 2}: rescaled by the absent level's gain 2
    assert values("RBP(gain=1:0.5;5:2)")["T"] == approx(0.1 * 0.25 * 0.9)


def test_bin_g() -> None:
    # d1: none above -> 1/log2(2); d3: d2, d4, d9 above -> 1/log2(5)
    assert values("BinG")["A"] == approx((1.0 + 1.0 / L2(5)) / 3)
    assert values("binG")["T"] == approx(1.0 / L2(3))
    assert values("BinG")["Z"] == 0.0


def test_yaap() -> None:
    s = 1.0 + 2.0 / 5.0
    assert values("yaAP")["A"] == approx(math.log((1 + s) / (1 + 3 - s)))
    assert values("yaap")["Z"] == 0.0
    assert values("yaAP")["E"] == approx(math.log(1 / 2))  # as trec_eval -c


def test_g() -> None:
    # ideal 2, 1, 1 then 1 per document: cost 2, 3, 4, 5, 6; gain so far 1, 1, 1, 1, 3
    expected = (1.0 / L2(2 + 2 - 1) + 2.0 / L2(2 + 6 - 3)) / 4.0
    assert values("G")["A"] == approx(expected)
    assert values("G")["Z"] == 0.0
    assert values("G")["E"] == 0.0


def test_ndcg_rel() -> None:
    # rank 1: DCG(1)/IDCG(1) = 1/2; rank 5: DCG(5)/IDCG(3); one relevant unretrieved: same
    expected = (0.5 + 2 * DCG_A / IDCG_A) / 3
    assert values("nDCGRel")["A"] == approx(expected)
    assert values("ndcg_rel")["Z"] == 0.0
    assert values("nDCGRel")["E"] == 0.0


def test_rndcg() -> None:
    # ideal gain changes after 1 document (2 -> 1) and after 3 (1 -> 0); the ranking goes
    # on past K + 1 = 4, so the end of the ranking counts too
    expected = (1.0 / 2.0 + 1.0 / IDCG_A + DCG_A / IDCG_A) / 3
    assert values("RnDCG")["A"] == approx(expected)
    assert values("Rndcg")["Z"] == 0.0
    assert values("RnDCG")["E"] == 0.0


def test_rndcg_ranking_shorter_than_ideal() -> None:
    # ideal 1, 1, 1 (one change, at 3); 2 retrieved: DCG(2) / IDCG(3)
    qrels = {"q": {"a": 1, "b": 1, "c": 1}}
    run = {"q": {"a": 0.9, "x": 0.8}}
    assert values("RnDCG", qrels, run)["q"] == approx(1.0 / (1 + 1 / L2(3) + 1 / L2(4)))


def test_ndcg_custom_gains_match_trec_spelling() -> None:
    assert parse_measure("ndcg_1=3,2=9,4=4.5") == parse_measure("nDCG(gain=1:3;2:9;4:4.5)")
    # level 4 is named but absent: it adds nothing to the ideal ranking
    dcg = 3.0 + 9.0 / L2(6)
    ideal = 9.0 + 3.0 / L2(3) + 3.0 / L2(4)
    assert values("ndcg_1=3,2=9,4=4.5")["A"] == approx(dcg / ideal)


# -- relstring -------------------------------------------------------------------------------
def test_relstring() -> None:
    result = evaluate(QRELS, RUN, ["RelString", "relstring_3"], missing="zero")
    by_query = dict(zip(result.query_ids.tolist(), result.text_values["RelString"], strict=True))
    assert by_query == {"A": "10.-2", "E": "", "T": "01", "Z": "0-"}
    assert result.text_values["relstring_3"][0] == "10."
    assert math.isnan(result["RelString"])


def test_relstring_high_levels() -> None:
    result = evaluate({"q": {"a": 12, "b": 9}}, {"q": {"a": 2.0, "b": 1.0}}, ["RelString"])
    assert result.text_values["RelString"] == [">9"]


# -- names -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("trec", "canonical"), [
    ("iprec_at_recall_0.10", "IPrec@0.1"),
    ("11pt_avg", "IPrecAvg"),
    ("11pt_avg_.25,.5,.75", "IPrecAvg(points=0.25;0.5;0.75)"),
    ("Rprec_mult_0.20", "RprecMult@0.2"),
    ("unj_5", "Unj@5"),
    ("rbp", "RBP"),
    ("rbp_p=0.95", "RBP(p=0.95)"),
    ("rbp_resid", "RBPResid"),
    ("binG", "BinG"),
    ("G", "G"),
    ("ndcg_rel", "nDCGRel"),
    ("Rndcg", "RnDCG"),
    ("yaap", "yaAP"),
    ("infAP", "InfAP"),
    ("utility", "Utility"),
    ("utility_2,-1,0,0", "Utility(a=2)"),
    ("relstring_10", "RelString@10"),
    ("set_F_0.5", "F(beta2=0.5)"),
])
def test_trec_names(trec: str, canonical: str) -> None:
    measure = parse_measure(trec)
    assert str(measure) == canonical
    assert parse_measure(canonical) == measure


def test_bad_raw_params_are_reported() -> None:
    from ranklens import MeasureError

    with pytest.raises(MeasureError, match="exactly 4 coefficients"):
        parse_measure("utility_1,2")
    assert str(parse_measure("dcg_burges")) == "DCG(gain=exp2)"


def test_interpolated_on_ranking_emptied_by_judged_only() -> None:
    # trec_eval -J computes 0/0 here (NaN); ranklens reports 0, as for an absent query
    qrels = {"q": {"a": 1, "b": 0}}
    run = {"q": {"x": 0.5}}
    assert values("IPrec@0", qrels, run, judged_only=True)["q"] == 0.0
    assert values("IPrecAvg", qrels, run, judged_only=True)["q"] == 0.0


# -- random cases against a scalar transliteration of trec_eval's loops ----------------------
# The loops below follow research/trec_eval.md sections 3, 6 and 7 one document at a time,
# in trec_eval's operation order, so the vectorised kernels must agree to the bit.
NONPOOL, UNJUDGED = -1, -2


def _ranked(judged: dict[str, int], scored: dict[str, float]) -> list[int]:
    docs = sorted(scored.items(), key=lambda kv: kv[0].encode(), reverse=True)
    docs.sort(key=lambda kv: kv[1], reverse=True)
    out = []
    for doc, _ in docs:
        level = judged.get(doc)
        out.append(NONPOOL if level is None else (UNJUDGED if level < 0 else level))
    return out


def _lround(x: float) -> int:
    low = math.floor(x)
    return int(low + 1 if x - low >= 0.5 else low)


def _reference(judged: dict[str, int], rels: list[int], rel: int) -> dict[str, Any]:
    n = len(rels)
    big_r = sum(1 for v in judged.values() if v >= rel)
    hits = sum(1 for r in rels if r >= rel)
    out: dict[str, Any] = {}
    # iprec_at_recall / 11pt_avg (v10 lround), backwards from the last rank
    levels = [i / 10 for i in range(11)]
    best = [0.0] * len(levels)
    cuts = [_lround(x * big_r) for x in levels]
    if n:
        int_prec = hits / n
        so_far = hits
        for i in range(n, 0, -1):
            if so_far == 0:
                break
            int_prec = max(int_prec, so_far / i)
            if rels[i - 1] >= rel:
                for c, cut in enumerate(cuts):
                    if cut == so_far:
                        best[c] = int_prec
                so_far -= 1
        for c, cut in enumerate(cuts):
            if cut == 0:
                best[c] = int_prec
    out["IPrec@0.5"] = best[5]
    out["IPrec@0"] = best[0]
    total = 0.0
    for value in reversed(best):
        total += value
    out["IPrecAvg"] = total / 11
    # Rprec_mult at 0.6: precision at (long)(0.6 R + 0.9)
    depth = int(0.6 * big_r + 0.9)
    out["RprecMult@0.6"] = (sum(1 for r in rels[:depth] if r >= rel) / depth) if depth else 0.0
    # unj, rbp_resid, rbp (p = 0.9)
    out["Unj@3"] = sum(1 for r in rels[:3] if r < 0) / 3
    p, cur, resid, unj = 0.9, 1.0, 0.0, 0
    levels_judged = [v for v in judged.values() if v >= 0]
    top = max(levels_judged) if levels_judged else -1
    scale = top if top > 1 else 1
    rbp = 0.0
    for r in rels:
        if r < 0:
            unj += 1
            resid += cur
        elif r > 0:
            rbp += (r - 0) / (scale - 0) * cur if scale != 1 else r * cur
        cur = cur * p
    out["RBPResid"] = cur + (1 - p) * resid if unj else 0.0
    out["RBP"] = (1.0 - p) * rbp
    # infAP, binG, yaap
    infap, s, bing, rel_so_far, nonrel, pool_unj = 0.0, 0.0, 0.0, 0, 0, 0
    for j, r in enumerate(rels):
        if r == NONPOOL:
            pass
        elif r == UNJUDGED:
            pool_unj += 1
        elif r < rel:
            nonrel += 1
        else:
            rel_so_far += 1
            if j == 0:
                infap += 1.0
            else:
                fj = float(j)
                infap += 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * (
                    (rel_so_far - 1 + nonrel + pool_unj) / fj) * (
                    (rel_so_far - 1 + 1e-5) / (rel_so_far - 1 + nonrel + 2 * 1e-5))
        if r >= rel:
            s += rel_so_far / (j + 1)
            bing += 1.0 / math.log2(3 + j - rel_so_far)
    out["InfAP"] = infap / big_r if big_r else infap
    out["BinG"] = bing / big_r if rel_so_far else 0.0
    out["yaAP"] = math.log((1.0 + s) / (1.0 + big_r - s))
    out["Utility"] = 1.0 * hits + -1.0 * (n - hits) + 0.0 * (big_r - hits) + 0.0 * (
        0 + hits - n - big_r)
    chars = []
    for r in rels[:10]:
        chars.append(">" if r > 9 else str(r) if r >= 0 else "-" if r == NONPOOL else ".")
    out["RelString"] = "".join(chars)
    return out


RESET_WHEN_ABSENT = {"Utility", "RBPResid", "Unj@3", "RelString"}


@st.composite
def _collections(draw: st.DrawFn) -> tuple[dict, dict]:
    docs = st.sampled_from(["a", "b", "c", "d", "e", "f", "g", "h", "aa", "B"])
    qids = draw(st.lists(st.sampled_from(["1", "2", "10", "x"]), min_size=1, max_size=3,
                         unique=True))
    qrels, run = {}, {}
    for i, q in enumerate(qids):
        qrels[q] = draw(st.dictionaries(docs, st.integers(-2, 11), min_size=1, max_size=8))
        if i == 0 or draw(st.booleans()):
            run[q] = draw(st.dictionaries(docs, st.integers(0, 3).map(float), min_size=1,
                                          max_size=10))
    return qrels, run


@settings(max_examples=200, deadline=None)
@given(data=_collections(), rel=st.sampled_from([1, 2]))
def test_kernels_match_scalar_loops(data: tuple[dict, dict], rel: int) -> None:
    qrels, run = data
    names = ["IPrec@0.5", "IPrec@0", "IPrecAvg", "RprecMult@0.6", "Unj@3", "RBPResid", "RBP",
             "InfAP", "BinG", "yaAP", "Utility", "RelString"]
    result = evaluate(qrels, run, names, rel=rel, missing="zero")
    for i, q in enumerate(result.query_ids.tolist()):
        want = _reference(qrels[q], _ranked(qrels[q], run.get(q, {})), rel)
        for name in names:
            if name == "RelString":
                assert result.text_values[name][i] == want[name], (q, name)
                continue
            expected = want[name]
            if q not in run and name in RESET_WHEN_ABSENT:
                expected = 0.0
            assert result.per_query(name)[q] == expected, (q, name)
