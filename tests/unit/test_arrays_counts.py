"""``n_relevant`` stays a count: the relevant items it adds travel as per-query counts.

Differential: every registered measure (diversity ones need subtopic judgments) gives the
same bits with the counts as with one judgment row per counted item (what ``n_relevant``
built before), under several conventions; and ``n_relevant=[10**8]`` keeps the tables small.
"""

from __future__ import annotations

import math
from unittest import mock

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ranklens
from ranklens import Qrels
from ranklens._base.errors import MeasureError
from ranklens._ingest.io._arrays import UNRETRIEVED_PREFIX
from ranklens._measures import _common, _ideal
from ranklens._measures._registry import REGISTRY
from ranklens._model.align import align

CUT = ["nDCG@3", "IdealDCG@2", "P@2", "R@3", "AP@3", "RR@2", "NDCG@1", "Rprec"]


def _rows(qrels: Qrels) -> Qrels:
    """The same judgments with one row per counted relevant item (the old form)."""
    if qrels.unretrieved is None:  # each count was one row already
        return qrels
    c = qrels.unretrieved
    extra = pl.DataFrame({
        "query_id": c["query_id"].gather(np.repeat(np.arange(c.height), c["count"].to_numpy())),
        "relevance": np.repeat(c["relevance"].to_numpy(), c["count"].to_numpy()),
    }).with_columns(doc_id=pl.lit(UNRETRIEVED_PREFIX + "c")
                    + pl.int_range(pl.len()).over("query_id").cast(pl.String))
    return Qrels(pl.concat([qrels.frame, extra.select("query_id", "doc_id", "relevance")]),
                 qrels.source)


def _measures() -> list[str]:
    names = [n for n, d in REGISTRY.items() if d.family != "diversity"]
    qrels, run = ranklens.from_arrays([[1.0, 0.0, 2.0]], n_relevant=[4])
    usable = []
    for name in names + CUT:
        try:
            ranklens.evaluate(_rows(qrels), {"a": run}, [name])
        except MeasureError:  # needs a parameter or a judgment kind plain qrels lack
            continue
        usable.append(name)
    return usable


MEASURES = _measures()


def test_most_measures_are_compared() -> None:
    assert len(MEASURES) >= 50
    assert {"nDCG", "IdealDCG", "Compat", "RnDCG", "nDCGRel", "NumRel", "Rprec"} <= set(MEASURES)


grades = st.sampled_from([math.nan, 0.0, 1.0, 2.0, 3.0])


@st.composite
def cases(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray | None, list[int], str]:
    nq = draw(st.integers(1, 3))
    width = draw(st.integers(1, 5))
    labels = np.array(draw(st.lists(st.lists(grades, min_size=width, max_size=width),
                                    min_size=nq, max_size=nq)))
    scores = None
    if draw(st.booleans()):
        scores = np.array(draw(st.lists(st.lists(
            st.sampled_from([math.nan, 0.5, 1.0, 2.0]), min_size=width, max_size=width),
            min_size=nq, max_size=nq)))
    have = [int((np.nan_to_num(row, nan=-1.0) >= 1).sum()) for row in labels]
    more = draw(st.lists(st.integers(0, 4), min_size=nq, max_size=nq))
    if sum(more) == 0:
        more[0] = 1
    convention = draw(st.sampled_from(["trec", "sklearn", "torchmetrics", "ranx"]))
    return labels, scores, [h + m for h, m in zip(have, more, strict=True)], convention


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_counts_equal_rows_bit_for_bit(case: tuple) -> None:
    labels, scores, n_relevant, convention = case
    counted, run = ranklens.from_arrays(labels, scores=scores, n_relevant=n_relevant)
    rows = _rows(counted)
    for name in MEASURES:
        try:
            want = ranklens.evaluate(rows, {"a": run}, [name], convention=convention)
        except (MeasureError, ranklens.InputError) as err:
            with pytest.raises(type(err)):
                ranklens.evaluate(counted, {"a": run}, [name], convention=convention)
            continue
        got = ranklens.evaluate(counted, {"a": run}, [name], convention=convention)
        for m in want.measures:
            if m in want.results[0].text_values:  # relstring: one string per query
                assert got.results[0].text_values == want.results[0].text_values
                continue
            np.testing.assert_array_equal(got.values(m), want.values(m), err_msg=name)
            np.testing.assert_array_equal(got.present, want.present)


def test_a_count_of_a_hundred_million_stays_a_count() -> None:
    labels = [[1.0, 0.0, 1.0], [0.0, 0.0, 0.0]]
    qrels, run = ranklens.from_arrays(labels, n_relevant=[10**8, 3])
    assert qrels.frame.height == 6  # the labels' judgments only
    assert qrels.unretrieved is not None
    assert qrels.unretrieved["count"].to_list() == [10**8 - 2, 3]
    aligned, _ = align(qrels, run)
    assert aligned.row_j_grade.size == 6
    assert aligned.judgments_upto(3)[1].size == 6 + 3 + 3  # at most 3 counted per query
    r = ranklens.evaluate(qrels, {"a": run}, ["num_rel", "R@3", "P@3", "nDCG@3", "AP", "RBP",
                                              "Bpref", "infAP"])
    assert r.values("num_rel")[:, 0].tolist() == [10**8, 3]
    assert r.values("R@3")[:, 0].tolist() == [2 / 10**8, 0.0]
    assert r.values("nDCG@3")[0, 0] == pytest.approx((1 + 1 / 2) / (1 + 1 / math.log2(3) + 1 / 2))
    assert r.values("AP")[0, 0] == pytest.approx((1 + 2 / 3) / 10**8)


def test_a_query_without_labels_is_judged_by_its_count() -> None:
    qrels, run = ranklens.from_arrays([[math.nan, math.nan], [1.0, 0.0]], n_relevant=[2, 1])
    assert qrels.frame["query_id"].unique().sort().to_list() == ["0", "1"]
    r = ranklens.evaluate(qrels, {"a": run}, ["num_rel"], missing="zero")
    assert r.values("num_rel")[:, 0].tolist() == [2, 1]


@st.composite
def big_counts(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray | None, list[int], str]:
    labels, scores, n_relevant, convention = draw(cases())
    # counts that cross many chunk boundaries of the chunked sums (CHUNK is made 3 below)
    return labels, scores, [n + draw(st.integers(0, 40)) for n in n_relevant], convention


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(big_counts())
def test_counts_equal_rows_bit_for_bit_across_chunks(case: tuple) -> None:
    # the full ideal rankings (uncut nDCG, IdealDCG, nDCGRel, RnDCG, G, Compat) add the
    # counted items a chunk at a time: with 3-term chunks and a 16-entry log2 table the
    # sums cross many chunk boundaries and the table's end, and must not change a bit
    labels, scores, n_relevant, convention = case
    counted, run = ranklens.from_arrays(labels, scores=scores, n_relevant=n_relevant)
    rows = _rows(counted)
    names = ["nDCG", "IdealDCG", "nDCGRel", "RnDCG", "G", "Compat", "Compat(p=1)",
             "nDCG(gain=exp2,discount=jk)", "Compat(normalize=false)"]
    with mock.patch.object(_ideal, "CHUNK", 3), \
            mock.patch.object(_common, "_LOG2_TABLE_LIMIT", 16):
        got = ranklens.evaluate(counted, {"a": run}, names, convention=convention,
                                missing="zero")
    want = ranklens.evaluate(rows, {"a": run}, names, convention=convention, missing="zero")
    for m in want.measures:
        np.testing.assert_array_equal(got.values(m), want.values(m), err_msg=m)


def test_full_ideal_rankings_keep_a_hundred_million_as_a_count() -> None:
    qrels, run = ranklens.from_arrays([[1, 0]], n_relevant=[10**8])
    assert qrels.frame.height == 2 and qrels.unretrieved is not None
    aligned, _ = align(qrels, run)
    values = {}
    for name in ("nDCG", "G", "Compat"):
        m = ranklens.Measure(name)
        values[name] = float(REGISTRY[name].kernel(aligned, m)[0])
    # no judgment row was made for a counted item, and the log2 table stayed bounded
    assert ("judgments", None) not in aligned._derived.kept
    assert aligned.judgment_rows()[2].size == 2
    assert _common._LOG2_TABLE.size <= _common._LOG2_TABLE_LIMIT
    # nDCG = 1 / (sum of 1/log2(i+1), i <= 10^8), summed here in float64 by numpy
    ideal = sum(float(np.sum(1.0 / np.log2(np.arange(lo, lo + 10**7) + 1.0)))
                for lo in range(1, 10**8, 10**7))
    assert values["nDCG"] == pytest.approx(1.0 / ideal, rel=1e-9)
    # G: one relevant item at rank 1 (cost 1, gain 1: 1 / log2(2)), over the ideal gain
    assert values["G"] == 1.0 / 10**8
    # Compat (p = .95): overlap sum p^(i-1)/i to depth 10^8 = -ln(1-p)/p, over the ideal's
    # own sum of p^(i-1) = 1/(1-p)
    p = 0.95
    assert values["Compat"] == pytest.approx(-math.log(1 - p) / p * (1 - p), rel=1e-12)
    # the kernels above are what evaluate_arrays runs (its nDCG, one more pass over 10^8
    # terms, is left out for time)
    r = ranklens.evaluate_arrays([[1, 0]], ["G", "Compat"], n_relevant=[10**8])
    assert [r["G"], r["Compat"]] == [values["G"], values["Compat"]]


def test_running_ideal_measures_read_the_count_at_a_million() -> None:
    # nDCGRel and RnDCG read the ideal's running DCG at a few ranks; with a million counted
    # items and no row the values are those of the closed sums
    r = ranklens.evaluate_arrays([[1, 0]], ["nDCGRel", "RnDCG"], n_relevant=[10**6])
    running = np.cumsum(1.0 / np.log2(np.arange(1, 10**6 + 1) + 1.0))
    # nDCGRel: the hit at rank 1 gives DCG 1 / ideal DCG@1 = 1; the other 10^6 - 1 relevant
    # items give the final DCG (1) / the ideal DCG at 10^6
    assert r["nDCGRel"] == pytest.approx((1 + (10**6 - 1) / running[-1]) / 10**6, rel=1e-9)
    # RnDCG: one R-level (k = 10^6, every gain 1): DCG@2 (1) / ideal DCG@10^6
    assert r["RnDCG"] == pytest.approx(1 / running[-1], rel=1e-9)
