"""docs/rag.md's walkthrough runs, block by block, in a fresh folder.

Its Python blocks run in order in one namespace (the first copies the bundled demo files);
each ``ranklens`` line of its bash blocks runs in process between them and must succeed.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from cli_support import run
from test_doc_examples import ROOT, blocks

PAGE = "docs/rag.md"


def test_every_block_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    ran = 0
    for line, lang, text in blocks(PAGE):
        if lang == "python":
            exec(compile(text, f"{PAGE}:{line}", "exec"), namespace)
            ran += 1
        elif lang == "bash":
            for command in text.splitlines():
                out = run(shlex.split(command)[1:], capsys)
                assert out.code == 0, f"{PAGE}:{line}: {command}\n{out.err}"
                ran += 1
    assert ran == 9  # 3 Python blocks, 6 commands
    assert "new judgments: 54;" in str(namespace["merged"].summary())  # type: ignore[attr-defined]
    assert (tmp_path / "merged.qrels.provenance.jsonl").read_text().count("\n") == 54


def test_sentences_are_short() -> None:
    prose = [ln for ln in (ROOT / PAGE).read_text("utf-8").split("```")[::2]]
    text = " ".join(ln for part in prose for ln in part.splitlines()
                    if ln and not ln.startswith(("|", "#")))
    words = [len(s.split()) for s in re.split(r"(?<=[.:!?])\s+", text) if s.strip()]
    assert max(words) <= 35 and sum(words) / len(words) <= 20, words
