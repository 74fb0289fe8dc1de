"""The supervised fusion kernels on toy cases worked by hand from each paper's formula.

Each case's expected values are computed in its comments from the definitions in the
method's paper (and ranx's conventions where the module says it follows ranx); none is copied
from the kernels' output. tests/peers/test_fusion_supervised_ranx.py compares the kernels
with ranx on random data.
"""

from __future__ import annotations

import doctest
import importlib
import math
from typing import Any

import numpy as np
import pytest

from ranklens import ParameterError
from ranklens._surfaces.fusion.supervised import SUPERVISED, bayesfuse, mapfuse, segfuse

NAN = math.nan
Lists = dict[str, list[str]]


def table(runs: list[Lists], grades: dict[str, dict[str, float]] | None = None,
          scores: list[dict[str, dict[str, float]]] | None = None) -> dict[str, Any]:
    """The kernels' arrays for runs given as ordered lists (first = rank 1)."""
    queries = sorted(set().union(*runs))
    pairs = [(q, d) for q in queries for d in sorted(set().union(*(r.get(q, []) for r in runs)))]
    rank = np.zeros((len(pairs), len(runs)), dtype=np.int64)
    length = np.zeros_like(rank)
    score = np.full(rank.shape, NAN)
    for r, run in enumerate(runs):
        for i, (q, d) in enumerate(pairs):
            if q in run:
                length[i, r] = len(run[q])
                if d in run[q]:
                    rank[i, r] = run[q].index(d) + 1
                    score[i, r] = scores[r][q][d] if scores else 0.0
    grades = grades or {}
    return {
        "query": np.array([queries.index(q) for q, _ in pairs], dtype=np.int64),
        "doc": np.arange(len(pairs), dtype=np.int64), "rank": rank, "length": length,
        "score": score, "pairs": pairs,
        "grade": np.array([grades.get(q, {}).get(d, NAN) for q, d in pairs]),
    }


def learn(method: str, t: dict[str, Any], **params: Any) -> Any:
    return SUPERVISED[method].learn(t["query"], t["doc"], t["rank"], t["length"], t["score"],
                                    t["grade"], **params)


def fused(method: str, model: Any, t: dict[str, Any]) -> dict[str, float]:
    out = SUPERVISED[method].fuse(model, t["query"], t["doc"], t["rank"], t["length"],
                                  t["score"])
    return {d: s for (_, d), s in zip(t["pairs"], out.tolist(), strict=True)}


def close(got: dict[str, float], want: dict[str, float]) -> None:
    assert got.keys() == want.keys()
    for d in want:
        assert got[d] == pytest.approx(want[d], rel=1e-12, abs=1e-15), d


# -- ProbFuse (Lillis et al., SIGIR 2006) -----------------------------------------------------

def test_probfuse_segments_probabilities_and_scores() -> None:
    # x = 2. Run A, t1: [a b c d], segments of ceil(4/2) = 2: {a, b} has a (b unjudged counts
    # as not relevant): 1/2; {c, d} has d: 1/2. t2: [e f g], segments {e, f}: 0/2, {g}: 1/1.
    # P_A = ((1/2 + 0) / 2, (1/2 + 1) / 2) = (0.25, 0.75).
    # Run B answers t1 only: [d a], segments of 1: {d} 1/1, {a} 1/1; P_B = (1, 1) over its
    # one training query (t2, which B has no list for, is not counted).
    train = table([{"t1": list("abcd"), "t2": list("efg")}, {"t1": list("da")}],
                  {"t1": {"a": 1, "c": 0, "d": 2}, "t2": {"e": 0, "g": 1}})
    model = learn("probfuse", train, n_segments=2)
    assert model.probs.tolist() == [[0.25, 0.75], [1.0, 1.0]]
    # fusing: A [x y z] (segments of 2): x, y in segment 1 -> 0.25 / 1, z in segment 2 ->
    # 0.75 / 2; B [z w] (segments of 1): z -> 1 / 1, w -> 1 / 2. CombSUM over the runs.
    test = table([{"q": list("xyz")}, {"q": list("zw")}])
    close(fused("probfuse", model, test), {"x": 0.25, "y": 0.25, "z": 0.375 + 1.0, "w": 0.5})


def test_probfuse_more_segments_than_documents_gives_one_per_position() -> None:
    # x = 5 on a list of 2: segments of ceil(2/5) = 1; segments 3..5 are empty (add 0).
    train = table([{"t": list("ab")}], {"t": {"b": 1}})
    model = learn("probfuse", train, n_segments=5)
    assert model.probs.tolist() == [[0.0, 1.0, 0.0, 0.0, 0.0]]


# -- SegFuse (Shokouhi, ECIR 2007) ------------------------------------------------------------

def test_segfuse_segments_follow_ranx_bounds() -> None:
    assert segfuse.BOUNDS.tolist() == [0, 5, 15, 35, 75, 155, 315, 635, 1275, 2555, 5115]


def test_segfuse_probabilities_and_scores() -> None:
    docs = [f"d{i:02d}" for i in range(20)]
    # t1: 20 documents, relevant at 0-based positions 0, 2, 7, 16. Segment [0, 5): 2/5;
    # [5, 15): 1/10; [15, 35): 1/20 (nominal size, though the list ends at 20).
    # t2: 3 documents, relevant at position 1: [0, 5): 1/5.
    # P = ((2/5 + 1/5) / 2, (1/10 + 0) / 2, (1/20 + 0) / 2) = (0.3, 0.05, 0.025).
    grades = {"t1": {docs[i]: 1 for i in (0, 2, 7, 16)}, "t2": {"e1": 1, "e0": 0}}
    train = table([{"t1": docs, "t2": ["e0", "e1", "e2"]}], grades)
    model = learn("segfuse", train)
    assert model.probs[0, :4].tolist() == pytest.approx([0.3, 0.05, 0.025, 0.0], rel=1e-12)
    # fusing a 17-document list: P_k x (normalised score + 1). Position 16 is in ranx's third
    # segment [15, 35) (the paper's sizes 5, 15, 35 would put it in the second, [5, 20)).
    test_docs = [f"x{i:02d}" for i in range(17)]
    scores = {"q": {d: 0.0 for d in test_docs} | {"x00": 1.0, "x05": 0.5}}
    test = table([{"q": test_docs}], scores=[scores])
    got = fused("segfuse", model, test)
    assert got["x00"] == pytest.approx(0.3 * 2.0, rel=1e-12)
    assert got["x05"] == pytest.approx(0.05 * 1.5, rel=1e-12)
    assert got["x16"] == pytest.approx(0.025 * 1.0, rel=1e-12)


# -- SlideFuse (Lillis et al., ECIR 2008) and PosFuse (Lillis et al., SIGIR 2010) --------------

def _position_training() -> dict[str, Any]:
    # t1: [a b c d] relevant a, c, d; t2: [e f] relevant f. Per position (lists reaching it):
    # P(0) = (1 + 0)/2, P(1) = (0 + 1)/2, P(2) = 1/1, P(3) = 1/1 -> (0.5, 0.5, 1, 1).
    return table([{"t1": list("abcd"), "t2": list("ef")}],
                 {"t1": {"a": 1, "b": 0, "c": 1, "d": 1}, "t2": {"e": 0, "f": 1}})


def test_posfuse_probability_at_the_position() -> None:
    model = learn("posfuse", _position_training())
    assert model.probs.tolist() == [[0.5, 0.5, 1.0, 1.0]]
    # positions past the longest training list (4) have probability 0
    test = table([{"q": list("uvwxyz")}])
    close(fused("posfuse", model, test),
          {"u": 0.5, "v": 0.5, "w": 1.0, "x": 1.0, "y": 0.0, "z": 0.0})


def test_slidefuse_window_means() -> None:
    model = learn("slidefuse", _position_training(), w=1)
    # w = 1 on a list of 6: windows [0,1], [0,2], [1,3], [2,4], [3,5], [4,5], positions 4
    # and 5 past the table counting as 0 in the mean.
    test = table([{"q": list("uvwxyz")}])
    close(fused("slidefuse", model, test),
          {"u": 1.0 / 2, "v": 2.0 / 3, "w": 2.5 / 3, "x": 2.0 / 3, "y": 1.0 / 3, "z": 0.0})
    # the window is clipped to the fused list: a list of 2 has windows [0,1] and [0,1]
    close(fused("slidefuse", model, table([{"q": list("uv")}])), {"u": 0.5, "v": 0.5})


def test_slidefuse_with_no_window_is_posfuse() -> None:
    train, test = _position_training(), table([{"q": list("uvwxyz")}])
    close(fused("slidefuse", learn("slidefuse", train, w=0), test),
          fused("posfuse", learn("posfuse", train), test))


def test_slidefuse_window_sums_stay_exact_on_deep_tables() -> None:
    # 20,000 positions, each relevant in 1 of the 3 training lists (probability 1/3), then
    # windows of one position at the end: every mean is 1/3 to the last bit, which a float64
    # prefix sum (difference of two sums near 6,667) would not give.
    depth = 20_000
    query = np.repeat(np.arange(3), depth)
    rank = np.tile(np.arange(1, depth + 1), 3)[:, None]
    length = np.full((3 * depth, 1), depth)
    grade = np.where(query == 0, 1.0, NAN)
    model = SUPERVISED["slidefuse"].learn(query, np.arange(3 * depth), rank, length,
                                          np.zeros((3 * depth, 1)), grade, w=0)
    out = SUPERVISED["slidefuse"].fuse(model, query[:depth], np.arange(depth), rank[:depth],
                                       length[:depth], np.zeros((depth, 1)))
    assert np.all(out == 1 / 3)


# -- BayesFuse (Aslam & Montague, SIGIR 2001) ------------------------------------------------

def test_bayesfuse_log_odds_and_scores() -> None:
    a1, a2 = [f"a{i}" for i in range(6)], [f"b{i}" for i in range(5)]
    # Run A, t1: 6 docs relevant at 0, 1, 5; t2: 5 docs all relevant.
    # band [0, 5): mean of 2/5 and 5/5 = 0.7 -> log(0.7 / 0.3); band [5, 10): mean of 1/5
    # and 0/5 = 0.1 -> log(0.1 / 0.9); later bands: mean 0 -> 0.001 -> log(0.001 / 0.999).
    # Run B answers with its first doc only, always relevant: 1/5 -> log(0.2 / 0.8).
    # Run C answers with 5 relevant docs: mean 1 -> complement 0 -> 0.001: log(1 / 0.001).
    grades = {"t1": {a1[0]: 1, a1[1]: 1, a1[5]: 1}, "t2": dict.fromkeys(a2, 1)}
    train = table([{"t1": a1, "t2": a2}, {"t1": a1[:1], "t2": a2[:1]}, {"t2": a2}], grades)
    model = learn("bayesfuse", train)
    floor = math.log(0.001 / 0.999)
    assert model.log_odds[0, :3].tolist() == pytest.approx(
        [math.log(0.7 / 0.3), math.log(0.1 / 0.9), floor], rel=1e-12)
    assert model.log_odds[1, 0] == pytest.approx(math.log(0.2 / 0.8), rel=1e-12)
    assert model.log_odds[2, 0] == pytest.approx(math.log(1 / 0.001), rel=1e-12)
    # fusing: x at A 1 and B 1 (C lacks it: the floor); y at A 7 only; a run without the
    # document adds log(0.001/0.999).
    test = table([{"q": ["x"] + [f"f{i}" for i in range(5)] + ["y"]}, {"q": ["x"]}, {"q": ["z"]}])
    got = fused("bayesfuse", model, test)
    assert got["x"] == pytest.approx(math.log(0.7 / 0.3) + math.log(0.2 / 0.8) + floor,
                                     rel=1e-12)
    assert got["y"] == pytest.approx(math.log(0.1 / 0.9) + 2 * floor, rel=1e-12)
    assert got["z"] == pytest.approx(2 * floor + math.log(1 / 0.001), rel=1e-12)


def test_bayesfuse_positions_past_1000_get_the_floor() -> None:
    model = bayesfuse.BayesFuseModel(log_odds=np.zeros((1, 9)))
    docs = [f"d{i:04d}" for i in range(1002)]
    got = fused("bayesfuse", model, table([{"q": docs}]))
    assert got["d0999"] == 0.0  # the last band, [500, 1000)
    assert got["d1000"] == got["d1001"] == bayesfuse.FLOOR


# -- MAPFuse (Lillis et al., SIGIR 2010) -----------------------------------------------------

def test_mapfuse_map_and_scores() -> None:
    # t1 judges b, d, e relevant (e retrieved by no run): |Rel| = 3. t2 has no relevant doc.
    # A: t1 [a b c d]: AP = (1/2 + 2/4) / 3 = 1/3; t2 [f g]: AP 0. MAP_A = 1/6.
    # B: t1 [d b]: AP = (1/1 + 2/2) / 3 = 2/3; t2 [g]: 0. MAP_B = 1/3.
    grades = {"t1": {"b": 1, "d": 2, "e": 1, "a": 0}, "t2": {"f": 0}}
    train = table([{"t1": list("abcd"), "t2": list("fg")}, {"t1": list("db"), "t2": ["g"]}],
                  grades)
    relevant = np.where(train["query"] == 0, 3, 0)
    model = learn("mapfuse", train, relevant=relevant)
    assert model.map.tolist() == pytest.approx([1 / 6, 1 / 3], rel=1e-12)
    # fusing: MAP_m / rank: x at A 1, B 2 -> 1/6 + 1/6; y at A 3 -> 1/18.
    test = table([{"q": ["x", "w", "y"]}, {"q": ["v", "x"]}])
    close(fused("mapfuse", model, test),
          {"x": 1 / 3, "w": 1 / 12, "y": 1 / 18, "v": 1 / 3})


def test_mapfuse_needs_the_count_of_relevant_judgments() -> None:
    assert SUPERVISED["mapfuse"].needs_relevant
    assert not any(k.needs_relevant for name, k in SUPERVISED.items() if name != "mapfuse")
    with pytest.raises(TypeError):
        learn("mapfuse", _position_training())


# -- every method -----------------------------------------------------------------------------

PARAMS: dict[str, dict[str, int]] = {"probfuse": {"n_segments": 3}, "slidefuse": {"w": 2}}


def _random(seed: int, n_queries: int) -> tuple[dict[str, Any], np.ndarray]:
    rng = np.random.default_rng(seed)
    runs: list[Lists] = []
    for _ in range(3):
        run = {}
        for q in range(n_queries):
            if rng.random() < 0.9:
                docs = rng.choice(40, int(rng.integers(1, 30)), replace=False)
                run[f"q{q}"] = [f"d{d:02d}" for d in docs]
        runs.append(run)
    queries = sorted(set().union(*runs))
    grades = {q: {f"d{d:02d}": float(rng.integers(0, 3)) for d in rng.choice(40, 15)}
              for q in queries}
    scores = [{q: {d: float(rng.random()) for d in docs} for q, docs in run.items()}
              for run in runs]
    t = table(runs, grades, scores)
    relevant = np.array([sum(g >= 1 for g in grades[q].values()) for q, _ in t["pairs"]])
    return t, relevant


def _learned(method: str, seed: int = 1) -> Any:
    t, relevant = _random(seed, 8)
    extra = {"relevant": relevant} if SUPERVISED[method].needs_relevant else {}
    return learn(method, t, **extra, **PARAMS.get(method, {}))


def test_the_registry_has_ranx_supervised_methods() -> None:
    assert sorted(SUPERVISED) == ["bayesfuse", "mapfuse", "posfuse", "probfuse", "segfuse",
                                  "slidefuse"]
    for name, kernel in SUPERVISED.items():
        assert kernel.name == name
        assert "rel" in [p.name for p in kernel.params]


@pytest.mark.parametrize("method", sorted(SUPERVISED))
def test_each_query_fuses_as_if_alone(method: str) -> None:
    """Vectorised over queries: fusing all rows equals fusing each query's rows alone."""
    model = _learned(method)
    t, _ = _random(2, 6)
    whole = SUPERVISED[method].fuse(model, t["query"], t["doc"], t["rank"], t["length"],
                                    t["score"])
    for q in np.unique(t["query"]):
        keep = t["query"] == q
        part = SUPERVISED[method].fuse(model, t["query"][keep], t["doc"][keep],
                                       t["rank"][keep], t["length"][keep], t["score"][keep])
        assert part.tolist() == whole[keep].tolist()


@pytest.mark.parametrize("method", sorted(SUPERVISED))
def test_unjudged_counts_as_not_relevant(method: str) -> None:
    t, relevant = _random(3, 8)
    zero = dict(t, grade=np.where(np.isnan(t["grade"]), 0.0, t["grade"]))
    extra = {"relevant": relevant} if SUPERVISED[method].needs_relevant else {}
    a = learn(method, t, **extra, **PARAMS.get(method, {}))
    b = learn(method, zero, **extra, **PARAMS.get(method, {}))
    assert repr(a) == repr(b)


@pytest.mark.parametrize("method", sorted(SUPERVISED))
def test_rel_raises_the_bar(method: str) -> None:
    # with rel=3 no judged grade (0..2) is relevant: every learned value is the "nothing
    # relevant" one
    t, relevant = _random(4, 8)
    extra = {"relevant": np.zeros_like(relevant)} if SUPERVISED[method].needs_relevant else {}
    model = learn(method, t, rel=3, **extra, **PARAMS.get(method, {}))
    table_ = next(v for v in vars(model).values() if isinstance(v, np.ndarray))
    nothing = bayesfuse.FLOOR if method == "bayesfuse" else 0.0
    assert np.all(table_ == nothing)


@pytest.mark.parametrize("method", sorted(SUPERVISED))
def test_models_are_frozen_and_read_only(method: str) -> None:
    model = _learned(method)
    text = repr(model)
    assert text.startswith(type(model).__name__ + "(") and len(text) < 2000
    table_ = next(v for v in vars(model).values() if isinstance(v, np.ndarray))
    with pytest.raises(ValueError):
        table_[...] = 0
    with pytest.raises(AttributeError):
        model.x = 1  # type: ignore[attr-defined]


def test_a_missing_required_parameter_is_named() -> None:
    t, _ = _random(5, 3)
    with pytest.raises(ParameterError, match="the 'n_segments' option must be given to "
                                             "probfuse"):
        learn("probfuse", t)
    with pytest.raises(ParameterError, match="the 'w' option must be given to slidefuse"):
        learn("slidefuse", t)


@pytest.mark.parametrize(("method", "params", "message"), [
    ("probfuse", {"n_segments": 0}, "the 'n_segments' option must be a positive integer; got 0"),
    ("probfuse", {"n_segments": 2.5},
     "the 'n_segments' option must be a positive integer; got 2.5"),
    ("slidefuse", {"w": -1}, "the 'w' option must be an integer >= 0; got -1"),
    ("posfuse", {"rel": -1}, "the 'rel' option must be an integer >= 0; got -1"),
    ("segfuse", {"w": 3}, "the 'w' option is not a parameter of segfuse; it takes rel"),
])
def test_bad_parameters_are_named(method: str, params: dict[str, Any], message: str) -> None:
    t, _ = _random(5, 3)
    with pytest.raises(ParameterError, match=message.replace(".", r"\.")):
        learn(method, t, **params)


@pytest.mark.parametrize("module", ["_common", "_positions", "bayesfuse", "mapfuse",
                                    "posfuse", "probfuse", "segfuse", "slidefuse"])
def test_doctests(module: str) -> None:
    failed, tried = doctest.testmod(
        importlib.import_module(f"ranklens._surfaces.fusion.supervised.{module}"))
    assert tried > 0 and failed == 0


def test_the_modules_are_documented() -> None:
    for name in ("bayesfuse", "mapfuse", "posfuse", "probfuse", "segfuse", "slidefuse"):
        doc = importlib.import_module(f"ranklens._surfaces.fusion.supervised.{name}").__doc__ or ""
        assert "doi:" in doc and ".. math::" in doc, name
    assert mapfuse.__doc__ is not None


@pytest.mark.parametrize("method", sorted(SUPERVISED))
def test_fusing_other_runs_than_learned_is_named(method: str) -> None:
    model = _learned(method)  # three runs
    t = table([{"q": list("ab")}, {"q": list("ba")}])
    with pytest.raises(ParameterError, match=f"the 'runs' option must be the 3 runs {method} "
                                             "learned from, in the same order; got 2 runs"):
        fused(method, model, t)


@pytest.mark.parametrize("method", sorted(SUPERVISED))
def test_order_of_rows_and_queries_does_not_matter(method: str) -> None:
    """Rows only need to be grouped by query: any order within and between the groups."""
    t, relevant = _random(6, 8)
    rng = np.random.default_rng(0)
    groups = rng.permutation(np.unique(t["query"]))
    order = np.concatenate([rng.permutation(np.flatnonzero(t["query"] == q)) for q in groups])
    shuffled = {k: (v[order] if isinstance(v, np.ndarray) else v) for k, v in t.items()}
    needs = SUPERVISED[method].needs_relevant
    a = learn(method, t, **({"relevant": relevant} if needs else {}), **PARAMS.get(method, {}))
    b = learn(method, shuffled, **({"relevant": relevant[order]} if needs else {}),
              **PARAMS.get(method, {}))
    for name, value in vars(a).items():
        assert np.allclose(getattr(b, name), value, rtol=1e-12, atol=0), name
    fuse = SUPERVISED[method].fuse
    whole = fuse(a, t["query"], t["doc"], t["rank"], t["length"], t["score"])
    moved = fuse(a, *(shuffled[k] for k in ("query", "doc", "rank", "length", "score")))
    assert moved.tolist() == whole[order].tolist()
