"""How the ``ranklens`` command shows warnings: the user's data as ``ranklens: warning:``,
ranklens's own others by category, the dependencies' own (pyspark's pandas FutureWarning)
not as ranklens's (no Spark needed)."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import pytest

import ranklens
import ranklens.cli as cli
from ranklens import RanklensWarning

PACKAGE = Path(ranklens.__file__).parent
PYSPARK = os.path.join(os.sep, "venv", "lib", "site-packages", "pyspark", "sql", "pandas",
                       "utils.py")


def _shown(category: type[Warning], filename: str, debug: bool = False) -> None:
    """What the command's warning display prints for one warning raised in ``filename``."""
    saved = dict(cli._STATE)
    cli._STATE["debug"] = debug
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            warnings.showwarning = cli._show_warning
            warnings.warn_explicit("the words of it", category, filename, 7)
    finally:
        cli._STATE.update(saved)


@pytest.mark.parametrize("category", [FutureWarning, DeprecationWarning, UserWarning])
def test_a_dependencys_warning_is_not_shown_as_ranklens(capsys: pytest.CaptureFixture[str],
                                                        category: type[Warning]) -> None:
    _shown(category, PYSPARK)
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", "")


def test_debug_shows_a_dependencys_warning_in_pythons_format(
        capsys: pytest.CaptureFixture[str]) -> None:
    _shown(FutureWarning, PYSPARK, debug=True)
    err = capsys.readouterr().err
    assert "ranklens:" not in err
    assert f"{PYSPARK}:7: FutureWarning: the words of it" in err


def test_the_users_data_and_ranklens_own_warnings_are_shown_as_before(
        capsys: pytest.CaptureFixture[str]) -> None:
    _shown(RanklensWarning, str(PACKAGE / "_surfaces" / "evaluate.py"))
    _shown(RanklensWarning, PYSPARK)  # a RanklensWarning is about the data wherever raised
    _shown(FutureWarning, str(PACKAGE / "_ingest" / "io" / "_load.py"))
    assert capsys.readouterr().err.splitlines() == [
        "ranklens: warning: the words of it",
        "ranklens: warning: the words of it",
        "ranklens: FutureWarning: the words of it",
    ]
