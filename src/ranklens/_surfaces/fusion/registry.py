"""The fusion methods by name: each method module registers its kernel with every fact
about it (aliases, ranx's name, parameters and their constraints, weights, supervision),
so that nothing else lists them.

A kernel is a function ``(inputs: Inputs, **params) -> ndarray`` giving one fused score per
candidate row. Supervised methods register the same way with ``supervised=True``; their
kernels also read ``inputs.train``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..._base.errors import ParameterError
from ..._base.params import Param
from ..._base.registry import Registry
from ..._base.validate import Number
from .candidates import Candidates

__all__ = ["METHODS", "Inputs", "Method", "Number", "Param", "load_methods", "lookup", "register"]


@dataclass(frozen=True)
class Inputs:
    """What a kernel reads: the candidates, the normalised scores, the ranks after the
    normalisation (a re-ranking one changes them), the list lengths, the runs' weights
    (ones when the method takes none) and, for supervised methods, the training judgments."""

    candidates: Candidates
    score: np.ndarray
    rank: np.ndarray
    length: np.ndarray
    weights: np.ndarray
    train: Any = None

    @property
    def present(self) -> np.ndarray:
        """Whether run ``r`` has the row's document, shape (U, R)."""
        return self.rank > 0


Kernel = Callable[..., np.ndarray]


@dataclass(frozen=True)
class Method:
    """A registered fusion method."""

    name: str
    kernel: Kernel
    doc: str
    aliases: tuple[str, ...] = ()
    params: tuple[Param, ...] = ()
    weights: bool = False
    supervised: bool = False
    #: whether the fused scores are pairwise ranks (Condorcet: no final tie order of ranx)
    pairwise: bool = False

    def resolve(self, given: Mapping[str, Any]) -> dict[str, float]:
        """``given`` checked against the parameters, defaults filled in.

        Raises
        ------
        ParameterError
            An unknown or missing parameter, or one outside its constraint.
        """
        known = {p.name: p for p in self.params}
        unknown = sorted(set(given) - set(known))
        if unknown:
            takes = ", ".join(known) if known else "no parameter"
            raise ParameterError(
                f"the fusion method {self.name!r} takes {takes}; got the parameter "
                f"{unknown[0]!r}")
        out: dict[str, float] = {}
        for p in self.params:
            value = given.get(p.name, p.default)
            if value is None:
                raise ParameterError(
                    f"the fusion method {self.name!r} needs the parameter {p.name!r} "
                    f"({p.constraint.describe()}: {p.doc})")
            if not p.constraint.accepts(value):
                raise ParameterError(
                    f"the {p.name!r} parameter of {self.name!r} must be "
                    f"{p.constraint.describe()}; got {value!r}")
            out[p.name] = value
        return out


#: every method, read by its name or an alias compared without case, ``-`` as ``_``
METHODS: Registry[Method] = Registry("fusion method",
                                     lambda name: name.lower().replace("-", "_"))


def register(name: str, doc: str | None = None, *, aliases: tuple[str, ...] = (),
             params: tuple[Param, ...] = (), weights: bool = False,
             supervised: bool = False, pairwise: bool = False) -> Callable[[Kernel], Kernel]:
    """Register a kernel under ``name`` and ``aliases`` (``doc``: the kernel's docstring
    when not given)."""
    def add(kernel: Kernel) -> Kernel:
        METHODS.add(name, Method(name, kernel, doc or kernel.__doc__ or name, aliases, params,
                                 weights, supervised, pairwise), aliases)
        return kernel
    return add


def load_methods() -> None:
    """Import every method module (they register themselves on import): by name, since
    the methods import this registry."""
    import importlib

    for package in ("methods", "supervised"):
        importlib.import_module(f"{__package__}.{package}")


def lookup(name: object, option: str = "'method' option") -> Method:
    """The method ``name`` stands for (``option``: how the message names where it was given).

    Raises
    ------
    ParameterError
        ``name`` is not a method name or alias; the message lists the methods and suggests
        the closest.
    """
    load_methods()
    found = METHODS.lookup(name)
    if found is None:
        close = METHODS.suggest(str(name), 1, 0.6)
        hint = f" (did you mean {METHODS.canonical(close[0])!r}?)" if close else ""
        raise ParameterError(f"the {option} must be one of {', '.join(sorted(METHODS))}; "
                             f"got {name!r}{hint}")
    return found
