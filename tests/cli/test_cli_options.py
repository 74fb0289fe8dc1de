"""Every command that evaluates offers exactly the engine's option values."""

from __future__ import annotations

import click
import pytest

from ranklens._conventions import CONVENTIONS
from ranklens._model.policies import DUPLICATES, EMPTY, MISSING, TIES
from ranklens.cli._compare import compare_cmd
from ranklens.cli._evaluate import evaluate_cmd
from ranklens.cli._report import report_cmd

ENGINE = {"ties": TIES, "missing": MISSING, "empty": EMPTY, "duplicates": DUPLICATES,
          "convention": tuple(CONVENTIONS)}


@pytest.mark.parametrize("command", [evaluate_cmd, compare_cmd, report_cmd],
                         ids=lambda c: c.name)
def test_choices_are_the_engines(command: click.Command) -> None:
    offered = {p.name: tuple(p.type.choices) for p in command.params
               if isinstance(p.type, click.Choice) and p.name in ENGINE}
    assert offered, command.name
    for name, choices in offered.items():
        assert choices == ENGINE[name], (command.name, name)
