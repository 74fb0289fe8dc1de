"""The beyond-accuracy input tables: every input form, popularity counts, and the errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
import pytest

import ranklens
from ranklens import (
    InputError,
    Interactions,
    ItemCatalogue,
    ItemFeatures,
    ItemGroups,
    ParameterError,
    load_interactions,
    load_item_features,
    load_item_groups,
    load_items,
)

# u1 plays a twice and b once, u2 plays a once: a has 2 users and 3 rows, b 1 and 1
ROWS = [("u1", "a", 1.0), ("u1", "a", 1.0), ("u1", "b", 1.0), ("u2", "a", 1.0)]


def _popularity(train: Interactions) -> dict[str, tuple[int, int]]:
    pop = train.popularity()
    return {i: (u, r) for i, u, r in zip(pop["item_id"], pop["users"], pop["rows"],
                                          strict=True)}


def _forms(tmp_path: Path) -> list[object]:
    text = tmp_path / "train.txt"
    text.write_text("# user item\n" + "".join(f"{u} {i}\n" for u, i, _ in ROWS))
    csv = tmp_path / "train.csv"
    csv.write_text("user,item,rating\n" + "".join(f"{u},{i},{w}\n" for u, i, w in ROWS))
    tsv = tmp_path / "train.tsv"
    tsv.write_text("user_id\titem_id\n" + "".join(f"{u}\t{i}\n" for u, i, _ in ROWS))
    parquet = tmp_path / "train.parquet"
    frame = pl.DataFrame(ROWS, schema=["user_id", "item_id", "weight"], orient="row")
    frame.write_parquet(parquet)
    return [str(text), csv, tsv, parquet, frame, frame.to_pandas(), frame.to_arrow(),
            ([u for u, _, _ in ROWS], [i for _, i, _ in ROWS]),
            {"u1": ["a", "a", "b"], "u2": ["a"]}]


def test_interactions_from_every_form(tmp_path: Path) -> None:
    for form in _forms(tmp_path):
        train = load_interactions(form)
        assert _popularity(train) == {"a": (2, 3), "b": (1, 1)}, form
        assert train.n_users == 2
        assert load_interactions(train) is train


def test_interaction_weights_and_integer_ids() -> None:
    train = load_interactions({1: {10: 2.0, 11: 0.5}})
    assert train.frame["item_id"].to_list() == ["10", "11"]
    assert train.frame["weight"].to_list() == [2.0, 0.5]
    assert load_interactions(pd.DataFrame({"user": [1.0], "item": [7.0]})).frame.row(0) == (
        "1", "7", 1.0)


@pytest.mark.parametrize(("name", "text", "message"), [
    ("bad.txt", "u1 a\nu2 b x\n", r"bad.txt:2: expected a numeric weight, got 'x'"),
    ("short.txt", "u1 a\nu2\n", r"short.txt:2: expected 2 to 3 fields"),
    ("t.csv", "user_id,item_id,weight\nu1,a,1\nu2,b,\n",
     r"t.csv:3: missing value in column 'weight'"),
    ("n.csv", "who,what\nu1,a\n", r"needs a 'user_id' column .*found columns"),
])
def test_interaction_file_errors_name_file_line_and_what(tmp_path: Path, name: str,
                                                         text: str, message: str) -> None:
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(InputError, match=message):
        load_interactions(path)


def test_interaction_errors_name_what(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"no such file"):
        load_interactions(tmp_path / "absent.csv")
    with pytest.raises(InputError, match=r"finite weight, got inf"):
        load_interactions({"u": {"a": float("inf")}})
    with pytest.raises(InputError, match=r"user 'u': expected a list of items"):
        load_interactions({"u": 3})
    with pytest.raises(InputError, match=r"one length"):
        load_interactions((["u1", "u2"], ["a"]))


def test_catalogue_forms_and_duplicates(tmp_path: Path) -> None:
    text = tmp_path / "items.txt"
    text.write_text("a head\nb tail\nc tail\n")
    for form in (text, {"a": "head", "b": "tail", "c": "tail"},
                 pd.DataFrame({"item": ["a", "b", "c"], "group": ["head", "tail", "tail"]})):
        cat = load_items(form)
        assert cat.item_ids.to_list() == ["a", "b", "c"]
        assert cat.frame["group"].to_list() == ["head", "tail", "tail"]
        assert load_item_groups(cat).groups == ("head", "tail")
    assert load_items(np.array([3, 1])).item_ids.to_list() == ["3", "1"]
    bare = tmp_path / "bare.txt"
    bare.write_text("a\nb\n")
    assert load_items(bare).frame.columns == ["item_id"]
    twice = tmp_path / "twice.txt"
    twice.write_text("a\nb\n\na\n")
    with pytest.raises(InputError, match=r"twice.txt:4: item 'a' is listed twice in the item "
                                         "catalogue; expected each item once"):
        load_items(twice)


def test_groups_from_popularity_rule() -> None:
    # rows: a 5, b 3, c 1, d 1 (total 10). head_share 0.5: a alone holds 5 >= 5
    train = load_interactions({"u": ["a"] * 5 + ["b"] * 3 + ["c", "d"]})
    g = ItemGroups.from_popularity(train, head_share=0.5)
    assert dict(g.frame.rows()) == {"a": "head", "b": "tail", "c": "tail", "d": "tail"}
    # 0.6: a holds 5 < 6, so b joins; c and d tie at 1 and stay in the tail
    g = ItemGroups.from_popularity(train, head_share=0.6)
    assert dict(g.frame.rows()) == {"a": "head", "b": "head", "c": "tail", "d": "tail"}
    assert "0.6" in g.rule
    # by users: every item has one user; ties broken by item id: a, b head at 0.5
    g = ItemGroups.from_popularity(train, head_share=0.5, by="users")
    assert dict(g.frame.rows()) == {"a": "head", "b": "head", "c": "tail", "d": "tail"}
    with pytest.raises(ParameterError, match=r"'head_share' option must be a number in "
                                             r"\(0, 1\]; got 2"):
        ItemGroups.from_popularity(train, head_share=2)


def test_features_dense_and_binary(tmp_path: Path) -> None:
    dense = load_item_features((["a", "b"], [[1.0, 0.0], [0.0, 2.0]]))
    assert dense.kind == "dense" and dense.matrix.tolist() == [[1, 0], [0, 2]]
    for form in ({"a": [1, 0], "b": [0, 2]},
                 pl.DataFrame({"item_id": ["a", "b"], "x": [1.0, 0.0], "y": [0, 2]}),
                 pl.DataFrame({"item_id": ["a", "b"], "v": [[1.0, 0.0], [0.0, 2.0]]})):
        f = load_item_features(form)
        assert f.kind == "dense" and f.item_ids.tolist() == ["a", "b"], form
        assert f.matrix.tolist() == [[1, 0], [0, 2]]
    text = tmp_path / "emb.txt"
    text.write_text("a 1 0\nb 0 2\n")
    assert load_item_features(text).matrix.tolist() == [[1, 0], [0, 2]]
    pairs = tmp_path / "genres.txt"
    pairs.write_text("a rock\na pop\nb rock\n")
    long = pd.DataFrame({"item": ["a", "a", "b"], "genre": ["rock", "pop", "rock"]})
    for form in (pairs, long, {"a": {"rock", "pop"}, "b": {"rock"}}):
        f = load_item_features(form)
        assert f.kind == "binary" and f.names == ("pop", "rock"), form
        assert f.item_ids.tolist() == ["a", "b"]
        assert f.matrix.tolist() == [[1, 1], [0, 1]]


def test_feature_errors(tmp_path: Path) -> None:
    ragged = tmp_path / "ragged.txt"
    ragged.write_text("a 1 0\nb 0\n")
    with pytest.raises(InputError, match=r"ragged.txt:2: expected 3 fields"):
        load_item_features(ragged)
    with pytest.raises(InputError, match=r"row 1: expected finite features, got nan .*'b'"):
        load_item_features({"a": [1.0], "b": [float("nan")]})
    with pytest.raises(InputError, match=r"one item id per feature row: 1 ids for 2 rows"):
        ItemFeatures(np.array(["a"], dtype=object), np.eye(2))
    with pytest.raises(InputError, match=r"item 'a' is listed twice in the item features"):
        load_item_features((["a", "a"], np.eye(2)))
    with pytest.raises(InputError, match=r"binary features must be 0 or 1"):
        load_item_features((["a", "b"], np.eye(2) * 2), kind="binary")
    with pytest.raises(ParameterError, match=r"'kind' option must be one of auto"):
        load_item_features({"a": [1.0]}, kind="sparse")  # type: ignore[arg-type]


def test_tables_check_their_frames() -> None:
    with pytest.raises(ParameterError, match="polars DataFrame"):
        ItemCatalogue({"item_id": ["a"]})  # type: ignore[arg-type]
    with pytest.raises(InputError, match=r"needs the column\(s\) 'group'"):
        ItemGroups(pl.DataFrame({"item_id": ["a"]}))
    assert "2 users" in repr(load_interactions({"u": ["a"], "v": ["a"]}))
    assert ranklens.load_items(["a"]).item_ids.to_list() == ["a"]
