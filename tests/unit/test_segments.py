"""Issue 42: a comparison per segment equals ``compare`` on each group's queries alone, with
one correction across every group x measure x pair test."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import ranklens
from ranklens._base.errors import InputError, ParameterError


def _data(nq: int = 30) -> tuple[dict, dict]:
    rng = np.random.default_rng(5)
    qrels = {f"q{i}": {f"d{j}": int(j < 3) for j in range(8)} for i in range(nq)}
    runs = {name: {q: {f"d{j}": float(s) for j, s in enumerate(rng.random(8))} for q in qrels}
            for name in ("base", "a", "b")}
    return qrels, runs


GROUPS = {f"q{i}": (["head", "short"] if i < 5 else ["head"]) if i < 15 else "tail"
          for i in range(30)}


# the group of 5 queries alone: the exact tests warn that nothing can be significant
@pytest.mark.filterwarnings("ignore::ranklens.RanklensWarning")
@pytest.mark.parametrize("test", ["t", "randomization", "wilcoxon"])
def test_each_group_is_compare_on_its_queries_corrected_once(test: str) -> None:
    from statsmodels.stats.multitest import multipletests

    qrels, runs = _data()
    measures = ["AP", "P@3"]
    cmp = ranklens.compare(qrels, runs, measures, baseline="base", test=test)
    seg = ranklens.segments(cmp, GROUPS, correction="holm")
    assert seg.pairs["group"].unique(maintain_order=True).to_list() == ["head", "short", "tail"]
    for group in ("head", "short", "tail"):
        queries = [q for q, g in GROUPS.items() if group in ([g] if isinstance(g, str) else g)]
        alone = ranklens.compare({q: qrels[q] for q in queries},
                                 {r: {q: run[q] for q in queries} for r, run in runs.items()},
                                 measures, baseline="base", test=test, correction="none")
        rows = seg.pairs.filter(group=group).to_dicts()
        assert len(rows) == len(alone.pairs) == 4
        for row, pair in zip(rows, alone.pairs, strict=True):
            for field in ("measure", "system", "baseline", "n", "wins", "ties", "losses"):
                assert row[field] == getattr(pair, field), field
            for field in ("difference", "ci_low", "ci_high", "p_value"):
                assert row[field] == pytest.approx(getattr(pair, field), rel=1e-12), field
    p = seg.pairs["p_value"].to_numpy()
    assert seg.pairs["p_adjusted"].to_numpy() == pytest.approx(
        multipletests(p, method="holm")[1], rel=1e-12)


def test_group_means_have_bootstrap_intervals_and_quantiles() -> None:
    qrels, runs = _data()
    cmp = ranklens.compare(qrels, runs, ["AP"], baseline="base")
    seg = ranklens.segments(cmp, GROUPS, resamples=999)
    values = cmp.results.values("AP")
    row = seg.means.filter(group="tail", run="a").row(0, named=True)
    x = values[[GROUPS[q] == "tail" for q in cmp.results.query_ids], 1]
    assert row["n"] == 15 and row["mean"] == pytest.approx(float(np.mean(x)))
    assert row["ci_low"] < row["mean"] < row["ci_high"]
    assert row["p50"] == pytest.approx(float(np.median(x)))
    perfect = {f"q{i}": {"a": 1.0} for i in range(4)}
    flat = ranklens.compare({q: {"a": 1} for q in perfect}, {"x": perfect, "y": perfect},
                            ["P@1"])
    same = ranklens.segments(flat, dict.fromkeys(perfect, "g")).means.row(0, named=True)
    assert same["ci_low"] == same["mean"] == same["ci_high"] == 1.0  # not BCa's 0/0


def test_groups_from_a_file_and_bad_inputs(tmp_path: Path) -> None:
    qrels, runs = _data()
    cmp = ranklens.compare(qrels, runs, ["AP"], baseline="base")
    path = tmp_path / "groups.txt"
    path.write_text("".join(f"{q} {g if isinstance(g, str) else g[0]}\n"
                            for q, g in GROUPS.items()) + "q0 short  # and a comment\n"
                    + "".join(f"q{i} short\n" for i in range(1, 5)), encoding="utf-8")
    from_file = ranklens.segments(cmp, path)
    assert from_file.pairs.sort("group", maintain_order=True).equals(
        ranklens.segments(cmp, GROUPS).pairs.sort("group", maintain_order=True))
    import polars as pl

    members = [(q, g) for q, gs in GROUPS.items() for g in ([gs] if isinstance(gs, str) else gs)]
    frame = pl.DataFrame(members, schema=["query_id", "segment"], orient="row")
    assert ranklens.segments(cmp, frame).pairs.equals(ranklens.segments(cmp, GROUPS).pairs)
    assert ranklens.segments(cmp, frame.to_pandas()).means.equals(
        ranklens.segments(cmp, GROUPS).means)
    path.write_text("q1 head\nq2\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"groups.txt, line 2: expected 'query_id group'"):
        ranklens.segments(cmp, path)
    with pytest.raises(ParameterError, match="'resamples' option must be an integer"):
        ranklens.segments(cmp, GROUPS, resamples=10**7)
    with pytest.raises(ParameterError, match="'groups' argument"):
        ranklens.segments(cmp, 3)  # type: ignore[arg-type]
    tukey = ranklens.compare(qrels, runs, ["AP"], test="tukey")
    with pytest.raises(ParameterError, match="pairwise test"):
        ranklens.segments(tukey, GROUPS)


def test_group_means_of_evaluate_are_the_segments_means() -> None:
    qrels, runs = _data()
    res = ranklens.evaluate(qrels, runs, ["AP", "P@3"])
    means = ranklens.group_means(res, GROUPS, resamples=999, seed=3)
    cmp = ranklens.compare(qrels, runs, ["AP", "P@3"], baseline="base", seed=3)
    assert means.equals(ranklens.segments(cmp, GROUPS, resamples=999).means)
    tail = [i for i, q in enumerate(res.query_ids.tolist()) if GROUPS[q] == "tail"]
    x = res.values("AP")[tail, res.run_names.index("a")]
    row = means.filter(group="tail", measure="AP", run="a").row(0, named=True)
    assert row["n"] == 15 and row["mean"] == pytest.approx(x.mean())
    assert [row["p10"], row["p50"], row["p90"]] == pytest.approx(np.quantile(x, [.1, .5, .9]))
    assert row["ci_low"] < row["mean"] < row["ci_high"]
    with pytest.raises(ParameterError, match="resamples"):
        ranklens.group_means(res, GROUPS, resamples=0)
