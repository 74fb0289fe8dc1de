"""Issue 39: a report whose measures count relevance at two levels draws one set of curves
per level in Chromium (dashed lines, extra panels), with no console warning or error."""

from __future__ import annotations

from pathlib import Path

from test_report_browser import _require, chromium_page, open_rendered

import ranklens


def test_curves_per_rel_render_in_chromium(tmp_path: Path) -> None:
    _require()
    qrels = {f"q{i}": {f"d{j}": (i + j) % 3 for j in range(6)} for i in range(8)}
    runs = {name: {q: {f"d{j}": float((j * k) % 7) for j in range(6)} for q in qrels}
            for name, k in (("a", 2), ("b", 3))}
    path = tmp_path / "report.html"
    ranklens.report(qrels, runs, ["AP", "P(rel=2)@5"], max_k=5, output=path)
    problems: list[str] = []
    with chromium_page(problems, strict=True) as page:
        open_rendered(page, path, 30_000)
        # two runs at two levels: 4 lines; five panels of two lines each
        assert page.locator("#chart-pr svg g.role-mark path").count() >= 4
        headers = page.locator("#chart-at-k").inner_text()
        assert "P@k (rel 2)" in headers and "R@k (rel 2)" in headers
        page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
    assert problems == []
