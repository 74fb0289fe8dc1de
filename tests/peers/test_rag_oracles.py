"""The RAG frameworks' measures against the originals themselves: llama_index's
RetrieverEvaluator metrics, ragas's id-based precision, recall and context-precision
arithmetic on random rankings, ragas's non-LLM (Levenshtein) forms on random texts, and
deepeval's contextual precision and recall scores from verdicts (strict or not), and
open-rag-eval's precision@k, AP@k and MRR from UMBRELA labels.

The originals are heavy and pin their own dependencies, so they run in the interpreter
named by ``RANKLENS_RAG_PYTHON`` (e.g. ``python -m venv /tmp/rag && /tmp/rag/bin/pip
install llama-index-core ragas``); the test is skipped without it. Where the original
raises ValueError (llama_index, on an empty list), ranklens gives NaN.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ranklens

PYTHON = os.environ.get("RANKLENS_RAG_PYTHON", "")
WORKER = Path(__file__).with_name("rag_oracle_worker.py")
pytestmark = pytest.mark.skipif(not Path(PYTHON).is_file(),
                                reason="RANKLENS_RAG_PYTHON names no interpreter")


@pytest.mark.parametrize("seed", range(3))
def test_measures_equal_the_originals_on_random_rankings(seed: int) -> None:
    rng = np.random.default_rng(seed)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    cases = []
    for q in range(60):
        docs = [f"d{i}" for i in rng.permutation(25)[: rng.integers(1, 15)]]
        grades = (rng.integers(0, 3, len(docs)) * (rng.random() > 0.1)).tolist()
        qrels[f"q{q}"] = dict(zip(docs, grades, strict=True))
        ranked = [f"d{i}" for i in rng.permutation(25)[: rng.integers(0, 12)]]
        run[f"q{q}"] = {d: float(len(ranked) - i) for i, d in enumerate(ranked)}
        cases.append([ranked, [d for d, g in qrels[f"q{q}"].items() if g >= 1]])
    words = ["Paris", "is", "the", "capital", "of", "France", "a", "city"]
    texts = [[[" ".join(rng.choice(words, rng.integers(1, 6))) for _ in range(rng.integers(0, 4))]
              for _ in range(2)] for _ in range(60)]
    out = subprocess.run([PYTHON, str(WORKER)], input=json.dumps({"ids": cases, "texts": texts}),
                         capture_output=True, text=True, check=True, timeout=300)
    want, want_texts = json.loads(out.stdout)["ids"], json.loads(out.stdout)["texts"]
    functions = {"precision": ranklens.nonllm_context_precision,
                 "recall": ranklens.nonllm_context_recall}
    for (ret, ref), row in zip(texts, want_texts, strict=True):
        for name, fn in functions.items():
            if row[name] == "ValueError":
                with pytest.raises(ranklens.ParameterError):
                    fn(ret, ref)
            elif row[name] == "nan":
                assert math.isnan(fn(ret, ref))
            else:
                assert fn(ret, ref) == row[name], (name, ret, ref)
    _equal_per_query(qrels, run, want)


@pytest.mark.parametrize("seed", range(3))
def test_deepeval_equals_the_original_on_random_rankings(seed: int) -> None:
    """deepeval's scores from verdicts: a retrieved node is "yes" when judged relevant
    (precision), a relevant judged node is "yes" when retrieved (recall)."""
    rng = np.random.default_rng(100 + seed)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    cases = []
    for q in range(60):
        docs = [f"d{i}" for i in rng.permutation(25)[: rng.integers(1, 15)]]
        qrels[f"q{q}"] = {d: int(rng.integers(0, 3)) for d in docs}
        ranked = [f"d{i}" for i in rng.permutation(25)[: rng.integers(0, 12)]]
        run[f"q{q}"] = {d: float(len(ranked) - i) for i, d in enumerate(ranked)}
        relevant = [d for d, g in qrels[f"q{q}"].items() if g >= 1]
        cases.append([["yes" if qrels[f"q{q}"].get(d, 0) >= 1 else "no" for d in ranked],
                      ["yes" if d in run[f"q{q}"] else "no" for d in relevant]])
    want = _oracle("deepeval_oracle_worker.py", cases, "deepeval")
    _equal_per_query(qrels, run, want)


@pytest.mark.parametrize("seed", range(3))
def test_open_rag_eval_equals_the_original_on_random_labels(seed: int) -> None:
    """Every retrieved passage carries an UMBRELA label 0-3, as open-rag-eval's judge gives;
    a cutoff deeper than the ranking is left out there and NaN here."""
    rng = np.random.default_rng(200 + seed)
    ks = [1, 3, 5, 10]
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    cases = []
    for q in range(60):
        ranked = [f"d{i}" for i in rng.permutation(25)[: rng.integers(1, 12)]]
        labels = [int(g) for g in rng.integers(0, 4, len(ranked))]
        qrels[f"q{q}"] = dict(zip(ranked, labels, strict=True))
        run[f"q{q}"] = {d: float(len(ranked) - i) for i, d in enumerate(ranked)}
        cases.append([labels, ks])
    want = _oracle("open_rag_eval_oracle_worker.py", cases, "open-rag-eval")
    names = {f"OpenRAGEval{kind}@{k}": (key, str(k)) for k in ks
             for kind, key in (("Precision", "precision"), ("AP", "ap"))}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ranklens.RanklensWarning)
        r = ranklens.evaluate(qrels, run, [*names, "OpenRAGEvalMRR"])
    for q, row in zip(qrels, want, strict=True):
        assert r.per_query("OpenRAGEvalMRR")[q] == row["mrr"], q
        for name, (key, k) in names.items():
            got = r.per_query(name)[q]
            assert math.isnan(got) if k not in row[key] else got == row[key][k], (name, q)


def _oracle(worker: str, cases: list[Any], package: str) -> Any:
    """What ``worker`` (run by RANKLENS_RAG_PYTHON) prints for ``cases``; skipped without
    ``package`` there (the worker exits 3)."""
    done = subprocess.run([PYTHON, str(WORKER.with_name(worker))], input=json.dumps(cases),
                          capture_output=True, text=True, timeout=300)
    if done.returncode == 3:
        pytest.skip(f"{package} is not installed beside RANKLENS_RAG_PYTHON")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _equal_per_query(qrels: dict[str, dict[str, int]], run: dict[str, dict[str, float]],
                     want: list[dict[str, object]]) -> None:
    """ranklens's per-query values of each measure ``want`` names equal the original's
    (an original's ValueError or NaN: NaN here)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ranklens.RanklensWarning)
        r = ranklens.evaluate(qrels, run, list(want[0]))
    for name in want[0]:
        got = r.per_query(name)
        for q, row in zip(qrels, want, strict=True):
            expected = row[name]
            if expected in ("ValueError", "nan"):
                assert math.isnan(got[q]), (name, q, got[q])
            else:
                assert got[q] == expected, (name, q, got[q], expected)
