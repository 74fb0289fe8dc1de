"""``ranklens.judges``: can these judgments be trusted? Agreement and leaderboard survival."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from ..._base.draws import MAX_DRAWS
from ..._base.errors import ParameterError
from ..._base.validate import Integer, Interval, check
from .labels import group_agreement, pair_agreement
from .leaderboard import Leaderboard, leaderboard
from .pairing import judged
from .report import JudgesReport

__all__ = ["JudgesReport", "judges"]


def _named(judgments: Any) -> dict[str, Any]:
    if isinstance(judgments, Mapping):
        return {str(k): v for k, v in judgments.items()}
    if isinstance(judgments, (str, os.PathLike)) or not isinstance(judgments, Sequence):
        raise ParameterError("the 'judgments' argument must be a mapping name -> qrels or a "
                             f"list of two qrels or more; got a {type(judgments).__name__}")
    from ..._ingest.io._run_names import name_runs

    names = [n or f"judge{i + 1}" for i, n in enumerate(name_runs(list(judgments)))]
    return dict(zip(names, judgments, strict=True))


def judges(judgments: Any, runs: Any = None, measure: str = "nDCG@10", *,
           grades: Sequence[int] | None = None,
           mapping: Mapping[str, Mapping[Any, Any]] | None = None,
           columns: Mapping[str, str] | None = None, resamples: int = 1000,
           seed: int = 0, confidence: float = 0.95, test: str = "t", alpha: float = 0.05,
           correction: str = "holm", **options: Any) -> JudgesReport:
    """Agreement between judges, and whether the leaderboard survives a change of judge.

    Parameters
    ----------
    judgments : mapping name -> qrels, or list of qrels
        Two sets of judgments or more, in any form :func:`ranklens.load_qrels` reads. The
        first is the reference (the people); every other is compared with it.
    runs : mapping name -> run, list of runs or paths, optional
        Systems to order under each judge's labels (two or more).
    measure : str, default "nDCG@10"
        The measure ordering the runs.
    grades : list of int, optional
        The common grade scale (default: every grade given, when the judges' top grades
        agree).
    mapping : mapping judge -> {grade: grade}, optional
        Grades to rewrite before anything is compared, e.g. ``{"llm": {4: 3}}``.
    columns : mapping judge -> str, optional
        A headerless file's columns, as :func:`ranklens.load_qrels` takes them. The TREC
        RAG 2025 participant judgment file (with confidence and tag) is
        ``"qid,_,docid,rel,_,_"``; UMBRELA's outputs are ``"umbrela:REQUESTS.jsonl"``
        (joined by position with the requests it judged).
    resamples : int, default 1000
        Bootstrap resamples over queries (0 to 1,000,000; 0: no intervals).
    seed : int, default 0
        Seed of the resamples.
    confidence : float, default 0.95
        Level of the percentile intervals.
    test, alpha, correction :
        The significance decisions, as :func:`ranklens.compare_results` takes them.
    **options :
        Evaluation options of the runs, as :func:`ranklens.evaluate` takes them.

    Returns
    -------
    JudgesReport

    Examples
    --------
    >>> import ranklens
    >>> people = {"q1": {"a": 0, "b": 1, "c": 2}, "q2": {"a": 1, "b": 2}}
    >>> llm = {"q1": {"a": 1, "b": 1, "c": 2}, "q2": {"a": 1, "b": 2, "d": 0}}
    >>> report = ranklens.judges({"people": people, "llm": llm}, resamples=0)
    >>> pair = report.pairs[0]
    >>> pair.pairs, len(pair.only_judge), pair.confusion.tolist()
    (5, 1, [[0, 1, 0], [0, 2, 0], [0, 0, 2]])
    >>> round(pair.statistics[0].value, 4)
    0.6667
    """
    named = _named(judgments)
    if len(named) < 2:
        raise ParameterError(f"agreement needs two sets of judgments or more; got {len(named)}")
    check("resamples", resamples, Integer(0, MAX_DRAWS))
    check("seed", seed, Integer(0, 2 ** 63 - 1))
    check("confidence", confidence, Interval(0, 1))
    if runs is not None:
        from ..._names import parse_measure

        parse_measure(measure)  # a bad name is told before any file is read
    labels = judged(named, None if grades is None else list(grades), mapping, columns)
    boot: dict[str, Any] = {"resamples": resamples, "seed": seed, "confidence": confidence}
    names = list(named)
    pairs = tuple(pair_agreement(labels, names[0], n, **boot) for n in names[1:])
    group = group_agreement(labels, names, **boot) if len(names) > 2 else None
    boards: tuple[Leaderboard, ...] = ()
    if runs is not None:
        from ..evaluate import evaluate

        evaluated = []
        for name in names:
            frame = labels.frames[name].select("query_id", "doc_id",
                                               relevance=pl.col("grade").cast(pl.Float64))
            got = evaluate(frame, runs, [measure], **options)
            if not hasattr(got, "run_names"):
                raise ParameterError("the 'runs' argument must hold two runs or more to "
                                     "order; got one")
            evaluated.append(got)
        compare = {"test": test, "alpha": alpha, "correction": correction}
        boards = tuple(leaderboard(evaluated[0], other, measure, (names[0], name),
                                   compare=compare, **boot)
                       for name, other in zip(names[1:], evaluated[1:], strict=True))
    return JudgesReport(tuple(names), tuple(labels.grades.tolist()), pairs, group, boards,
                        boot)
