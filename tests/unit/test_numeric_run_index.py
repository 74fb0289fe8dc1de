"""A run whose doc ids are held as numbers: its index keys them only when they are matched,
checks duplicates on the numbers, and its items are counted by number. Every value and
error is the one the same run with text doc ids gives."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ranklens
from ranklens import RanklensWarning
from ranklens._base.errors import DuplicateError
from ranklens._model.items import ItemContext, RankedItems
from ranklens._model.keys import block_index, numbered, sorted_blocks
from ranklens._model.ranking import full_src, ranked_order, run_index


def _frame(rows: list[tuple[int, int, float]], text: bool) -> pl.DataFrame:
    frame = pl.DataFrame(rows, schema=["query_id", "doc_id", "score"], orient="row")
    return frame.with_columns(pl.col("doc_id").cast(pl.String)) if text else frame


def _outcome(qrels: pl.DataFrame, run: pl.DataFrame, measures: list[str],
             **kw: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        try:
            return dict(ranklens.evaluate(qrels, run, measures, items=np.arange(50), **kw))
        except DuplicateError as error:
            return str(error)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lists=st.lists(st.lists(st.integers(0, 12), min_size=1, max_size=8), min_size=1,
                      max_size=6),
       ties=st.booleans(), shuffled=st.booleans(), first=st.booleans())
def test_numbers_give_the_values_and_errors_of_text(lists: list[list[int]], ties: bool,
                                                    shuffled: bool, first: bool) -> None:
    rows = [(q, d, float(i // 2 if ties else -i)) for q, docs in enumerate(lists)
            for i, d in enumerate(docs)]
    if shuffled:
        rows = rows[::-1]
    qrels = pl.DataFrame({"query_id": list(range(len(lists))), "doc_id": [1] * len(lists),
                          "relevance": [1] * len(lists)})
    measures = ["Coverage@3", "P@2", "NumRet"]
    options = {"duplicates": "first"} if first else {}
    numbers = _outcome(qrels, _frame(rows, False), measures, **options)
    assert numbers == _outcome(qrels, _frame(rows, True), measures, **options)
    duplicated = any(len(set(docs)) < len(docs) for docs in lists)
    assert isinstance(numbers, str) == (duplicated and not first)


def test_an_item_only_plan_never_keys_the_numbers() -> None:
    rows = [(q, d, float(-d)) for q in range(3) for d in range(q, q + 4)]
    run = ranklens.load_run(_frame(rows, False))
    qrels = pl.DataFrame({"query_id": [0, 1, 2], "doc_id": [0, 2, 9], "relevance": 1})
    ranklens.evaluate(qrels, run, ["Coverage@2"], items=np.arange(10))
    index = run_index(run, "docid")
    assert index.keys is None and index._derived.keys is None  # never keyed
    matched = ranklens.evaluate(qrels, run, ["P@2"])
    # matched in the judged numbers' own table: the run's rows need no keys of their own
    assert index._derived.keys is None
    text = ranklens.evaluate(qrels, _frame(rows, True), ["P@2"])
    assert dict(matched) == dict(text)


def test_ranked_order_gathers_the_moved_rows_only() -> None:
    values = np.arange(10, 20)
    assert ranked_order(values, (np.zeros(0, np.int64), np.zeros(0, np.int64))) is values
    moves = (np.array([2, 3]), np.array([3, 2]))
    expected = values[full_src(10, moves)]
    assert np.array_equal(ranked_order(values, moves), expected)
    frozen = np.arange(10, 20)
    frozen.flags.writeable = False
    assert np.array_equal(ranked_order(frozen, moves), expected)  # copied, not written
    perm = np.array([9, 0, 1, 2, 3, 4, 5, 6, 7, 8])
    assert np.array_equal(ranked_order(values, perm), values[perm])


@pytest.mark.parametrize("ids", [["b", "a", "c"], ["b", "a", "b", "c", "a"], ["x"], []])
def test_sorted_blocks_number_ids_as_a_lookup_does(ids: list[str]) -> None:
    blocks = pl.Series(ids, dtype=pl.String)
    distinct, code = sorted_blocks(blocks)
    assert distinct.to_list() == sorted(set(ids))
    assert np.array_equal(code, block_index(blocks, numbered(distinct)))


@settings(max_examples=60, deadline=None)
@given(numbers=st.lists(st.integers(0, 30), max_size=60), data=st.data())
def test_counts_by_number_equal_counts_by_code(numbers: list[int], data: st.DataObject
                                               ) -> None:
    context = ItemContext.of(None, ranklens.load_items([str(i) for i in range(0, 30, 3)]))
    values = np.array(numbers, dtype=np.uint32)
    top = np.array(data.draw(st.lists(st.booleans(), min_size=values.size,
                                      max_size=values.size)), dtype=bool)
    table = context.number_table(pl.Series(values)) if values.size else None
    code = context.codes(pl.Series(values, dtype=pl.UInt32))
    by_code = RankedItems(context, lambda: code, lambda: pl.Series([], dtype=pl.String))
    for mask in (None, top):
        tally, unnamed = by_code.tally(mask)
        expected = np.bincount(code[code >= 0] if mask is None else code[mask & (code >= 0)],
                               minlength=context.universe.size)
        assert np.array_equal(tally, expected)
        assert unnamed == int(((code < 0) if mask is None else mask & (code < 0)).sum())
        if table is not None:
            by_number = RankedItems(context, lambda: code, by_code.doc_ids,
                                    numbers=(values, table))
            assert by_number.tally(mask)[0].tolist() == tally.tolist()
            assert by_number.tally(mask)[1] == unnamed
