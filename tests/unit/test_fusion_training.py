"""Supervised methods through ``ranklens.fuse``: the training arrays, the leakage rule
(cross-fitting over the judged queries unless ``allow_leakage``), and its errors.

The no-leakage tests change a judged query's own judgments and check that its fused list
does not move (while it does with leakage allowed): they fail if any model that fuses a query
has seen that query's judgments.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import ranklens
from ranklens import ParameterError
from ranklens._surfaces.fusion.supervised import SUPERVISED
from ranklens._surfaces.fusion.training import cross_fit_folds

QUERIES = [f"q{i}" for i in range(8)]
PARAMS = {"probfuse": {"n_segments": 3}, "slidefuse": {"w": 1}}


def collection(seed: int = 0) -> tuple[list[dict], dict]:
    rng = np.random.default_rng(seed)
    docs = [f"d{i}" for i in range(12)]
    runs = []
    for _ in range(3):
        run = {}
        for q in [*QUERIES, "new1", "new2"]:
            chosen = rng.choice(docs, int(rng.integers(3, 10)), replace=False)
            run[q] = {str(d): float(s) for d, s in zip(chosen, rng.permutation(chosen.size),
                                                          strict=True)}
        runs.append(run)
    qrels = {q: {str(d): int(rng.integers(0, 3)) for d in rng.choice(docs, 6, replace=False)}
             for q in QUERIES}
    return runs, qrels


def scores(run: ranklens.Run, query: str) -> dict[str, float]:
    frame = run.frame.filter(run.frame["query_id"] == query)
    return dict(zip(frame["doc_id"].to_list(), frame["score"].to_list(), strict=True))


def flipped(qrels: dict, query: str) -> dict:
    """``qrels`` with ``query``'s grades turned over (relevant <-> not relevant)."""
    return {**qrels, query: {d: 0 if g >= 1 else 2 for d, g in qrels[query].items()}}


@pytest.mark.parametrize("method", sorted(SUPERVISED))
def test_a_judged_query_is_never_fused_with_its_own_judgments(method: str) -> None:
    runs, qrels = collection()
    params = PARAMS.get(method, {})
    moved = 0
    for q in QUERIES:
        changed = flipped(qrels, q)
        held = ranklens.fuse(runs, method, train=qrels, **params)
        held_changed = ranklens.fuse(runs, method, train=changed, **params)
        assert scores(held, q) == scores(held_changed, q), q
        leaky = ranklens.fuse(runs, method, train=qrels, allow_leakage=True, **params)
        leaky_changed = ranklens.fuse(runs, method, train=changed, allow_leakage=True,
                                      **params)
        moved += scores(leaky, q) != scores(leaky_changed, q)
    assert moved > 0  # the check above can fail: its own judgments do move a leaky list


def kernel_scores(method: str, runs: list[dict], qrels: dict, learn_on: list[str],
                  fuse: list[str], params: dict) -> dict[str, dict[str, float]]:
    """The kernel learned on ``learn_on`` and fused on ``fuse``, its arrays built here
    (ranklens's order: score descending, distinct scores), per query and doc."""
    kernel = SUPERVISED[method]

    def arrays(queries: list[str]) -> tuple[list, dict]:
        pairs = [(q, d) for q in queries for d in sorted(set().union(*(r[q] for r in runs)))]
        rank = np.zeros((len(pairs), len(runs)), dtype=np.int64)
        length = np.zeros_like(rank)
        score = np.full(rank.shape, np.nan)
        for r, run in enumerate(runs):
            for i, (q, d) in enumerate(pairs):
                order = sorted(run[q], key=lambda x, q=q: -run[q][x])  # type: ignore[misc]
                length[i, r] = len(order)
                if d in run[q]:
                    rank[i, r] = order.index(d) + 1
                    score[i, r] = run[q][d]
        query = np.array([queries.index(q) for q, _ in pairs], dtype=np.int64)
        grade = np.array([qrels.get(q, {}).get(d, np.nan) for q, d in pairs], dtype=float)
        relevant = np.array([sum(g >= 1 for g in qrels.get(q, {}).values()) for q, _ in pairs])
        return [query, np.arange(len(pairs)), rank, length, score], {
            "pairs": pairs, "grade": grade, "relevant": relevant}

    a, extra = arrays(learn_on)
    more = {"relevant": extra["relevant"]} if kernel.needs_relevant else {}
    model = kernel.learn(*a, extra["grade"], **more, **params)
    b, info = arrays(fuse)
    out: dict[str, dict[str, float]] = {}
    for (q, d), s in zip(info["pairs"], kernel.fuse(model, *b).tolist(), strict=True):
        out.setdefault(q, {})[d] = s
    return out


@pytest.mark.parametrize("method", sorted(SUPERVISED))
def test_the_folds_and_the_unjudged_queries_as_documented(method: str) -> None:
    runs, qrels = collection(1)
    params = PARAMS.get(method, {})
    fused = ranklens.fuse(runs, method, train=qrels, norm="none", folds=3, seed=4, **params)
    # folds as documented: sorted judged ids, default_rng(seed).permutation, array_split
    parts = np.array_split(np.random.default_rng(4).permutation(np.array(sorted(QUERIES))), 3)
    assert [p.tolist() for p in cross_fit_folds(ranklens.load_qrels(qrels).frame["query_id"]
                                                .unique(), 3, 4)] == [p.tolist() for p in parts]
    for part in parts:
        others = [q for q in QUERIES if q not in part]
        want = kernel_scores(method, runs, qrels, others, sorted(part.tolist()), params)
        for q in part.tolist():
            assert scores(fused, q) == pytest.approx(want[q], rel=1e-12), q
    want = kernel_scores(method, runs, qrels, QUERIES, ["new1", "new2"], params)
    for q in ("new1", "new2"):  # unjudged: the model of every judged query
        assert scores(fused, q) == pytest.approx(want[q], rel=1e-12), q
    leaky = ranklens.fuse(runs, method, train=qrels, norm="none", allow_leakage=True,
                          **params)
    want = kernel_scores(method, runs, qrels, QUERIES, QUERIES, params)
    for q in QUERIES:
        assert scores(leaky, q) == pytest.approx(want[q], rel=1e-12), q


def test_the_seed_decides_the_folds_and_nothing_else() -> None:
    runs, qrels = collection(2)
    a = ranklens.fuse(runs, "posfuse", train=qrels, seed=1)
    b = ranklens.fuse(runs, "posfuse", train=qrels, seed=1)
    assert a.frame.equals(b.frame)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"method": "probfuse"}, "'probfuse' needs the parameter 'n_segments'"),
    ({"method": "slidefuse"}, "'slidefuse' needs the parameter 'w'"),
    ({"method": "probfuse", "n_segments": 0}, "the 'n_segments' parameter of 'probfuse' must"),
    ({"method": "posfuse", "folds": 9}, "the 'folds' parameter of 'posfuse' must be at most "
                                        "the number of training queries the runs have (8)"),
    ({"method": "posfuse", "folds": 1}, "the 'folds' parameter of 'posfuse' must be an "
                                        "integer >= 2"),
    ({"method": "posfuse", "allow_leakage": 1}, "'allow_leakage' parameter of 'posfuse' must "
                                                "be True or False"),
    ({"method": "posfuse", "train": {"zz": {"a": 1}}}, "judge none of the 10"),
    ({"method": "posfuse", "train": None}, "'posfuse' is supervised: give its training"),
    ({"method": "rrf"}, "the 'train' option is for the supervised fusion methods"),
])
def test_bad_supervised_options_name_the_option(kwargs: dict, message: str) -> None:
    runs, qrels = collection()
    kwargs = {"train": qrels, **kwargs}
    with pytest.raises(ParameterError) as err:
        ranklens.fuse(runs, **kwargs)
    assert message in str(err.value)


def test_a_document_judged_twice_in_train_is_refused() -> None:
    runs, _ = collection()
    train = ranklens.Qrels(pl.DataFrame(
        {"query_id": ["q1", "q1"], "doc_id": ["d1", "d1"], "relevance": [1.0, 0.0]}))
    with pytest.raises(ranklens.InputError, match="judge the document 'd1' more than once for "
                                                  "the query 'q1' \\(2 rows"):
        ranklens.fuse(runs, "posfuse", train=train, allow_leakage=True)


def test_unretrieved_relevant_counts_are_judgments_as_any_other() -> None:
    # MAPFuse divides by every relevant judgment: 3 unretrieved ones as rows or as a count
    runs, qrels = collection()
    rows = {q: dict(g) for q, g in qrels.items()}
    rows["q1"].update({"zz1": 1, "zz2": 2, "zz3": 1})
    frame = pl.DataFrame([(q, d, float(g)) for q, docs in qrels.items() for d, g in docs.items()],
                         schema=["query_id", "doc_id", "relevance"], orient="row")
    counted = ranklens.Qrels(frame, unretrieved=pl.DataFrame(
        {"query_id": ["q1", "q1"], "relevance": [1.0, 2.0], "count": [2, 1]}))
    as_rows = ranklens.fuse(runs, "mapfuse", train=rows, allow_leakage=True)
    as_count = ranklens.fuse(runs, "mapfuse", train=counted, allow_leakage=True)
    plain = ranklens.fuse(runs, "mapfuse", train=qrels, allow_leakage=True)
    assert as_rows.frame.equals(as_count.frame)
    assert not as_rows.frame.equals(plain.frame)
