"""Intervals beside each mean in every output format (``render(..., ci=...)``,
``evaluate --ci``): golden files, values equal to scipy's, errors.

Regenerate the golden files after a deliberate change with
``RANKLENS_REGOLDEN=1 pytest tests/unit/test_render_ci.py`` and review the diff.
"""

from __future__ import annotations

import csv
import io
import json
import os

import numpy as np
import pytest
from scipy import stats
from test_render import GOLDEN, results

import ranklens
from ranklens._base.errors import ParameterError
from ranklens._surfaces.render import render

CI_FORMATS = ["table", "csv", "jsonl", "markdown", "latex"]


@pytest.mark.parametrize("fmt", CI_FORMATS)
def test_golden(fmt: str) -> None:
    text = render(results(), fmt, ci=0.9)
    path = GOLDEN / f"render_{fmt}_ci.txt"
    if os.environ.get("RANKLENS_REGOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_per_query_rows_have_no_bounds() -> None:
    text = render(results(), "csv", per_query=True, ci=0.95)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["AP low"] for r in rows if r["query"] != "all"] == [""] * 6
    assert all(r["AP low"] for r in rows if r["query"] == "all")
    assert "NumRet low" not in rows[0]  # a count has no interval


@pytest.mark.parametrize("method", ["t", "bootstrap"])
def test_bounds_are_the_results_intervals(method: str) -> None:
    res = results()
    rows = [json.loads(line) for line in
            render(res, "jsonl", ci=0.8, ci_method=method, seed=3, n_resamples=500)
            .splitlines()]
    for r in res:
        for m in ("AP", "P@2", "nDCG@3"):
            row = next(x for x in rows if x["run"] == r.run_name and x["measure"] == m)
            ci = r.interval(m, method, 0.8, seed=3, n_resamples=500)
            assert (row["low"], row["high"]) == (ci.low, ci.high)
            v = r.query_values[m]
            if method == "t" and not (v == v[0]).all():
                low, high = stats.t.interval(0.8, v.size - 1, loc=np.mean(v),
                                             scale=stats.sem(v))
                # these measures lie in [0, 1]: bounds past it are clipped
                assert row["low"] == pytest.approx(max(low, 0.0))
                assert row["high"] == pytest.approx(min(high, 1.0))


def test_no_intervals_in_trec_and_bad_levels() -> None:
    with pytest.raises(ParameterError, match=r"intervals \(ci\) are not written in the trec"):
        render(results(), "trec", ci=0.95)
    with pytest.raises(ParameterError, match="the 'level' option must be between 0 and 1; got 2"):
        render(results(), "csv", ci=2)
    with pytest.raises(ParameterError, match="the 'method' option must be one of t, bootstrap"):
        render(results(), "csv", ci=0.9, ci_method="bca")


def test_rich_table_has_the_interval_columns() -> None:
    table = ranklens._surfaces.render.rich_table(results(), ci=0.95)
    assert [c.header for c in table.columns][:4] == ["run", "AP", "AP low", "AP high"]
