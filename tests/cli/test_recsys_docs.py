"""docs/recsys-protocols.md's examples run on the bundled demo data (sampled metrics and
propensity-scored measures): its Python blocks in order in one namespace, each shell line
through the command line; and the CLI's usage errors are one line with exit status 2."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest
from cli_support import run

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "src" / "ranklens" / "data"
PAGE = (ROOT / "docs" / "recsys-protocols.md").read_text(encoding="utf-8")
SHELL = [line for block in re.findall(r"```bash\n(.*?)```", PAGE, re.S)
         for line in block.splitlines() if line.startswith("ranklens sampled")]


@pytest.fixture
def demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for path in DATA.glob("demo-recs*"):
        shutil.copyfile(path, tmp_path / path.name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_python_blocks_run(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocks = re.findall(r"```python\n(.*?)```", PAGE, re.S)
    assert len(blocks) >= 4
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, "recsys-protocols.md", "exec"), namespace)
    assert "0.77 0.51" in capsys.readouterr().out  # the comment the page shows


@pytest.mark.parametrize("line", SHELL)
def test_shell_lines_run(line: str, demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(shlex.split(line)[1:], capsys)
    assert out.code == 0, out.err
    assert "corrected" in out.out


@pytest.mark.parametrize(("args", "message"), [
    (["missing.tsv"], "missing.tsv: no such file (expected sampled ranks)"),
    (["demo-recs-sampled-personal.tsv", "-m", "MRR@5"], "'MRR@5' is not one ranklens corrects"),
    (["demo-recs-sampled-personal.tsv", "demo-recs-sampled-personal.tsv"], "share a name")])
def test_usage_errors_are_one_line(args: list[str], message: str, demo: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["sampled", *args], capsys)
    assert out.code == 2 and message in out.err and len(out.err.strip().splitlines()) == 1
    assert "Traceback" not in out.err


def test_output_on_an_input_is_refused(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = (demo / "demo-recs-sampled-personal.tsv").read_bytes()
    out = run(["sampled", "demo-recs-sampled-personal.tsv", "-o",
               "demo-recs-sampled-personal.tsv"], capsys)
    assert out.code == 2 and "-o demo-recs-sampled-personal.tsv is one of the input" in out.err
    assert (demo / "demo-recs-sampled-personal.tsv").read_bytes() == before
