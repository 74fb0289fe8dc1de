"""Every explicit compare option is honoured or refused, never silently dropped; degenerate
comparisons (too few shared queries, unreachable significance) say so."""

from __future__ import annotations

import math

import numpy as np
import pytest

import ranklens
from ranklens import ParameterError
from ranklens._compare.options import CompareOptions

SAKAI3 = np.array([[.7, .5, .0], [.3, .1, .0], [.2, .0, .2], [.6, .2, .1], [.4, .4, .3],
                   [.4, .3, .3], [.0, .0, .1], [.7, .5, .2], [.1, .3, .4], [.3, .3, .4]])


def _qrels_runs(scores: np.ndarray) -> tuple[dict, dict]:
    """Judgments and runs whose P@10 per topic are ``scores`` (topics x systems, tenths)."""
    hits = np.rint(scores * 10).astype(int)
    qrels = {f"t{i:02d}": {f"d{j}": 1 for j in range(10)} for i in range(len(hits))}
    runs = {}
    for s, name in enumerate("ABCDEFG"[: hits.shape[1]]):
        runs[name] = {f"t{i:02d}": {(f"d{j}" if j < hits[i, s] else f"x{j}"): 10.0 - j
                                    for j in range(10)} for i in range(len(hits))}
    return qrels, runs


# -- (a) test and correction: resolved, or a conflict naming both ------------------------------


@pytest.mark.parametrize(("test", "correction"), [
    ("t", "tukey"), ("wilcoxon", "randomized-tukey"), ("tukey", "bonferroni"),
    ("randomized-tukey", "holm"), ("tukey", "randomized-tukey"), ("sign", "tukey"),
])
def test_a_tukey_name_with_another_explicit_choice_is_a_conflict(test: str,
                                                                 correction: str) -> None:
    qrels, runs = _qrels_runs(SAKAI3)
    with pytest.raises(ParameterError, match=(
            f"^the 'test' option '{test}' and the 'correction' option '{correction}' "
            "conflict")):
        ranklens.compare(qrels, runs, ["P@10"], test=test, correction=correction)


@pytest.mark.parametrize(("given", "resolved"), [
    ({}, ("t", "holm")),
    ({"test": "wilcoxon"}, ("wilcoxon", "holm")),
    ({"correction": "bonferroni"}, ("t", "bonferroni")),
    ({"test": "tukey"}, ("tukey", "tukey")),
    ({"correction": "tukey"}, ("tukey", "tukey")),
    ({"correction": "randomized-tukey"}, ("randomized-tukey", "randomized-tukey")),
    ({"test": "tukey", "correction": "tukey"}, ("tukey", "tukey")),
    ({"test": None, "correction": None}, ("t", "holm")),
])
def test_a_test_and_correction_resolve(given: dict, resolved: tuple[str, str]) -> None:
    options = CompareOptions(**given)
    assert (options.test, options.correction) == resolved
    qrels, runs = _qrels_runs(SAKAI3)
    cmp = ranklens.compare(qrels, runs, ["P@10"], permutations=99, **given)
    assert (cmp.test, cmp.correction) == resolved


# -- (b) seed: the range numpy's generators take ----------------------------------------------


@pytest.mark.parametrize("seed", [-1, 2 ** 63, 1.5, True])
def test_b_seed_out_of_range_is_a_parameter_error(seed: object) -> None:
    qrels, runs = _qrels_runs(SAKAI3[:, :2])
    with pytest.raises(ParameterError, match=(
            r"^the 'seed' option must be an integer from 0 to 9223372036854775807; got ")):
        ranklens.compare(qrels, runs, ["P@10"], test="randomization", seed=seed)


def test_b_largest_seed_works() -> None:
    qrels, runs = _qrels_runs(SAKAI3[:, :2])
    cmp = ranklens.compare(qrels, runs, ["P@10"], test="randomization", seed=2 ** 63 - 1,
                           permutations=99, ci="bca", resamples=99)
    assert cmp.seed == 2 ** 63 - 1 and not math.isnan(cmp.pairs[0].p_value)
    assert cmp.to_polars()["seed"][0] == 2 ** 63 - 1
