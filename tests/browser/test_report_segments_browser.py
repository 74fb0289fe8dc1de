"""Issue 42: the report's segments in Chromium: a facet per group with each run's mean and
interval, box plots per group and run, the measure menu redrawing both; no console warning
or error, hostile group names shown as text."""

from __future__ import annotations

from pathlib import Path

from test_report_browser import XSS_IMG, _hostile_inputs, _require, chromium_page, open_rendered

import ranklens


def test_segment_facets_and_box_plots_render_in_chromium(tmp_path: Path) -> None:
    _require()
    qrels, runs = _hostile_inputs()
    groups = {q: ["even" if i % 2 == 0 else "odd"] for i, q in enumerate(qrels)}
    for q in list(qrels)[:5]:
        groups[q].append(XSS_IMG)  # a third, overlapping group named like an attack
    path = tmp_path / "report.html"
    ranklens.report(qrels, runs, ["nDCG@10", "AP"], output=path, segments=groups)
    problems: list[str] = []
    with chromium_page(problems, strict=True) as page:
        open_rendered(page, path, 30_000)
        means = "#chart-segments-means svg g.role-mark"
        # 3 groups x 2 runs: a point and an interval rule each
        assert page.locator(f"{means}.mark-symbol path").count() == 6
        assert page.locator(f"{means}.mark-rule line").count() == 6
        # a box (rect) and whiskers (rules) per group and run
        box = "#chart-segments-box svg g.role-mark"
        assert page.locator(f"{box}.mark-rect path").count() == 2 * 6
        assert page.locator(f"{box}.mark-rule line").count() == 2 * 6
        headers = page.eval_on_selector("#chart-segments-means svg", "s => s.textContent")
        assert "even" in headers and "odd" in headers and XSS_IMG in headers
        assert page.locator("img").count() == 0

        before = page.eval_on_selector(f"{means}.mark-symbol", "g => g.innerHTML")
        page.locator("#chart-segments-means select").select_option(label="AP")
        page.wait_for_function(
            "b => document.querySelector('#chart-segments-means svg g.role-mark.mark-symbol')"
            ".innerHTML !== b", arg=before, timeout=5_000)
        assert page.locator(f"{means}.mark-symbol path").count() == 6
        page.locator("#segments-means").screenshot(path=str(tmp_path / "means.png"))
        page.locator("#segments-box").screenshot(path=str(tmp_path / "box.png"))
    assert not problems, "\n".join(problems)
    assert (tmp_path / "box.png").stat().st_size > 5_000
