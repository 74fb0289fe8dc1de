"""Logarithms as trec_eval takes them: the C library's, not NumPy's vectorised ones.

NumPy's SIMD log2 and log differ from the C library's in the last bit for some arguments
(log2(1621), ...). trec_eval divides by the C library's values, so the kernels do too.
"""

from __future__ import annotations

import math

import numpy as np

import ranklens
from ranklens._measures._common import clib_log2


def test_clib_log2_is_the_c_librarys() -> None:
    whole = np.arange(1, 300_000, dtype=np.float64)
    assert clib_log2(whole).tolist() == [math.log2(x) for x in whole.tolist()]
    fractional = np.array([0.25, 1.5, 3.7, 1621.5])
    assert clib_log2(fractional).tolist() == [math.log2(x) for x in fractional.tolist()]


def test_ndcg_divides_by_the_c_librarys_log2_at_deep_ranks() -> None:
    # the one relevant document at rank 1620: DCG = 1 / log2(1621), ideal DCG = 1
    run = {"q": {f"d{i:05d}": float(5000 - i) for i in range(1700)}}
    qrels = {"q": {"d01619": 1}}
    result = ranklens.evaluate(qrels, run, ["nDCG", "DCG"])
    assert result["DCG"] == 1.0 / math.log2(1621)
    assert result["nDCG"] == 1.0 / math.log2(1621)


def test_yaap_takes_the_c_librarys_log() -> None:
    run = {"q": {f"d{i}": float(100 - i) for i in range(60)}}
    qrels = {"q": {"d3": 1, "d17": 1, "d40": 2, "dx": 1}}
    s = 1 / 4 + 2 / 18 + 3 / 41  # precision at each relevant retrieved rank
    assert ranklens.evaluate(qrels, run, ["yaAP"])["yaAP"] == math.log((1 + s) / (1 + 4 - s))
