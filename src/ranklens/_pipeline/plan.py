"""The plan of an evaluation: what to compute and under which options, checked before any load.

A :class:`Plan` is a frozen value. Everything that can be wrong with a request (an unknown
measure, an option outside its choices, a run name that is not a string) is reported while
it is made, so no file is read for a request that cannot run.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from .._base.errors import ParameterError
from .._base.validate import Text, check
from .._base.vocabulary import IR, Vocabulary, vocabulary_of
from .._measures import Measure
from .._model.policies import Empty, Policies
from .._names import expand_trec_lists, parse_measures
from .options import EvaluateOptions, Nonpositive, options_of

__all__ = ["Plan", "make_plan", "planned"]


@dataclass(frozen=True)
class Plan:
    """What one evaluation computes and how.

    Attributes
    ----------
    names : the measure names as written, unique, in request order.
    measures : the parsed :class:`Measure` of each name, the convention applied.
    policies : the options alignment applies (``policies.warn_missing``: whether the
        caller left ``missing`` unset and should be told about missing queries).
    empty : the policy for queries without a relevant judgment.
    run_name : the name given for the run, or None for the run's own (its TREC tag).
    conventions : the options in force, as ``Result.conventions`` records them.
    options : the options as given (before the convention fills those left unset).
    nonpositive : whether a document scored <= 0 is never a hit in the measures that
        declare it (``"unjudged"``) or read as given (``"judged"``): the ``nonpositive``
        option, or the convention's.
    vocabulary : the words of its messages and tables (:meth:`speaking`: users and items
        for a recommender's tables, chosen once its inputs are read).
    """

    names: tuple[str, ...]
    measures: tuple[Measure, ...]
    policies: Policies
    empty: Empty
    run_name: str | None
    conventions: Mapping[str, Any]
    options: EvaluateOptions
    nonpositive: Nonpositive = "judged"
    vocabulary: Vocabulary = IR

    def speaking(self, users: bool) -> Plan:
        """This plan, its words a recommender's when ``users`` (both inputs were read from
        user and item columns), else information retrieval's."""
        words = vocabulary_of(users)
        return self if words == self.vocabulary else replace(self, vocabulary=words)

    @property
    def canonical(self) -> tuple[Measure, ...]:
        """The distinct measures to compute (two spellings of one measure are computed once)."""
        return tuple(dict.fromkeys(self.measures))

    def measure_of(self) -> dict[str, Measure]:
        """``{written name: parsed measure}``, in request order."""
        return dict(zip(self.names, self.measures, strict=True))


def _written(measures: str | Measure | Iterable[str | Measure]) -> list[str | Measure]:
    """The requested measures, one per written name (a Result's keys must be unique)."""
    if isinstance(measures, (str, Measure)):
        measures = [measures]
    try:
        listed = list(measures)  # a generator would be exhausted by the first pass
    except TypeError:
        raise ParameterError(
            "the 'measures' argument must be a name, a Measure or a list of them, "
            f"got {type(measures).__name__}"
        ) from None
    by_name: dict[str, str | Measure] = {}
    for item in listed:
        for m in expand_trec_lists(item):  # P_5,10 -> P_5, P_10 (trec_eval's -m lists)
            by_name.setdefault(m if isinstance(m, str) else str(m), m)
    if not by_name:
        raise ParameterError("the 'measures' argument is empty; name at least one measure")
    return list(by_name.values())


def make_plan(
    measures: str | Measure | Iterable[str | Measure],
    options: EvaluateOptions | None = None,
    *,
    run_name: str | None = None,
    **kwargs: Any,
) -> Plan:
    """Parse the measures, apply the convention and check every option.

    Parameters
    ----------
    measures : str, Measure or list of them
        As for :func:`ranklens.evaluate`.
    options : EvaluateOptions, optional
        The options; ``**kwargs`` may give them instead (or add to them: see
        :func:`~ranklens._pipeline.options.options_of`).
    run_name : str, optional
        The name given for the run (None: the run's own, its TREC tag).

    Returns
    -------
    Plan
        The checked request.

    Raises
    ------
    MeasureError
        A measure name is unknown or malformed (every bad name is reported at once).
    ParameterError
        An option is outside its choices, unknown or given twice.
    """
    opts = options_of(options, **kwargs)
    written = _written(measures)
    names = tuple(m if isinstance(m, str) else str(m) for m in written)
    conv = opts.resolved
    parsed = tuple(conv.apply(m, w) for m, w in zip(parse_measures(written), written,
                                                      strict=True))
    # the convention fills in the options not given
    ties, empty, missing, nonpositive = (
        getattr(conv, name) if getattr(opts, name) is None else getattr(opts, name)
        for name in ("ties", "empty", "missing", "nonpositive"))
    check("run_name", run_name, Text(none=True))
    policies = Policies(
        rel=opts.rel,
        missing=missing if missing is not None else "zero",
        duplicates=opts.duplicates,
        depth=opts.depth,
        judged_only=opts.judged_only,
        ties=ties,
        collection_size=opts.collection_size,
        warn_missing=missing is None,
        missing_given=missing is not None,
        match=opts.judged_only or any(m.definition.facts.reads_judgments for m in parsed),
    )
    conventions = {
        "ties": ties, "rel": opts.rel, "missing": policies.missing,
        "duplicates": opts.duplicates, "depth": opts.depth, "judged_only": opts.judged_only,
        "empty": empty, **conv.describe(),
    }
    if opts.empty_ranking != "zero":  # recorded when given (the default's records unchanged)
        conventions["empty_ranking"] = opts.empty_ranking
    if nonpositive != "judged":  # recorded when in force (the default's records unchanged)
        conventions["nonpositive"] = nonpositive
    return Plan(names=names, measures=parsed, policies=policies, empty=empty,
                run_name=run_name, conventions=MappingProxyType(conventions), options=opts,
                nonpositive=nonpositive)


#: the option values a kept plan may be asked with (by type: 1 and True are told apart)
_PLAIN = (str, int, float, bool, type(None))


def planned(measures: str | Measure | Iterable[str | Measure],
            options: EvaluateOptions | None = None, *, run_name: str | None = None,
            **kwargs: Any) -> Plan:
    """:func:`make_plan`, its plans kept for the last requests written as names and plain
    option values (a training loop's validation asks the same every round, and parsing
    the names is a visible share of a small evaluation). A plan is a frozen value, so
    sharing it changes nothing; a request that fails is never kept, and fails again."""
    names: tuple[Any, ...] | None = None
    if isinstance(measures, str):
        names = (measures,)
    elif isinstance(measures, (list, tuple)):
        names = tuple(measures)
    if names is None or options is not None or type(run_name) not in (str, type(None)) or \
            not all(type(m) is str for m in names) or \
            not all(type(v) in _PLAIN for v in kwargs.values()):
        return make_plan(measures, options, run_name=run_name, **kwargs)
    key = (names, run_name, tuple(sorted((k, type(v), v) for k, v in kwargs.items())))
    return _kept(key)


@lru_cache(maxsize=32)
def _kept(key: tuple[tuple[str, ...], str | None, tuple[tuple[str, type, Any], ...]]
          ) -> Plan:
    names, run_name, kwargs = key
    return make_plan(list(names), run_name=run_name, **{k: v for k, _, v in kwargs})
