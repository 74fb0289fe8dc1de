"""The one index of measure spellings (``ranklens._names.index``) and the tables it derives."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ranklens._measures import REGISTRY
from ranklens._names import written_params
from ranklens._names.index import SPELLINGS, Reading, build
from ranklens._names.trec import averaged_over_groups
from ranklens._surfaces.trec_eval.table import JG, NO_SUMMARY


def test_every_declared_spelling_is_in_the_index() -> None:
    for name, defn in REGISTRY.items():
        assert SPELLINGS.reading(name) == Reading(name)
        assert all(SPELLINGS.reading(a) == Reading(name) for a in defn.aliases)
        assert all(SPELLINGS.reading(v) == Reading(name, tuple(f)) for v, f in defn.variants)
        assert defn.trec.name is None or SPELLINGS.trec[defn.trec.name] == name
        assert defn.trec.cut is None or SPELLINGS.trec_cut[defn.trec.cut] == name


def test_a_spelling_with_two_readings_is_refused() -> None:
    registry = dict(REGISTRY)
    # a second measure claiming AP's trec_eval name, then RR's alias in another case
    registry["RR"] = replace(REGISTRY["RR"], trec=replace(REGISTRY["RR"].trec, name="map"))
    with pytest.raises(RuntimeError, match="'map' names both AP and RR"):
        build(registry)
    registry["RR"] = replace(REGISTRY["RR"], aliases=("MAP",))
    with pytest.raises(RuntimeError, match="names both"):
        build(registry)


def test_one_reading_declared_twice_is_no_collision() -> None:
    registry = dict(REGISTRY)
    registry["AP"] = replace(REGISTRY["AP"], aliases=(*REGISTRY["AP"].aliases, "Ap", "AP"))
    assert build(registry).reading("aP") == Reading("AP")


def test_no_summary_is_the_text_valued_measures() -> None:
    assert sorted(NO_SUMMARY) == ["relstring"]
    assert all(REGISTRY[SPELLINGS.trec.get(te) or SPELLINGS.trec_cut[te]].text
               for te in NO_SUMMARY)


def test_judgment_group_measures_come_from_the_index() -> None:
    assert [averaged_over_groups(te) for te in JG] == [("AP", False), ("P", True),
                                                       ("RprecMult", True)]


@pytest.mark.parametrize(("spec", "written"), [
    ("AP(denom=rel)@10", {"denom"}),  # at its default: dropped by the measure, still written
    ("ndcg_burges@10", {"gain"}),  # a variant's fixed parameter
    ("map@100-l2", {"rel"}),  # ranx's level
    ("ndcg_1=3,2=9", {"gain"}),  # trec_eval's raw parameters
    ("ndcg_cut_10", set()),
])
def test_written_params_come_from_the_parser(spec: str, written: set[str]) -> None:
    assert written_params(spec) == written
