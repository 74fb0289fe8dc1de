"""The comparison's output as careful as evaluate's: the detail view, means computed as
``evaluate`` computes them, and ties for the best value decided to 12 significant digits."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import ranklens
from ranklens._surfaces.render import rich_table
from ranklens._surfaces.render.best import best_key, tie_key
from ranklens._surfaces.render.results import grid_table, results_grid


def _graded(seed: int, nq: int = 40) -> tuple[dict, dict]:
    """Random graded judgments and two random runs (nDCG@10 values with many digits)."""
    rng = np.random.default_rng(seed)
    qrels = {f"q{q:02d}": {f"d{d}": int(rng.integers(0, 3)) for d in range(12)}
             for q in range(nq)}
    runs = {name: {f"q{q:02d}": {f"d{d}": float(rng.random()) for d in range(12)}
                   for q in range(nq)} for name in "ab"}
    return qrels, runs


def _precision(hits: list[int]) -> tuple[dict, dict]:
    """Judgments with 10 relevant documents per query and a run with ``hits[i]`` of them in
    its top 10 for query i (P@10 = hits / 10)."""
    qrels = {f"q{i}": {f"r{d}": 1 for d in range(10)} for i in range(len(hits))}
    run = {f"q{i}": {**{f"r{d}": 20.0 - d for d in range(h)},
                     **{f"n{d}": 10.0 - d for d in range(10 - h)}}
           for i, h in enumerate(hits)}
    return qrels, run


# P@10 of 0.1, 0.2, 0.3 and of 0.3, 0.2, 0.1: the same mean, 0.2, in exact arithmetic, but
# the left-to-right sums differ in the last bit (0.6000000000000001 and 0.6)
QRELS_TIED, UP_RUN = _precision([1, 2, 3])
_, DOWN_RUN = _precision([3, 2, 1])
TIED = {"up": UP_RUN, "down": DOWN_RUN}


# (a) the detail view -------------------------------------------------------------------

@pytest.fixture(scope="module")
def demo() -> ranklens.Comparison:
    from ranklens.cli._demo import demo_files

    qrels, paths = demo_files()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ranklens.compare(str(qrels), {n: str(p) for n, p in paths.items()},
                                ["nDCG@10", "P@10"], baseline="bm25")


def test_details_show_every_field_in_the_human_formats(demo: ranklens.Comparison) -> None:
    pair = demo.pair("nDCG@10", "dense", "bm25")
    for fmt in ("table", "markdown", "latex"):
        digits = 3 if fmt == "latex" else 4
        text = demo.render(fmt, details=True)
        for title in ("difference", "interval", "d\\_z" if fmt == "latex" else "d_z",
                      "W/T/L", "p adj", "significant"):
            assert title in text, (fmt, title)
        assert f"{pair.difference:.{digits}f}" in text
        assert f"[{pair.ci_low:.{digits}f}, {pair.ci_high:.{digits}f}]" in text
        assert f"{pair.effect_size:.2f}" in text
        assert f"{pair.wins}/{pair.ties}/{pair.losses}" in text
        assert f"{pair.p_value:.1e}" in text  # below 0.0001: not shown as 0.0000
        assert "yes" in text
        assert len([line for line in text.splitlines() if "dense" in line]) == 2


def test_details_leave_the_machine_formats_and_the_default_alone(
        demo: ranklens.Comparison) -> None:
    for fmt in ("csv", "tsv", "jsonl"):
        assert demo.render(fmt, details=True) == demo.render(fmt)
    assert demo.render("table", details=False) == demo.render("table")
    assert "interval" not in demo.render("table")


def test_details_of_all_pairs_name_each_pair() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cmp = ranklens.compare(*_graded(3), ["nDCG@10", "AP"], test="randomization")
    text = cmp.render("markdown", details=True)
    rows = [line for line in text.splitlines() if line.startswith(("| nDCG@10", "| AP"))]
    assert len(rows) == len(cmp.pairs) == 2
    p = cmp.pair("AP", "b", "a")
    assert re.search(rf"\| AP \| b \| a \| 40 \| {p.difference:.4f} \|", text)


# (c) means as evaluate computes them ------------------------------------------------

def test_means_are_evaluates_aggregates() -> None:
    qrels, runs = _graded(0)  # np.mean of run b's values differs from its aggregate
    res = ranklens.evaluate(qrels, runs, ["nDCG@10"])
    cmp = ranklens.compare(qrels, runs, ["nDCG@10"], baseline="a")
    pair = cmp.pair("nDCG@10", "b", "a")
    for run in "ab":
        assert cmp.means["nDCG@10"][run] == res[run]["nDCG@10"]
    assert pair.mean_system == res["b"]["nDCG@10"]
    assert pair.mean_baseline == res["a"]["nDCG@10"]
    assert pair.difference == pair.mean_system - pair.mean_baseline


def test_difference_has_the_sign_of_the_means() -> None:
    res = ranklens.evaluate(QRELS_TIED, TIED, ["P@10"])
    assert res["up"]["P@10"] != res["down"]["P@10"]  # the last bit differs
    cmp = ranklens.compare(QRELS_TIED, TIED, ["P@10"], baseline="down")
    pair = cmp.pair("P@10", "up", "down")
    assert np.sign(pair.difference) == np.sign(pair.mean_system - pair.mean_baseline)
    assert cmp.means["P@10"] == {"up": res["up"]["P@10"], "down": res["down"]["P@10"]}
    assert pair.p_value == 1.0 and not pair.significant


def test_means_over_the_compared_queries_are_left_to_right() -> None:
    qrels, runs = _graded(0)
    del runs["a"]["q07"]  # left out of the pair under missing="skip"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cmp = ranklens.compare(qrels, runs, ["nDCG@10"], baseline="a", missing="skip")
        res = ranklens.evaluate(qrels, runs, ["nDCG@10"], missing="skip")
    values = res.values("nDCG@10")
    kept = ~np.isnan(values).any(axis=1)
    pair = cmp.pair("nDCG@10", "b", "a")
    assert pair.n == 39 and pair.excluded == 1
    assert pair.mean_system == float(np.cumsum(values[kept, 1])[-1]) / 39
    assert pair.mean_baseline == float(np.cumsum(values[kept, 0])[-1]) / 39
    assert pair.difference == pair.mean_system - pair.mean_baseline
    assert cmp.means["nDCG@10"]["a"] == res["a"]["nDCG@10"]


# (d) ties for the best value ---------------------------------------------------------

def test_tie_key() -> None:
    assert tie_key(0.6000000000000001 / 3) == tie_key(0.6 / 3)
    assert tie_key(0.2) != tie_key(0.2000000001)
    assert best_key([0.1, float("nan"), 0.3]) == 0.3
    assert best_key([0.1, 0.3], lower_is_better=True) == 0.1
    assert best_key([float("nan")]) is None


def test_evaluate_bolds_every_run_tied_for_the_best() -> None:
    res = ranklens.evaluate(QRELS_TIED, TIED, ["P@10"])
    table = grid_table(results_grid(list(res), None, False), query_column=False, best=True)
    assert [row.cells[1].strong for row in table.rows] == [True, True]
    rich = rich_table(res)
    assert all("[bold]" in str(cell) for cell in rich.columns[1]._cells)


def test_report_bolds_every_run_tied_for_the_best() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        html = ranklens.report(QRELS_TIED, TIED, ["P@10"], max_k=3)
    summary = html[html.index('<table id="summary-table">'):html.index("</table>")]
    assert summary.count('class="best"') == 2


def test_compare_bolds_every_run_tied_for_the_best() -> None:
    cmp = ranklens.compare(QRELS_TIED, TIED, ["P@10"], baseline="down")
    assert cmp.render("latex").count("\\textbf{0.200}") == 2
