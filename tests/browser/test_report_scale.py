"""The report at scale: 50 small synthetic runs in Debian's Chromium (Playwright). No console
warning (Vega's "Symbol legend count exceeds limit" among them), every run in the menu that
picks the runs the charts show, legends that list only those, distinct colours, and a page
whose height does not grow with the number of runs; picking other runs redraws the charts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_report_browser import _require, chromium_page, open_rendered

import ranklens
from ranklens._surfaces.report.specs import MANY_RUNS

RUNS = 50
#: The page's height in pixels with 50 runs (about 13,000 when every run was drawn).
MOST_HEIGHT = 5000


def _inputs() -> tuple[dict, dict]:
    """Eight queries of ten documents, 50 runs each ranking them in its own order."""
    qrels = {f"q{i}": {f"d{j}": (i + j) % 3 for j in range(6)} for i in range(8)}
    runs = {f"run-{r:02d}": {f"q{i}": {f"d{j}": float((j * (r + 1) + i) % 10)
                                      for j in range(10)} for i in range(8)}
            for r in range(RUNS)}
    return qrels, runs


def _texts(page: Any, selector: str) -> list[str]:
    return [t.strip() for t in page.eval_on_selector_all(
        selector, "ts => ts.map(t => t.textContent)")]


def _headers(page: Any) -> list[str]:
    return [t for t in _texts(page, "#chart-distributions svg g.role-row-header text")
            if t.startswith("run-")]


def _colours(page: Any, chart: str) -> list[str]:
    return page.eval_on_selector_all(
        f"#chart-{chart} svg g.role-legend-symbol path",
        "ps => ps.map(p => p.getAttribute('stroke') || p.getAttribute('fill'))")


def test_fifty_runs_render_without_warnings_in_a_bounded_page(tmp_path: Path) -> None:
    _require()
    qrels, runs = _inputs()
    path = tmp_path / "report.html"
    ranklens.report(qrels, runs, ["nDCG@10", "AP"], max_k=10, output=path)

    problems: list[str] = []
    with chromium_page(problems, strict=True) as page:
        open_rendered(page, path, 60_000)

        # every run can be picked, each under its own name
        options = _texts(page, "#run-select option")
        assert len(options) == RUNS and len(set(options)) == RUNS, options
        assert options[0] == "run-00 (baseline)"
        first = [f"run-{r:02d}" for r in range(MANY_RUNS)]
        for chart in ("pr", "at-k", "judged"):
            legend = _texts(page, f"#chart-{chart} svg g.role-legend-label text")
            assert legend == first, (chart, legend)
            colours = _colours(page, chart)
            assert len(set(colours)) == MANY_RUNS, (chart, colours)
        assert _headers(page) == first

        height = page.evaluate("document.documentElement.scrollHeight")
        assert height < MOST_HEIGHT, height

        # pick three others: every chart shows them, in run order
        page.select_option("#run-select", ["0", "42", "7", "49"])
        page.wait_for_function(
            "document.querySelectorAll('#chart-judged svg g.role-legend-label text')"
            ".length === 4", timeout=10_000)
        picked = ["run-00", "run-07", "run-42", "run-49"]
        for chart in ("pr", "at-k", "judged"):
            assert _texts(page, f"#chart-{chart} svg g.role-legend-label text") == picked
        assert _headers(page) == picked
        axis = _texts(page, "#chart-grades svg g.role-axis-label text")
        assert [t for t in axis if t.startswith("run-")] == picked
        assert "showing 4 of 50 runs" in page.inner_text("#run-status")

        # more than the charts draw at once: the first ten are kept
        page.select_option("#run-select", [str(r) for r in range(0, 50, 3)])
        page.wait_for_function(
            "document.querySelectorAll('#chart-judged svg g.role-legend-label text')"
            f".length === {MANY_RUNS}", timeout=10_000)
        assert page.evaluate("document.documentElement.scrollHeight") < MOST_HEIGHT
        assert f"at most {MANY_RUNS}" in page.inner_text("#run-status")
        page.wait_for_timeout(300)  # let a late warning reach the console
    assert not problems, "\n".join(problems)
