"""Integer keys of doc ids that order as their UTF-8 bytes (trec_eval's strcmp), and the tie
order they give: against Python's byte comparison and against polars's string sort."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranklens._ingest.tables import Run
from ranklens._model import bytekeys, ranking
from ranklens._model.bytekeys import byte_keys, group_byte_order

#: digits (ids of different lengths), letters, a dash, non-ASCII (two- to four-byte UTF-8)
ALPHABET = "0123456789abz-éÿ€𝄞"
#: ids that fit one word (<= 8 bytes), or take the mixed-radix columns (longer)
SHORT = st.text(ALPHABET, max_size=8).filter(lambda s: len(s.encode()) <= 8)
ANY = st.text(ALPHABET, max_size=12)


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(SHORT, ANY, st.sampled_from(["", "1", "10", "9", "100", "ab",
                                                       "abc", "abcd", "ab\x00"])),
                min_size=1, max_size=40))
def test_keys_order_as_the_utf8_bytes(ids: list[str]) -> None:
    keyed = byte_keys(pl.Series(ids, dtype=pl.String))
    if keyed is None:  # only when the keys need more than 64 bits
        assert max(len(s.encode()) for s in ids) > 8
        return
    keys, span = keyed
    assert keys.dtype in (np.uint32, np.uint64) and int(keys.max()) < span <= 1 << 64
    raw = [s.encode() for s in ids]
    for i in range(len(ids)):
        for j in range(len(ids)):
            expected = _sign((raw[i] > raw[j]) - (raw[i] < raw[j]))
            assert _sign(int(keys[i]) - int(keys[j])) == expected, (ids[i], ids[j])


def test_keys_of_prefixes_and_numbers() -> None:
    ids = ["9", "10", "100", "", "abc", "abcd", "ab", "é", "z", "0123456789012"]
    for group in (ids[:-1], ids):  # one word; the mixed-radix columns
        keyed = byte_keys(pl.Series(group))
        assert keyed is not None
        keys = keyed[0]
        assert [group[i] for i in np.argsort(keys, kind="stable")] == \
            sorted(group, key=str.encode)
    # a NUL byte is a byte, not the end of the string (polars's order)
    for ids in (["ab\x00", "ab", "ab\x00\x00"], ["0123456789ab\x00", "0123456789ab"]):
        keyed = byte_keys(pl.Series(ids))
        assert keyed is not None
        assert [ids[i] for i in np.argsort(keyed[0])] == sorted(ids, key=str.encode)


def test_ids_too_long_for_a_key_are_left_to_the_string_sort() -> None:
    # 24+ bytes of many symbols per column: more than 64 bits, or beyond MAX_BYTES
    rng = np.random.default_rng(0)
    ids = ["".join(rng.choice(list("abcdefghijklmnopqrstuvwxyz0123456789"), 20))
           for _ in range(500)]
    assert byte_keys(pl.Series(ids)) is None
    assert group_byte_order(np.zeros(500, dtype=np.int64), pl.Series(ids), True) is None
    assert byte_keys(pl.Series(["x" * (bytekeys.MAX_BYTES + 1), "y"])) is None
    assert byte_keys(pl.Series(["a", None])) is None


def _polars_order(group: np.ndarray, ids: list[str], descending: bool) -> np.ndarray:
    return (pl.DataFrame({"g": group, "t": pl.Series(ids, dtype=pl.String)})
            .select(pl.arg_sort_by(["g", "t"], descending=[False, descending],
                                   maintain_order=True))
            .to_series().to_numpy())


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.one_of(SHORT, ANY, st.sampled_from(
    ["", "7", "ab\x00", "ab"]))), min_size=1, max_size=60), st.booleans())
def test_group_order_equals_polars_string_sort(rows: list[tuple[int, str]],
                                               descending: bool) -> None:
    rows.sort(key=lambda r: r[0])  # the rows come grouped
    group = np.array([g for g, _ in rows], dtype=np.int64)
    ids = [s for _, s in rows]
    order = group_byte_order(group, pl.Series(ids, dtype=pl.String), descending)
    if order is None:  # left to the string sort: group, key and row over 64 bits
        keyed = byte_keys(pl.Series(ids, dtype=pl.String))
        assert keyed is None or (int(group[-1]) + 1) * keyed[1] << len(ids).bit_length() \
            > 1 << 64
        return
    np.testing.assert_array_equal(order, _polars_order(group, ids, descending))
    # and against Python's bytes (a stable sort: repeated ids keep their order)
    # a string's end sorts below every byte (a prefix first), so above them descending
    expected = sorted(range(len(ids)), key=lambda i: (
        group[i], [-b if descending else b for b in ids[i].encode()] + [1 if descending
                                                                        else -1]))
    assert order.tolist() == expected


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.sampled_from([1.0, 2.0, 2.0, 3.0]),
                          st.one_of(SHORT, ANY)), min_size=1, max_size=80),
       st.sampled_from(["docid", "docid_ascending"]), st.booleans())
def test_rankings_equal_the_string_sort(rows: list[tuple[int, float, str]], ties: str,
                                        query_blocks: bool) -> None:
    if query_blocks:  # one block per query, scores descending: ranked without sorting
        rows.sort(key=lambda r: (r[0], -r[1]))
    frame = pl.DataFrame({"query_id": [f"q{q}" for q, _, _ in rows],
                          "doc_id": [d for _, _, d in rows],
                          "score": [s for _, s, _ in rows]})
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ranking, "TIED_ROWS_FOR_KEYS", 0)  # the keys however few the rows
        new = ranking._build(Run(frame), ties)  # type: ignore[arg-type]
        mp.setattr(ranking, "group_byte_order", lambda *args: None)
        old = ranking._build(Run(frame), ties)  # type: ignore[arg-type]
    np.testing.assert_array_equal(new.src, old.src)
    np.testing.assert_array_equal(new.offsets, old.offsets)
    assert new.duplicated == old.duplicated


@pytest.mark.parametrize("odd", ["", "zz-ÿ-€-𝄞-01234", "LA010189-0001"])
def test_many_rows_tried_on_a_sample_first(odd: str) -> None:
    # over 4,096 rows a sample is keyed first; a row outside it (row 1) may widen the keys
    rng = np.random.default_rng(1)
    ids = rng.integers(0, 8_841_823, 6000).astype(str).tolist()
    ids[1] = odd
    group = np.sort(rng.integers(0, 300, len(ids)))
    for descending in (False, True):
        order = group_byte_order(group, pl.Series(ids), descending)
        assert order is not None or odd  # digits and the empty string always fit
        if order is not None:
            np.testing.assert_array_equal(order, _polars_order(group, ids, descending))
    keyed = byte_keys(pl.Series(ids))
    assert keyed is not None
    assert [ids[i] for i in np.argsort(keyed[0], kind="stable")] == sorted(ids, key=str.encode)
    varied = [f"{c}{n}" for c, n in zip(rng.choice(list("ABCDEFGHIJKLMNOP"), 6000),
                                        rng.integers(0, 10**12, 6000), strict=True)]
    assert group_byte_order(np.arange(6000), pl.Series(varied), True) is None


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.one_of(SHORT, ANY)), min_size=1, max_size=60),
       st.booleans())
def test_group_order_of_words_equals_the_byte_order(rows: list[tuple[int, str]],
                                                    descending: bool) -> None:
    # doc ids given as big-endian words (the nested dicts' form): the same order as their
    # bytes, or None only when the ids are too long for the keys
    from ranklens._model.dicts import _words

    rows.sort(key=lambda r: r[0])
    group = np.array([g for g, _ in rows], dtype=np.int64)
    ids = [s for _, s in rows]
    words = _words([{d: 0.0} for d in ids], len(ids))
    assert words is not None
    order = group_byte_order(group, np.stack(words), descending)
    if order is None:  # left to the word sort: group, key and row over 64 bits
        keyed = bytekeys.word_keys(np.stack(words))
        assert keyed is None or (int(group[-1]) + 1) * keyed[1] << len(ids).bit_length() \
            > 1 << 64
        return
    expected = sorted(range(len(ids)), key=lambda i: (
        group[i], [-b if descending else b for b in ids[i].encode()] + [1 if descending
                                                                        else -1]))
    assert order.tolist() == expected
