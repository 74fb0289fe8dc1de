"""Rebuild docs/report.png: the demo report (``ranklens report`` on the bundled data) in
Debian's Chromium, the top of the page.

    python scripts/report_screenshot.py          # needs /usr/bin/chromium and playwright
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

import ranklens
from ranklens.cli._demo import demo_files

OUT = Path(__file__).resolve().parent.parent / "docs" / "report.png"


def main() -> None:
    qrels, runs = demo_files()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "report.html"
        ranklens.report(str(qrels), {name: str(p) for name, p in runs.items()}, output=path,
                        missing="zero")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                        args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1040, "height": 1500},
                                    device_scale_factor=1)
            page.goto(path.as_uri())
            page.wait_for_function("window.__rendered === true", timeout=30_000)
            page.screenshot(path=str(OUT), full_page=False)
            browser.close()
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
