"""The command's setting of polars's allocator (``_ranklens_entry``): large freed blocks
go back to the system while the command runs, unless the user configured it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

# the entry point run with a stand-in for the command line, which reports the variable
_ENTRY = """
import os, sys, types
import ranklens
cli = types.ModuleType("ranklens.cli")
cli.run = lambda: sys.stderr.write("CONF=" + os.environ.get("_RJEM_MALLOC_CONF", "-"))
sys.modules["ranklens.cli"] = cli
import _ranklens_entry
_ranklens_entry.run()
assert "polars" not in sys.modules  # so polars will read it when it is loaded
"""


@pytest.mark.parametrize("given", [None, "dirty_decay_ms:0"])
def test_the_command_sets_the_allocator_unless_the_user_did(given: str | None) -> None:
    env = {k: v for k, v in os.environ.items() if k != "_RJEM_MALLOC_CONF"}
    if given is not None:
        env["_RJEM_MALLOC_CONF"] = given
    done = subprocess.run([sys.executable, "-c", _ENTRY], capture_output=True, env=env,
                          timeout=300)
    assert done.returncode == 0, done.stderr.decode()
    conf = done.stderr.decode().removeprefix("CONF=")
    assert conf == (given or "oversize_threshold:131072")
