"""Every command that evaluates offers exactly the engine's option values."""

from __future__ import annotations

import click
import pytest

from ranklens._model.policies import DUPLICATES, EMPTY, MISSING, TIES
from ranklens._names.conventions import CONVENTIONS
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


EVALUATION = ["--rel", "--ties", "--missing", "--empty", "--nonpositive", "--empty-ranking",
              "--duplicates",
              "--depth", "--judged-only", "--convention", "--collection-size", "--pairs"]


def _evaluation_params(command: click.Command) -> dict[str, dict[str, object]]:
    """Each evaluation option of ``command``: its flags, type, default and help."""
    out = {}
    for p in command.params:
        flag = next((o for o in p.opts if o.startswith("--")), None)
        if isinstance(p, click.Option) and flag in EVALUATION:
            kind = p.type
            out[flag] = {
                "name": p.name, "flags": tuple(p.opts), "help": p.help, "default": p.default,
                "flag_only": p.is_flag, "multiple": p.multiple,
                "type": (type(kind).__name__, tuple(getattr(kind, "choices", ()) or ()),
                         getattr(kind, "min", None), getattr(kind, "max", None)),
            }
    return out


def test_every_command_that_evaluates_has_every_evaluation_option() -> None:
    offered = {c.name: _evaluation_params(c) for c in (evaluate_cmd, compare_cmd, report_cmd)}
    for name, params in offered.items():
        assert sorted(params) == sorted(EVALUATION), name
    assert offered["compare"] == offered["evaluate"] == offered["report"]


def test_the_options_come_from_the_declaration() -> None:
    from ranklens._pipeline.options import declared

    params = _evaluation_params(evaluate_cmd)
    for name, decl in declared().items():
        assert params[decl.flag]["name"] == name
        assert params[decl.flag]["help"] == decl.help


@pytest.mark.parametrize("command", ["evaluate", "compare", "report"])
def test_help_lists_the_same_evaluation_options(command: str) -> None:
    from click.testing import CliRunner

    from ranklens.cli import cli

    text = CliRunner().invoke(cli, [command, "--help"], terminal_width=200).output
    for flag in EVALUATION:
        assert f"  {flag} " in text, (command, flag)


def test_keyword_types_match_the_values() -> None:
    from ranklens._pipeline.options import EvaluateOptions, OptionKwargs
    from ranklens._surfaces.compare.options import CompareKwargs, CompareOptions

    assert set(OptionKwargs.__annotations__) == {*EvaluateOptions.__dataclass_fields__,
                                                  "options"}
    assert set(CompareKwargs.__annotations__) == set(CompareOptions.__dataclass_fields__)
