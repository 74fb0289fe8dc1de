"""``ranklens.judges``: agreement statistics against scikit-learn, ``krippendorff`` and
statsmodels, analysis.md Part 1's golden values, pairing, bootstrap and leaderboard survival
against direct computations written here."""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import krippendorff
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.contingency_tables import SquareTable
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa
from statsmodels.stats.multitest import multipletests

import ranklens
from ranklens import InputError, ParameterError

H = [0, 1, 2, 3, 3, 2, 1, 0, 2, 3, 1, 1, 0, 2]
L = [0, 2, 2, 3, 2, 3, 1, 1, 2, 3, 2, 1, 0, 3]
R3 = [2, 1, 2, 3, 3, 2, 1, 0, 1, 3, 1, 2, 0, 2]


def qrels(labels: list[int], per_query: int = 5) -> dict[str, dict[str, int]]:
    """Labels of docs d0, d1, ... spread over queries of ``per_query`` docs."""
    out: dict[str, dict[str, int]] = {}
    for i, g in enumerate(labels):
        out.setdefault(f"q{i // per_query}", {})[f"d{i}"] = g
    return out


def stat(report_pair: object, name: str) -> float:
    return next(s.value for s in report_pair.statistics if s.name == name)  # type: ignore[attr-defined]


def test_golden_values_of_analysis_part_1() -> None:
    got = ranklens.judges({"H": qrels(H), "L": qrels(L), "R3": qrels(R3)}, resamples=0)
    pair = got.pairs[0]
    assert pair.confusion.tolist() == [[2, 1, 0, 0], [0, 2, 2, 0], [0, 0, 2, 2], [0, 0, 1, 2]]
    golden = {"kappa": 0.424658, "kappa_linear": 0.634783, "kappa_quadratic": 0.806452,
              "kappa@>=1": 0.758621, "kappa@>=2": 0.714286, "kappa@>=3": 0.432432,
              "alpha_nominal": 0.441379, "alpha_ordinal": 0.798186,
              "alpha_interval": 0.809859, "shift": 0.285714}
    for name, value in golden.items():
        assert stat(pair, name) == pytest.approx(value, abs=1e-6), name
    assert (pair.up, pair.down) == (5, 1)
    assert pair.sign_p == pytest.approx(0.21875)
    assert pair.wilcoxon_p == pytest.approx(0.102470, abs=1e-6)
    assert got.group is not None
    assert got.group.statistics[0].name == "fleiss_kappa"
    assert got.group.statistics[0].value == pytest.approx(0.417565, abs=1e-6)
    assert got.group.statistics[-1].name == "randolph_kappa"
    assert got.group.statistics[-1].value == pytest.approx(0.428571, abs=1e-6)
    # analysis.md 1.5: marginal homogeneity and symmetry of the confusion matrix
    assert pair.stuart_maxwell.statistic == pytest.approx(10 / 3)
    assert (pair.stuart_maxwell.df, pair.stuart_maxwell.p) == (3, pytest.approx(0.343030,
                                                                                 abs=1e-6))
    assert pair.bowker.statistic == pytest.approx(10 / 3)
    assert (pair.bowker.df, pair.bowker.p) == (6, pytest.approx(0.765996, abs=1e-6))
    assert got.group.per_query["pairs"].to_list() == [5, 5, 4]


def test_weights_follow_the_whole_scale_not_the_grades_used() -> None:
    """analysis.md 1.1's trap: grade 2 unused still counts in the linear distances."""
    a, b = [0, 1, 3, 3, 0, 1], [0, 3, 3, 1, 0, 0]
    pair = ranklens.judges([qrels(a), qrels(b)], resamples=0).pairs[0]
    assert stat(pair, "kappa_linear") == pytest.approx(0.4)
    assert cohen_kappa_score(a, b, weights="linear") == pytest.approx(0.470588, abs=1e-6)


labels_lists = st.integers(2, 40).flatmap(lambda n: st.tuples(
    *(st.lists(st.integers(0, 3), min_size=n, max_size=n) for _ in range(3))))


@settings(max_examples=40, deadline=None)
@given(labels_lists)
def test_each_statistic_equals_the_reference_packages(sets: tuple[list[int], ...]) -> None:
    a, b, c = sets
    got = ranklens.judges({"a": qrels(a), "b": qrels(b), "c": qrels(c)}, grades=[0, 1, 2, 3],
                          resamples=0)
    pair = got.pairs[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for weights, name in ((None, "kappa"), ("linear", "kappa_linear"),
                              ("quadratic", "kappa_quadratic")):
            want = cohen_kappa_score(a, b, labels=[0, 1, 2, 3], weights=weights)
            assert stat(pair, name) == pytest.approx(want, abs=1e-9, nan_ok=True)
        for cut in (1, 2, 3):
            want = cohen_kappa_score(np.array(a) >= cut, np.array(b) >= cut, labels=[0, 1])
            assert stat(pair, f"kappa@>={cut}") == pytest.approx(want, abs=1e-9, nan_ok=True)
        for level in ("nominal", "ordinal", "interval"):
            for data, value in (([a, b], stat(pair, f"alpha_{level}")),
                                ([a, b, c], got.group.statistics[  # type: ignore[union-attr]
                                    1 + ("nominal", "ordinal", "interval").index(level)].value)):
                try:
                    want = krippendorff.alpha(np.array(data, dtype=float),
                                              value_domain=[0, 1, 2, 3],
                                              level_of_measurement=level)
                except ValueError:
                    want = math.nan
                assert value == pytest.approx(want, abs=1e-9, nan_ok=True), level
        table, _ = aggregate_raters(np.array([a, b, c]).T, n_cat=4)
        assert got.group.statistics[0].value == pytest.approx(  # type: ignore[union-attr]
            fleiss_kappa(table), abs=1e-9, nan_ok=True)
        assert got.group.statistics[-1].value == pytest.approx(  # type: ignore[union-attr]
            fleiss_kappa(table, method="randolph"), abs=1e-9, nan_ok=True)
        check_chi_square(pair.confusion, pair.stuart_maxwell, pair.bowker)


def check_chi_square(o: np.ndarray, homogeneity: object, symmetry: object) -> None:
    """Bowker equals statsmodels'; Stuart-Maxwell too where its covariance is invertible,
    else statsmodels' on the grades either judge uses (df: that table's) when that one is."""
    theirs = SquareTable(o, shift_zeros=False).symmetry()
    assert symmetry == pytest.approx((theirs.statistic, theirs.df, theirs.pvalue))
    used = np.flatnonzero(o.sum(axis=0) + o.sum(axis=1))
    for table in (o, o[np.ix_(used, used)]):
        if len(table) == 1:  # one grade used: statsmodels' 0, df 0, p 1
            assert homogeneity == (0.0, 0, 1.0)
            return
        v = -(table + table.T)[:-1, :-1]
        np.fill_diagonal(v, (table.sum(axis=0) + table.sum(axis=1) - 2 * np.diag(table))[:-1])
        if np.linalg.matrix_rank(v) == len(table) - 1:
            want = SquareTable(table, shift_zeros=False).homogeneity()
            assert homogeneity == pytest.approx((want.statistic, want.df, want.pvalue),
                                                rel=1e-7, abs=1e-9)
            return
    assert homogeneity.df < len(used) - 1  # type: ignore[attr-defined]


def test_stuart_maxwell_of_disagreements_in_separate_groups() -> None:
    """Grades 0-1 confused only with each other, 2-3 likewise: the covariance is singular,
    and the statistic is the two groups' own McNemar statistics added, on df 2."""
    o = np.array([[5, 4, 0, 0], [1, 3, 0, 0], [0, 0, 2, 6], [0, 0, 2, 1]], dtype=float)
    cells = [(h, j) for h in range(4) for j in range(4) for _ in range(int(o[h, j]))]
    got = ranklens.judges([qrels([h for h, _ in cells]), qrels([j for _, j in cells])],
                          resamples=0).pairs[0]
    assert got.confusion.tolist() == o.tolist()
    mcnemar = (4 - 1) ** 2 / (4 + 1) + (6 - 2) ** 2 / (6 + 2)
    assert got.stuart_maxwell.statistic == pytest.approx(mcnemar)
    assert got.stuart_maxwell.df == 2
    assert got.stuart_maxwell.p == pytest.approx(stats.chi2.sf(mcnemar, 2))
    check_chi_square(o, got.stuart_maxwell, got.bowker)


def test_per_query_statistics_are_each_querys_own() -> None:
    got = ranklens.judges([qrels(H), qrels(L)], resamples=0).pairs[0].per_query
    assert got["query_id"].to_list() == ["q0", "q1", "q2"]
    for i, row in enumerate(got.iter_rows(named=True)):
        a, b = H[5 * i:5 * i + 5], L[5 * i:5 * i + 5]
        assert row["pairs"] == len(a)
        assert row["kappa_quadratic"] == pytest.approx(
            cohen_kappa_score(a, b, labels=[0, 1, 2, 3], weights="quadratic"))
        assert row["shift"] == pytest.approx(np.mean(np.array(b) - np.array(a)))


def test_bootstrap_resamples_queries_and_pools_their_pairs() -> None:
    rng = np.random.default_rng(3)
    a = rng.integers(0, 4, 60).tolist()
    b = np.clip(np.array(a) + rng.integers(-1, 2, 60), 0, 3).tolist()
    got = ranklens.judges([qrels(a, 6), qrels(b, 6)], resamples=200, seed=11).pairs[0]
    draws = np.random.default_rng(11).integers(0, 10, (200, 10))
    by_query_a, by_query_b = np.array(a).reshape(10, 6), np.array(b).reshape(10, 6)
    direct = [cohen_kappa_score(by_query_a[d].ravel(), by_query_b[d].ravel(),
                                labels=[0, 1, 2, 3]) for d in draws]
    kappa = got.statistics[0]
    assert (kappa.low, kappa.high) == pytest.approx(tuple(np.quantile(direct, [0.025, 0.975])))
    again = ranklens.judges([qrels(a, 6), qrels(b, 6)], resamples=200, seed=11).pairs[0]
    assert again.statistics == got.statistics


def test_pairs_one_judge_lacks_are_counted_and_listed() -> None:
    people = {"q1": {"a": 1, "b": 0, "c": 2}, "q2": {"a": 0}}
    llm = {"q1": {"a": 1, "b": 1, "x": 2}, "q3": {"z": 0}}
    pair = ranklens.judges({"people": people, "llm": llm}, resamples=0).pairs[0]
    assert pair.pairs == 2
    assert pair.only_reference.rows() == [("q1", "c", 2), ("q2", "a", 0)]
    assert pair.only_judge.rows() == [("q1", "x", 2), ("q3", "z", 0)]


def test_different_scales_are_refused_with_the_rule_to_give() -> None:
    people, llm = qrels([0, 1, 2, 3]), qrels([0, 1, 4, 3])
    with pytest.raises(ParameterError, match=r"mapping=\{'llm': \{4: 3\}\}, --map llm:4=3"):
        ranklens.judges({"people": people, "llm": llm})
    mapped = ranklens.judges({"people": people, "llm": llm}, mapping={"llm": {4: 2}},
                             resamples=0)
    assert mapped.grades == (0, 1, 2, 3)
    assert stat(mapped.pairs[0], "kappa") == 1.0
    wide = ranklens.judges({"people": people, "llm": llm}, grades=[0, 1, 2, 3, 4],
                           resamples=0)
    assert wide.pairs[0].confusion.shape == (5, 5)
    with pytest.raises(ParameterError, match="outside the scale"):
        ranklens.judges({"people": people, "llm": llm}, grades=[0, 1, 2, 3])
    with pytest.raises(InputError, match="integer grades"):
        ranklens.judges({"people": people, "llm": qrels([0, 1, 2.5, 3])})  # type: ignore[list-item]
    with pytest.raises(InputError, match="twice"):
        ranklens.judges([people, pl_twice()])


def pl_twice() -> object:
    import polars as pl

    return pl.DataFrame({"query_id": ["q0", "q0"], "doc_id": ["d0", "d0"],
                         "relevance": [1.0, 2.0]})


def random_case(seed: int) -> tuple[dict, dict, dict]:
    """Two judges of one pool and five runs over twelve queries."""
    rng = np.random.default_rng(seed)
    people, llm, runs = {}, {}, {f"s{k}": {} for k in range(5)}
    for q in range(12):
        docs = [f"d{d}" for d in range(15)]
        grades = rng.integers(0, 4, 15)
        people[f"q{q}"] = dict(zip(docs, grades.tolist(), strict=True))
        llm[f"q{q}"] = dict(zip(docs, np.clip(grades + rng.integers(-1, 2, 15), 0, 3).tolist(),
                                strict=True))
        for k, run in enumerate(runs.values()):
            run[f"q{q}"] = dict(zip(docs, (grades * k / 4 + rng.random(15)).tolist(),
                                    strict=True))
    return people, llm, runs


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_orderings_and_decisions_equal_direct_computations(seed: int) -> None:
    people, llm, runs = random_case(seed)
    got = ranklens.judges({"people": people, "llm": llm}, runs, "AP", resamples=50)
    board = got.leaderboards[0]
    x, y = (ranklens.evaluate(q, runs, ["AP"]).values("AP") for q in (people, llm))
    mx, my = x.mean(axis=0), y.mean(axis=0)
    corr = {s.name: s.value for s in board.correlations}
    assert corr["kendall"] == pytest.approx(stats.kendalltau(mx, my).statistic)
    assert corr["spearman"] == pytest.approx(stats.spearmanr(mx, my).statistic)
    evaluated = [ranklens.evaluate(q, runs, ["AP"]) for q in (people, llm)]
    if len(set(mx)) == len(set(my)) == 5:
        assert corr["tau_ap"] == pytest.approx(
            ranklens.rank_correlation(*evaluated, "AP", "tau_ap").coefficient)
    else:  # tau_AP is defined for orderings without ties
        assert math.isnan(corr["tau_ap"])
    names = list(runs)
    assert board.systems == tuple(names[i] for i in np.argsort(-mx, kind="stable"))
    # the interval: queries drawn with replacement from the seed's stream
    draws = np.random.default_rng(0).integers(0, 12, (50, 12))
    taus = [stats.kendalltau(x[d].mean(axis=0), y[d].mean(axis=0)).statistic for d in draws]
    kendall = board.correlations[0]
    assert (kendall.low, kendall.high) == pytest.approx(
        tuple(np.quantile(taus, [0.025, 0.975])), nan_ok=True)
    # the t test on every pair, Holm over the pairs, then the 3 x 3 table
    pairs = [(j, i) for i in range(5) for j in range(i + 1, 5)]
    decided = []
    for v in (x, y):
        p = [stats.ttest_rel(v[:, s], v[:, b]).pvalue for s, b in pairs]
        keep = multipletests(p, 0.05, "holm")[0]
        decided.append([int(np.sign(v[:, s].mean() - v[:, b].mean())) if k else 0
                        for (s, b), k in zip(pairs, keep, strict=True)])
    table = np.zeros((3, 3), dtype=int)
    for s, t in zip(*decided, strict=True):
        table[1 - s, 1 - t] += 1
    assert board.decisions.tolist() == table.tolist()
    assert board.agreement == pytest.approx(np.trace(table) / len(pairs))
    assert board.power_reference == pytest.approx(sum(s != 0 for s in decided[0]) / len(pairs))
    assert board.power_judge == pytest.approx(sum(t != 0 for t in decided[1]) / len(pairs))
    assert len(board.reversals) == table[0, 2] + table[2, 0]


def test_rbo_of_orderings_is_the_definitions_sum() -> None:
    from ranklens._surfaces.judges.leaderboard import rbo

    x, y = np.array([5.0, 4, 3, 2, 1]), np.array([4.0, 5, 1, 3, 2])
    top_x, top_y = list(np.argsort(-x)), list(np.argsort(-y))
    p, k = 0.9, 5
    overlap = [len(set(top_x[:d]) & set(top_y[:d])) for d in range(1, k + 1)]
    want = (1 - p) / p * sum(p ** d * overlap[d - 1] / d for d in range(1, k + 1)) + p ** k
    assert rbo(x, y) == pytest.approx(want)
    assert rbo(x, x) == pytest.approx(1.0)


def test_text_and_json_lines() -> None:
    import json

    people, llm, runs = random_case(0)
    got = ranklens.judges({"people": people, "llm": llm}, runs, "AP", resamples=20)
    text = got.render()
    assert "kappa_quadratic" in text and "significance decisions" in text
    records = [json.loads(line) for line in got.render("jsonl").splitlines()]
    sections = {r["section"] for r in records}
    assert {"pairs", "statistic", "confusion", "system", "correlation", "decisions",
            "leaderboard"} <= sections
    with pytest.raises(ParameterError, match="'format'"):
        got.render("pdf")


def test_bad_arguments_name_the_option() -> None:
    with pytest.raises(ParameterError, match="two sets of judgments"):
        ranklens.judges({"only": qrels(H)})
    with pytest.raises(ParameterError, match="'resamples'"):
        ranklens.judges([qrels(H), qrels(L)], resamples=-1)
    with pytest.raises(ParameterError, match=r"'mapping' option .* names 'x'"):
        ranklens.judges([qrels(H), qrels(L)], mapping={"x": {1: 0}})


def test_judges_sharing_no_pair_are_refused() -> None:
    with pytest.raises(ParameterError, match="share no judged"):
        ranklens.judges({"a": {"q1": {"x": 1}}, "b": {"q1": {"y": 1}}}, grades=[0, 1])


def test_resamples_are_the_same_whatever_the_block(monkeypatch: pytest.MonkeyPatch) -> None:
    from ranklens._surfaces.judges import labels

    mats = np.random.default_rng(0).random((7, 2, 2))
    whole = labels.pooled_resamples(mats, 30, 5)
    monkeypatch.setattr(labels, "BLOCK_DRAWS", 20)  # two resamples per block
    assert np.array_equal(labels.pooled_resamples(mats, 30, 5), whole)


def test_the_rag_2025_participant_file_is_read_by_its_columns(tmp_path: object) -> None:
    """rag.md 1.5's literal lines: topic, Q0, segment, judgment, confidence, tag."""
    from pathlib import Path

    path = Path(str(tmp_path)) / "participant.txt"
    path.write_text("1 Q0 msmarco_v2.1_doc_16_1041913392#3_1268938142 3 1 my-qrel\n"
                    "1 Q0 msmarco_v2.1_doc_12_201312571#0_394394285 2 0.5 my-qrel\n")
    nist = {"1": {"msmarco_v2.1_doc_16_1041913392#3_1268938142": 3,
                  "msmarco_v2.1_doc_12_201312571#0_394394285": 1}}
    with pytest.raises(InputError, match="expected 4 fields"):
        ranklens.judges({"nist": nist, "team": str(path)})
    got = ranklens.judges({"nist": nist, "team": str(path)}, grades=[0, 1, 2, 3, 4],
                          columns={"team": "qid,_,docid,rel,_,_"}, resamples=0)
    assert got.pairs[0].confusion[1, 2] == 1 and got.pairs[0].confusion[3, 3] == 1
    with pytest.raises(ParameterError, match=r"'columns' option \(--columns\) names 'x'"):
        ranklens.judges({"nist": nist, "team": str(path)}, columns={"x": "qid,docid,rel"})


def test_a_reversal_is_named() -> None:
    queries = [f"q{i}" for i in range(10)]
    people = {q: {"a": 1, "b": 0} for q in queries}
    llm = {q: {"a": 0, "b": 1} for q in queries}
    runs = {"x": {q: {"a": 2.0, "b": 1.0} for q in queries},
            "y": {q: {"b": 2.0, "a": 1.0} for q in queries}}
    board = ranklens.judges({"people": people, "llm": llm}, runs, "P@1",
                            test="sign", resamples=0).leaderboards[0]
    assert board.decisions.tolist() == [[0, 0, 0], [0, 0, 0], [1, 0, 0]]
    assert board.reversals == ("y < x under people, > under llm",)
    assert board.largest_change == ("x", 1, 2) and board.agreement == 0.0


def test_docstring_examples() -> None:
    import doctest

    from ranklens._surfaces.judges import api

    failed, tried = doctest.testmod(api)
    assert tried and not failed


def test_report_judges_section() -> None:
    people = {"q1": {"a": 0, "b": 1, "c": 2}, "q2": {"a": 1, "b": 2}}
    llm = {"q1": {"a": 1, "b": 1, "c": 2}, "q2": {"a": 1, "b": 2, "d": 0}}
    runs = {"x": {"q1": {"a": 1.0, "b": 0.5}, "q2": {"d": 1.0}},
            "y": {"q1": {"c": 1.0, "a": 0.5}, "q2": {"b": 1.0}}}
    html = ranklens.report(people, runs, ["nDCG@10"], max_k=5, judges=llm,
                           judges_options={"resamples": 20})
    assert "judge2 against judge1" in html and "\"judges-scatter-0\"" in html
    assert "id=\"judges-decisions-0\"" in html
    with pytest.raises(ParameterError, match="'judges_options' option applies to 'judges'"):
        ranklens.report(people, runs, judges_options={"resamples": 20})


# UMBRELA's output records as rag.md section 1.7 shows them: no ids, in candidate order
UMBRELA_REQUESTS = (
    '{"query": {"qid": "100", "text": "life cycle of flea"}, "candidates": ['
    '{"docid": "d1", "score": 3.1, "doc": {"segment": "The life cycle of a flea"}}, '
    '{"docid": "d2", "score": 2.0, "doc": {"segment": "Fleas jump."}}]}\n'
    '{"query": {"qid": "101", "text": "kappa"}, "candidates": ['
    '{"docid": "d3", "score": 1.0, "doc": {"segment": "Cohen\'s kappa"}}]}\n')
UMBRELA_OUTPUTS = "".join(
    '{"model": "gpt-4o", "query": "q", "passage": "p", "prompt": "...", "prediction": '
    f'"{text}", "reasoning": null, "judgment": {grade}, "result_status": {status}}}\n'
    for text, grade, status in (("##final score: 3", 3, 1), ("no score", 0, 0),
                                ("##final score: 1", 1, 1)))


def test_umbrela_outputs_joined_by_position(tmp_path: Path) -> None:
    requests = tmp_path / "req.jsonl"
    requests.write_text(UMBRELA_REQUESTS, encoding="utf-8")
    outputs = tmp_path / "out.jsonl"
    outputs.write_text(UMBRELA_OUTPUTS, encoding="utf-8")
    people = {"100": {"d1": 3, "d2": 1}, "101": {"d3": 1, "d4": 2}}
    report = ranklens.judges({"people": people, "llm": outputs}, resamples=0,
                             columns={"llm": f"umbrela:{requests}"})
    pair = report.pairs[0]
    assert pair.pairs == 3 and len(pair.only_reference) == 1
    # d1 3-3, d2 1-0 (unparsed keeps UMBRELA's 0), d3 1-1
    assert pair.confusion[3, 3] == 1 and pair.confusion[1, 0] == 1 and pair.confusion[1, 1] == 1
    outputs.write_text(UMBRELA_OUTPUTS.splitlines()[0], encoding="utf-8")
    with pytest.raises(InputError, match="1 judgments for the 3 candidates of"):
        ranklens.judges({"people": people, "llm": outputs},
                        columns={"llm": f"umbrela:{requests}"})
    outputs.write_text('{"judgment": "3"}\n', encoding="utf-8")
    with pytest.raises(InputError, match="judgment: expected a number"):
        ranklens.judges({"people": people, "llm": outputs},
                        columns={"llm": f"umbrela:{requests}"})


def test_report_names_the_judges() -> None:
    people = {"q1": {"a": 0, "b": 1, "c": 2}, "q2": {"a": 1, "b": 2}}
    llm = {"q1": {"a": 1, "b": 1, "c": 2}, "q2": {"a": 1, "b": 2, "d": 0}}
    runs = {"x": {"q1": {"a": 1.0}, "q2": {"b": 1.0}}}
    html = ranklens.report(people, runs, ["nDCG@10"], max_k=5, judges=llm,
                           judges_options={"resamples": 0, "names": ("people", "llm")})
    assert "llm against people" in html and "Stuart-Maxwell" in html
    for bad in ("people", ("a", "a"), ("a", "b", "c")):
        with pytest.raises(ParameterError, match="'names' must be two different names"):
            ranklens.report(people, runs, ["nDCG@10"], max_k=5, judges=llm,
                            judges_options={"names": bad})
