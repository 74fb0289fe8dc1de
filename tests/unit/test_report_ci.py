"""The report's summary shows each mean ± the half-width of its 95% t interval."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import ranklens
from ranklens._surfaces.report.build import report_data


def _data() -> tuple[dict, dict]:
    rng = np.random.default_rng(2)
    qrels = {f"q{q}": {f"d{d}": int(rng.integers(0, 3)) for d in range(15)} for q in range(9)}
    runs = {name: {q: {f"d{d}": float(rng.random()) for d in range(15)} for q in qrels}
            for name in ("x", "y")}
    return qrels, runs


def test_half_widths_are_scipy_t_intervals() -> None:
    qrels, runs = _data()
    data = report_data(qrels, runs, ["AP", "nDCG@10", "NumRet"], max_k=5)
    res = ranklens.evaluate(qrels, runs, ["AP", "nDCG@10"])
    for j, name in enumerate(("x", "y")):
        for m in ("AP", "nDCG@10"):
            v = res[name].query_values[m]
            low, high = stats.t.interval(0.95, v.size - 1, loc=np.mean(v), scale=stats.sem(v))
            assert data.half_widths[m][j] == pytest.approx((high - low) / 2, rel=1e-12)
        assert np.isnan(data.half_widths["NumRet"][j])  # a count: no interval


def test_summary_shows_plus_minus_and_the_interval() -> None:
    qrels, runs = _data()
    html = ranklens.report(qrels, runs, ["AP", "NumRet"], max_k=5)
    summary = html[html.index('<table id="summary-table">'):html.index("</table>")]
    ci = ranklens.evaluate(qrels, runs["x"], ["AP"]).interval("AP", clip=False)
    assert f"\u00b1{ci.half_width:.4f}" in summary
    assert f"95% t interval of the mean over queries: [{ci.low:.4f}, {ci.high:.4f}]" in summary
    assert summary.count("\u00b1") == 2  # AP of both runs; NumRet is a count
    assert "half-width of the 95% t interval of each mean" in html
