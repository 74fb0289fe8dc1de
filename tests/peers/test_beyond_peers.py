"""Beyond-accuracy measures against their peers' definitions on random data.

RecTools 0.19 pins pandas < 3 (and pulls pydantic, implicit, ...), so it does not install
beside ranklens's pandas 3 and is no test dependency: its metrics run here when importable
(``pytest.importorskip``), and its formulas are always reproduced from its source
(``rectools/metrics/{novelty,popularity,catalog,diversity,serendipity}.py``, 0.19.0).
Microsoft Recommenders is too heavy to install for a test: its formulas are reproduced from
``recommenders/evaluation/python_evaluation.py`` (recommenders-team/recommenders), and
RecBole's and Elliot's from ``recbole/evaluator/metrics.py`` (RUCAIBox/RecBole) and
``elliot/evaluation/metrics/diversity/gini_index/gini_index.py`` (sisinflab/elliot). Each
reproduction keeps the library's own steps (its merges, sorts and divisions), so that a
difference in definition shows as a failure.
"""

from __future__ import annotations

import math
import warnings
from collections import Counter
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ranklens
from ranklens import RanklensWarning

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def recsys(draw: st.DrawFn, full: bool = False) -> dict[str, Any]:
    """Random recommendations, test and training interactions, a catalogue and features.

    Every recommended user has test interactions (RecTools averages over the users of the
    recommendations, ranklens over the users of the judgments). ``full``: every list holds
    at least k items and no user is recommended an item of its training history (Microsoft
    Recommenders refuses those; RecBole's lists always hold k items).
    """
    n_items = draw(st.integers(3, 14))
    items = [f"{n:03d}" for n in range(1, n_items + 1)]  # string order is numeric order
    k = draw(st.integers(2 if full else 1, 5))
    reco: dict[str, list[str]] = {}
    test: dict[str, list[str]] = {}
    train: list[tuple[str, str]] = []
    for u in range(draw(st.integers(1, 7))):
        user = f"u{u}"
        least = min(k, n_items - 1) if full else 1
        # full: one item at least left for the training history (Microsoft Recommenders
        # leaves users without one out; ranklens scores them)
        most = min(least + 3, n_items - 1) if full else least + 3
        listed = draw(st.lists(st.sampled_from(items), min_size=least, max_size=most,
                               unique=True))
        reco[user] = listed
        test[user] = draw(st.lists(st.sampled_from(items), min_size=1, max_size=3,
                                   unique=True))
        rest = [i for i in items if i not in listed] if full else items
        if rest:
            train += [(user, i) for i in draw(st.lists(st.sampled_from(rest), min_size=1,
                                                       max_size=4))]
    for t in range(draw(st.integers(1, 6))):
        train += [(f"t{t}", i) for i in draw(st.lists(st.sampled_from(items), min_size=1,
                                                      max_size=4))]
    sign = st.sampled_from([-2.0, -1.0, 1.0, 2.0])  # no zero vector: cosine is defined
    dense = {i: [draw(sign) for _ in range(3)] for i in items}
    binary = {i: [draw(st.sampled_from([0.0, 1.0])) for _ in range(4)] for i in items}
    if full:
        train = list(dict.fromkeys(train))  # Microsoft Recommenders: no duplicate rows
    return {"items": items, "k": min(k, n_items - 1) if full else k, "reco": reco,
            "test": test, "train": train, "dense": dense, "binary": binary}


def _evaluate(data: dict[str, Any], measures: list[str], **context: Any) -> ranklens.Result:
    run = {u: {i: float(len(listed) - r) for r, i in enumerate(listed)}
           for u, listed in data["reco"].items()}
    qrels = {u: dict.fromkeys(listed, 1) for u, listed in data["test"].items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        return ranklens.evaluate(qrels, run, measures, train=_train(data), **context)


def _train(data: dict[str, Any]) -> tuple[list[str], list[str]]:
    return [u for u, _ in data["train"]], [i for _, i in data["train"]]


def _frames(data: dict[str, Any]) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """RecTools' tables: recommendations (user_id, item_id, rank), test and training
    interactions (user_id, item_id)."""
    reco = pd.DataFrame([(u, i, r + 1) for u, listed in data["reco"].items()
                         for r, i in enumerate(listed)],
                        columns=["user_id", "item_id", "rank"])
    test = pd.DataFrame([(u, i) for u, listed in data["test"].items() for i in listed],
                        columns=["user_id", "item_id"])
    prev = pd.DataFrame(data["train"], columns=["user_id", "item_id"])
    return reco, test, prev


def _per_user(result: ranklens.Result, name: str) -> dict[str, float]:
    return dict(result.per_query(name))


def _same(ours: dict[str, float], theirs: pd.Series) -> None:
    theirs = theirs.dropna() if theirs.isna().all() else theirs
    assert set(ours) == {str(u) for u in theirs.index}
    for user, value in theirs.items():
        assert ours[str(user)] == pytest.approx(float(value), rel=1e-12, abs=1e-12), user


# -- RecTools, reproduced -------------------------------------------------------------------


def rectools_miuf(reco: pd.DataFrame, prev: pd.DataFrame, k: int) -> pd.Series:
    """MeanInvUserFreq.fit + calc_per_user_from_fitted (rectools/metrics/novelty.py)."""
    n_interacted_users = prev["user_id"].nunique()
    n_users_per_item = prev.groupby("item_id")["user_id"].nunique()
    recs = reco.loc[reco["rank"] <= k].copy()
    recs["n_users_per_item"] = recs["item_id"].map(n_users_per_item).fillna(1)
    recs["item_novelty"] = -np.log2(recs["n_users_per_item"] / n_interacted_users)
    return recs.groupby("user_id")["item_novelty"].agg("mean").reindex(
        reco["user_id"].unique())


def rectools_arp(reco: pd.DataFrame, prev: pd.DataFrame, k: int,
                 normalize: bool) -> pd.Series:
    """AvgRecPopularity.calc_per_user (rectools/metrics/popularity.py)."""
    popularity = prev["item_id"].value_counts(normalize=normalize)
    popularity.name = "popularity"
    prepared = reco.loc[reco["rank"] <= k].join(popularity, on="item_id", how="left")
    prepared["popularity"] = prepared["popularity"].fillna(0)
    return prepared.groupby("user_id")["popularity"].mean()


def rectools_serendipity(reco: pd.DataFrame, test: pd.DataFrame, prev: pd.DataFrame,
                         catalog: list[str], k: int) -> pd.Series:
    """Serendipity.fit + calc_per_user_from_fitted (rectools/metrics/serendipity.py)."""
    recs = pd.merge(reco.loc[reco["rank"] <= k], test, how="left", indicator=True)
    recs["is_relevant"] = np.where(recs["_merge"] == "both", 1, 0)
    n_items = len(catalog)
    counts = prev["item_id"].value_counts()
    ranks = counts.map(pd.Series(index=counts.unique(), data=np.arange(len(counts.unique())) + 1))
    recs["rank_pop"] = recs["item_id"].map(ranks)
    proba_user = (n_items + 1 - recs["rank"]) / n_items
    proba_any = np.where(recs["rank_pop"].notnull(), (n_items + 1 - recs["rank_pop"]) / n_items,
                         0.0)
    recs["serendipity"] = np.maximum(proba_user - proba_any, 0.0) * recs["is_relevant"]
    return recs.groupby("user_id")["serendipity"].agg("mean").reindex(
        reco["user_id"].unique())


def rectools_ild(reco: pd.DataFrame, features: dict[str, list[float]], k: int,
                 distance: str) -> pd.Series:
    """IntraListDiversity.fit + calc_per_user_from_fitted (rectools/metrics/diversity.py),
    with its PairwiseHammingDistanceCalculator, or 1 - cosine for dense features."""
    from itertools import combinations

    recs = reco.loc[reco["rank"] <= k]
    values: dict[str, float] = {}
    for user, group in recs.groupby("user_id", sort=False):
        listed = group["item_id"].tolist()
        dists = []
        for a, b in combinations(listed, 2):
            fa, fb = np.array(features[a]), np.array(features[b])
            if distance == "hamming":
                dists.append(float(np.sum(fa != fb)))
            else:
                dists.append(1 - float(fa @ fb / (np.linalg.norm(fa) * np.linalg.norm(fb))))
        values[str(user)] = float(np.mean(dists)) if dists else 0.0
    return pd.Series(values)


@SETTINGS
@given(data=recsys())
def test_rectools_reproduced(data: dict[str, Any]) -> None:
    reco, test, prev = _frames(data)
    k = data["k"]
    names = [f"Novelty(convention=rectools)@{k}", f"ARP(convention=rectools)@{k}",
             f"ARP(convention=rectools,normalize=true)@{k}",
             f"Serendipity(convention=rectools)@{k}", f"Coverage(convention=rectools)@{k}",
             f"ILD(metric=hamming)@{k}"]
    r = _evaluate(data, names, items=data["items"], item_features=data["binary"])
    _same(_per_user(r, names[0]), rectools_miuf(reco, prev, k))
    _same(_per_user(r, names[1]), rectools_arp(reco, prev, k, False))
    _same(_per_user(r, names[2]), rectools_arp(reco, prev, k, True))
    _same(_per_user(r, names[3]), rectools_serendipity(reco, test, prev, data["items"], k))
    # CatalogCoverage(normalize=True).calc: distinct items in the top k / catalogue size
    assert r[names[4]] == reco.loc[reco["rank"] <= k, "item_id"].nunique() / len(data["items"])
    _same(_per_user(r, names[5]), rectools_ild(reco, data["binary"], k, "hamming"))
    cosine = _evaluate(data, [f"ILD@{k}"], item_features=data["dense"])
    _same(_per_user(cosine, f"ILD@{k}"), rectools_ild(reco, data["dense"], k, "cosine"))


# -- RecTools itself, where it imports -------------------------------------------------------


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=recsys())
def test_rectools_itself(data: dict[str, Any]) -> None:
    metrics = pytest.importorskip("rectools.metrics")
    reco, test, prev = _frames(data)
    k = data["k"]
    names = [f"MeanInvUserFreq@{k}", f"AvgRecPopularity@{k}", f"Serendipity@{k}",
             f"CatalogCoverage@{k}", f"ILD(metric=hamming)@{k}"]
    r = _evaluate(data, names, items=data["items"], item_features=data["binary"],
                  convention="rectools")
    _same(_per_user(r, names[0]), metrics.MeanInvUserFreq(k=k).calc_per_user(reco, prev))
    _same(_per_user(r, names[1]), metrics.AvgRecPopularity(k=k).calc_per_user(reco, prev))
    _same(_per_user(r, names[2]), metrics.Serendipity(k=k).calc_per_user(
        reco, test, prev, np.array(data["items"], dtype=object)))
    assert r[names[3]] == metrics.CatalogCoverage(k=k, normalize=True).calc(
        reco, np.array(data["items"], dtype=object))
    # integer ids: under pandas 3 a string column's .values is no NumPy array, which
    # RecTools' distance calculator refuses
    features = pd.DataFrame.from_dict(data["binary"], orient="index")
    features.index = features.index.astype(int)
    calculator = metrics.PairwiseHammingDistanceCalculator(features)
    _same(_per_user(r, names[4]), metrics.IntraListDiversity(
        k=k, distance_calculator=calculator).calc_per_user(
            reco.assign(item_id=reco["item_id"].astype(int))))


# -- Microsoft Recommenders, reproduced ------------------------------------------------------


def ms_frames(data: dict[str, Any]) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """python_evaluation's tables: train_df and the top k as reco_df (userID, itemID,
    relevance from the test interactions), and item_feature_df (itemID, features)."""
    k = data["k"]
    rows = [(u, i, float(i in data["test"][u])) for u, listed in data["reco"].items()
            for i in listed[:k]]
    reco = pd.DataFrame(rows, columns=["userID", "itemID", "relevance"])
    train = pd.DataFrame(data["train"], columns=["userID", "itemID"])
    features = pd.DataFrame({"itemID": list(data["dense"]),
                             "features": [np.array(v) for v in data["dense"].values()]})
    return train, reco, features


def ms_novelty(train_df: pd.DataFrame, reco_df: pd.DataFrame) -> float:
    """historical_item_novelty + novelty."""
    n_records = train_df.shape[0]
    item_count = pd.DataFrame({"count": train_df.groupby(["itemID"]).size()}).reset_index()
    item_count["item_novelty"] = -np.log2(item_count["count"] / n_records)
    n_recommendations = reco_df.shape[0]
    reco_count = pd.DataFrame({"count": reco_df.groupby(["itemID"]).size()}).reset_index()
    merged = reco_count.merge(item_count[["itemID", "item_novelty"]], on="itemID")
    return float((merged["count"] * merged["item_novelty"]).sum() / n_recommendations)


def ms_item_similarity(features: pd.DataFrame) -> pd.DataFrame:
    """_get_item_feature_similarity: cosine of every item pair i1 <= i2."""
    df = features.merge(features, how="cross", suffixes=("1", "2"))
    df = df.rename(columns={"itemID1": "i1", "itemID2": "i2"})
    df = df[df["i1"] <= df["i2"]].reset_index(drop=True)
    df["sim"] = [float(a.dot(b)) / float(np.linalg.norm(a, 2) * np.linalg.norm(b, 2))
                 for a, b in zip(df["features1"], df["features2"], strict=True)]
    return df[["i1", "i2", "sim"]]


def ms_user_diversity(reco_df: pd.DataFrame, features: pd.DataFrame) -> pd.Series:
    """_get_pairwise_items + _get_intralist_similarity + user_diversity."""
    left = reco_df[["userID", "itemID"]].rename(columns={"itemID": "i1"})
    right = reco_df[["userID", "itemID"]].rename(columns={"itemID": "i2"})
    pairs = left.merge(right, on="userID")
    pairs = pairs[pairs["i1"] <= pairs["i2"]]
    sims = pairs.merge(ms_item_similarity(features), on=["i1", "i2"], how="left")
    sims["sim"] = sims["sim"].fillna(0)
    sims = sims.loc[sims["i1"] != sims["i2"]]
    return 1 - sims.groupby("userID")["sim"].mean()


def ms_user_serendipity(train_df: pd.DataFrame, reco_df: pd.DataFrame,
                        features: pd.DataFrame, relevance: bool) -> pd.Series:
    """user_item_serendipity + user_serendipity (relevance: col_relevance given, else 1)."""
    reco = reco_df.copy()
    if not relevance:
        reco["relevance"] = 1.0
    both = reco[["userID", "itemID"]].assign(reco=reco["itemID"]).merge(
        train_df.rename(columns={"itemID": "train"}), on="userID")
    both["i1"] = both[["reco", "train"]].min(axis=1)
    both["i2"] = both[["reco", "train"]].max(axis=1)
    both = both.merge(ms_item_similarity(features), on=["i1", "i2"], how="left")
    both["sim"] = both["sim"].fillna(0)
    avg = both.groupby(["userID", "itemID"])["sim"].mean().rename("avg").reset_index()
    scored = avg.merge(reco, on=["userID", "itemID"])
    scored["s"] = (1 - scored["avg"]) * scored["relevance"]
    return scored.groupby("userID")["s"].mean()


@SETTINGS
@given(data=recsys(full=True))
def test_microsoft_recommenders_reproduced(data: dict[str, Any]) -> None:
    train, reco, features = ms_frames(data)
    k = data["k"]
    names = [f"Novelty(convention=recommenders)@{k}", f"Coverage(convention=recommenders)@{k}",
             f"DistCoverage@{k}", f"ILS@{k}", f"ILD@{k}",
             f"Serendipity(convention=recommenders)@{k}", f"Unexpectedness@{k}"]
    r = _evaluate(data, names, item_features=data["dense"])
    # every list holds k items, so the mean over users is the mean over recommendations
    assert r[names[0]] == pytest.approx(ms_novelty(train, reco), rel=1e-12)
    assert r[names[1]] == reco["itemID"].nunique() / train["itemID"].nunique()
    p = reco.groupby("itemID").size() / reco.shape[0]
    assert r[names[2]] == pytest.approx(float(-(p * np.log2(p)).sum()), rel=1e-12, abs=1e-15)
    diversity = ms_user_diversity(reco, features)
    _same({u: 1 - v for u, v in _per_user(r, names[3]).items()}, diversity)
    _same(_per_user(r, names[4]), diversity)
    _same(_per_user(r, names[5]), ms_user_serendipity(train, reco, features, True))
    _same(_per_user(r, names[6]), ms_user_serendipity(train, reco, features, False))


# -- RecBole and Elliot, reproduced ----------------------------------------------------------


def recbole_gini(item_matrix: np.ndarray, num_items: int) -> float:
    """GiniIndex.get_gini."""
    item_count = dict(Counter(item_matrix.flatten()))
    sorted_count = np.array(sorted(item_count.values()))
    num_recommended_items = sorted_count.shape[0]
    total_num = item_matrix.shape[0] * item_matrix.shape[1]
    idx = np.arange(num_items - num_recommended_items + 1, num_items + 1)
    return float(np.sum((2 * idx - num_items - 1) * sorted_count) / total_num / num_items)


def recbole_entropy(item_matrix: np.ndarray) -> float:
    """ShannonEntropy.get_entropy."""
    item_count = dict(Counter(item_matrix.flatten()))
    total_num = item_matrix.shape[0] * item_matrix.shape[1]
    result = 0.0
    for cnt in item_count.values():
        p = cnt / total_num
        result += -p * np.log(p)
    return float(result / len(item_count))


def recbole_tail(item_matrix: np.ndarray, count_items: dict[int, int],
                 tail: float) -> float:
    """TailPercentage.get_tail + metric_info + topk_result at k."""
    if tail > 1:
        tail_items = [item for item, cnt in count_items.items() if cnt <= tail]
    else:
        ordered = sorted(count_items.items(), key=lambda kv: (kv[1], kv[0]))
        cut = max(int(len(ordered) * tail), 1)
        tail_items = [item for item, _ in ordered[:cut]]
    value = np.isin(item_matrix, tail_items).astype(float)
    return float((value.cumsum(axis=1) / np.arange(1, value.shape[1] + 1)).mean(axis=0)[-1])


def elliot_gini(lists: list[list[str]], num_items: int) -> float:
    """GiniIndex.eval (elliot/evaluation/metrics/diversity/gini_index/gini_index.py)."""
    item_count: dict[str, int] = {}
    free_norm = 0
    for listed in lists:
        free_norm += len(listed)
        for i in listed:
            item_count[i] = item_count.get(i, 0) + 1
    n_rec = len(item_count)
    gini = sum((2 * (j + (num_items - n_rec) + 1) - num_items - 1) * (cs / free_norm)
               for j, cs in enumerate(sorted(item_count.values())))
    return 1 - gini / (num_items - 1)


@SETTINGS
@given(data=recsys(full=True), tail=st.sampled_from([0.1, 0.3, 0.5, 1.0, 2.0, 3.0]))
def test_recbole_and_elliot_reproduced(data: dict[str, Any], tail: float) -> None:
    k = data["k"]
    # RecBole's internal ids: 1..n (0 pads), in the order of the zero-padded string ids
    matrix = np.array([[int(i) for i in listed[:k]] for listed in data["reco"].values()])
    counts = Counter(int(i) for _, i in data["train"])
    num_items = len(data["items"]) + 1  # RecBole counts its padding id
    names = [f"GiniIndex@{k}", f"ShannonEntropy@{k}", f"ItemCoverage@{k}",
             f"AveragePopularity@{k}", f"APLT(convention=recbole,tail={tail})@{k}",
             f"Gini(convention=elliot)@{k}"]
    r = _evaluate(data, names, items=data["items"])
    assert r[names[0]] == pytest.approx(recbole_gini(matrix, num_items), rel=1e-12, abs=1e-15)
    assert r[names[1]] == pytest.approx(recbole_entropy(matrix), rel=1e-12, abs=1e-15)
    assert r[names[2]] == np.unique(matrix).shape[0] / num_items
    popularity = np.vectorize(lambda i: counts.get(i, 0))(matrix).astype(float)
    assert r[names[3]] == pytest.approx(float(popularity.sum(axis=1).mean() / k), rel=1e-12)
    assert r[names[4]] == pytest.approx(recbole_tail(matrix, dict(counts), tail), abs=1e-12)
    lists = [listed[:k] for listed in data["reco"].values()]
    assert r[names[5]] == pytest.approx(elliot_gini(lists, len(data["items"])), rel=1e-12)
    assert not math.isnan(r[names[5]])


# -- Elliot, reproduced ----------------------------------------------------------------------


def elliot_popularity(train: list[tuple[str, str]], pop_ratio: float = 0.8
                      ) -> tuple[dict[str, int], set[str]]:
    """Popularity.get_pop_items and get_long_tail (elliot/evaluation/popularity_utils.py):
    distinct users per item; the short head the most popular items until their users reach
    pop_ratio of the user-item pairs (ties in Elliot's item order, here the sorted ids)."""
    train_dict: dict[str, set[str]] = {}
    for u, i in train:
        train_dict.setdefault(u, set()).add(i)
    pop = {i: sum(i in items for items in train_dict.values())
           for i in sorted({i for _, i in train})}
    ordered = dict(sorted(pop.items(), key=lambda kv: kv[1], reverse=True))
    limit = sum(len(v) for v in train_dict.values()) * pop_ratio
    head = []
    for i, p in ordered.items():
        head.append(i)
        limit -= p
        if limit <= 0:
            break
    return pop, {i for i in ordered if i not in set(head)}


def elliot_epc_efd(lists: dict[str, list[str]], test: dict[str, list[str]],
                   train: list[tuple[str, str]]) -> tuple[dict[str, float], dict[str, float]]:
    """EPC.eval_user_metric and EFD.eval_user_metric (elliot/evaluation/metrics/novelty)."""
    train_dict: dict[str, set[str]] = {}
    for u, i in train:
        train_dict.setdefault(u, set()).add(i)
    count: dict[str, int] = {}
    for items in train_dict.values():
        for i in items:
            count[i] = count.get(i, 0) + 1
    epc_nov = {i: 1 - v / len(train_dict) for i, v in count.items()}
    norm = sum(count.values())
    max_nov = -math.log(min(count.values()) / norm) / math.log(2)
    efd_nov = {i: -math.log(v / norm) / math.log(2) for i, v in count.items()}

    def user(listed: list[str], relevant: list[str], nov: dict[str, float],
             default: float) -> float:
        total, den = 0.0, 0.0
        for r, i in enumerate(listed):
            disc = 1 / math.log(r + 2) * math.log(2)
            total += (i in relevant) * disc * nov.get(i, default)
            den += disc
        return total / den if den > 0 else total

    return ({u: user(v, test[u], epc_nov, 1.0) for u, v in lists.items()},
            {u: user(v, test[u], efd_nov, max_nov) for u, v in lists.items()})


@SETTINGS
@given(data=recsys())
def test_elliot_reproduced(data: dict[str, Any]) -> None:
    k = data["k"]
    # Elliot recommends training items only: every item has a training user here
    data = dict(data, train=data["train"] + [("all", i) for i in data["items"]])
    pop, tail = elliot_popularity(data["train"])
    lists = {u: listed[:k] for u, listed in data["reco"].items()}
    names = [f"ARP(convention=elliot)@{k}", f"APLT@{k}", f"ACLT@{k}", f"EPC@{k}", f"EFD@{k}"]
    r = _evaluate(data, names)
    arp = {u: sum(pop[i] for i in v) / len(v) for u, v in lists.items()}  # ARP.__user_arp
    aplt = {u: len(set(v) & tail) / len(v) for u, v in lists.items()}  # APLT.__user_aplt
    aclt = {u: float(len(set(v) & tail)) for u, v in lists.items()}  # ACLT.__user_aclt
    epc, efd = elliot_epc_efd(lists, data["test"], data["train"])
    for name, theirs in zip(names, [arp, aplt, aclt, epc, efd], strict=True):
        _same(_per_user(r, name), pd.Series(theirs))


def elliot_pop_fairness(lists: dict[str, list[str]], test: dict[str, list[str]],
                        train: list[tuple[str, str]], k: int,
                        opportunity: bool) -> float:
    """PopRSP.eval and PopREO.eval (elliot/evaluation/metrics/bias/pop_rsp/pop_rsp.py,
    pop_reo/pop_reo.py), with Popularity's short head and long tail."""
    pop, long_tail = elliot_popularity(train)
    short_head = set(pop) - long_tail
    train_dict: dict[str, set[str]] = {}
    for u, i in train:
        train_dict.setdefault(u, set()).add(i)
    num, den = [], []
    for u, listed in lists.items():
        relevant = set(test[u])
        if opportunity:
            if not relevant:
                continue
            recommended = {i for i in listed[:k] if i in relevant}
            den.append([len((short_head & relevant) - train_dict.get(u, set())),
                        len((long_tail & relevant) - train_dict.get(u, set()))])
        else:
            recommended = set(listed[:k])
            den.append([len(short_head - train_dict.get(u, set())),
                        len(long_tail - train_dict.get(u, set()))])
        num.append([len(recommended & short_head), len(recommended & long_tail)])
    with np.errstate(divide="ignore", invalid="ignore"):
        pr = np.sum(np.array(num), axis=0) / np.sum(np.array(den), axis=0)
        return float(np.std(pr) / np.mean(pr))


@SETTINGS
@given(data=recsys())
def test_elliot_popularity_fairness_reproduced(data: dict[str, Any]) -> None:
    k = data["k"]
    data = dict(data, train=data["train"] + [("all", i) for i in data["items"]])
    names = [f"PopRSP@{k}", f"PopREO@{k}"]
    r = _evaluate(data, names)
    for name, opportunity in zip(names, [False, True], strict=True):
        theirs = elliot_pop_fairness(data["reco"], data["test"], data["train"], k, opportunity)
        if math.isnan(theirs) or math.isinf(theirs):
            assert math.isnan(r[name]), name
        else:
            assert r[name] == pytest.approx(theirs, rel=1e-12, abs=1e-12), name
