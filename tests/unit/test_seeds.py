"""Issue 42: several runs per system (seeds, folds): per-query means across runs, the spread
across runs beside the spread across queries, and tests that count the run-to-run variance."""

from __future__ import annotations

import numpy as np
import pytest

import ranklens
from ranklens._base.errors import ParameterError

SYSTEMS = {"base": ["base0", "base1", "base2"], "new": ["new0", "new1", "new2"]}


def _results(nq: int = 12) -> ranklens.Results:
    rng = np.random.default_rng(3)
    qrels = {f"q{i}": {f"d{j}": int(j < 3) for j in range(8)} for i in range(nq)}
    runs = {run: {q: {f"d{j}": float(s) for j, s in enumerate(rng.random(8))} for q in qrels}
            for members in SYSTEMS.values() for run in members}
    return ranklens.evaluate(qrels, runs, ["AP", "P@3"])


def _long(res: ranklens.Results, measure: str):  # one row per system, query and run
    import pandas as pd

    values = res.values(measure)
    return pd.DataFrame([(s, q, values[i, res.run_names.index(r)])
                         for s, members in SYSTEMS.items() for r in members
                         for i, q in enumerate(res.query_ids.tolist())],
                        columns=["system", "query", "score"])


def test_anova_equals_statsmodels_two_way_with_interaction() -> None:
    from statsmodels.formula.api import ols
    from statsmodels.stats.anova import anova_lm

    res = _results()
    out = ranklens.seeds(res, SYSTEMS, baseline="base", test="anova", correction="none")
    for measure in ("AP", "P@3"):
        table = anova_lm(ols("score ~ C(system) * C(query)", _long(res, measure)).fit())
        row = out.pairs.filter(measure=measure).row(0, named=True)
        assert row["statistic"] == pytest.approx(table.loc["C(system)", "F"], rel=1e-9)
        assert row["df"] == table.loc["Residual", "df"]
        assert row["p_value"] == pytest.approx(table.loc["C(system)", "PR(>F)"], rel=1e-9)
        assert row["p_adjusted"] == row["p_value"]


def test_paired_t_on_per_query_means_and_the_spreads() -> None:
    from scipy.stats import ttest_rel

    res = _results()
    out = ranklens.seeds(res, SYSTEMS, measures=["AP"], correction="bonferroni")
    v = res.values("AP")
    means = {s: v[:, [res.run_names.index(r) for r in m]] for s, m in SYSTEMS.items()}
    t = ttest_rel(means["new"].mean(axis=1), means["base"].mean(axis=1))
    row = out.pairs.row(0, named=True)
    assert (row["system"], row["baseline"], row["n"]) == ("new", "base", 12)
    assert row["test"] == "paired t on per-query means"
    assert row["statistic"] == pytest.approx(t.statistic)
    assert row["p_value"] == pytest.approx(t.pvalue)
    spread = out.spread.filter(system="new").row(0, named=True)
    assert spread["sd_runs"] == pytest.approx(np.std(means["new"].mean(axis=0), ddof=1))
    assert spread["sd_queries"] == pytest.approx(np.std(means["new"].mean(axis=1), ddof=1))
    assert spread["runs"] == 3


def test_a_file_of_run_system_lines_and_errors(tmp_path) -> None:
    res = _results()
    path = tmp_path / "systems.txt"
    path.write_text("".join(f"{r} {s}\n" for s, m in SYSTEMS.items() for r in m))
    assert ranklens.seeds(res, path).pairs.equals(ranklens.seeds(res, SYSTEMS).pairs)
    with pytest.raises(ParameterError, match=r"'nope'.*name runs as evaluated"):
        ranklens.seeds(res, {"base": ["base0"], "x": ["nope"]})
    with pytest.raises(ParameterError, match=r"as many runs.*test='t'"):
        ranklens.seeds(res, {"base": ["base0", "base1"], "new": ["new0"]}, test="anova")
    with pytest.raises(ParameterError, match="'systems' argument needs two systems"):
        ranklens.seeds(res, {"base": ["base0"]})
    with pytest.raises(ParameterError, match="baseline 'zzz'"):
        ranklens.seeds(res, SYSTEMS, baseline="zzz")
