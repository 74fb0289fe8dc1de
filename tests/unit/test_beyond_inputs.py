"""Issue 39's beyond-accuracy inputs: delimited embeddings with a header load, errors in
item-feature files name lines, and the inputs with no defined value are refused."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import ranklens
from ranklens import InputError, MeasureError

DOCS = Path(__file__).resolve().parents[2] / "docs" / "beyond-accuracy.md"
TEST = {"u1": {"c": 1}, "u2": {"d": 1}}
RECO = {"u1": {"a": 3.0, "b": 2.0, "c": 1.0}, "u2": {"d": 3.0, "a": 2.0}}
TRAIN = {"u1": ["a", "a", "b"], "u2": ["a", "c"], "u3": ["a"]}


@pytest.mark.parametrize("kind", ["csv", "tsv"])
def test_the_delimited_embeddings_of_the_docs_load(kind: str, tmp_path: Path) -> None:
    blocks = re.findall(rf"```{kind}\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
    assert blocks, f"docs/beyond-accuracy.md shows a {kind} example"
    path = tmp_path / f"embeddings.{kind}"
    path.write_text(blocks[0], encoding="utf-8")
    features = ranklens.load_item_features(path)
    assert features.matrix[0].tolist() == [0.12, -0.5]
    assert features.kind == "dense"


def test_a_feature_that_is_no_number_names_file_line_column_and_value(tmp_path: Path) -> None:
    path = tmp_path / "embeddings.tsv"
    path.write_text("item_id\tx1\tx2\na\t1\t0\nb\t0\tzz\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"embeddings\.tsv:3: .*column 'x2', got 'zz'"):
        ranklens.load_item_features(path)


@pytest.mark.parametrize(("text", "line"), [("a 1 0\nb 0 1\na 1 1\n", 3),
                                            ("# vectors\na 1 0\n\nb 0 inf\n", 4)])
def test_an_item_feature_file_error_names_its_line(text: str, line: int,
                                                   tmp_path: Path) -> None:
    path = tmp_path / "embeddings.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=rf"embeddings\.txt:{line}: "):
        ranklens.load_item_features(path)


def test_vectors_of_length_zero_are_refused() -> None:
    with pytest.raises(InputError, match="vectors of length 0"):
        ranklens.evaluate(TEST, RECO, ["ILD@2"], train=TRAIN,
                          item_features={"a": [], "b": [], "c": [], "d": []})


def test_a_zero_vector_under_cosine_is_refused() -> None:
    with pytest.raises(MeasureError, match=r"item 'b' .* zero vector"):
        ranklens.evaluate(TEST, RECO, ["ILD@2"], train=TRAIN,
                          item_features={"a": [1, 0], "b": [0, 0], "c": [1, 1], "d": [1, 0]})


def test_popularity_measures_refuse_training_interactions_without_a_row() -> None:
    with pytest.raises(MeasureError, match=r"Novelty@2 reads .*<train dict> holds none"):
        ranklens.evaluate(TEST, RECO, ["Novelty@2"], train={}, items=["a", "b", "c", "d"])
