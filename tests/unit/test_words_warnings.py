"""Issue 39's warnings: one per problem per call, naming each run as it was given, at the
caller's line (never a line of ranklens's own code)."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

import ranklens
from ranklens import RanklensWarning

QRELS = "q1 0 a 1\nq2 0 b 1\n"
RUN_A = "q1 Q0 a 1 1.0 A\nq3 Q0 z 1 1.0 A\n"
RUN_B = "q1 Q0 a 1 1.0 B\nq3 Q0 z 1 1.0 B\n"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    out = {}
    for name, text in (("qrels", QRELS), ("a", RUN_A), ("b", RUN_B)):
        (tmp_path / f"{name}.txt").write_text(text, encoding="utf-8")
        out[name] = str(tmp_path / f"{name}.txt")
    return out


def _caught(f: Any, *args: Any, **kwargs: Any) -> list[warnings.WarningMessage]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        f(*args, **kwargs)
    return [w for w in caught if issubclass(w.category, RanklensWarning)]


def test_one_warning_per_problem(files: dict[str, str]) -> None:
    said = [str(w.message) for w in _caught(ranklens.evaluate, files["qrels"],
                                           [files["a"], files["b"]], ["AP"])]
    ignored = [m for m in said if "have no judgments" in m]
    assert len(ignored) == 1, said
    assert files["a"] in ignored[0] and files["b"] in ignored[0]


def test_warnings_name_the_run_as_given(files: dict[str, str]) -> None:
    said = [str(w.message) for w in _caught(ranklens.evaluate, files["qrels"],
                                           {"pop": files["a"], "x": files["b"]}, ["AP"])]
    assert said and all("(pop, x)" in m for m in said), said
    assert not any(files["a"] in m for m in said)


@pytest.mark.parametrize("call", ["evaluate", "compare", "judgments", "trec_eval"])
def test_warnings_point_at_the_callers_line(files: dict[str, str], call: str) -> None:
    runs = {"pop": files["a"], "x": files["b"]}
    if call == "evaluate":
        caught = _caught(ranklens.evaluate, files["qrels"], runs, ["AP"])
    elif call == "compare":
        caught = _caught(ranklens.compare, files["qrels"], runs, ["AP"])
    elif call == "judgments":
        judged = ranklens.Judgments(files["qrels"], ["AP"])
        caught = _caught(judged.evaluate, runs)
    else:
        caught = _caught(ranklens.trec_eval, files["qrels"], files["a"], ["map"])
    assert caught
    assert {w.filename for w in caught} == {__file__}, [(w.filename, w.lineno)
                                                        for w in caught]
