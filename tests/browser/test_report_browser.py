"""The report in a real browser: Debian's Chromium, driven by Playwright (never a downloaded
browser). Fails on any console message of level warning or error, page error, dialog or
network request; checks that every chart drew marks, that hostile ids show as text and run
nothing, and that the per-query table sorts and filters. Saves a screenshot next to the
report (in pytest's tmp_path).

CI (``CI`` or ``RANKLENS_REQUIRE_PEERS`` set) fails when Chromium or Playwright is missing;
a plain checkout skips with the reason.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ranklens

CHROMIUM = Path("/usr/bin/chromium")
XSS_IMG = "<img src=x onerror=alert(1)>"
XSS_SCRIPT = "</script><script>alert(2)</script>"
RUN_B = "dense <b>v2</b>"
CHARTS = ("pr", "at-k", "differences", "distributions", "judged", "grades")


def _require() -> Any:
    required = bool(os.environ.get("CI") or os.environ.get("RANKLENS_REQUIRE_PEERS"))
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if required:
            pytest.fail("playwright is not installed (pip install -e '.[test]')")
        pytest.skip("playwright is not installed")
    if not CHROMIUM.exists():
        if required:
            pytest.fail(f"{CHROMIUM} is missing (apt-get install chromium; .ci/run does)")
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    return sync_playwright


@contextlib.contextmanager
def chromium_page(problems: list[str], *, strict: bool = False) -> Iterator[Any]:
    """A page of Debian's Chromium (1100 x 900) whose console warnings and errors and page
    errors are appended to ``problems``; ``strict`` also counts any console message naming a
    warning (Vega logs some at the "log" level)."""
    sync_playwright = _require()

    def on_console(m: Any) -> None:
        if m.type in ("error", "warning", "assert") or (
                strict and ("WARN" in m.text or "exceeds limit" in m.text)):
            problems.append(f"console {m.type}: {m.text}")

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM),
                                    args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            page.on("console", on_console)
            page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            yield page
        finally:
            browser.close()


def open_rendered(page: Any, path: Path, timeout: int) -> None:
    """Open the report at ``path`` and wait (``timeout`` ms) until its charts are drawn,
    asserting no rendering error."""
    page.goto(path.as_uri())
    page.wait_for_function("window.__rendered === true || !!window.__renderError",
                           timeout=timeout)
    assert page.evaluate("window.__renderError || null") is None


def _hostile_inputs() -> tuple[dict, dict]:
    """Forty queries, two of them named like attacks, a run name with markup, graded judgments."""
    qids = [f"q{i:02d}" for i in range(38)] + [XSS_IMG, XSS_SCRIPT]
    qrels: dict[str, dict[str, int]] = {}
    a: dict[str, dict[str, float]] = {}
    b: dict[str, dict[str, float]] = {}
    for n, q in enumerate(qids):
        docs = [f"d{j}" for j in range(30)]
        qrels[q] = {d: (j * 7 + n) % 4 for j, d in enumerate(docs[:12])}
        qrels[q][XSS_IMG] = 2  # a document id with markup, too
        a[q] = {d: float(30 - ((j * 5 + n) % 30)) for j, d in enumerate(docs)}
        b[q] = {d: float(30 - ((j * 3 + 2 * n) % 30)) for j, d in enumerate(docs)}
        b[q][XSS_IMG] = 40.0
    return qrels, {"bm25": a, RUN_B: b}


def test_report_renders_in_chromium_without_errors(tmp_path: Path) -> None:
    _require()  # skip (or fail, in CI) before any work
    qrels, runs = _hostile_inputs()
    path = tmp_path / "report.html"
    ranklens.report(qrels, runs, ["nDCG@10", "AP", "RR@10"], output=path)

    problems: list[str] = []
    with chromium_page(problems) as page:

        def on_dialog(dialog: Any) -> None:
            problems.append(f"dialog {dialog.type}: {dialog.message}")
            dialog.dismiss()

        page.on("dialog", on_dialog)
        page.on("request", lambda r: problems.append(f"request {r.url}")
                if not r.url.startswith("file://") else None)
        open_rendered(page, path, 30_000)

        drawn = {chart: page.locator(f"#chart-{chart} svg g.role-mark path").count()
                 for chart in CHARTS}
        # two runs: pr = 2 lines + 2 x 11 dots; at-k = 3 panels x 2 lines; differences =
        # one bar per query (40); distributions = 2 runs x 20 bins; judged = 2 lines;
        # grades = 2 runs x (grades 3..0, judged < 0, not in qrels, nothing retrieved)
        assert drawn == {"pr": 24, "at-k": 6, "differences": 40, "distributions": 40,
                         "judged": 2, "grades": 14}
        for chart in ("pr", "at-k", "judged"):  # lines with many vertices, not stubs
            shortest = min(len(d) for d in page.eval_on_selector_all(
                f"#chart-{chart} svg g.mark-line path",
                "ps => ps.map(p => p.getAttribute('d'))"))
            assert shortest > 100, chart

        # hostile strings are text: in the table, the summary and the SVG; nothing ran
        assert page.locator("img").count() == 0
        assert page.evaluate("document.querySelectorAll('script:not([type])').length") == 4
        body = page.inner_text("body")
        assert XSS_IMG in body and XSS_SCRIPT in body and RUN_B in body
        assert page.locator("b").count() == 0
        assert RUN_B in page.inner_text("#summary-table")
        svg_text = page.eval_on_selector("#chart-at-k svg", "s => s.textContent")
        assert RUN_B in svg_text  # the legend

        # hovering a bar shows its query id in the tooltip, a hostile one as text
        bars = page.locator("#chart-differences svg g.role-mark path")
        seen = []
        for i in range(bars.count()):
            bars.nth(i).hover()
            page.wait_for_selector("#vg-tooltip-element.visible", timeout=5_000)
            seen.append(page.inner_text("#vg-tooltip-element"))
            if XSS_IMG in seen[-1]:
                break
        assert XSS_IMG in seen[-1], seen
        assert all(any(q in tip for q in qrels) for tip in seen)
        assert page.locator("img").count() == 0

        # the menus name measures and runs (as text) and redraw the chart
        menus = page.locator("#chart-differences select")
        assert RUN_B in menus.nth(1).inner_text()
        before = page.eval_on_selector("#chart-differences svg g.role-mark",
                                       "g => g.innerHTML")
        menus.nth(0).select_option(label="AP")
        page.wait_for_function(
            "b => document.querySelector('#chart-differences svg g.role-mark').innerHTML"
            " !== b", arg=before, timeout=5_000)
        assert page.locator("#chart-differences svg g.role-mark path").count() == 40

        # the table filters and sorts
        page.fill("#query-filter", "onerror")
        rows = page.locator("#query-table tbody tr")
        assert rows.count() == 1
        assert rows.first.locator("td").first.inner_text() == XSS_IMG
        page.fill("#query-filter", "")
        assert rows.count() == 40
        page.locator("#query-table th", has_text="AP bm25").first.click()
        values = [float(v) for v in page.eval_on_selector_all(
            "#query-table tbody tr td:nth-child(5)", "tds => tds.map(t => t.textContent)")]
        assert values == sorted(values, reverse=True) and len(values) == 40

        page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
    assert not problems, "\n".join(problems)
    assert (tmp_path / "report.png").stat().st_size > 10_000


def test_beyond_accuracy_panel_renders_in_chromium(tmp_path: Path) -> None:
    """The bundled recommender demo with training interactions and the catalogue: the
    panel's table and chart (2 runs x 10 popularity bands of bars, 10 catalogue ticks)."""
    _require()
    from ranklens.cli._demo import recs_files

    files = recs_files()
    path = tmp_path / "report.html"
    ranklens.report(str(files["qrels"]), {n: str(files[n]) for n in ("popular", "personal")},
                    ["nDCG@10", "Coverage@10"], train=str(files["train"]),
                    items=str(files["items"]), output=path)
    problems: list[str] = []
    with chromium_page(problems, strict=True) as page:
        open_rendered(page, path, 30_000)
        bars = page.locator("#chart-beyond svg g.layer_0_marks path").count()
        ticks = page.locator("#chart-beyond svg g.layer_1_marks path").count()  # rects too
        assert (bars, ticks) == (20, 10)
        table = page.inner_text("#beyond-table")
        assert "Coverage@10" in table and "popular" in table and "personal" in table
        page.locator("#beyond").screenshot(path=str(tmp_path / "beyond.png"))
    assert not problems, "\n".join(problems)
