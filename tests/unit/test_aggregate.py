"""Aggregation: trec_eval's summation order, policy-skipped queries, and honest NaN."""

from __future__ import annotations

import math

import numpy as np

import ranklens
from ranklens._pipeline.assemble import aggregate


def test_mean_is_sequential_sum_then_divide() -> None:
    v = np.array([0.1, 0.2, 0.3, 1e-17, 0.7])
    total = 0.0
    for x in v:
        total += float(x)
    assert aggregate(v, "mean") == total / 5


def test_gmean_floors_at_1e_minus_5() -> None:
    v = np.array([0.0, 1.0])
    assert math.isclose(aggregate(v, "gmean"), math.sqrt(1e-5), rel_tol=1e-15)


def test_nan_from_a_kernel_is_not_dropped() -> None:
    assert math.isnan(aggregate(np.array([0.5, np.nan]), "mean"))


def test_keep_leaves_out_policy_skipped_queries() -> None:
    v = np.array([0.5, np.nan, 1.0])
    assert aggregate(v, "mean", np.array([True, False, True])) == 0.75


def test_empty_skip_and_nan_policies_leave_out_queries_without_relevant_docs() -> None:
    qrels = {"q1": {"a": 1}, "q2": {"b": 0}}
    run = {"q1": {"a": 1.0}, "q2": {"b": 1.0}}
    assert ranklens.evaluate(qrels, run, ["AP"], empty="zero")["AP"] == 0.5
    assert ranklens.evaluate(qrels, run, ["AP"], empty="skip")["AP"] == 1.0
    r = ranklens.evaluate(qrels, run, ["AP"], empty="nan")
    assert r["AP"] == 1.0 and math.isnan(r.per_query("AP")["q2"])
    assert ranklens.evaluate(qrels, run, ["AP"], empty="one")["AP"] == 1.0
