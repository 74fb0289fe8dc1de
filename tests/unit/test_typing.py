"""The public API as a type checker sees it: option values are Literal types, one run gives a
Result and several give Results (the package ships py.typed, so users' mypy reads these)."""

from __future__ import annotations

from pathlib import Path

import pytest

api = pytest.importorskip("mypy.api")

SNIPPET = '''
import ranklens
one = ranklens.evaluate({"q": {"a": 1}}, "x.run", ["AP"], ties="docid", missing="skip")
reveal_type(one)
several = ranklens.evaluate({"q": {"a": 1}}, ["a.run", "b.run"], ["AP"], convention="ranx")
reveal_type(several)
bad = ranklens.evaluate({"q": {"a": 1}}, "x.run", ["AP"], ties="random")
'''


def test_options_are_checked_and_results_typed(tmp_path: Path) -> None:
    source = tmp_path / "use.py"
    source.write_text(SNIPPET)
    out, err, status = api.run([str(source), "--cache-dir", str(tmp_path / "cache"),
                                "--no-error-summary", "--hide-error-context"])
    lines = [line for line in out.splitlines() if "note:     def" not in line]
    assert 'Revealed type is "ranklens._results.result.Result"' in lines[0], out
    assert 'Revealed type is "ranklens._results.results.Results"' in lines[1], out
    errors = [line for line in lines if ": error:" in line]
    assert len(errors) == 1 and "use.py:7:" in errors[0], out  # ties="random" only
    assert status == 1, err
