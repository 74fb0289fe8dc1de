"""The Korean guide (docs/ko) shows what ranklens computes.

A ```text block right after a ```python block is that block's output, exactly; right after a
one-command ```bash block it is part of the command's output. Every decimal number of the
prose appears in one of those outputs, so none is typed by hand. test_doc_examples.py runs
the blocks too; this module checks their outputs and the sentence lengths of the guide and
of the English pages issue 44 shortened.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import shutil
from pathlib import Path

import pytest
from cli_support import run
from test_doc_examples import DATA, ROOT, blocks

import ranklens

PAGES = ("docs/ko/index.md", "docs/ko/measures.md", "docs/ko/rag.md", "docs/ko/recommender.md")
#: Version numbers, the only decimals of the prose that are not computed.
VERSIONS = ("trec_eval 10.0", "Python 3.10")


def outputs(page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
            capsys: pytest.CaptureFixture[str]) -> list[tuple[int, str, str]]:
    """(line, shown, printed) for every block the page follows with its output; a command's
    printed output is cut to the part shown when it holds that part."""
    monkeypatch.chdir(tmp_path)
    for path in DATA.iterdir():  # the bundled demo files, as `ranklens demo` names them
        if path.suffix in (".qrels", ".run", ".txt", ".tsv", ".jsonl"):
            shutil.copyfile(path, tmp_path / path.name)
    found, scope = [], {"ranklens": ranklens}
    listed = blocks(page)
    for (line, lang, text), after in zip(listed, [*listed[1:], (0, "", "")], strict=True):
        if lang == "python":
            with contextlib.redirect_stdout(io.StringIO()) as printed:
                exec(compile(text, f"{page}:{line}", "exec"), scope)
            result = printed.getvalue().strip()  # exactly the block's output
        elif lang == "bash" and after[1] == "text":
            command = text.split("&&")[-1]  # after `cd` into the data folder, copied here
            out = run(shlex.split(command, comments=True)[1:], capsys).out
            result = after[2].strip() if after[2].strip() in out else out  # a part of it
        else:
            continue
        if after[1] == "text":
            found.append((line, after[2], result))
    return found


@pytest.mark.parametrize("page", PAGES)
def test_the_outputs_shown_are_printed(page: str, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    checked = outputs(page, tmp_path, monkeypatch, capsys)
    assert len(checked) >= 3, f"{page} shows fewer than three outputs"
    for line, shown, printed in checked:
        assert shown.strip() == printed, f"{page}:{line} prints\n{printed}\nnot\n{shown}"
    prose = "".join(re.split(r"```.*?```", (ROOT / page).read_text("utf-8"), flags=re.S))
    for version in VERSIONS:
        prose = prose.replace(version, "")
    numbers = set(re.findall(r"(?<![\d.])\d+\.\d+", prose))
    typed = [n for n in numbers if not any(n in shown for _, shown, _ in checked)]
    assert typed == [], f"{page}: numbers in the text that no example prints: {typed}"
