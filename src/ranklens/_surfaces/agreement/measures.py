"""The registry of run-vs-run measures: each name's kernel, parameters and facts.

The kernels (:mod:`.rbo`, :mod:`.sets`) register here; :mod:`.values` imports them and
holds the measure values and their names. The parameters are the one
:class:`~ranklens._base.params.Param` over the measures' spelled constraints, so they
parse, validate and print as every measure's do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from ..._base.params import Param, find_param
from ..._base.registry import Registry

if TYPE_CHECKING:
    from .rankings import Pairing

__all__ = ["AGREEMENT", "AgreementDef", "AgreementKernel", "Chosen", "register_agreement"]


class Chosen(Protocol):
    """What a kernel reads of the measure it computes (an ``AgreementMeasure``)."""

    @property
    def cutoff(self) -> int | None: ...

    def get(self, name: str) -> Any: ...


#: (pairing of the two runs' rankings, measure) -> one value per query of the pairing
AgreementKernel = Callable[["Pairing", Chosen], np.ndarray]


@dataclass(frozen=True)
class AgreementDef:
    """What the registry knows about one run-vs-run measure.

    Attributes
    ----------
    name : canonical name (``RBO``).
    kernel : ``f(pairing, measure) -> ndarray``, one value per query of the pairing.
    doc : one-line definition.
    params : declared parameters.
    cutoff_required : whether ``@k`` must be given (every measure takes one: the depth
        to which both rankings are read).
    aliases : other accepted names, matched case-insensitively.
    lower_is_better : smaller values mean more alike (RBO's residual).
    """

    name: str
    kernel: AgreementKernel
    doc: str
    params: tuple[Param, ...] = ()
    cutoff_required: bool = False
    aliases: tuple[str, ...] = ()
    lower_is_better: Callable[[Chosen], bool] | bool = False

    def param(self, name: str) -> Param:
        return find_param(self.name, self.params, name)


#: every run-vs-run measure, read by its name or an alias in any case
AGREEMENT: Registry[AgreementDef] = Registry("agreement measure")


def register_agreement(
    name: str, doc: str, *, params: Sequence[Param] = (), cutoff_required: bool = False,
    aliases: tuple[str, ...] = (), lower_is_better: Callable[[Chosen], bool] | bool = False,
) -> Callable[[AgreementKernel], AgreementKernel]:
    """Decorator: register ``kernel`` as the run-vs-run measure ``name``."""

    def deco(kernel: AgreementKernel) -> AgreementKernel:
        AGREEMENT.add(name, AgreementDef(name, kernel, doc, tuple(params), cutoff_required,
                                         aliases, lower_is_better), aliases)
        return kernel

    return deco
