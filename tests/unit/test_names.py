"""Measure names: canonical round trips, trec_eval and ranx spellings, parameters that compute."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ranklens
from ranklens import Measure, MeasureError, parse_measure, parse_measures
from ranklens._base.params import Param, Spelled
from ranklens._measures import REGISTRY

TREC_NAMES = {
    "map": "AP",
    "map_cut_10": "AP@10",
    "map_cut.10": "AP@10",
    "ndcg": "nDCG",
    "ndcg_cut_10": "nDCG@10",
    "ndcg_cut.10": "nDCG@10",
    "P_5": "P@5",
    "P.5": "P@5",
    "recall_1000": "R@1000",
    "recip_rank": "RR",
    "Rprec": "Rprec",
    "bpref": "Bpref",
    "set_P": "P",
    "set_recall": "R",
    "set_F": "F",
    "set_map": "SetAP",
    "set_relative_P": "RelP",
    "relative_P_5": "RelP@5",
    "success_1": "Success@1",
    "num_q": "NumQ",
    "num_ret": "NumRet",
    "num_rel": "NumRel",
    "num_rel_ret": "NumRelRet",
    "num_nonrel_judged_ret": "NumNonRelJudgedRet",
    "gm_map": "GMAP",
    "gm_bpref": "GMBpref",
}
# Names whose measure another part of the engine registers; checked once it exists.
TREC_CUTOFF_NAMES = {
    "iprec_at_recall_0.10": 0.1,
    "iprec_at_recall_0.00": 0.0,
    "iprec_at_recall_1.00": 1.0,
    "Rprec_mult_0.20": 0.2,
    "Rprec_mult_2.00": 2.0,
}
RANX_NAMES = {
    "map@10": "AP@10",
    "ndcg@10": "nDCG@10",
    "ndcg_burges@10": "nDCG(gain=exp2)@10",
    "mrr@10": "RR@10",
    "mrr": "RR",
    "precision@10": "P@10",
    "recall@100": "R@100",
    "hit_rate@10": "Success@10",
    "r-precision": "Rprec",
    "f1@10": "F@10",
    "map@100-l2": "AP(rel=2)@100",
    "precision@5-l2": "P(rel=2)@5",
    "NDCG@10": "nDCG@10",
    "Recall@5": "R@5",
}


@pytest.mark.parametrize(("name", "canonical"), sorted({**TREC_NAMES, **RANX_NAMES}.items()))
def test_known_spellings(name: str, canonical: str) -> None:
    m = parse_measure(name)
    assert str(m) == canonical
    assert parse_measure(canonical) == m


@pytest.mark.parametrize(("name", "cutoff"), sorted(TREC_CUTOFF_NAMES.items()))
def test_trec_float_cutoffs(name: str, cutoff: float) -> None:
    try:
        m = parse_measure(name)
    except MeasureError:
        pytest.skip(f"{name} is not registered yet")
    assert m.cutoff == cutoff
    assert m.definition.trec.cut == name.rsplit("_", 1)[0]
    assert parse_measure(str(m)) == m


@pytest.mark.parametrize(
    "text",
    ["nDCG(discount=rank)@7", "DCG(discount=jk)@4", "AP(denom=min)@3", "nDCG(gain=exp2)@10",
     "AP(rel=2)", "P(rel=2)@5", "F(beta2=0.25)@10", "nDCG(gain=1:3;2:9)@5",
     "nDCG(discount=jk,gain=exp2)@5", "AR(denom=hits)@10"],
)
def test_canonical_round_trip(text: str) -> None:
    m = parse_measure(text)
    assert str(m) == text
    assert parse_measure(str(m)) == m
    assert hash(parse_measure(text)) == hash(m)


def test_defaults_are_dropped_and_order_normalised() -> None:
    assert parse_measure("AP(denom=rel)@5") == parse_measure("AP@5")
    assert str(parse_measure("AP(denom=rel)@5")) == "AP@5"
    a = parse_measure("nDCG(gain=exp2, discount=jk)@5")
    b = parse_measure("nDCG( discount = jk ,gain=exp2 ) @ 5")
    assert a == b and str(a) == "nDCG(discount=jk,gain=exp2)@5"
    assert parse_measure("nDCG@10.0") == parse_measure("nDCG@10")


def test_measure_value_api() -> None:
    m = Measure("AP")(denom="min") @ 3
    assert str(m) == "AP(denom=min)@3"
    assert m == parse_measure("AP(denom=min)@3")
    assert m.get("denom") == "min"
    assert Measure("nDCG", cutoff=10) == parse_measure("ndcg_cut_10")
    assert parse_measure(m) is m
    with pytest.raises(MeasureError, match="unknown measure"):
        Measure("NoSuchMeasure")
    with pytest.raises(MeasureError, match="no parameter 'x'"):
        Measure("AP")(x=1)


def test_parse_measures_reports_all() -> None:
    with pytest.raises(MeasureError) as info:
        parse_measures(["AP", "foo@3", "P@5", "bar"])
    assert "'foo@3'" in str(info.value) and "'bar'" in str(info.value)
    assert [str(m) for m in parse_measures(["map", "P_5"])] == ["AP", "P@5"]


# -- computed values of parameterised names (closed form) ----------------------------------

QRELS = {"q": {"a": 2, "b": 0, "c": 1, "d": 1}}
RUN = {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "e": 1.0}}  # ranks: a b c e; d not retrieved


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # DCG discount rank: 2/1 + 1/3; ideal gains 2, 1, 1 at ranks 1..3
        ("nDCG(discount=rank)@3", (2 + 1 / 3) / (2 + 1 / 2 + 1 / 3)),
        ("DCG(discount=rank)@7", 2 + 1 / 3),
        # Jarvelin-Kekalainen: rank 1 undiscounted, then 1/log2(i)
        ("DCG(discount=jk)@4", 2 + 1 / math.log2(3)),
        ("nDCG(discount=jk)@4", (2 + 1 / math.log2(3)) / (2 + 1 + 1 / math.log2(3))),
        ("DCG@3", 2 + 1 / 2),
        ("nDCG(gain=exp2)@2", 3 / (3 + 1 / math.log2(3))),
        # relevant = a, c, d (R = 3); precision at a = 1, at c = 2/3
        ("AP@2", 1 / 3),
        ("AP(denom=min)@2", 1 / 2),
        ("AP(denom=min)@3", (1 + 2 / 3) / 3),
        ("AP(denom=hits)@3", (1 + 2 / 3) / 2),
        ("AP(rel=2)", 1.0),
        ("map_cut_2", 1 / 3),
        ("P@3", 2 / 3),
        ("P@10", 2 / 10),
        ("R@3", 2 / 3),
        ("F@3", 2 / 3),
        ("Rprec", 2 / 3),
        ("RR", 1.0),
        ("RR(rel=2)", 1.0),
        ("CG@7", 3.0),
        ("Success@1", 1.0),
        ("ndcg_burges@10", (3 + 1 / 2) / (3 + 1 / math.log2(3) + 1 / 2)),
        ("f1@2", 2 * (1 / 2) * (1 / 3) / (1 / 2 + 1 / 3)),
        ("map@100-l2", 1.0),
    ],
)
def test_parameterised_names_compute(name: str, expected: float) -> None:
    r = ranklens.evaluate(QRELS, RUN, [name])
    assert r[name] == pytest.approx(expected, abs=1e-12, rel=0)


# -- round trip over every registered measure ------------------------------------------------

_FLOAT = st.floats(0, 1e6, allow_nan=False, allow_infinity=False).filter(lambda x: x < 1e15)


def _values(param: Param) -> st.SearchStrategy[Any]:
    p = param.constraint
    assert isinstance(p, Spelled)
    lo = p.minimum if p.minimum is not None else -100
    if p.kind == "int":
        return st.integers(int(lo), 100)
    if p.kind == "float":
        hi = p.maximum if p.maximum is not None else 1e6
        return st.floats(float(lo), hi, allow_nan=False, allow_infinity=False)
    if p.kind == "bool":
        return st.booleans()
    if p.kind == "choice":
        return st.sampled_from(p.choices)
    if p.kind == "gain":
        levels = st.dictionaries(st.integers(-2, 5).map(float), _FLOAT, min_size=1, max_size=4)
        return st.one_of(st.sampled_from(["linear", "exp2"]), levels)
    if p.kind == "floats":
        return st.lists(st.floats(max(float(lo), 0.0), 1.0, allow_nan=False), min_size=1,
                        max_size=5)
    raise AssertionError(f"no strategy for parameter kind {p.kind!r}")


@st.composite
def measures(draw: st.DrawFn) -> Measure:
    name = draw(st.sampled_from(sorted(REGISTRY)))
    defn = REGISTRY[name]
    params = {}
    for p in defn.params:
        if draw(st.booleans()):
            params[p.name] = draw(_values(p))
    cutoff: float | None = None
    if defn.cutoff is not None and (defn.cutoff_required or draw(st.booleans())):
        if defn.cutoff == "int":
            cutoff = draw(st.integers(1, 10_000))
        else:
            cutoff = draw(st.floats(0, 5, allow_nan=False))
    return Measure(name, tuple(params.items()), cutoff)


@settings(max_examples=300, deadline=None)
@given(m=measures())
def test_round_trip_every_registered_measure(m: Measure) -> None:
    text = str(m)
    back = parse_measure(text)
    assert back == m, text
    assert str(back) == text


def test_every_registered_measure_parses_by_name() -> None:
    for name, defn in REGISTRY.items():
        if defn.cutoff_required:
            continue
        assert parse_measure(name) == Measure(name)
        if defn.trec.name:
            assert parse_measure(defn.trec.name).name == name
        for cut in defn.trec.cutoffs[:2]:
            if defn.trec.cut and defn.cutoff == "int":
                assert parse_measure(f"{defn.trec.cut}_{int(cut)}") == Measure(name, (), cut)


@pytest.mark.parametrize(
    ("name", "canonical"),
    [("iprec_at_recall.0.5", "IPrec@0.5"), ("Rprec_mult.0.2", "RprecMult@0.2"),
     ("map_cut.010", "AP@10"), ("recall.1000", "R@1000"), ("P_05", "P@5")],
)
def test_trec_dotted_parameters(name: str, canonical: str) -> None:
    """trec_eval splits ``name.params`` at the first dot."""
    try:
        parse_measure(canonical)
    except MeasureError:
        pytest.skip(f"{canonical} is not registered yet")
    assert str(parse_measure(name)) == canonical


@pytest.mark.parametrize("name", ["ndcg_cut", "map_cut", "relative_P"])
def test_bare_trec_cutoff_family_needs_a_cutoff(name: str) -> None:
    with pytest.raises(MeasureError, match=rf"'{name}' needs a cutoff, e.g. {name}_\d+"):
        parse_measure(name)


@pytest.mark.parametrize("cutoff", ["nan", "inf", "-0.5"])
def test_float_cutoffs_must_be_finite(cutoff: str) -> None:
    name = next((n for n, d in REGISTRY.items() if d.cutoff == "float"), None)
    if name is None:
        pytest.skip("no measure with a float cutoff is registered")
    with pytest.raises(MeasureError, match=f"cutoff of {name}"):
        parse_measure(f"{name}@{cutoff}")


def test_ranx_level_suffix_on_graded_measure() -> None:
    with pytest.raises(MeasureError, match=r"'ndcg@5-l2'.*-l2 suffix.*nDCG"):
        parse_measure("ndcg@5-l2")


_NAME_CHARS = st.sampled_from([
    *"APRnDCGmaprecisonl_@.,;:=()-+ 0123456789eE", "ndcg", "map", "P", "cut",
    "iprec_at_recall", "utility", "gain=", "rel=", "exp2", "@", "-l", "1:3", "inf", "nan",
])


@settings(max_examples=400, deadline=None)
@given(parts=st.lists(_NAME_CHARS, max_size=8))
def test_any_text_parses_or_raises_measure_error(parts: list[str]) -> None:
    """The parser never fails with anything but MeasureError, and what it accepts round-trips."""
    text = "".join(parts)
    try:
        m = parse_measure(text)
    except MeasureError as exc:
        assert str(exc)
        return
    assert parse_measure(str(m)) == m


def test_gain_maps_normalised_in_any_form() -> None:
    want = parse_measure("nDCG(gain=1:3;2:9)@5")
    for form in ({2: 9, 1: 3}, ((2, 9), (1, 3)), [(1.0, 3.0), (2, 9.0)]):
        m = Measure("nDCG", cutoff=5)(gain=form)
        assert m == want and hash(m) == hash(want) and str(m) == str(want)


@pytest.mark.parametrize(
    ("name", "params"),
    [("nDCG", {"gain": ((1,),)}), ("nDCG", {"gain": ("a", "b")}), ("nDCG", {"gain": ()}),
     ("nDCG", {"gain": {1: 3, 2: float("nan")}}), ("nDCG", {"gain": ((1, 3), (1, 9))}),
     ("F", {"beta2": float("inf")}), ("F", {"beta2": "x"}), ("AP", {"rel": True}),
     ("AP", {"denom": "max"}), ("RR", {"judged_only": "yes"})],
)
def test_bad_parameter_values(name: str, params: dict) -> None:
    with pytest.raises(MeasureError, match=f"parameter '{next(iter(params))}' of {name}"):
        Measure(name)(**params)


@pytest.mark.parametrize("text", ["nDCG(gain=1:3;1:9)", "nDCG(gain=1:nan)", "F(beta2=inf)",
                                  "nDCG(gain=)", "AP(rel=1.5)"])
def test_bad_parameter_text(text: str) -> None:
    with pytest.raises(MeasureError, match="parameter"):
        parse_measure(text)


_TOY_QRELS = {"q1": {"a": 2, "b": 0, "c": 1, "d": -1, "e": 3}, "q2": {"x": 0}, "q3": {"y": 1}}
_TOY_RUN = {"q1": {"a": 1.0, "b": 2.0, "c": 2.0, "d": 0.5, "u": 2.0},
            "q2": {"x": 1.0, "z": 1.0}, "q4": {"y": 1.0}}


@settings(max_examples=300, deadline=None)
@given(m=measures())
def test_every_measure_with_any_parameters_computes(m: Measure) -> None:
    """Whatever valid parameters a registered measure gets, it yields one value per query
    (graded, negative and unjudged documents, ties, a query missing from the run)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ranklens.RanklensWarning)
        # diversity measures read subtopic judgments: the same documents, two subtopics
        qrels = (ranklens.load_qrels({q: {"s1": docs, "s2": dict(list(docs.items())[::2])}
                                      for q, docs in _TOY_QRELS.items()}, kind="subtopic")
                 if m.definition.subtopics else _TOY_QRELS)
        # beyond-accuracy measures read popularity, the catalogue and features
        context = {"train": {"t1": ["a", "b", "a"], "t2": ["c", "y"]},
                   "items": ["a", "b", "c", "d", "x", "y"],
                   "item_features": {"a": [1, 0], "b": [0, 1], "c": [1, 1], "y": [2, 1]}} \
            if m.definition.family == "beyond" else {}
        given = dict(m.params).get("propensity") == "given"
        if given:  # PSP and its kin read each item's propensity
            docs = sorted({d for ranked in (*_TOY_QRELS.values(), *_TOY_RUN.values())
                           for d in ranked} | set(context["items"]))
            context["items"] = pl.DataFrame({"item_id": docs, "propensity": 0.5})
            if {"A", "B", "preset"} & set(dict(m.params)):  # the model's; refused, named
                # (a tie policy no item measure has is refused first, when the data is read)
                one_order = m.get("ties") in ("docid", "input", None)
                with pytest.raises(ranklens.MeasureError if one_order else
                                   ranklens.ParameterError,
                                   match="propensity=given does not" if one_order else
                                   "must be docid or input"):
                    ranklens.evaluate(qrels, _TOY_RUN, [m], missing="zero", **context)
                return
        try:
            r = ranklens.evaluate(qrels, _TOY_RUN, [m], missing="zero", **context)
        except ranklens.ParameterError as exc:
            if m.definition.family == "beyond":  # one order of each ranking: docid, input
                assert m.get("ties") not in ("docid", "input", None), exc
                assert "must be docid or input" in str(exc)
                return
            # scikit-learn's tie policies are defined measure by measure; the others refuse
            # them, naming measure and policy (tests/peers/test_sklearn_ties.py)
            assert m.get("ties") in ("pessimistic", "optimistic"), exc
            assert f"ties={m.get('ties')!r} is not defined for {m}" in str(exc)
            return
    values = r.query_values[str(m)]
    assert values.shape == (3,)
    if not m.definition.text:
        assert not np.isinf(values).any(), values
