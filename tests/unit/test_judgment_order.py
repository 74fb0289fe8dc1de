"""The judgments' one order (by query, then grade descending, stable) and the doc numbers
judgments are keyed by against a run holding its doc ids as numbers."""

import numpy as np
import polars as pl
from hypothesis import given
from hypothesis import strategies as st

from ranklens._model.keys import judgment_order
from ranklens._model.matching import NO_NUMBER, doc_numbers

_GRADES = {
    "int8": st.integers(-128, 127),
    "int64": st.integers(-(2**40), 2**40),
    "whole floats": st.integers(-5, 5).map(float),
    "floats": st.floats(-1e6, 1e6, allow_nan=False),
}


@given(st.sampled_from(sorted(_GRADES)).flatmap(
    lambda kind: st.tuples(st.just(kind), st.lists(st.tuples(st.integers(0, 6), _GRADES[kind]),
                                                   max_size=60))))
def test_order_is_lexsorts(case: tuple[str, list[tuple[int, float]]]) -> None:
    kind, rows = case
    dtype = {"int8": np.int8, "int64": np.int64}.get(kind, np.float64)
    code = np.array([q for q, _ in rows], dtype=np.int32)
    grade = np.array([g for _, g in rows], dtype=dtype)
    want = np.lexsort((-grade.astype(np.float64), code))  # stable: ties keep row order
    assert judgment_order(code, grade).tolist() == want.tolist()


def test_int8_extremes_do_not_overflow() -> None:
    code = np.array([0, 0, 0, 1], dtype=np.int32)
    grade = np.array([-128, 127, 0, -128], dtype=np.int8)
    assert judgment_order(code, grade).tolist() == [1, 2, 0, 3]


def test_doc_numbers_are_ids_written_as_their_number() -> None:
    ids = pl.Series(["7", "007", "+7", "x7", "4294967295", "4294967296", "0", ""])
    got = doc_numbers(ids).tolist()
    no = int(NO_NUMBER)
    assert got == [7, no, no, no, 4294967295, no, 0, no]
