"""Every option of a comparison, declared once: :class:`CompareOptions`.

The evaluation options are :class:`~ranklens._pipeline.options.EvaluateOptions`; these
are the test's. Both are checked by the same declarative constraints
(:mod:`ranklens._base.validate`), so every message names the option, the constraint and the
value given.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Literal, TypedDict, get_args

from ..._base.draws import MAX_DRAWS
from ..._base.errors import ParameterError
from ..._base.validate import Choice, Constraint, Integer, Interval, check
from ..._pipeline.options import Declared

__all__ = ["CI_METHODS", "CORRECTIONS", "TESTS", "CompareKwargs", "CompareOptions",
           "compare_options"]

Test = Literal["t", "randomization", "wilcoxon", "sign", "bootstrap", "tukey",
               "randomized-tukey"]
CorrectionName = Literal["holm", "bonferroni", "fdr_bh", "none", "tukey", "randomized-tukey"]
CiMethod = Literal["t", "percentile", "basic", "bca", "bootstrap"]
Scope = Literal["measure", "all"]

TESTS: tuple[str, ...] = get_args(Test)
CORRECTIONS: tuple[str, ...] = get_args(CorrectionName)
CI_METHODS: tuple[str, ...] = get_args(CiMethod)
TUKEY = ("tukey", "randomized-tukey")
#: numpy's generators take any seed >= 0; the records store it as a 64-bit integer.
SEED_MAX = 2 ** 63 - 1


def _option(default: Any, constraint: Constraint, help: str = "",
            kind: type | None = None) -> Any:
    return field(default=default, metadata={"declared": Declared(constraint, help, kind=kind)})


@dataclass(frozen=True)
class CompareOptions:
    """How runs are compared (see :func:`ranklens.compare` for each option).

    ``test`` and ``correction`` are None when not given, and resolve here: ``test``
    defaults to ``"t"``; ``correction`` to ``"holm"`` for the pairwise tests and to the
    Tukey test's own name for a Tukey test (its control is family-wise already);
    ``correction="tukey"`` or ``"randomized-tukey"`` without a test selects that test. A
    Tukey name together with a different explicit test or correction is a conflict (a
    :class:`ParameterError` naming both), never silently dropped. ``ci="bootstrap"`` is
    ``"bca"``. ``seed`` is any integer numpy's generators take that an Int64 column holds
    (0 to 2**63 - 1).

    Examples
    --------
    >>> CompareOptions(test="tukey").correction
    'tukey'
    >>> CompareOptions(correction="randomized-tukey").test
    'randomized-tukey'
    >>> CompareOptions(test="t", correction="tukey")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ranklens._base.errors.ParameterError: the 'test' option 't' and the 'correction' option ...
    >>> CompareOptions(alpha=1.5)
    Traceback (most recent call last):
    ...
    ranklens._base.errors.ParameterError: the 'alpha' option must be between 0 and 1; got 1.5
    """

    baseline: str | None = _option(None, Choice((), none=True))  # checked against the runs
    test: Test = _option(None, Choice(TESTS, none=True),
        "Paired test (default: t); tukey and randomized-tukey compare 3+ runs family-wise.")
    correction: CorrectionName = _option(None, Choice(CORRECTIONS, none=True),
        "Multiple-testing correction over each measure's comparisons (default: holm; a "
        "Tukey test's own; a Tukey name with another --test is an error).")
    correction_scope: Scope = _option("measure", Choice(("measure", "all")),
        "One family per measure, or all measures pooled.")
    alpha: float = _option(0.05, Interval(0, 1),
        "Significance level of the marks (adjusted p < alpha).", float)
    seed: int = _option(0, Integer(0, SEED_MAX),
        "Seed of the permutation and bootstrap streams (0 to 2**63 - 1).", int)
    permutations: int = _option(9999, Integer(1, MAX_DRAWS),
        "Sign patterns sampled when a randomization test is not exact (100000 for "
        "publication).")
    ci: CiMethod = _option("t", Choice(CI_METHODS),
        "Interval of the difference: t, or a paired bootstrap.")
    confidence: float = _option(0.95, Interval(0, 1), "Level of the intervals.", float)
    resamples: int = _option(9999, Integer(1, MAX_DRAWS),
        "Bootstrap resamples (with --ci percentile/basic/bca).")
    block_size: int = _option(512, Integer(1))

    def __post_init__(self) -> None:
        for f in fields(self):
            if f.name != "baseline":
                check(f.name, getattr(self, f.name), f.metadata["declared"].constraint)
        if self.baseline is not None and not isinstance(self.baseline, str):
            raise ParameterError("the 'baseline' option must be a run's name; got "
                                 f"{self.baseline!r}")
        test, correction = _resolved(self.test, self.correction)
        object.__setattr__(self, "test", test)
        object.__setattr__(self, "correction", correction)
        if self.ci == "bootstrap":
            object.__setattr__(self, "ci", "bca")


def _resolved(test: str | None, correction: str | None) -> tuple[str, str]:
    """The test and correction used, from those given (None: not given)."""
    if test is None and correction in TUKEY:
        return correction, correction
    test = "t" if test is None else test
    if correction is None:
        return test, test if test in TUKEY else "holm"
    if (test in TUKEY or correction in TUKEY) and test != correction:
        raise ParameterError(
            f"the 'test' option {test!r} and the 'correction' option {correction!r} "
            "conflict: a Tukey HSD test is its own family-wise correction; give only one")
    return test, correction


class CompareKwargs(TypedDict, total=False):
    """:class:`CompareOptions`'s fields as keywords; a test holds the two equal."""

    baseline: str | None
    test: Test | None
    correction: CorrectionName | None
    correction_scope: Scope
    alpha: float
    seed: int
    permutations: int
    ci: CiMethod
    confidence: float
    resamples: int
    block_size: int


def compare_options(kwargs: dict[str, Any]) -> tuple[CompareOptions, dict[str, Any]]:
    """The comparison's options out of ``kwargs``, and what is left (evaluation options)."""
    names = CompareOptions.__dataclass_fields__
    mine = {k: v for k, v in kwargs.items() if k in names}
    return CompareOptions(**mine), {k: v for k, v in kwargs.items() if k not in names}
