"""User documentation names public things only: no private module path (``ranklens/_x``,
``ranklens._x``) in the pages a user reads to use ranklens. docs/architecture.md, the
contributors' page, and the measure/benchmark pages that point contributors at the code
are the exceptions."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
USER_PAGES = ["trec_eval.md", "cli.md", "compare.md", "conventions.md", "spark.md",
              "agreement.md", "training.md", "beyond-accuracy.md", "results.md",
              "segments.md", "rag-inputs.md", "rag.md", "rag-measures.md",
              "ko/index.md", "ko/measures.md", "ko/rag.md", "ko/recommender.md", "index.md",
              "start/trec.md", "start/recommender.md", "start/rag.md", "start/training.md",
              "start/big-data.md", "start/which-measure.md", "citing.md", "tour.md"]
PRIVATE = re.compile(r"ranklens[/.]_[a-z]")


@pytest.mark.parametrize("page", USER_PAGES)
def test_a_user_page_names_no_private_module(page: str) -> None:
    lines = (DOCS / page).read_text(encoding="utf-8").splitlines()
    found = [f"{page}:{n}: {line.strip()}" for n, line in enumerate(lines, 1)
             if PRIVATE.search(line)]
    assert found == [], "\n".join(found)
