"""Code comments and docstrings say why, not how fast: benchmark figures live in docs/benchmarks.md.

A timing, a memory figure or a speed ratio in a comment goes stale with the next change; the
reason it supports does not. This test scans every comment and docstring under ``src/`` and
fails naming each ``file:line`` that carries a measured figure.
"""

from __future__ import annotations

import ast
import io
import os
import re
import tokenize
from pathlib import Path

import pytest

# RANKLENS_SCAN_SRC points the scan at another tree (an older checkout: it finds figures there).
SRC = Path(os.environ.get("RANKLENS_SCAN_SRC", Path(__file__).resolve().parents[2] / "src"))

_NUMBER = r"(?<![\w%.-])~?\d[\d,]*(?:\.\d+)?"
# A duration in a comment is always a measurement.
_TIME = re.compile(rf"{_NUMBER}\s?(?:ms|s|sec|seconds|µs|us)\b")
# A measured quantity when benchmark words go with it: a time, a memory size or a speed ratio.
_FIGURE = re.compile(
    rf"{_NUMBER}\s?(?:ms|s|sec|seconds|µs|us|MB|GB|MiB|GiB|KB|KiB)\b"
    rf"|{_NUMBER}\s?x\b(?!\s*\d)"
    rf"|{_NUMBER}\s?%"
    rf"|\b\d+(?:\.\d+)?\s?(?:times)\s+(?:faster|slower|less|more|lower|higher)"
)
# Words that mark a figure as a benchmark result rather than a size bound or a format's limit.
_LOG_WORDS = re.compile(
    r"\b(?:against|vs\.?|took|takes|peak|peaks|measured|faster|slower|cheaper|dearer|saves?|saved"
    r"|lower|higher|less|more|best of|median|wall|CPU|RSS|Robust ?x\d+|x1[03]|x30|msmarco|recsys"
    r"|trecdl|MS MARCO|preset|benchmark|costs?|held|spent|instead of)\b",
    re.IGNORECASE,
)

# Sizes that are design facts (a limit, a bound, an option's example), not measurements.
_ALLOWED = ("128 KiB and more", "log2 values kept (32 MB)", "first 4 MB of text", '``"2GB"``',
            "one per 40 MB of the run")


def _blocks(path: Path) -> list[list[tuple[int, str]]]:
    """The comment blocks (consecutive comment lines) and docstrings of one source file, each
    as (line, text) pairs; ``>>>`` examples are left out (their output is not a log)."""
    source = path.read_text(encoding="utf-8")
    blocks: list[list[tuple[int, str]]] = []
    last = -1
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            line = token.start[0]
            if line != last + 1 or not blocks:
                blocks.append([])
            blocks[-1].append((line, token.string))
            last = line
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                value = body[0].value.value
                if isinstance(value, str):
                    blocks.append([(body[0].lineno + offset, line)
                                   for offset, line in enumerate(value.splitlines())
                                   if not line.lstrip().startswith((">>>", "..."))])
    return blocks


def benchmark_figures(src: Path) -> list[str]:
    """Return ``file:line: text`` for every comment or docstring line holding a figure with a
    benchmark's words on it or on a neighbouring line of the same comment or docstring."""
    hits = []
    for path in sorted(src.rglob("*.py")):
        for block in _blocks(path):
            for i, (line, text) in enumerate(block):
                around = " ".join(t for _, t in block[max(i - 1, 0):i + 2])
                if ((_TIME.search(text) or (_FIGURE.search(text) and _LOG_WORDS.search(around)))
                        and not any(fact in text for fact in _ALLOWED)):
                    hits.append(f"{path.relative_to(src)}:{line}: {text.strip()}")
    return hits


def test_scanner_finds_benchmark_logs(tmp_path: Path) -> None:
    (tmp_path / "logged.py").write_text(
        '"""Sorted by numpy (0.34 s against 0.02 s for Robust x13).\n\n'
        '>>> 1 + 1\n2\n"""\n\n'
        "# the judgments as codes: ~27 MB instead of ~100 MB\n"
        "X = 1  # a list: importing numpy.ma costs ~10 ms\n"
        "\n"
        "# a table of at most 2**22 slots (16 MB)\n"
        "Y = 2\n", encoding="utf-8")
    hits = sorted(hit.split(": ")[0] for hit in benchmark_figures(tmp_path))
    assert hits == ["logged.py:1", "logged.py:7", "logged.py:8"]


@pytest.mark.skipif(not SRC.is_dir(), reason="no source tree to scan")
def test_no_benchmark_figures_in_src() -> None:
    hits = benchmark_figures(SRC)
    assert not hits, "benchmark figures belong in docs/benchmarks.md:\n" + "\n".join(hits)
