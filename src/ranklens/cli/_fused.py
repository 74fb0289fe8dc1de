"""``--fuse METHOD[:NAME=VALUE,...]`` of ``evaluate``, ``compare`` and ``report``: the fused
run beside the inputs, and its name."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._base.errors import ParameterError

__all__ = ["fused_beside", "fusion_spec", "parse_params", "with_fused_name"]


def parse_params(values: Sequence[str], option: str = "--param",
                 form: str = "NAME=NUMBER (e.g. k=60)") -> dict[str, float]:
    """``--param k=60`` values (of ``option``, written as ``form``) as a mapping of numbers.

    Raises
    ------
    ParameterError
        A value that is not ``NAME=NUMBER``.
    """
    out: dict[str, float] = {}
    for value in values:
        name, sep, number = value.partition("=")
        try:
            if not sep or not name.strip():
                raise ValueError
            parsed = float(number)
        except ValueError:
            raise ParameterError(f"the '{option}' option must be {form}; got {value!r}"
                                 ) from None
        if name.strip() in out:
            raise ParameterError(f"the '{option}' option gives the parameter "
                                 f"{name.strip()!r} twice; give it once")
        out[name.strip()] = int(parsed) if parsed.is_integer() and "." not in number \
            and "e" not in number.lower() else parsed
    return out


def fusion_spec(spec: str) -> tuple[Any, dict[str, float]]:
    """The method and parameters ``--fuse`` names (``rbc:phi=0.8,...``), every parameter the
    method needs given.

    Raises
    ------
    ParameterError
        An unknown or supervised method, a parameter not ``NAME=NUMBER``, a missing one.
    """
    from .._surfaces.fusion.registry import lookup

    method, _, given = spec.partition(":")
    m = lookup(method, "'--fuse' option")
    if m.supervised:  # its training judgments have no option here
        raise ParameterError(f"the '--fuse' option takes the unsupervised methods; "
                             f"{m.name!r} learns from judgments: fuse with 'ranklens fuse "
                             f"--method {m.name} --train QRELS' and evaluate the fused run")
    params = parse_params([p for p in given.split(",") if p.strip()], "--fuse",
                          "METHOD:NAME=NUMBER,... (e.g. rbc:phi=0.8)")
    needed = [p.name for p in m.params if p.default is None and p.name not in params]
    if needed:
        raise ParameterError(f"the '--fuse' option must give the {m.name!r} parameter "
                             f"{needed[0]!r} after the method, e.g. --fuse "
                             f"{m.name}:{needed[0]}=0.8; got {spec!r}")
    return m, params


def fused_beside(labels: Sequence[str], paths: Sequence[str], spec: str,
                 columns: tuple[str, ...] | None = None) -> tuple[list[str], dict[str, Any]]:
    """The runs ``paths`` loaded (named ``labels``; headerless files with ``columns``) and,
    after them, their fusion by the method ``spec`` names, named after the method
    (``fused-<method>`` when a run has that name)."""
    from .._ingest.io._load import load_run
    from .._surfaces.fusion.fuse import fuse

    names = with_fused_name(labels, spec)
    m, params = fusion_spec(spec)
    loaded = {label: load_run(path, name=label, columns=columns) for label, path in
              zip(labels, paths, strict=True)}
    return names, {**loaded, names[-1]: fuse(loaded, m.name, params=params, name=names[-1])}


def with_fused_name(labels: Sequence[str], spec: str) -> list[str]:
    """``labels`` and, last, the fused run's name: the method's (``fused-<method>`` when a
    run has that name already).

    Raises
    ------
    ParameterError
        Fewer than two runs, or a ``spec`` :func:`fusion_spec` refuses.
    """

    if len(labels) < 2:
        raise ParameterError(f"the '--fuse' option fuses two RUNS or more; got "
                             f"{len(labels)} (give more RUNS or leave out --fuse)")
    name = fusion_spec(spec)[0].name
    return [*labels, name if name not in labels else f"fused-{name}"]
