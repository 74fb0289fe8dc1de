"""``ranklens.report``: evaluate, collect the numbers, write one self-contained HTML file."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any, cast

from ..._base.errors import ParameterError
from ..._base.outputs import refuse_overwriting_inputs, write_atomically
from ..._base.validate import Integer, check
from ..._ingest.io._items import load_interactions, load_item_features, load_item_groups, load_items
from ..._ingest.io._load import load_qrels
from ..._model.items import ItemContext
from ..._names import expand_trec_lists, parse_measures
from ..._pipeline.compute import relevance_level
from ..._pipeline.options import DEFAULT_MEASURES
from ..._pipeline.plan import planned
from ..._results.results import Results
from ..._version import __version__
from ..coverage import means_of, warn_order_flips
from ..evaluate import evaluate
from .beyond import beyond_measures, collect_beyond
from .collect import ReportData, collect, curve_measures, curve_rels, grade_levels
from .marks import significance_marks
from .page import page

__all__ = ["DEFAULT_MEASURES", "report", "report_data"]

#: evaluate's keywords that are not evaluation options (how it runs, not what it computes)
_NOT_PLANNED = ("run_name", "options", "memory_limit", "jobs", "columns")
#: the beyond-accuracy tables, by their keyword, and how each is read
_LOADERS: dict[str, Callable[[Any], Any]] = {"train": load_interactions, "items": load_items,
                                             "item_features": load_item_features,
                                             "item_groups": load_item_groups}



def _positive(name: str, value: int, most: int) -> int:
    check(name, value, Integer(1, most))
    return int(value)


def report(qrels: Any, runs: Any, measures: str | Iterable[str] | None = None, *,
           baseline: str | None = None, output: str | os.PathLike[str] | None = None,
           title: str = "ranklens report", max_k: int = 100, top_k: int = 10,
           test: str | None = None, correction: str | None = None, alpha: float = 0.05,
           train: Any = None, items: Any = None, item_features: Any = None,
           item_groups: Any = None, judges: Any = None,
           judges_options: Mapping[str, Any] | None = None, segments: Any = None,
           **options: Any) -> str:
    """An HTML report comparing runs: summary, curves, per-query views, judgment coverage.

    One self-contained file (no network access when viewed): the summary table with the
    conventions in force, interpolated precision-recall curves (every 0.01 and the 11
    points), P@k, R@k and nDCG@k for k = 1..``max_k``, each run's per-query difference
    with the baseline (sorted; query id on hover), per-query distributions, Judged@k, the
    grades found in the top ``top_k``, and a per-query table that sorts and filters. With
    the training interactions (``train``), a beyond-accuracy panel: each run's top
    ``top_k`` recommendations by the catalogue's popularity bands against the catalogue's
    own, and Coverage, Gini, ARP, APLT and Novelty at ``top_k``.

    Parameters
    ----------
    qrels : path, mapping, DataFrame or Qrels
        Judgments, as for :func:`ranklens.evaluate`.
    runs : a run, or several (list, tuple or ``{name: run}``)
        As for :func:`ranklens.evaluate`; several runs are compared with the baseline.
    measures : str or list of str, optional
        The measures of the summary, the per-query views and the table (default nDCG@10,
        AP, RR@10, P@10, R@100, R@1000, as on the command line). The first is the one the
        per-query charts show first.
    baseline : str, optional
        The run the others are compared with (default: the first).
    output : path, optional
        Also write the report to this file (UTF-8), whole or not at all (a temporary file
        beside it, renamed over it); it may not be one of the input files.
    title : str, default "ranklens report"
        The page's title and heading.
    max_k : int, default 100
        The largest cutoff of the metric@k and Judged@k curves (1 to 1000).
    top_k : int, default 10
        The depth of the grade panel (1 to 1000).
    test, correction, alpha : default "t", "holm" (None: not given), 0.05
        The significance test of the summary's marks (each run against the baseline), its
        multiple-testing correction and level, as for :func:`ranklens.compare` (a Tukey
        name with a different test or correction is a conflict).
    train, items, item_features, item_groups : optional
        The beyond-accuracy tables, as for :func:`ranklens.evaluate`: they serve the
        requested beyond-accuracy measures, and ``train`` adds the beyond-accuracy panel
        (``items`` is its catalogue, by default the items of ``train``).
    judges : path, mapping, DataFrame or Qrels, optional
        Another judge's labels (e.g. an LLM's): a judges section compares them with
        ``qrels`` (confusion heatmap, grade bars, and with two runs or more the scatter of
        the first measure under both and the decision table), as :func:`ranklens.judges`.
    judges_options : mapping, optional
        More keywords of :func:`ranklens.judges` (``mapping``, ``grades``, ``columns``,
        ``resamples``, ``seed``, ``confidence``); the reference is named ``qrels``'s file
        name (or ``judge1``), the other ``judges``' (or ``judge2``), unless ``names`` gives
        both, e.g. ``{"names": ("people", "llm")}``.
    segments : mapping, path or frame, optional
        Groups of queries, as :func:`ranklens.segments` takes them: two sections, each
        run's mean per group with its BCa bootstrap interval (a facet per group), and each
        group's per-query values as box plots.
    **options
        Evaluation options (``rel``, ``missing``, ``ties``, ``depth``, ``judged_only``,
        ``empty``, ``duplicates``, ``convention``, ``columns``, ...), as for
        :func:`ranklens.evaluate`.

    Returns
    -------
    str
        The HTML document.

    Raises
    ------
    ParameterError
        ``baseline`` names no run, ``max_k`` or ``top_k`` is out of range, a test option is
        invalid, or ``output`` is one of the input files or cannot be written.

    Examples
    --------
    >>> import ranklens
    >>> qrels = {"q1": {"a": 2, "b": 0}, "q2": {"c": 1}}
    >>> runs = {"x": {"q1": {"a": 1.0, "b": 0.5}, "q2": {"d": 1.0}},
    ...         "y": {"q1": {"b": 1.0, "a": 0.5}, "q2": {"c": 1.0}}}
    >>> html = ranklens.report(qrels, runs, ["nDCG@10", "AP"], max_k=10)
    >>> html.startswith("<!DOCTYPE html>"), "vegaEmbed" in html
    (True, True)
    >>> train = {"u1": ["a", "b"], "u2": ["a"], "u3": ["c"]}
    >>> html = ranklens.report({"u1": {"c": 1}}, {"x": {"u1": {"a": 2.0, "c": 1.0}}},
    ...                        ["nDCG@2"], train=train, top_k=2, max_k=2)
    >>> "Beyond accuracy" in html
    True
    """
    tables = {"train": train, "items": items, "item_features": item_features,
              "item_groups": item_groups}
    if judges is None and judges_options:
        raise ParameterError("the 'judges_options' option applies to 'judges'; give judges=")
    refuse_overwriting_inputs(output, [qrels, *_run_paths(runs), judges, segments,
                                       *(t for t in tables.values() if t is not None)],
                              option="the 'output' option")
    results, data = _evaluated(qrels, runs, measures, baseline=baseline, max_k=max_k,
                               top_k=top_k, tables=tables, **options)
    marks, note = significance_marks(results, data.baseline, data.measures, test=test,
                                     correction=correction, alpha=alpha)
    lower = {m: bool(results.measures[m].definition.lower_is_better) for m in data.measures}
    settings = {"test": test or "t", "correction": correction or "holm", "alpha": alpha,
                **(judges_options or {}),
                # the runs' headerless columns are not the judges' (judges_options has those)
                **{k: v for k, v in options.items() if k != "columns"}}
    extra = ("", {}) if judges is None else _judges(qrels, judges, runs, data.measures[0],
                                                    settings)
    if segments is not None:
        from .segments import segments_section

        html, specs = segments_section(results, data, segments)
        extra = (html + extra[0], {**specs, **extra[1]})
    text = page(data, title=title, marks=marks, marks_note=note, lower_is_better=lower,
                version=__version__, extra=extra)
    if output is not None:
        write_atomically(output, text)
    return text


def _judges(qrels: Any, other: Any, runs: Any, measure: str,
            settings: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The judges section: ``other`` against ``qrels``, the runs ordered under both."""
    from ..judges.api import _named, judges
    from ..judges.page import judges_sections

    ordered = runs if len(_run_paths(runs)) > 1 else None  # one run: nothing to order
    names = settings.pop("names", None)
    named = _named([qrels, other])
    if names is not None:
        if isinstance(names, str) or len(set(map(str, names))) != 2 or len(names) != 2:
            raise ParameterError("judges_options' 'names' must be two different names, the "
                                 f"reference's and the judge's, e.g. ('people', 'llm'); got "
                                 f"{names!r}")
        named = dict(zip(map(str, names), (qrels, other), strict=True))
    got = judges(named, ordered, measure, **settings)
    return judges_sections(got.grades, got.pairs, got.leaderboards, prefix="judges-")


def _run_paths(runs: Any) -> list[Any]:
    """The runs as given: one, a list or tuple of them, or ``{name: run}``."""
    if isinstance(runs, Mapping):
        return list(runs.values())
    return list(runs) if isinstance(runs, (list, tuple)) else [runs]


def _context(tables: Mapping[str, Any]) -> tuple[dict[str, Any], ItemContext | None]:
    """The beyond-accuracy tables loaded once (for the evaluation and the panel), and the
    panel's item context (None without training interactions: no popularity to draw)."""
    loaded = {name: None if tables.get(name) is None else load(tables[name])
              for name, load in _LOADERS.items()}
    return loaded, None if loaded["train"] is None else ItemContext.of(*loaded.values())


def _evaluated(qrels: Any, runs: Any, measures: str | Iterable[str] | None, *,
               baseline: str | None, max_k: int, top_k: int,
               tables: Mapping[str, Any] | None = None,
               **options: Any) -> tuple[Results, ReportData]:
    """Every run evaluated once on the requested measures, the curves' measures and (with
    training interactions) the beyond-accuracy panel's."""
    wanted = [measures] if isinstance(measures, str) else \
        list(measures) if measures is not None else list(DEFAULT_MEASURES)
    if not wanted:
        raise ParameterError("the 'measures' option is empty; give at least one measure")
    parse_measures(wanted)  # every bad name reported before any file is read
    # P_5,10 is P_5 and P_10, each a view of the report
    wanted = cast("list[str]", [one for m in wanted for one in expand_trec_lists(m)])
    max_k = _positive("max_k", max_k, 1000)
    top_k = _positive("top_k", top_k, 1000)
    q = load_qrels(qrels)
    levels = grade_levels(q.frame["relevance"].to_numpy())
    loaded, context = _context(tables or {})
    panel = beyond_measures(top_k) if context is not None else []
    # the curves counting relevance are drawn at each measure's own level (AP(rel=2))
    plan = planned(wanted, options.get("options"),
                   **{k: v for k, v in options.items() if k not in _NOT_PLANNED})
    base = plan.policies.rel
    rels = curve_rels([relevance_level(m, base) for m in plan.measures
                       if any(p.name == "rel" for p in m.definition.params)], base)
    extra = [m for m in [*curve_measures(max_k, top_k, levels, rels, base), *panel]
             if m not in wanted]
    evaluated = evaluate(q, runs, [*wanted, *extra], **loaded, **options)
    results = evaluated if isinstance(evaluated, Results) else Results((evaluated,))
    warn_order_flips(means_of(results), wanted)  # both forms of a measure: the coverage rule
    data = collect(results, wanted, baseline=baseline, max_k=max_k, top_k=top_k,
                   levels=levels, rels=rels, base=base)
    if context is None:
        return results, data
    return results, replace(data, beyond=collect_beyond(results, _run_paths(runs), context,
                                                        top_k))


def report_data(qrels: Any, runs: Any, measures: str | Iterable[str] | None = None, *,
                baseline: str | None = None, max_k: int = 100, top_k: int = 10,
                train: Any = None, items: Any = None, item_features: Any = None,
                item_groups: Any = None, **options: Any) -> ReportData:
    """The numbers :func:`report` draws (arguments as for :func:`report`)."""
    return _evaluated(qrels, runs, measures, baseline=baseline, max_k=max_k, top_k=top_k,
                      tables={"train": train, "items": items, "item_features": item_features,
                              "item_groups": item_groups}, **options)[1]
