"""The RAG frameworks' retrieval measures (issue 40, item 3; docs/rag-measures.md).

Each measure is checked against a direct transcription of the original's arithmetic
(ragas, deepeval, llama_index, open-rag-eval, as /work/shared/research/rag.md quotes them)
on random rankings, bit for bit, and on the worked examples of rag.md; every edge case of
rag.md's tables is a test. tests/slow/test_rag_oracles.py runs the originals themselves
where a venv holds them.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import polars as pl
import pytest

import ranklens
from ranklens import MeasureError, Run, parse_measure, parse_measures
from ranklens._surfaces.rag_strings import MAX_CHARS, levenshtein_similarity

# -- the originals' arithmetic, transcribed (ids compared as given; duplicates refused) --


def ragas_id_precision(ret: list[str], ref: set[str]) -> float:
    return math.nan if not ret else len(set(ret) & ref) / len(set(ret))


def ragas_id_recall(ret: list[str], ref: set[str]) -> float:
    return math.nan if not ref else len(ref & set(ret)) / len(ref)


def ragas_context_precision(v: list[int]) -> float:
    num = sum((sum(v[: i + 1]) / (i + 1)) * v[i] for i in range(len(v)))
    return num / (sum(v) + 1e-10)


def deepeval_precision(v: list[int], strict: bool = False) -> float:
    hits, total = 0, 0.0
    for k, rel in enumerate(v, start=1):
        if rel:
            hits += 1
            total += hits / k * rel
    score = total / hits if hits else 0
    return 0 if strict and score < 1 else score


def deepeval_recall(ret: list[str], ref: set[str], strict: bool = False) -> float:
    score = len([r for r in ref if r in ret]) / len(ref) if ref else 0
    return 0 if strict and score < 1 else score


def llama(fn):
    def guarded(ret: list[str], ref: set[str], **kw: object) -> float:
        return math.nan if not ret or not ref else fn(ret, ref, **kw)
    return guarded


@llama
def li_hit_rate(ret: list[str], ref: set[str], granular: bool = False) -> float:
    if granular:
        return sum(1 for r in ret if r in ref) / len(ref)
    return 1.0 if any(r in ref for r in ret) else 0.0


@llama
def li_mrr(ret: list[str], ref: set[str], granular: bool = False) -> float:
    if granular:
        total, count = 0.0, 0
        for i, r in enumerate(ret):
            if r in ref:
                count += 1
                total += 1.0 / (i + 1)
        return total / count if count > 0 else 0.0
    for i, r in enumerate(ret):
        if r in ref:
            return 1.0 / (i + 1)
    return 0.0


@llama
def li_precision(ret: list[str], ref: set[str]) -> float:
    return len(set(ret) & ref) / len(set(ret))


@llama
def li_recall(ret: list[str], ref: set[str]) -> float:
    return len(set(ret) & ref) / len(ref)


@llama
def li_ap(ret: list[str], ref: set[str]) -> float:
    count, total = 0, 0.0
    for i, r in enumerate(ret, start=1):
        if r in ref:
            count += 1
            total += count / i
    return total / len(ref)


@llama
def li_ndcg(ret: list[str], ref: set[str], idcg: str = "expected") -> float:
    def gain(rel: bool, i: int) -> float:
        return 0 if rel == 0 else 1 / math.log2(i + 1)
    dcg = sum(gain(r in ref, i) for i, r in enumerate(ret, start=1))
    n = len(ref) if idcg == "expected" else len(ret)
    return dcg / sum(gain(True, i) for i in range(1, n + 1))


def ore_precision(labels: list[int], k: int) -> float:
    return math.nan if k > len(labels) else sum(g >= 2 for g in labels[:k]) / k


def ore_ap(labels: list[int], k: int) -> float:
    if k > len(labels):
        return math.nan
    precisions, hits = [], 0
    for i, g in enumerate(labels[:k], start=1):
        if g >= 2:
            hits += 1
            precisions.append(hits / i)
    return sum(precisions) / len(precisions) if precisions else 0.0


def ore_mrr(labels: list[int]) -> float:
    return next((1 / i for i, g in enumerate(labels, start=1) if g >= 2), 0.0)


# -- random rankings ------------------------------------------------------------------


def _random_case(seed: int) -> tuple[dict, dict]:
    """Judgments and a run of 40 queries: some with an empty ranking, some with nothing
    relevant, distinct scores so that the ranking is the list as written."""
    rng = np.random.default_rng(seed)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(40):
        docs = [f"d{i}" for i in rng.permutation(30)[: rng.integers(1, 20)]]
        grades = rng.integers(0, 4, len(docs)) * (rng.random() > 0.15)
        qrels[f"q{q}"] = dict(zip(docs, grades.tolist(), strict=True))
        pool = [f"d{i}" for i in rng.permutation(30)[: rng.integers(0, 16)]]
        run[f"q{q}"] = {d: float(len(pool) - i) for i, d in enumerate(pool)}
    return qrels, run


def _lists(qrels: dict, run: dict, q: str, rel: int = 1) -> tuple[list[str], set[str]]:
    ranked = sorted(run[q], key=lambda d: -run[q][d])
    return ranked, {d for d, g in qrels[q].items() if g >= rel}


CASES = {
    "IDBasedContextPrecision": ragas_id_precision,
    "IDBasedContextRecall": ragas_id_recall,
    "ContextPrecision": lambda ret, ref: ragas_context_precision([int(r in ref) for r in ret]),
    "ContextualPrecision": lambda ret, ref: deepeval_precision([int(r in ref) for r in ret]),
    "ContextualPrecision(strict=true)": lambda ret, ref: deepeval_precision(
        [int(r in ref) for r in ret], strict=True),
    "ContextualRecall": deepeval_recall,
    "ContextualRecall(strict=true)": lambda ret, ref: deepeval_recall(ret, ref, strict=True),
    "LlamaIndexHitRate": li_hit_rate,
    "LlamaIndexHitRate(granular=true)": lambda ret, ref: li_hit_rate(ret, ref, granular=True),
    "LlamaIndexMRR": li_mrr,
    "LlamaIndexMRR(granular=true)": lambda ret, ref: li_mrr(ret, ref, granular=True),
    "LlamaIndexPrecision": li_precision,
    "LlamaIndexRecall": li_recall,
    "LlamaIndexAP": li_ap,
    "LlamaIndexNDCG": li_ndcg,
    "LlamaIndexNDCG(idcg=retrieved)": lambda ret, ref: li_ndcg(ret, ref, idcg="retrieved"),
}


def _same(got: float, want: float) -> bool:
    return (math.isnan(got) and math.isnan(want)) or got == want


@pytest.mark.parametrize("seed", range(3))
def test_each_measure_equals_the_originals_arithmetic_on_random_rankings(seed: int) -> None:
    qrels, run = _random_case(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ranklens.RanklensWarning)
        r = ranklens.evaluate(qrels, run, list(CASES))
    for name, oracle in CASES.items():
        got = r.per_query(name)
        for q in qrels:
            want = oracle(*_lists(qrels, run, q))
            assert _same(got[q], want), (name, q, got[q], want)


@pytest.mark.parametrize("seed", range(3))
def test_open_rag_eval_equals_its_arithmetic_on_umbrela_labels(seed: int) -> None:
    qrels, run = _random_case(seed)
    names = [f"{m}@{k}" for m in ("OpenRAGEvalPrecision", "OpenRAGEvalAP") for k in (1, 3, 5)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ranklens.RanklensWarning)
        r = ranklens.evaluate(qrels, run, [*names, "OpenRAGEvalMRR"])
    for q in qrels:
        labels = [qrels[q].get(d, 0) for d in _lists(qrels, run, q)[0]]
        for k in (1, 3, 5):
            assert _same(r.per_query(f"OpenRAGEvalPrecision@{k}")[q], ore_precision(labels, k))
            assert _same(r.per_query(f"OpenRAGEvalAP@{k}")[q], ore_ap(labels, k))
        assert r.per_query("OpenRAGEvalMRR")[q] == ore_mrr(labels)


# -- rag.md's worked examples ---------------------------------------------------------


def _ranked(verdicts: list[int]) -> tuple[dict, dict]:
    """One query whose i-th retrieved document has grade ``verdicts[i]``."""
    docs = [f"c{i}" for i in range(len(verdicts))]
    return ({"q": dict(zip(docs, verdicts, strict=True))},
            {"q": {d: float(len(docs) - i) for i, d in enumerate(docs)}})


@pytest.mark.parametrize(("verdicts", "want"), [
    ([1, 0], 0.9999999999), ([0, 1], 0.49999999995), ([1, 0, 1, 0, 1], 0.7555555555303703)])
def test_ragas_context_precision_doc_vectors(verdicts: list[int], want: float) -> None:
    assert ranklens.evaluate(*_ranked(verdicts), ["ContextPrecision"])["ContextPrecision"] \
        == pytest.approx(want, rel=1e-15)


def test_ragas_id_based_doc_examples() -> None:
    ref = {"doc_1": 1, "doc_4": 1, "doc_5": 1, "doc_6": 1}
    precision = ranklens.evaluate({"q": ref}, {"q": {"doc_1": 4.0, "doc_2": 3.0, "doc_3": 2.0,
                                                     "doc_4": 1.0}}, ["id_based_context_precision"])
    recall = ranklens.evaluate({"q": ref}, {"q": {"doc_1": 3.0, "doc_2": 2.0, "doc_3": 1.0}},
                               ["id_based_context_recall"])
    assert (precision["IDBasedContextPrecision"], recall["IDBasedContextRecall"]) == (0.5, 0.25)


@pytest.mark.parametrize(("idcg", "want"), [("expected", 0.24630238874073),
                                            ("retrieved", 0.38685280723454163)])
def test_llama_index_ndcg_example_both_ideal_forms(idcg: str, want: float) -> None:
    qrels = {"q": {f"id{i}": 1 for i in range(1, 5)}}
    name = f"LlamaIndexNDCG(idcg={idcg})"
    got = ranklens.evaluate(qrels, {"q": {"id5": 2.0, "id1": 1.0}}, [name])[name]
    assert got == pytest.approx(want, rel=1e-13)


def test_open_rag_eval_check_labels() -> None:
    names = ["OpenRAGEvalPrecision@1", "OpenRAGEvalPrecision@3", "OpenRAGEvalPrecision@5",
             "OpenRAGEvalAP@1", "OpenRAGEvalAP@3", "OpenRAGEvalAP@5", "OpenRAGEvalMRR"]
    r = ranklens.evaluate(*_ranked([3, 1, 2, 0, 2]), names)
    got = [r[n] for n in names]
    assert got == pytest.approx([1, 2 / 3, 0.6, 1, 0.8333, 0.7556, 1], abs=5e-5)


# -- rag.md's edge-case tables ----------------------------------------------------------


def _one(name: str, qrels: dict, run: dict) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ranklens.RanklensWarning)
        return ranklens.evaluate(qrels, run, [name]).per_query(name)["q"]


EMPTY_RANKING = ({"q": {"a": 1}}, {"q": {}})
NOTHING_RELEVANT = ({"q": {"a": 0}}, {"q": {"a": 1.0}})


@pytest.mark.parametrize(("name", "case", "want"), [
    ("IDBasedContextPrecision", EMPTY_RANKING, "nan"),
    ("IDBasedContextPrecision", NOTHING_RELEVANT, 0.0),
    ("IDBasedContextRecall", NOTHING_RELEVANT, "nan"),
    ("IDBasedContextRecall", EMPTY_RANKING, 0.0),
    ("ContextPrecision", NOTHING_RELEVANT, 0.0),
    ("ContextPrecision", EMPTY_RANKING, 0.0),
    ("ContextualPrecision", NOTHING_RELEVANT, 0.0),
    ("ContextualPrecision", EMPTY_RANKING, 0.0),
    ("ContextualRecall", NOTHING_RELEVANT, 0.0),
    ("ContextualRecall", EMPTY_RANKING, 0.0),
    *[(f"LlamaIndex{m}", case, "nan") for m in ("HitRate", "MRR", "Precision", "Recall", "AP",
                                                "NDCG") for case in (EMPTY_RANKING,
                                                                      NOTHING_RELEVANT)],
    ("OpenRAGEvalPrecision@2", NOTHING_RELEVANT, "nan"),
    ("OpenRAGEvalAP@2", NOTHING_RELEVANT, "nan"),
    ("OpenRAGEvalAP@1", NOTHING_RELEVANT, 0.0),
    ("OpenRAGEvalMRR", EMPTY_RANKING, 0.0),
])
def test_empty_lists_give_the_originals_nan_or_zero(name: str, case: tuple, want: object
                                                    ) -> None:
    got = _one(name, *case)
    assert math.isnan(got) if want == "nan" else got == want


def test_nan_queries_are_left_out_by_the_empty_and_missing_policies() -> None:
    qrels = {"q": {"a": 1}, "z": {"a": 0}, "y": {"b": 1}}
    run = {"q": {"a": 1.0, "b": 0.5}, "z": {"a": 1.0}}
    r = ranklens.evaluate(qrels, run, ["LlamaIndexMRR"], empty="skip", missing="skip")
    assert r["LlamaIndexMRR"] == 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ranklens.RanklensWarning)
        assert math.isnan(ranklens.evaluate(qrels, run, ["LlamaIndexMRR"])["LlamaIndexMRR"])


def test_open_rag_eval_counts_label_two_whatever_the_rel_option() -> None:
    qrels, run = _ranked([1, 2])
    assert ranklens.evaluate(qrels, run, ["OpenRAGEvalMRR"], rel=1)["OpenRAGEvalMRR"] == 0.5
    assert ranklens.evaluate(qrels, run, ["OpenRAGEvalMRR(rel=1)"])["OpenRAGEvalMRR(rel=1)"] \
        == 1.0


def test_deepeval_precision_has_no_floor_where_ragas_has_one() -> None:
    r = ranklens.evaluate(*_ranked([0, 1]), ["ContextualPrecision", "ContextPrecision", "AP"])
    assert (r["ContextualPrecision"], r["AP"]) == (0.5, 0.5)
    assert r["ContextPrecision"] == 0.5 / (1 + 1e-10) != 0.5


def test_context_precision_divides_by_relevant_retrieved_not_all_relevant() -> None:
    qrels = {"q": {"a": 1, "b": 1, "c": 1}}
    r = ranklens.evaluate(qrels, {"q": {"a": 2.0, "x": 1.0}},
                          ["ContextualPrecision", "AP", "LlamaIndexAP"])
    assert (r["ContextualPrecision"], r["AP"], r["LlamaIndexAP"]) == (1.0, 1 / 3, 1 / 3)


def _run_file(tmp_path, lines: list[str]) -> Run:
    path = tmp_path / "run.txt"
    path.write_text("".join(f"q Q0 {d} {i} {s} t\n" for i, (d, s) in enumerate(
        ln.split() for ln in lines)))
    return ranklens.load_run(path)


def test_duplicates_refused_by_default_and_collapsed_as_ragas_sets_with_first(tmp_path
                                                                               ) -> None:
    qrels = {"q": {"a": 1, "b": 1}}
    run = _run_file(tmp_path, ["a 3", "c 2", "a 1"])
    with pytest.raises(ranklens.RanklensError, match="duplicate"):
        ranklens.evaluate(qrels, run, ["IDBasedContextPrecision"])
    r = ranklens.evaluate(qrels, run, ["IDBasedContextPrecision", "IDBasedContextRecall"],
                          duplicates="first")
    assert (r["IDBasedContextPrecision"], r["IDBasedContextRecall"]) == (0.5, 0.5)


# -- names, sets, errors ----------------------------------------------------------------

RAG_NAMES = [*CASES, "OpenRAGEvalPrecision@5", "OpenRAGEvalAP(rel=3)@10", "OpenRAGEvalMRR"]


@pytest.mark.parametrize("name", RAG_NAMES)
def test_names_parse_back(name: str) -> None:
    m = parse_measure(name)
    assert parse_measure(str(m)) == m and str(m) == name


@pytest.mark.parametrize(("alias", "canonical"), [
    ("id_based_context_precision", "IDBasedContextPrecision"),
    ("context_precision", "ContextPrecision"), ("context_utilization", "ContextPrecision"),
    ("contextual_recall", "ContextualRecall"), ("llama_index_hit_rate", "LlamaIndexHitRate"),
    ("llama_index_ndcg", "LlamaIndexNDCG"), ("open_rag_eval_ap@3", "OpenRAGEvalAP@3")])
def test_the_frameworks_own_names_are_accepted(alias: str, canonical: str) -> None:
    assert str(parse_measure(alias)) == canonical


def test_measure_sets_expand_in_the_suites_order() -> None:
    beir = [str(m) for m in parse_measures("BEIR")]
    assert beir[:6] == [f"nDCG@{k}" for k in (1, 3, 5, 10, 100, 1000)]
    assert len(beir) == 24 and beir[-1] == "P@1000"
    mteb = [str(m) for m in parse_measures("mteb")]
    assert {"RR@20", "Success@1000", "nDCG@10"} <= set(mteb) and len(mteb) == 42
    assert [str(m) for m in parse_measures("TREC-RAG24")] == ["nDCG@20", "nDCG@100", "R@100"]
    assert [str(m) for m in parse_measures("trec-rag")] == ["nDCG@30", "nDCG@100", "R@100"]


def test_a_set_evaluates_like_its_members() -> None:
    qrels, run = _random_case(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ranklens.RanklensWarning)
        a = ranklens.evaluate(qrels, run, ["TREC-RAG24"])
        b = ranklens.evaluate(qrels, run, ["nDCG@20", "nDCG@100", "R@100"])
    assert a.aggregates == b.aggregates


@pytest.mark.parametrize(("name", "match"), [
    ("OpenRAGEvalAP", r"OpenRAGEvalAP needs a cutoff, e\.g\. OpenRAGEvalAP@10"),
    ("LlamaIndexNDCG(idcg=ideal)", r"idcg.*expected.*retrieved"),
    ("LlamaIndexMRR@10", r"LlamaIndexMRR takes no cutoff"),
])
def test_errors_name_the_measure_and_the_fix(name: str, match: str) -> None:
    with pytest.raises(MeasureError, match=match):
        parse_measure(name)


def test_polars_run_frame_gives_the_same_values() -> None:
    qrels, run = _random_case(1)
    rows = [(q, d, s) for q, docs in run.items() for d, s in docs.items()]
    frame = pl.DataFrame(rows, schema=["query_id", "doc_id", "score"], orient="row")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ranklens.RanklensWarning)
        a = ranklens.evaluate(qrels, Run(frame), list(CASES))
        b = ranklens.evaluate(qrels, run, list(CASES))
    for name in CASES:
        assert np.array_equal(list(a.per_query(name).values()),
                              list(b.per_query(name).values()), equal_nan=True), name


# -- ragas's string-distance forms --------------------------------------------------------

def _levenshtein(a: str, b: str) -> int:
    """The textbook dynamic programme."""
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        cur = [i]
        for j, cb in enumerate(b, start=1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def test_levenshtein_similarity_equals_the_dynamic_programme() -> None:
    rng = np.random.default_rng(7)
    for _ in range(300):
        a = "".join(rng.choice(list("abcé "), rng.integers(0, 12)))
        b = "".join(rng.choice(list("abcé "), rng.integers(0, 12)))
        longest = max(len(a), len(b))
        want = 1 - _levenshtein(a, b) / longest if longest else 1.0
        assert levenshtein_similarity(a, b) == want, (a, b)


def test_string_thresholds_are_ge_for_precision_and_gt_for_recall() -> None:
    # "abcd" vs "abxy": distance 2 of 4, similarity exactly 0.5
    assert levenshtein_similarity("abcd", "abxy") == 0.5
    assert ranklens.nonllm_context_precision(["abcd"], ["abxy"]) == 1 / (1 + 1e-10)
    assert ranklens.nonllm_context_recall(["abcd"], ["abxy"]) == 0.0
    assert ranklens.nonllm_context_recall(["abcd"], ["abxy"], threshold=0.4) == 1.0


def test_string_forms_on_verdict_vectors() -> None:
    refs = ["aaaa"]
    got = ranklens.nonllm_context_precision(["aaaa", "zzzz", "aaab", "zzzz", "aaaa"], refs)
    assert got == ragas_context_precision([1, 0, 1, 0, 1]) == pytest.approx(0.7555555555303703)


@pytest.mark.parametrize(("fn", "ret", "ref", "want"), [
    ("nonllm_context_precision", [], ["a"], 0.0),
    ("nonllm_context_precision", [], [], 0.0),
    ("nonllm_context_recall", ["a"], [], "nan"),
    ("nonllm_context_recall", [], [], "nan"),
])
def test_string_forms_empty_lists(fn: str, ret: list, ref: list, want: object) -> None:
    got = getattr(ranklens, fn)(ret, ref)
    assert math.isnan(got) if want == "nan" else got == want


@pytest.mark.parametrize(("fn", "ret", "ref", "match"), [
    ("nonllm_context_precision", ["a"], [], "reference_contexts is empty"),
    ("nonllm_context_recall", [], ["a"], "retrieved_contexts is empty"),
])
def test_string_forms_raise_where_ragas_raises(fn: str, ret: list, ref: list, match: str
                                               ) -> None:
    with pytest.raises(ranklens.ParameterError, match=match):
        getattr(ranklens, fn)(ret, ref)


def test_string_forms_validate_their_arguments() -> None:
    with pytest.raises(ranklens.ParameterError, match="'threshold' option must be"):
        ranklens.nonllm_context_recall(["a"], ["a"], threshold=2)
    with pytest.raises(ranklens.ParameterError, match="must be a string, got int"):
        ranklens.nonllm_context_recall([1], ["a"])  # type: ignore[list-item]
    with pytest.raises(ranklens.ParameterError, match=f"MAX_CHARS \\({MAX_CHARS}\\)"):
        levenshtein_similarity("a" * (MAX_CHARS + 1), "a")


def test_ids_compare_as_strings_as_ragas_str_ids() -> None:
    # ragas: 1 == "1" (every id through str)
    r = ranklens.evaluate({"q": {1: 1, 2: 1}}, {"q": {"1": 2.0, 3: 1.0}},
                          ["IDBasedContextPrecision", "IDBasedContextRecall"])
    assert (r["IDBasedContextPrecision"], r["IDBasedContextRecall"]) == (0.5, 0.5)


def test_deepeval_groups_a_repeated_source_at_its_first_position(tmp_path) -> None:
    run = _run_file(tmp_path, ["x 4", "a 3", "x 2", "b 1"])
    r = ranklens.evaluate({"q": {"a": 1, "b": 1}}, run, ["ContextualPrecision"],
                          duplicates="first")
    assert r["ContextualPrecision"] == deepeval_precision([0, 1, 1])


@pytest.mark.parametrize("name", ["LlamaIndexHitRate(granular=true)", "LlamaIndexAP",
                                  "OpenRAGEvalMRR", "ContextPrecision"])
def test_a_duplicated_id_is_refused_not_counted_twice(tmp_path, name: str) -> None:
    # llama_index counts it twice (scores above 1); ranklens names the duplicate instead
    run = _run_file(tmp_path, ["a 2", "a 1"])
    with pytest.raises(ranklens.RanklensError, match="duplicate"):
        ranklens.evaluate({"q": {"a": 2}}, run, [name])


def test_beir_averages_over_the_queries_of_both_with_missing_skip() -> None:
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    run = {"q1": {"a": 1.0}}
    r = ranklens.evaluate(qrels, run, ["BEIR"], missing="skip")
    assert r["nDCG@10"] == 1.0 and r["P@1"] == 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ranklens.RanklensWarning)
        assert ranklens.evaluate(qrels, run, ["TREC-RAG"])["nDCG@30"] == 0.5  # trec_eval -c


@pytest.mark.parametrize("function", ["nonllm_context_precision", "nonllm_context_recall"])
def test_string_forms_name_a_missing_list(function: str) -> None:
    with pytest.raises(ranklens.ParameterError, match="must be a list of texts; got NoneType"):
        getattr(ranklens, function)(None, None)
