"""Start-up: what ``import ranklens`` and the command import before reading a line, and a
Ctrl-C during ``python -m ranklens``'s start-up (issue 13's small-input path, issue 14).

Each check runs in a fresh interpreter: the test process has imported everything already.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import ranklens

HEAVY = ("numpy", "polars", "scipy", "pyspark", "rich", "click", "pandas", "pyarrow")


def _modules_after(code: str) -> set[str]:
    """The module names loaded once ``code`` has run in a fresh interpreter."""
    script = code + "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))\n"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, timeout=300)
    return set(json.loads(out.stdout.splitlines()[-1]))


def test_import_ranklens_loads_no_heavy_module() -> None:
    loaded = _modules_after("import ranklens")
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))
    # nor any part of the engine: only the error classes (with the words they speak) and the
    # version
    assert {m for m in loaded if m.startswith("ranklens.")} == {
        "ranklens._base", "ranklens._base.errors", "ranklens._base.vocabulary",
        "ranklens._version"}


def test_public_names_load_on_first_use() -> None:
    loaded = _modules_after("import ranklens\nranklens.Qrels\nfrom ranklens import load_run")
    assert "ranklens._ingest.tables" in loaded and "ranklens._ingest.io._load" in loaded
    assert "polars" not in loaded  # loading a file imports it, naming the loader does not
    assert "ranklens._surfaces.compare" not in loaded and "scipy" not in loaded


def test_every_public_name_resolves_and_is_listed() -> None:
    assert set(ranklens.__all__) <= set(dir(ranklens))
    for name in ranklens.__all__:
        assert getattr(ranklens, name) is not None, name
    assert ranklens.from_pairs is ranklens._ingest.io._pairs.pairs_to_tables
    with pytest.raises(AttributeError, match="has no attribute 'evaluat'"):
        ranklens.evaluat  # noqa: B018


def test_the_command_imports_only_what_evaluate_needs(tmp_path: Path) -> None:
    q = tmp_path / "q"
    q.write_text("q1 0 a 1\nq1 0 b 0\n")
    r = tmp_path / "r"
    r.write_text("q1 Q0 a 1 2.0 t\nq1 Q0 b 2 1.0 t\n")
    code = (
        "import sys\nfrom ranklens.cli import main\n"
        f"try:\n    main(['evaluate', {str(q)!r}, {str(r)!r}, '-m', 'P@1', '--format', "
        "'jsonl'])\nexcept SystemExit as e:\n    assert e.code == 0, e.code\n"
    )
    script = code + "import json\nprint(json.dumps(sorted(sys.modules)))\n"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, timeout=300)
    first, last = out.stdout.splitlines()[0], out.stdout.splitlines()[-1]
    assert json.loads(first)["value"] == 1.0  # the output itself, unchanged
    loaded = set(json.loads(last))
    unneeded = {"rich", "scipy", "pyspark", "ranklens._surfaces.compare",
                "ranklens._surfaces.report", "ranklens._surfaces.trec_eval",
                "ranklens.cli._compare", "ranklens.cli._report", "ranklens.cli._trec_cmd"}
    assert not loaded & unneeded, sorted(loaded & unneeded)


def test_the_command_line_itself_loads_no_command() -> None:
    loaded = _modules_after("import ranklens.cli")
    assert not {m for m in loaded if m.startswith("ranklens.cli._")}
    assert not loaded & {"numpy", "polars", "rich", "scipy"}


def test_help_lists_every_command() -> None:
    from click.testing import CliRunner

    from ranklens.cli import cli

    out = CliRunner().invoke(cli, ["--help"])
    assert out.exit_code == 0
    listed = [line.split()[0] for line in out.output.split("Commands:")[1].splitlines()
              if line.strip()]
    assert listed == ["agree", "compare", "correlate", "demo", "evaluate", "exposure", "fuse",
                      "judge-export", "judge-merge", "judges", "measures", "off-policy", "pool",
                      "power", "report", "rollup", "sampled", "trec_eval"]


# ``python -m ranklens`` with an import hook that stops at a known point of start-up (the
# import of the command line) until a real SIGINT arrives: the marker file says it is there
_PAUSED_START_UP = """
import os, runpy, sys, time
class Pause:
    def find_spec(self, name, path=None, target=None):
        if name == "ranklens.cli":
            open(os.environ["MARKER"], "w").close()
            time.sleep(120)
sys.meta_path.insert(0, Pause())
sys.argv = ["ranklens", "measures"]
runpy.run_module("ranklens", run_name="__main__", alter_sys=True)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_during_python_m_ranklens_start_up_is_one_line(tmp_path: Path) -> None:
    marker = tmp_path / "paused"
    proc = subprocess.Popen([sys.executable, "-c", _PAUSED_START_UP],
                            env={**os.environ, "MARKER": str(marker)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while not marker.exists():
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "start-up never reached the pause"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert err.decode() == "ranklens: error: interrupted\n"
    assert proc.returncode == 130
    assert out == b""


def test_python_m_ranklens_runs_the_command(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "ranklens", "measures", "P@k"],
                          capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    assert b"P@" in done.stdout


def test_type_checkers_see_what_run_time_imports() -> None:
    """The ``TYPE_CHECKING`` imports of ``ranklens/__init__.py`` and the lazy table name the
    same (module, attribute) for every public name, so a type checker's ``ranklens.X`` is
    the object ``ranklens.X`` gives at run time."""
    import ast

    tree = ast.parse(Path(ranklens.__file__).read_text(encoding="utf-8"))
    (block,) = [n for n in tree.body if isinstance(n, ast.If)
                and ast.unparse(n.test) == "_typing.TYPE_CHECKING"]
    seen = {}
    for node in block.body:
        assert isinstance(node, ast.ImportFrom) and node.level == 1
        for alias in node.names:
            seen[alias.asname or alias.name] = (f".{node.module}", alias.name)
    assert seen == ranklens._LAZY
    eager = {"InputError", "MeasureError", "ParameterError", "RanklensError",
             "RanklensWarning", "__version__"}
    assert set(ranklens.__all__) == set(seen) | eager
