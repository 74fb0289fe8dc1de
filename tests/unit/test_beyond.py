"""Beyond-accuracy measures: toy cases computed by hand, the catalogue-level merge of any
split of the queries, and the errors and warnings of the item context."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ranklens
from ranklens import MeasureError, ParameterError, RanklensWarning
from ranklens._ingest.tables import Qrels, Run
from ranklens._model.items import ItemContext, ItemCounts
from ranklens._pipeline.assemble import finish
from ranklens._pipeline.compute import compute
from ranklens._pipeline.partials import Partial, merge, partial_of
from ranklens._pipeline.plan import make_plan

# users: a 3, b 1, c 1 (d, e unseen); rows: a 4, b 1, c 1; 3 users, 6 rows
TRAIN = {"u1": ["a", "a", "b"], "u2": ["a", "c"], "u3": ["a"]}
ITEMS = ["a", "b", "c", "d", "e"]
RUN = {"u1": {"a": 3.0, "b": 2.0, "c": 1.0}, "u2": {"d": 3.0, "a": 2.0}}
QRELS = {"u1": {"c": 1}, "u2": {"d": 1}}
DENSE = {"a": [1.0, 0.0], "b": [0.0, 1.0], "c": [1.0, 1.0], "d": [1.0, 0.0]}
SETS = {"a": {"x"}, "b": {"y"}, "c": {"x", "y"}, "d": {"x"}}
L3 = math.log2(3)
R2 = 1 / math.sqrt(2)
D3 = 1 / (1 + 1 / L3 + 0.5)  # 1 / the discounts of a list of 3
D2 = 1 / (1 + 1 / L3)


def _eval(measures: list[str], **context: Any) -> ranklens.Result:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        return ranklens.evaluate(QRELS, RUN, measures, **context)


# name -> (value, per user u1, u2), by hand
EXPECTED: dict[str, tuple[float, tuple[float, float] | None]] = {
    # top 2: u1 {a, b}, u2 {d, a}; a 2, b 1, d 1 recommendations
    "Coverage@2": (3 / 5, None),
    "Coverage(convention=rectools)@2": (3 / 5, None),
    "Coverage(convention=recbole)@2": (3 / 6, None),
    "Coverage(convention=recommenders)@2": (3 / 3, None),
    "Coverage(normalize=false)@2": (3, None),
    "Entropy@2": (1.5, None),
    "DistCoverage@2": (1.5, None),
    "Entropy(convention=recbole)@2": (-(0.5 * math.log(0.5) + 0.5 * math.log(0.25)) / 3, None),
    # catalogue counts sorted: 0 0 1 1 2, n = 5: (0 + 2 + 8) / (4 * 5)
    "Gini@2": (0.5, None),
    "Gini(convention=recbole)@2": (14 / 24, None),  # n = 6: j = 4 5 6, 1 + 3 + 10
    "Gini(convention=elliot)@2": (1 - 10 / 4 / 4, None),
    # -log2(users / 3): a 0, b log2 3, unseen d as 1 user
    "Novelty@2": (L3 / 2, (L3 / 2, L3 / 2)),
    "Novelty(convention=rectools)@2": (L3 / 2, (L3 / 2, L3 / 2)),
    # -log2(rows / 6): a log2(1.5), b log2 6, unseen d 0
    "Novelty(convention=recommenders)@2": (
        ((math.log2(1.5) + math.log2(6)) / 2 + math.log2(1.5) / 2) / 2,
        ((math.log2(1.5) + math.log2(6)) / 2, math.log2(1.5) / 2)),
    "ARP@2": (2.25, (2.5, 2.0)),
    "ARP(normalize=true)@2": (2.25 / 6, (2.5 / 6, 2 / 6)),
    "ARP(convention=elliot)@2": (1.75, (2.0, 1.5)),
    "ARP@3": (2.0, (2.0, 2.0)),
    "ARP(convention=recbole)@3": ((2 + 4 / 3) / 2, (2.0, 4 / 3)),
    # short head by users, 0.8 of 5 pairs: a, b; the tail c, and unseen d, e (ranklens)
    "APLT@2": (0.25, (0.0, 0.5)),
    "APLT@3": ((1 / 3 + 1 / 2) / 2, (1 / 3, 1 / 2)),
    "APLT(head=0.5)@2": (0.5, (0.5, 0.5)),  # the head: a alone (3 of 5 pairs)
    "APLT(head=0.7)@3": ((1 / 3 + 1 / 2) / 2, (1 / 3, 1 / 2)),  # a, b (3 < 3.5): c tail
    "APLT(head=0.2)@3": ((2 / 3 + 1 / 2) / 2, (2 / 3, 1 / 2)),  # a: b, c tail
    "ACLT@3": (1.0, (1.0, 1.0)),
    # RecBole tail_ratio 0.1 of 3 training items by (rows, id): b; over k
    "APLT(convention=recbole)@2": (0.25, (0.5, 0.0)),
    "APLT(convention=recbole,tail=2)@3": (1 / 3, (2 / 3, 0.0)),  # rows <= 2: b, c
    "UserCoverage@3": (0.5, (1.0, 0.0)),
    "UserCoverage@2": (1.0, (1.0, 1.0)),
    # p = (6 - rank) / 5, pu = (6 - poprank) / 5; u2's relevant d at rank 1 is unseen
    "Serendipity@2": (0.25, (0.0, 0.5)),
    "Serendipity@3": ((0.0 + 0.5) / 2, (0.0, 0.5)),
    # discounts 1, 1/log2 3, 1/2; u1's relevant c at 3 (1 of 3 users), u2's unseen d at 1
    # head {a, b} (3 + 1 of 5 pairs), tail {c, d, e}; shown: head 3, tail 1; unseen by the
    # users' histories: head 0 + 1, tail 3 + 2; P = (3, 1/5): std 1.4 / mean 1.6
    "PopRSP@2": (1.4 / 1.6, None),
    # relevant: u1 c, u2 d, both tail and shown in the top 3; no relevant head item
    "PopREO@3": (math.nan, None),
    "EPC@3": (((2 / 3) / 2 * D3 + D2) / 2, ((2 / 3) / 2 * D3, D2)),
    "EFD@3": ((math.log2(5) / 2 * D3 + math.log2(5) * D2) / 2,
              (math.log2(5) / 2 * D3, math.log2(5) * D2)),  # unseen d: the largest, log2 5
}

FEATURED: dict[str, tuple[float, tuple[float, float]]] = {
    "ILS@2": (0.5, (0.0, 1.0)),
    "ILD@2": (0.5, (1.0, 0.0)),
    "ILS@3": ((2 * R2 / 3 + 1) / 2, (2 * R2 / 3, 1.0)),
    "ILD@3": ((1 - 2 * R2 / 3) / 2, (1 - 2 * R2 / 3, 0.0)),
    # histories: u1 a a b -> [2, 1] over 3 rows; u2 a c -> [1 + r, r] over 2 rows
    "Unexpectedness@2": ((0.5 + (1 - (1 + R2) / 2)) / 2, (0.5, 1 - (1 + R2) / 2)),
    "Serendipity(convention=recommenders)@2": ((1 - (1 + R2) / 2) / 4,
                                               (0.0, (1 - (1 + R2) / 2) / 2)),
}

BINARY: dict[str, tuple[float, tuple[float, float]]] = {
    "ILS@3": ((1 / 3 + 1) / 2, (1 / 3, 1.0)),  # Jaccard: ab 0, ac 1/2, bc 1/2; da 1
    "ILD(metric=hamming)@3": ((4 / 3 + 0) / 2, (4 / 3, 0.0)),  # ab 2, ac 1, bc 1
    "ILD@3": ((2 / 3 + 0) / 2, (2 / 3, 0.0)),
}


@pytest.mark.parametrize("name", list(EXPECTED))
def test_toy_case_by_hand(name: str) -> None:
    r = _eval([name], train=TRAIN, items=ITEMS)
    value, per_user = EXPECTED[name]
    assert r[name] == pytest.approx(value, abs=1e-12, nan_ok=True)
    if per_user is not None:
        got = r.per_query(name)
        assert (got["u1"], got["u2"]) == pytest.approx(per_user, abs=1e-12)
    else:
        assert np.isnan(r.query_values[name]).all()  # catalogue-level: no per-user value


@pytest.mark.parametrize("name", list(FEATURED))
def test_toy_case_with_embeddings(name: str) -> None:
    r = _eval([name], train=TRAIN, items=ITEMS, item_features=DENSE)
    value, per_user = FEATURED[name]
    assert r[name] == pytest.approx(value, abs=1e-12)
    got = r.per_query(name)
    assert (got["u1"], got["u2"]) == pytest.approx(per_user, abs=1e-12)


@pytest.mark.parametrize("name", list(BINARY))
def test_toy_case_with_feature_sets(name: str) -> None:
    r = _eval([name], item_features=SETS)
    value, per_user = BINARY[name]
    assert r[name] == pytest.approx(value, abs=1e-12)
    got = r.per_query(name)
    assert (got["u1"], got["u2"]) == pytest.approx(per_user, abs=1e-12)


def test_popularity_groups_given() -> None:
    # shown: u1's top 2 {a, b}: x 2; u2's {d, a}: x 1, y 1. Outside the users' histories:
    # x {a, b}: 2 * 2 - 3 (u1's a, b, u2's a) = 1; y {c, d}: 4 - 1 (u2's c) = 3; z {e}: 2
    groups = {"a": "x", "b": "x", "c": "y", "d": "y", "e": "z"}
    r = _eval(["PopRSP@2"], train=TRAIN, item_groups=groups)
    p = np.array([3 / 1, 1 / 3, 0 / 2])
    assert r["PopRSP@2"] == pytest.approx(p.std() / p.mean(), abs=1e-12)


def test_given_groups_win() -> None:
    groups = {"a": "head", "b": "head", "d": "tail"}
    r = _eval(["APLT@2", "APLT(convention=recbole)@2"], item_groups=groups)
    assert r["APLT@2"] == 0.25 and r["APLT(convention=recbole)@2"] == 0.25
    cat = ranklens.load_items({"a": "head", "b": "tail", "c": "tail", "d": "head", "e": "x"})
    assert _eval(["APLT@2"], items=cat)["APLT@2"] == 0.25  # u1's b
    with pytest.raises(MeasureError, match=r"group 'tail', and the item groups hold \['h'\]"):
        _eval(["APLT@2"], item_groups={"a": "h"})


def test_novelty_and_popularity_ignore_the_empty_policy() -> None:
    qrels = {"u1": {"zz": 1}, "u2": {"d": 1}}  # u1 has no relevant item in its ranking
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        r = ranklens.evaluate({"u1": {"c": 0}, "u2": {"d": 1}}, RUN, ["ARP@2", "P@2"],
                              train=TRAIN, empty="skip")
        assert r.per_query("ARP@2")["u1"] == 2.5  # u1 judged nothing relevant: still scored
        assert math.isnan(r.per_query("P@2")["u1"])
        assert ranklens.evaluate(qrels, RUN, ["ARP@2"], train=TRAIN)["ARP@2"] == 2.25


def test_unknown_items_are_counted_and_warned() -> None:
    run = {"u1": {"a": 3.0, "zz": 2.0, "yy": 1.0}, "u2": {"zz": 1.0}}
    with pytest.warns(RanklensWarning, match=r"3 recommendations of the run \(<run dict>\) "
                      r"name items absent from the item catalogue \(<items list>\), e.g. "
                      r"\['yy', 'zz'\]"):
        r = ranklens.evaluate(QRELS, run, ["Coverage@3", "ARP@3"], train=TRAIN, items=ITEMS)
    assert r["Coverage@3"] == 1 / 5  # only a is in the catalogue
    with pytest.warns(RanklensWarning, match=r"absent from the item features .*no features"):
        ranklens.evaluate(QRELS, run, ["ILS@3"], item_features=DENSE)
    # an item outside the cutoff is not read, so not warned about
    with warnings.catch_warnings():
        warnings.simplefilter("error", RanklensWarning)
        ranklens.evaluate({"u1": {"a": 1}}, {"u1": {"a": 3.0, "zz": 1.0}}, ["Coverage@1"],
                          items=ITEMS)


def test_missing_tables_and_tie_policies_are_refused() -> None:
    with pytest.raises(MeasureError, match=r"Novelty@10 needs the training interactions "
                                           r"\(train=\.\.\.; on the command line --train\)"):
        ranklens.evaluate(QRELS, RUN, ["Novelty@10", "AP"])
    with pytest.raises(MeasureError, match=r"ILD@5 needs item features"):
        ranklens.evaluate(QRELS, RUN, ["ILD@5"], train=TRAIN)
    with pytest.raises(ParameterError, match=r"'ties' option must be docid or input for "
                                             r"ARP@2.*got 'average'.*ARP\(ties=docid\)@2"):
        _eval(["ARP@2"], train=TRAIN, ties="average")
    # the measure's own tie policy wins over the option
    assert _eval(["ARP(ties=docid)@2", "nDCG"], train=TRAIN, ties="average")[
        "ARP(ties=docid)@2"] == 2.25
    with pytest.raises(MeasureError, match=r"'metric' of ILS must be one of auto, cosine, "
                                           r"jaccard, got 'hamming'"):
        _eval(["ILS(metric=hamming)@2"], item_features=SETS)
    with pytest.raises(MeasureError, match=r"Novelty@1 needs the training interactions"):
        ranklens.evaluate_arrays([[1, 0]], ["Novelty@1"])  # label matrices carry no item ids


def test_input_order_is_read_when_asked() -> None:
    # tied scores: docid order (descending ids) puts b first, input order a
    run = {"u1": {"a": 1.0, "b": 1.0}}
    train = {"u9": ["a", "a", "a"]}
    assert _eval_run(run, ["ARP@1"], train=train)["ARP@1"] == 0.0
    assert _eval_run(run, ["ARP@1"], train=train, ties="input")["ARP@1"] == 3.0
    assert _eval_run(run, ["ARP(ties=input)@1", "AP"], train=train)["ARP(ties=input)@1"] == 3.0


def _eval_run(run: dict, measures: list[str], **options: Any) -> ranklens.Result:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        return ranklens.evaluate({"u1": {"a": 1}}, run, measures, **options)


def test_several_runs_share_the_context() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        both = ranklens.evaluate(QRELS, {"one": RUN, "two": {"u1": {"e": 1.0}}},
                                 ["Coverage@2", "ARP@2"], train=TRAIN, items=ITEMS)
    assert both.aggregates("Coverage@2").tolist() == [0.6, 0.2]
    assert both["two"]["ARP@2"] == 0.0  # u2 absent from run two: scored on an empty list


def test_item_counts_add_up() -> None:
    a = ItemCounts.of(np.array(["x", "y", "x"], dtype=object), lists=2)
    b = ItemCounts.of(np.array(["z", "x"], dtype=object), lists=1)
    both = a + b
    assert both.item_ids.tolist() == ["x", "y", "z"] and both.counts.tolist() == [3, 1, 1]
    assert both.lists == 3 and both.total == 5
    assert (ItemCounts() + a).to_json() == a.to_json()
    assert ItemCounts.from_json(both.to_json()).to_json() == both.to_json()


# -- any split of the queries gives the whole's values ------------------------------------

CATALOGUE_LEVEL = ["Coverage@3", "Coverage(convention=recbole)@3", "Entropy@3",
                   "Entropy(convention=recbole)@3", "DistCoverage@5", "Gini@3",
                   "Gini(convention=elliot)@2"]
# sums over users (of the group sizes a user was not shown): the blocks must hold every user
USER_SUMS = ["PopRSP@3", "PopREO@2"]
PER_USER = ["Novelty@3", "ARP@3", "APLT@2", "ILD@3", "ILS@2", "Serendipity@3",
            "Unexpectedness@2", "UserCoverage@2"]


@st.composite
def _cases(draw: st.DrawFn) -> tuple[dict, dict, dict, list[str], dict, list[int]]:
    items = [f"i{n}" for n in range(draw(st.integers(2, 12)))]
    users = [f"u{n}" for n in range(draw(st.integers(1, 8)))]
    run = {u: {i: float(draw(st.integers(0, 5))) for i in draw(
        st.lists(st.sampled_from([*items, "zz"]), max_size=6, unique=True))} for u in users}
    qrels = {u: {draw(st.sampled_from(items)): 1} for u in users}
    train = {f"t{n}": draw(st.lists(st.sampled_from(items), min_size=1, max_size=5))
             for n in range(draw(st.integers(1, 6)))}
    train.update({u: draw(st.lists(st.sampled_from(items), max_size=3)) for u in users[:2]})
    train = {u: v for u, v in train.items() if v}
    # no zero vector: the cosine measures refuse one (docs/beyond-accuracy.md)
    features = {i: [float(draw(st.integers(-2, 2))) for _ in range(2)]
                + [float(draw(st.sampled_from([-2, -1, 1, 2])))] for i in items}
    blocks = draw(st.lists(st.integers(0, 3), min_size=len(users), max_size=len(users)))
    return qrels, run, train, items, features, blocks


def _table(rows: dict, kind: str) -> Qrels | Run:
    import polars as pl

    flat = [(q, d, float(v)) for q, ds in rows.items() for d, v in ds.items()]
    third = "relevance" if kind == "qrels" else "score"
    frame = pl.DataFrame(flat, schema={"query_id": pl.String, "doc_id": pl.String,
                                       third: pl.Float64}, orient="row")
    return Qrels(frame) if kind == "qrels" else Run(frame)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=_cases(), keep=st.booleans())
def test_any_split_of_the_queries_gives_the_whole(case: tuple, keep: bool) -> None:
    qrels, run, train, items, features, blocks = case
    context = ItemContext.of(ranklens.load_interactions(train), ranklens.load_items(items),
                             ranklens.load_item_features(features))
    plan = make_plan(CATALOGUE_LEVEL + USER_SUMS + PER_USER, missing="zero")
    whole = partial_of(plan, compute(plan, _table(qrels, "qrels"), _table(run, "run"),
                                     context=context))
    parts = []
    for b in sorted(set(blocks)):
        mine = [u for u, bb in zip(qrels, blocks, strict=True) if bb == b]
        q = _table({u: qrels[u] for u in mine}, "qrels")
        r = _table({u: run[u] for u in mine if run[u]}, "run")
        if not len(r):
            continue  # an empty block: no rows to read
        parts.append(partial_of(plan, compute(plan, q, r, block=True, context=context),
                                keep_values=keep))
    if not parts:
        return
    if not keep:  # what a worker sends: JSON, back
        parts = [Partial.from_json(p.to_json()) for p in parts]
    merged = merge(plan, parts)
    got = finish(plan, merged, run_source="<run>", qrels_source="<qrels>",
                 context=context).aggregates
    want = finish(plan, whole, run_source="<run>", qrels_source="<qrels>",
                  context=context).aggregates
    covered = [u for u in qrels if run[u]]
    for name in CATALOGUE_LEVEL:
        assert got[name] == want[name], name  # the counts add up exactly
    if len(covered) == len(qrels):
        for name in USER_SUMS:
            assert got[name] == want[name] or (math.isnan(got[name])
                                               and math.isnan(want[name])), name
        for name in PER_USER:
            assert got[name] == pytest.approx(want[name], rel=1e-12, abs=1e-12), name


def test_presets_choose_the_libraries_definitions() -> None:
    r = _eval(["Gini@2", "ARP@2", "AP@2", "Novelty@2"], train=TRAIN, items=ITEMS,
              convention="recbole")
    assert str(r.measures["Gini@2"]) == "Gini(convention=recbole)@2"
    assert r["Gini@2"] == pytest.approx(14 / 24, abs=1e-15)
    assert str(r.measures["AP@2"]) == "AP(denom=min)@2"
    assert str(r.measures["Novelty@2"]) == "Novelty@2"  # RecBole has none: ranklens's
    assert r.conventions["beyond"] == "recbole"
    # a parameter written in the name wins over the preset
    r = _eval(["Gini(convention=ranklens)@2"], train=TRAIN, items=ITEMS, convention="elliot")
    assert r["Gini(convention=ranklens)@2"] == 0.5
    assert "beyond" not in _eval(["AP"], train=TRAIN).conventions


@pytest.mark.parametrize(("peer", "canonical"), [
    ("MeanInvUserFreq@10", "Novelty(convention=rectools)@10"),
    ("AvgRecPopularity@10", "ARP(convention=rectools)@10"),
    ("CatalogCoverage@10", "Coverage(convention=rectools)@10"),
    ("IntraListDiversity@10", "ILD@10"),
    ("GiniIndex@10", "Gini(convention=recbole)@10"),
    ("ShannonEntropy@10", "Entropy(convention=recbole)@10"),
    ("ItemCoverage@10", "Coverage(convention=recbole)@10"),
    ("AveragePopularity@10", "ARP(convention=recbole)@10"),
    ("TailPercentage@10", "APLT(convention=recbole)@10"),
    ("catalog_coverage@10", "Coverage(convention=recommenders)@10"),
    ("distributional_coverage@10", "DistCoverage@10"),
    ("UserCoverageAtN@10", "UserCoverage@10"),
])
def test_peer_names_read_as_their_definitions(peer: str, canonical: str) -> None:
    assert str(ranklens.parse_measure(peer)) == canonical


def test_the_pages_python_example_runs() -> None:
    from pathlib import Path

    page = Path(__file__).resolve().parents[2] / "docs" / "beyond-accuracy.md"
    blocks = page.read_text(encoding="utf-8").split("```python\n")[1:]
    assert blocks
    for block in blocks:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RanklensWarning)
            exec(block.split("```")[0], {})  # its asserts state the values


def test_compare_tests_per_user_measures_only() -> None:
    qrels = {f"u{i}": {"c": 1} for i in range(6)}
    good = {f"u{i}": {"c": 2.0, "e": 1.0} for i in range(6)}
    bad = {f"u{i}": {"a": 2.0, "b": 1.0} for i in range(6)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        cmp = ranklens.compare(qrels, {"bad": bad, "good": good}, ["ARP@2"], train=TRAIN,
                               baseline="bad", test="randomization")
        # bad: (4 + 1) / 2 rows each; good: (1 + 0) / 2
        assert cmp.pair("ARP@2", "good", "bad").difference == pytest.approx(0.5 - 2.5)
        with pytest.raises(ParameterError, match=r"Coverage@2 is catalogue-level"):
            ranklens.compare(qrels, {"bad": bad, "good": good}, ["Coverage@2", "ARP@2"],
                             train=TRAIN)
        results = ranklens.evaluate(qrels, {"bad": bad, "good": good}, ["Gini@2", "ARP@2"],
                                    train=TRAIN)
        assert [p.measure for p in ranklens.compare_results(results).pairs] == ["ARP@2"]
