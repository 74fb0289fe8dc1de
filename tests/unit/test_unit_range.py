"""A measure declared in [0, 1] (``Facts.unit_range``: compare clips its intervals to
[-1, 1] on that word) stays there on random judgments, negative grades and ties included."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

import ranklens
from ranklens import RanklensWarning
from ranklens._measures import REGISTRY


def _data(seed: int) -> tuple[dict, dict]:
    rng = random.Random(seed)
    qrels: dict = {}
    run: dict = {}
    for i in range(25):
        q = f"q{i}"
        qrels[q] = {f"d{d}": rng.randint(-2, 4) for d in rng.sample(range(40), rng.randint(1, 15))}
        run[q] = {f"d{d}": rng.randint(0, 8) / 4 for d in rng.sample(range(40), rng.randint(0, 30))}
    return qrels, run


def _declared() -> list[str]:
    out = []
    for name, defn in REGISTRY.items():
        # beyond-accuracy measures read an item context: tests/unit/test_beyond.py
        if defn.subtopics or defn.text or defn.facts.unit_range is False or defn.family == "beyond":
            continue
        cut = ("@0.3" if defn.cutoff == "float" else "@5") if defn.cutoff_required else ""
        out.append(f"{name}{cut}")
    return out


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("ties", ["docid", "average"])
def test_declared_measures_stay_in_the_unit_interval(seed: int, ties: str) -> None:
    names = [n for n in _declared() if ranklens.parse_measure(n).in_unit_range]
    names += ["nDCG(gain=exp2)@10", "nDCG(discount=jk,ideal=run)@5", "nDCG(gain=1:3;2:9)"]
    if ties == "average":  # a measure without a closed form enumerates the tied orders
        names = [n for n in names if ranklens.parse_measure(n).definition.ties.closed_form]
    qrels, run = _data(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        result = ranklens.evaluate(qrels, run, names, ties=ties, missing="zero")
    for name in names:
        values = result.query_values[name]
        assert np.all((values >= 0) & (values <= 1)), (name, values.min(), values.max())


def test_a_negative_gain_is_not_declared_in_the_unit_interval() -> None:
    assert ranklens.parse_measure("nDCG@10").in_unit_range
    assert not ranklens.parse_measure("nDCG(gain=0:-1;1:1)@10").in_unit_range
    qrels = {"q": {"a": 0, "b": 1}}
    run = {"q": {"a": 2.0, "b": 1.0}}
    value = ranklens.evaluate(qrels, run, ["nDCG(gain=0:-1;1:1)"])["nDCG(gain=0:-1;1:1)"]
    assert not 0 <= value <= 1  # the reason: such a gain map does leave [0, 1]
